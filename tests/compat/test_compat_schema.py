"""Schema comparison details: `$ref` resolution and pointers, recursion, depth, values; report goldens."""

from __future__ import annotations

import json
from typing import Any

from markdown_it import MarkdownIt

from tests.conftest import GOLDEN, assert_golden
from toolgen.catalog import build_catalog, contract_from_document
from toolgen.compat import ABSENT, Bump, Direction, diff_catalogs, diff_schema, render
from toolgen.compat.schema import MAX_DEPTH

IN = Direction.INPUT


def obj(props: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """An object schema."""
    return {"type": "object", "properties": props, "required": list(required), **extra}


def diff(base: Any, head: Any, direction: Direction = IN) -> list[Any]:
    """Changes between two input schemas, with `/input_schema` pointers."""
    return diff_schema(direction, base, head, "/input_schema", "/input_schema")


RANGE = obj({"start": {"type": "integer"}, "end": {"type": "integer"}}, ("start",))


def test_change_behind_a_ref_is_located_in_both_versions() -> None:
    base = obj({"range": RANGE})
    moved = obj({"start": {"type": "number"}, "end": {"type": "integer"}}, ("start",))
    head = {**obj({"range": {"$ref": "#/$defs/range"}}), "$defs": {"range": moved}}
    [change] = diff(base, head)
    assert change.rule == "TG425"
    assert change.base_pointer == "/input_schema/properties/range/properties/start/type"
    assert change.head_pointer == "/input_schema/$defs/range/properties/start/type"
    assert (change.old, change.new) == ("integer", "number")
    assert change.message == "`range.start`: type widened"


def test_messages_name_the_property_path() -> None:
    base = obj({"files": {"type": "array", "items": obj({"path": {"type": "string"}, "mode": {"type": "string"}})}})
    head = obj({"files": {"type": "array", "items": obj({"path": {"type": "string", "maxLength": 9}})}})
    assert [c.message for c in diff(base, head)] == [
        "property `files[].mode` removed",
        "`files[].path`: maxLength added",
    ]


def test_restructure_into_defs_and_a_ref_with_siblings_are_no_change() -> None:
    base = obj({"range": {**RANGE, "description": "A range."}, "name": {"type": "string"}})
    head = {
        **obj({"range": {"$ref": "#/$defs/range", "description": "A range."}, "name": {"$ref": "#/$defs/text"}}),
        "$defs": {"range": RANGE, "text": {"$ref": "#/$defs/plain"}, "plain": {"type": "string"}, "unused": {}},
    }
    assert diff(base, head) == []
    assert diff(head, base) == []


def test_a_ref_sibling_that_overlaps_the_target_keeps_both_constraints() -> None:
    base = {**obj({"n": {"$ref": "#/$defs/n", "maximum": 5}}), "$defs": {"n": {"type": "integer", "maximum": 9}}}
    head = {**obj({"n": {"$ref": "#/$defs/n", "maximum": 5}}), "$defs": {"n": {"type": "integer", "maximum": 3}}}
    [change] = diff(base, head)
    assert change.rule == "TG432" and change.head_pointer.endswith("/allOf/0/maximum")


TREE = {
    "type": "object",
    "properties": {"children": {"type": "array", "items": {"$ref": "#"}}, "label": {"type": "string"}},
}


def test_recursive_schemas_terminate_and_report_a_change_once() -> None:
    assert diff(TREE, TREE) == []
    head = json.loads(json.dumps(TREE))
    head["properties"]["label"]["maxLength"] = 10
    changes = diff(TREE, head)
    assert [(c.rule, c.head_pointer) for c in changes] == [("TG432", "/input_schema/properties/label/maxLength")]


def test_recursion_of_different_shapes_terminates() -> None:
    base = {"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "$ref": "#/$defs/node"}  # fmt: skip
    head = {"$defs": {"a": {"type": "object", "properties": {"next": {"$ref": "#/$defs/b"}}},
                      "b": {"type": "object", "properties": {"next": {"$ref": "#/$defs/a"}}}},
            "$ref": "#/$defs/a"}  # fmt: skip
    assert diff(base, head) == []


def _nested(depth: int, leaf: Any) -> Any:
    schema = leaf
    for _ in range(depth):
        schema = obj({"x": schema})
    return schema


def test_too_deep_fails_closed() -> None:
    changes = diff(_nested(MAX_DEPTH + 5, {"type": "string"}), _nested(MAX_DEPTH + 5, {"type": "integer"}))
    assert [c.rule for c in changes] == ["TG442"] and changes[0].bump is Bump.MAJOR
    shallow = diff(_nested(10, {"type": "string"}), _nested(10, {"type": "integer"}))
    assert [c.rule for c in shallow] == ["TG427"]


def test_unrelated_types_report_only_the_type_change() -> None:
    changes = diff(obj({"p": obj({"a": {"type": "string"}})}), obj({"p": {"type": "array", "items": {}}}))
    assert [c.rule for c in changes] == ["TG427"]


def test_equal_values_written_differently_are_no_change() -> None:
    base = obj({"p": {"enum": [1, 2], "maximum": 5, "type": ["null", "string"]}}, ("p",))
    head = obj({"p": {"enum": [2.0, 1], "maximum": 5.0, "type": ["string", "null"]}}, ("p",))
    assert diff(base, head) == []


def test_removed_property_carries_its_old_schema() -> None:
    [change] = diff(obj({"a": {"type": "string"}}), obj({}))
    assert change.old == {"type": "string"} and change.new is ABSENT
    assert (change.base_pointer, change.head_pointer) == ("/input_schema/properties/a", "/input_schema")


def _tool(**overrides: Any) -> Any:
    data: dict[str, Any] = {
        "name": "fetch_page",
        "version": "1.4.0",
        "description": "Fetch a web page | with `pipes` and <html> in the text.",
        "permissions": ["network"],
        "owners": ["@web"],
        "input_schema": obj({"url": {"type": "string", "format": "uri"}, "mode": {"enum": ["fast", "full"]}}, ("url",)),
        "output_schema": obj({"body": {"type": "string"}, "status": {"type": "integer"}}, ("body", "status")),
        "errors": [{"code": "BLOCKED", "description": "Blocked.", "retryable": False}],
    }
    data.update(overrides)
    return contract_from_document(data, f"contracts/{data['name']}.toml")


def _scenario() -> Any:
    base = build_catalog([_tool(), _tool(name="old_tool", version="1.0.0"), _tool(name="same_tool")])
    head_page = _tool(
        version="1.5.0",
        permissions=["network", "write"],
        input_schema=obj({"url": {"type": "string"}, "mode": {"enum": ["fast"]}}, ("url", "mode")),
        output_schema=obj({"body": {"type": ["string", "null"]}, "status": {"type": "integer"}}, ("body",)),
        errors=[{"code": "BLOCKED", "description": "Blocked.", "retryable": True}],
        description="Fetch a web page | with `pipes` and <html> in the `text`.",
    )
    head = build_catalog([head_page, _tool(name="new_tool"), _tool(name="same_tool")])
    return diff_catalogs(base, head)


def test_report_formats_match_the_golden_files(update_golden: bool) -> None:
    report = _scenario()
    for fmt, suffix in (("text", "txt"), ("json", "json"), ("markdown", "md"), ("github", "github.txt")):
        assert_golden(GOLDEN / "compat" / f"report.{suffix}", render(report, fmt), update_golden)


def test_markdown_tables_keep_their_columns_whatever_the_contract_text() -> None:
    tokens = MarkdownIt("commonmark").enable("table").parse(render(_scenario(), "markdown"))
    widths: list[int] = []
    row = 0
    for token in tokens:
        if token.type == "tr_open":
            row = 0
        elif token.type in ("th_open", "td_open"):
            row += 1
        elif token.type == "tr_close":
            widths.append(row)
        elif token.type == "html_inline":
            raise AssertionError(f"contract text became HTML: {token.content}")
    assert widths and all(w in (3, 5, 7) for w in widths)


def test_property_names_with_backticks_and_pipes_stay_whole_in_the_markdown_report() -> None:
    name = "we|ird`na`me"
    base = build_catalog([_tool(input_schema=obj({name: {"enum": ["a", "b"]}}))])
    head = build_catalog([_tool(version="2.0.0", input_schema=obj({name: {"enum": ["a"]}}, (name,)))])
    text = render(diff_catalogs(base, head), "markdown")
    cells = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "inline" and "TG" not in token.content:
            cells.append([c.content for c in token.children or () if c.type == "code_inline"])
    # "`name`: enum values removed" and "property `name` became required"
    assert sum(cell == [name] for cell in cells) == 2, text


def test_a_malformed_base_schema_fails_closed_instead_of_crashing() -> None:
    base = {"type": "object", "properties": [{"a": 1}], "required": True}
    changes = diff(base, obj({"a": {"type": "string"}}))
    assert [(c.rule, c.bump) for c in changes] == [("TG441", Bump.MAJOR)]
    assert "malformed" in changes[0].message


def test_anchor_refs_resolve_to_the_anchored_schema() -> None:
    base = {**obj({"when": {"$ref": "#stamp"}}), "$defs": {"t": {"$anchor": "stamp", "type": "integer"}}}
    head = {**obj({"when": {"$ref": "#stamp"}}), "$defs": {"t": {"$anchor": "stamp", "type": "number"}}}
    [change] = diff(base, head)
    assert (change.rule, change.head_pointer) == ("TG425", "/input_schema/$defs/t/type")
    inline = obj({"when": {"type": "integer"}})
    assert diff(inline, base) == []


def test_reordered_branches_are_no_change_and_a_moved_branch_is_compared_with_its_match() -> None:
    s, i, b = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
    assert diff(obj({"p": {"anyOf": [s, i, b]}}), obj({"p": {"anyOf": [b, s, i]}})) == []
    assert diff(obj({"p": {"oneOf": [s, i]}}), obj({"p": {"oneOf": [i, s]}})) == []
    [change] = diff(obj({"p": {"anyOf": [s, i]}}), obj({"p": {"anyOf": [{"type": "number"}, s]}}))
    assert (change.rule, change.base_pointer, change.head_pointer) == (
        "TG425",
        "/input_schema/properties/p/anyOf/1/type",
        "/input_schema/properties/p/anyOf/0/type",
    )
