"""Source positions: RFC 6901 pointers map to the line and column of the key, header or element."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.positions import escape, join, locator_for, parent

TOML = '''#:schema ../generated/contract.schema.json
name = "read_file"   # a comment with = and [brackets]
description = """
A multi-line string that mentions
[input_schema] and key = "value" and ""quotes""
"""
literal = \'\'\'C:\\path [x] = 1\'\'\'
"quoted key" = 1
a.b."c.d" = 2
when = 1979-05-27 07:32:00
permissions = [
  "read",   # first
  "write",
]

[input_schema]
type = "object"

[input_schema.properties.path]
type = "string"

[[errors]]
code = "NOT_FOUND"

[[errors]]
code = "BINARY_FILE"
retryable = false

[[examples]]
input = { path = "src/app.py", nested = { deep = [1, { x = 2 }] } }

[examples.output]
content = "text"

[[examples]]
input = {}
error = { code = "NOT_FOUND", message = "No file" }
'''


def where(text: str, fmt: str, pointer: str) -> tuple[int | None, int | None]:
    return locator_for(text, fmt)(pointer)


def at(text: str, line: int | None, column: int | None, width: int) -> str:
    assert line is not None and column is not None
    return text.split("\n")[line - 1][column - 1 : column - 1 + width]


def test_toml_positions_of_keys_tables_and_inline_values() -> None:
    expected = {
        "/name": (2, 1),
        "/description": (3, 1),
        "/literal": (7, 1),
        "/quoted key": (8, 1),
        "/a": (9, 1),
        "/a/b": (9, 3),
        "/a/b/c.d": (9, 5),
        "/when": (10, 1),
        "/permissions": (11, 1),
        "/permissions/0": (12, 3),
        "/permissions/1": (13, 3),
        "/input_schema": (16, 2),
        "/input_schema/type": (17, 1),
        "/input_schema/properties/path": (19, 26),
        "/input_schema/properties/path/type": (20, 1),
        "/errors": (22, 3),
        "/errors/0": (22, 1),
        "/errors/0/code": (23, 1),
        "/errors/1": (25, 1),
        "/errors/1/retryable": (27, 1),
        "/examples/0": (29, 1),
        "/examples/0/input": (30, 1),
        "/examples/0/input/path": (30, 11),
        "/examples/0/input/nested/deep": (30, 43),
        "/examples/0/input/nested/deep/1": (30, 54),
        "/examples/0/input/nested/deep/1/x": (30, 56),
        "/examples/0/output": (32, 11),
        "/examples/0/output/content": (33, 1),
        "/examples/1": (35, 1),
        "/examples/1/error/message": (37, 31),
    }
    tomllib.loads(TOML)  # the fixture is valid TOML
    locate = locator_for(TOML, "toml")
    assert {p: locate(p) for p in expected} == expected


def test_missing_pointer_falls_back_to_nearest_ancestor() -> None:
    locate = locator_for(TOML, "toml")
    assert locate("/errors/1/description") == locate("/errors/1")
    assert locate("/input_schema/properties/nope/type") == locate("/input_schema/properties")


def test_json_positions_are_exact() -> None:
    data = {"name": "x", "a/b": {"t~": [1, {"k": "v"}]}, "é": "ü", 'esc"aped': [[], {}]}
    text = json.dumps(data, indent=2, ensure_ascii=False)
    locate = locator_for(text, "json")
    assert locate("") == (1, 1)
    assert at(text, *locate("/name"), 6) == '"name"'
    assert at(text, *locate("/a~1b/t~0"), 4) == '"t~"'
    assert at(text, *locate("/a~1b/t~0/1/k"), 3) == '"k"'
    assert at(text, *locate("/a~1b/t~0/0"), 1) == "1"
    assert at(text, *locate("/é"), 3) == '"é"'
    assert at(text, *locate('/esc"aped/1'), 2) == "{}"


def test_unparseable_text_gives_unknown_positions_instead_of_raising() -> None:
    assert locator_for("{ not json", "json")("/a") in ((1, 1), (None, None))
    assert locator_for("x = [1, \n", "toml")("/x/0")[0] in (1, 2, None)


def test_pointer_helpers() -> None:
    assert escape("a/b~c") == "a~1b~0c"
    assert join("/a", "b/c", 0) == "/a/b~1c/0"
    assert parent("/a/b") == "/a"
    assert parent("/a") == ""
    assert parent("") == ""


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=12,
)


def pointers(value: Any, pointer: str = "") -> list[tuple[str, Any, str | None]]:
    """Every pointer in the value, with the value there and its key (None for array items)."""
    out: list[tuple[str, Any, str | None]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((join(pointer, key), item, key))
            out.extend(pointers(item, join(pointer, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.append((join(pointer, index), item, None))
            out.extend(pointers(item, join(pointer, index)))
    return out


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=4), json_values, max_size=4), st.sampled_from([None, 2]))
def test_every_json_pointer_points_at_its_key_or_value(data: dict[str, Any], indent: int | None) -> None:
    text = json.dumps(data, indent=indent, ensure_ascii=bool(indent))
    locate = locator_for(text, "json")
    lines = text.split("\n")
    for pointer, value, key in pointers(data):
        line, column = locate(pointer)
        assert line is not None and column is not None
        rest = lines[line - 1][column - 1 :]
        token = (
            json.dumps(key, ensure_ascii=bool(indent))
            if key is not None
            else json.dumps(value, indent=indent, ensure_ascii=bool(indent)).split("\n")[0]
        )
        assert rest.startswith(token), (pointer, rest, token)


def test_toml_root_is_located_at_the_first_key_not_the_schema_comment() -> None:
    locate = locator_for(TOML, "toml")
    assert locate("") == (2, 1)
    assert locate("/version") == (2, 1)  # a missing key is reported where the contract starts


def _toml_key(key: str) -> str:
    return key if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key) else json.dumps(key)


def _toml_inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[\n  " + ",\n  ".join(_toml_inline(v) for v in value) + ",\n]" if value else "[]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)


def _toml_table(value: dict[str, Any], path: list[str]) -> list[str]:
    """Scalars and arrays first, then sub-tables as [headers] and arrays of tables as [[headers]]."""
    lines = [f"{_toml_key(k)} = {_toml_inline(v)}" for k, v in value.items() if not _is_table(v) and not _is_aot(v)]
    for key, sub in value.items():
        header = ".".join(_toml_key(p) for p in [*path, key])
        if _is_table(sub):
            lines += ["", f"[{header}]", *_toml_table(sub, [*path, key])]
        elif _is_aot(sub):
            for entry in sub:
                lines += ["", f"[[{header}]]", *_toml_table(entry, [*path, key])]
    return lines


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _is_aot(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


toml_keys = st.text(alphabet="ab_ .é-", min_size=1, max_size=4)
toml_values = st.recursive(
    st.booleans() | st.integers(-5, 5) | st.text(alphabet="xy =[]#\"'", max_size=4),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(toml_keys, c, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(toml_keys, toml_values, max_size=4))
def test_every_toml_pointer_points_at_its_key_header_or_element(data: dict[str, Any]) -> None:
    text = "# comment\n" + "\n".join(_toml_table(data, [])) + "\n"
    assert tomllib.loads(text) == data
    locate = locator_for(text, "toml")
    lines = text.split("\n")
    for pointer, value, key in pointers(data):
        line, column = locate(pointer)
        assert line is not None and column is not None, pointer
        rest = lines[line - 1][column - 1 :]
        if key is not None:
            assert rest.startswith(_toml_key(key)), (pointer, rest)
        elif isinstance(value, dict) and rest.startswith("[["):
            continue  # an array-of-tables entry is located at its [[header]]
        else:
            assert rest.startswith(_toml_inline(value).split("\n")[0]), (pointer, rest)


def test_repeated_json_key_is_located_at_the_occurrence_json_keeps() -> None:
    from toolgen.positions import json_duplicates

    text = '{"a": {"x": 1, "y": [1, 2]},\n "b": {"a": 0, "a": 1},\n "a": {"x": 2}}'
    locate = locator_for(text, "json")
    assert locate("/a") == (3, 2)
    assert locate("/a/x") == (3, 8)
    assert locate("/a/y/1") == (3, 2)  # gone with the first "a": its nearest ancestor
    assert locate("/b/a") == (2, 16)
    assert json_duplicates(text) == [("/b/a", 2, 16), ("/a", 3, 2)]
    assert json_duplicates('{"a": {"k": 1}, "b": {"k": 2}}') == []
