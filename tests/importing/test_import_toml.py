"""The TOML writer import uses: what it writes, tomllib reads back as the same data."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolgen.importing.tomlemit import TomlEmitError, dumps, key, string

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
SCALARS = (
    st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=25,
)
DOCUMENTS = st.dictionaries(TEXT, VALUES, max_size=6)


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS)
@example({"0\n": []})  # found by this test: a bare key may not end in a newline (`$` matches before one)
def test_round_trip(document: dict[str, Any]) -> None:
    assert tomllib.loads(dumps(document)) == document


@pytest.mark.parametrize(
    "text",
    ["plain", 'quote " and \\ backslash', "tab\tnew\nline\r\n", "\x00\x01\x1f\x7f", '"""', 'ends with "', "\u2028ü中"],
)
def test_strings_round_trip_inline_and_multiline(text: str) -> None:
    document = {"s": text, "nested": {"s": text}, "inline": [{"s": text}], "tables": [{"s": text}, {"t": text}]}
    assert tomllib.loads(dumps(document)) == document


def test_layout_is_readable_tables_and_arrays_of_tables() -> None:
    document = {
        "name": "x",
        "description": "Two\nlines",
        "input_schema": {"type": "object", "properties": {"a b": {"type": "string"}, "c": {}}},
        "errors": [{"code": "E", "retryable": False}],
        "examples": [{"input": {"q": 1}}],
    }
    assert dumps(document) == (
        'name = "x"\n'
        'description = """\nTwo\nlines"""\n'
        "\n[input_schema]\n"
        'type = "object"\n'
        "\n[input_schema.properties]\n"
        "c = {}\n"
        '\n[input_schema.properties."a b"]\n'
        'type = "string"\n'
        "\n[[errors]]\n"
        'code = "E"\n'
        "retryable = false\n"
        "\n[[examples]]\n"
        "\n[examples.input]\n"
        "q = 1\n"
    )


@pytest.mark.parametrize("value", [None, 2**64, [1, None], {"a": None}])
def test_values_toml_cannot_hold_raise(value: Any) -> None:
    with pytest.raises(TomlEmitError):
        dumps({"v": value})


def test_keys_and_strings() -> None:
    assert key("plain_key-1") == "plain_key-1"
    assert key("") == '""'
    assert key("a.b") == '"a.b"'
    assert key("0\n") == '"0\\n"'
    assert string("é\x7f") == '"é\\u007F"'
