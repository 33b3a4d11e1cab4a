"""Validation details the corpus does not show on its own: severity precedence, no fetching, limits."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.validate.test_validate_props import SETTINGS, _examples, document
from toolgen.config import Settings
from toolgen.diagnostics import Severity
from toolgen.validate import validate_documents
from toolgen.validate.report import MAX_MESSAGE
from toolgen.validate.schemacheck import MAX_DEPTH


def codes(data: dict[str, Any], settings: Settings = SETTINGS) -> dict[str, str]:
    return {d.code: d.severity.value for d in validate_documents([document(data)], settings)}


def base(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(_examples()[0]))
    data.update(changes)
    return data


def with_severities(**levels: str) -> Settings:
    return Settings(
        root=SETTINGS.root,
        contracts_dir=SETTINGS.contracts_dir,
        output_dir=SETTINGS.output_dir,
        rule_severities={code: Severity(level) for code, level in levels.items()},
    )


def test_base_contract_is_clean() -> None:
    assert codes(base()) == {}


def test_contract_rules_win_over_project_rules() -> None:
    data = base()
    data["input_schema"]["properties"]["text"].pop("description")
    assert codes(data) == {"TG203": "warning"}
    assert codes(data, with_severities(TG203="error")) == {"TG203": "error"}
    data["rules"] = {"TG203": "off"}
    assert codes(data, with_severities(TG203="error")) == {}
    data["rules"] = {"TG203": "error"}
    assert codes(data, with_severities(TG203="off")) == {"TG203": "error"}


def test_contract_errors_cannot_be_turned_down_by_the_project() -> None:
    assert codes(base(version="1.0"), with_severities(TG110="off")) == {"TG110": "error"}
    assert codes(base(version="1.0"), with_severities(TG110="warning")) == {"TG110": "error"}


def test_nothing_is_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("toolgen tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    data = base()
    data["input_schema"] = {
        "$id": "https://example.com/schemas/root.json",
        "type": "object",
        "additionalProperties": False,
        "$defs": {"inner": {"$id": "https://example.com/schemas/inner.json", "$ref": "#/$defs/missing"}},
        "properties": {
            "text": {"type": "string", "description": "The text."},
            "far": {"$ref": "https://example.com/schemas/far.json"},
            "rel": {"$ref": "other.json#/x"},
        },
    }
    data["examples"] = [{"input": {"text": "x", "far": 1, "rel": 2}}]
    found = validate_documents([document(data)], SETTINGS)
    pointers = {(d.code, d.pointer) for d in found}
    assert ("TG117", "/input_schema/properties/far/$ref") in pointers
    assert ("TG117", "/input_schema/properties/rel/$ref") in pointers
    assert ("TG118", "/input_schema/$defs/inner/$ref") in pointers


def test_example_with_a_ref_is_validated_through_local_defs() -> None:
    data = base()
    data["input_schema"]["$defs"] = {"short": {"type": "string", "maxLength": 3}}
    data["input_schema"]["properties"]["text"] = {"$ref": "#/$defs/short", "description": "Short text."}
    data["examples"] = [{"input": {"text": "too long"}}]
    found = validate_documents([document(data)], SETTINGS)
    assert [(d.code, d.pointer) for d in found] == [("TG119", "/examples/0/input/text")]


def test_depth_limit_is_checked_before_any_recursion() -> None:
    schema: Any = {"type": "string", "description": "Leaf."}
    for _ in range(MAX_DEPTH):
        schema = {"type": "object", "description": "Level.", "properties": {"a": schema}}
    found = validate_documents([document(base(input_schema=schema))], SETTINGS)
    assert [d.code for d in found] == ["TG127"]
    assert found[0].line == 1 and found[0].column is not None


def test_long_messages_are_cut() -> None:
    data = base()
    data["input_schema"]["properties"]["text"]["enum"] = ["x" * 3000]
    data["examples"] = [{"input": {"text": "y" * 3000}}]
    found = validate_documents([document(data)], SETTINGS)
    assert [d.code for d in found] == ["TG119"]
    assert len(found[0].message) == MAX_MESSAGE
    assert found[0].message.endswith("…")


def test_every_problem_of_every_contract_in_one_run(tmp_path: Path) -> None:
    first = base(name="first_tool", version="x", permissions=["raed"])
    second = base(name="second_tool", description=" ", examples=[{"input": {}, "output": {}, "error": {}}])
    found = validate_documents([document(first), document(second)], SETTINGS)
    by_file = {(d.file, d.code) for d in found}
    assert {("contracts/first_tool.json", "TG110"), ("contracts/first_tool.json", "TG112")} <= by_file
    assert {("contracts/second_tool.json", "TG111"), ("contracts/second_tool.json", "TG124")} <= by_file
    assert ("contracts/second_tool.json", "TG119") in by_file  # the required `text` is missing


def test_ref_cycles_are_reported_and_recursion_through_items_is_fine() -> None:
    data = base()
    data["input_schema"]["$defs"] = {
        "a": {"allOf": [{"$ref": "#/$defs/b"}]},
        "b": {"not": {"$ref": "#/$defs/a"}},
        "tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}},
    }
    data["input_schema"]["properties"]["text"] = {"$ref": "#/$defs/a", "description": "Loops."}
    data["input_schema"]["properties"]["tree"] = {"$ref": "#/$defs/tree", "description": "Nested lists."}
    data["examples"] = [{"input": {"text": "x", "tree": [[], [[]]]}}]
    found = validate_documents([document(data)], SETTINGS)
    assert [(d.code, d.pointer) for d in found] == [("TG118", "/input_schema/$defs/a/allOf/0/$ref")]
    data["input_schema"]["properties"]["text"] = {"type": "string", "description": "Plain."}
    data["input_schema"]["$defs"] = {"tree": data["input_schema"]["$defs"]["tree"]}
    assert validate_documents([document(data)], SETTINGS) == []
    data["examples"] = [{"input": {"text": "x", "tree": [[], [1]]}}]
    found = validate_documents([document(data)], SETTINGS)
    assert [(d.code, d.pointer) for d in found] == [("TG119", "/examples/0/input/tree/1/0")]


def test_short_description_counts_wide_characters_twice() -> None:
    assert codes(base(description="根据农历时间、性别来获取八字信息。")) == {}
    assert codes(base(description="Ask AI about a hub")) == {"TG201": "warning"}
    assert codes(base(description="Echo Text")) == {"TG201": "warning"}


def test_description_that_only_repeats_the_title_is_flagged() -> None:
    title = "Look up a word in the project glossary"
    assert codes(base(title=title, description=title + ".")) == {"TG201": "warning"}
    assert codes(base(title=title, description=title + " and return its definition.")) == {}


def messages(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(d.code, d.pointer, d.message) for d in validate_documents([document(data)], SETTINGS)]


def test_a_default_its_schema_refuses_is_reported_through_refs() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "n": {"$ref": "#/$defs/small", "default": 9, "description": "n"},
            "ok": {"type": "integer", "default": 1, "description": "ok"},
            "dt": {"type": "string", "format": "date", "default": "2024-02-30", "description": "d"},
        },
        "$defs": {"small": {"type": "integer", "maximum": 3}},
    }
    found = [(code, pointer) for code, pointer, _ in messages(base(input_schema=schema, examples=[]))]
    assert found == [
        ("TG214", "/input_schema/properties/n/default"),
        ("TG214", "/input_schema/properties/dt/default"),
    ]


def test_a_required_name_properties_do_not_define_is_reported_with_a_suggestion() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["wrod"],
        "properties": {"word": {"type": "string", "description": "w"}},
    }
    found = [m for m in messages(base(input_schema=schema, examples=[])) if m[0] == "TG215"]
    assert len(found) == 1 and found[0][1] == "/input_schema/required/0"
    assert "no value can satisfy" in found[0][2] and "did you mean 'word'?" in found[0][2]
    open_map = dict(schema, additionalProperties={"type": "string"})
    patterned = dict(schema, patternProperties={"^w": {"type": "string"}})
    for quiet in (open_map, patterned):
        assert "TG215" not in codes(base(input_schema=quiet, examples=[]))
