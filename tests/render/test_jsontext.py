"""`jsontext.dumps` writes the bytes of `json.dumps(indent=2, ensure_ascii=False)`, a piece at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.render import jsontext

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def _reference(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


@given(JSON)
@settings(max_examples=300, deadline=None)
def test_equals_json_dumps(document: Any) -> None:
    assert jsontext.dumps(document) == _reference(document)


@pytest.mark.parametrize(
    "document",
    [
        [],
        {},
        {"tools": []},
        [{"functionDeclarations": []}],
        {"a": {"b": {"c": [1, {"d": "line\nbreak ü \u2028"}]}}, "e": []},
        [[[[]]], {"": None}],
    ],
)
def test_edge_documents(document: Any) -> None:
    assert jsontext.dumps(document) == _reference(document)


def test_iterators_stand_for_lists_and_are_read_once() -> None:
    made: list[int] = []

    def tools() -> Any:
        for index in range(3):
            made.append(index)
            yield {"name": f"t{index}", "schema": {"type": "object", "properties": {}}}

    document = {"head": 1, "tools": tools()}
    text = jsontext.dumps(document)
    assert made == [0, 1, 2]
    assert text == _reference(
        {"head": 1, "tools": [{"name": f"t{i}", "schema": {"type": "object", "properties": {}}} for i in range(3)]}
    )
    assert jsontext.dumps({"tools": iter(())}) == _reference({"tools": []})


@given(JSON, st.integers(min_value=0, max_value=3))
@settings(max_examples=200, deadline=None)
def test_encoded_members_are_placed_as_json_would_write_them(document: Any, depth: int) -> None:
    """A member given already encoded (`Raw`, as the providers' cached tool entries are) comes out
    as if it had been encoded in place, at any depth."""

    def encode_some(value: Any, level: int) -> Any:
        if isinstance(value, list):
            return [jsontext.encode(v) if level >= depth else encode_some(v, level + 1) for v in value]
        if isinstance(value, dict):
            return {k: jsontext.encode(v) if level >= depth else encode_some(v, level + 1) for k, v in value.items()}
        return value

    assert jsontext.dumps(encode_some(document, 0)) == _reference(document)
    assert jsontext.dumps([{"tools": [jsontext.encode({"a": [1, 2]})]}]) == _reference([{"tools": [{"a": [1, 2]}]}])


def test_non_text_keys_are_refused() -> None:
    with pytest.raises(TypeError, match="keys must be text"):
        jsontext.dumps({1: "a"})
