"""`pyliteral` and `pyblock` write what their first, plain forms wrote: the whole literal at every
level of nesting, exploded where it does not fit. The fast forms stop writing a flat literal once it
is longer than its line, and test exact types before the slower `isinstance` against an ABC."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.frozen import freeze
from toolgen.render.python_layout import LAYOUT_WIDTH, pyblock, pyliteral

TEXT = st.text(alphabet=st.sampled_from("ab'\"\\\n ü漢\u2028"), max_size=30)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5),
    max_leaves=60,
)


def _plain_literal(value: object) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_plain_literal(str(k))}: {_plain_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_plain_literal(v) for v in value) + "]"
    if isinstance(value, str):
        text = repr(value)
        return '"' + text[1:-1] + '"' if text[0] == "'" and '"' not in value else text
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    raise TypeError(f"not JSON data: {type(value).__name__}")


def _plain_block(value: object, indent: int = 0) -> str:
    flat = _plain_literal(value)
    if indent + len(flat) <= LAYOUT_WIDTH or not isinstance(value, Mapping | list | tuple) or not value:
        return flat
    pad = " " * (indent + 4)
    if isinstance(value, Mapping):
        items = [f"{pad}{_plain_literal(str(k))}: {_plain_block(v, indent + 4)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{_plain_block(v, indent + 4)}," for v in value]
    return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"


@given(JSON, st.integers(min_value=0, max_value=96))
@settings(max_examples=200, deadline=None)
def test_block_and_literal_equal_the_plain_forms(value: Any, indent: int) -> None:
    for form in (value, freeze(value)):
        assert pyliteral(form) == _plain_literal(form)
        assert pyblock(form, indent) == _plain_block(form, indent)


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_a_literal_at_the_width_stays_flat_and_one_past_it_explodes(extra: int) -> None:
    filler = "x" * (LAYOUT_WIDTH - len('{"k": [""]}') + extra)
    value = {"k": [filler]}
    block = pyblock(value)
    assert block == _plain_block(value)
    assert ("\n" in block) is (extra > 0)


def test_a_mapping_of_any_kind_and_a_str_subclass_are_json_data() -> None:
    class Name(str):
        pass

    value = MappingProxyType({"a": (Name("b"), 1.5, None, True)})
    assert pyliteral(value) == '{"a": ["b", 1.5, None, True]}'
    assert pyblock(value) == pyliteral(value)


def test_what_is_not_json_data_is_refused_even_deep_in_an_exploded_block() -> None:
    value = {"long": "y" * LAYOUT_WIDTH, "bad": [object()]}
    with pytest.raises(TypeError, match="not JSON data: object"):
        pyblock(value)
    with pytest.raises(TypeError, match="not JSON data: object"):
        pyliteral(value)
