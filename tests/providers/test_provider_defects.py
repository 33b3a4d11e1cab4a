"""One test per defect of issue 14 (provider declarations the APIs would refuse or misread).

Each builds the repro from the issue in memory and checks the declaration against the rule in
../shared/PROVIDERS.md "Corrections, 2026-12-01" with the independent checkers (tests/providers/checkers.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.providers import checkers
from tests.providers_support import catalog_of, make_contract, settings, strict_problems
from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic
from toolgen.render import providers


def project(tmp_path: Path, *contracts: Contract, anthropic_strict: bool = False) -> tuple[Any, list[Diagnostic]]:
    result = providers.project(catalog_of(*contracts), settings(tmp_path, anthropic_strict=anthropic_strict))
    return {p.file: p.tools for p in result.payloads}, list(result.diagnostics)


def notes(tmp_path: Path, contract: Contract, *, anthropic_strict: bool = False) -> tuple[str, ...]:
    return providers.provider_notes(catalog_of(contract), settings(tmp_path, anthropic_strict=anthropic_strict))[
        contract.name
    ]


CHART = {
    "type": "object",
    "required": ["to"],
    "properties": {
        "from": {"type": "string", "description": "Start of the range."},
        "to": {"$ref": "#/properties/from", "description": "End of the range."},
    },
}
"""The mcp-server-chart shape: a required property referring to an optional one."""


def test_ref_into_properties_is_moved_to_defs_and_required_stays_required(tmp_path: Path) -> None:
    files, diagnostics = project(tmp_path, make_contract("chart", CHART))
    function = files["openai_chat.json"]["chart"]["function"]
    assert function["strict"] is True
    schema = function["parameters"]
    assert strict_problems(schema) == []
    refs = [n["$ref"] for n in _nodes(schema) if "$ref" in n]
    assert refs and all(r.startswith("#/$defs/") for r in refs)
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"from": None, "to": "b"})
    assert not validator.is_valid({"from": "a", "to": None})  # `to` is required: null is not "not given"
    assert not [d for d in diagnostics if d.code == "TG301"]


def _nodes(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(n for v in node.values() for n in _nodes(v))]
    if isinstance(node, list):
        return [n for v in node for n in _nodes(v)]
    return []


WORD = {
    "type": "object",
    "required": ["word"],
    "additionalProperties": False,
    "properties": {"word": {"type": "string", "pattern": "^(?!the$)[a-z]+$", "description": "A word."}},
}


def test_lookaround_pattern_moves_to_the_description_in_strict_modes(tmp_path: Path) -> None:
    contract = make_contract("lookup", WORD)
    files, _ = project(tmp_path, contract, anthropic_strict=True)
    for declared in (files["openai_chat.json"]["lookup"]["function"], files["anthropic.json"]["lookup"]):
        assert declared["strict"] is True
        schema = declared.get("parameters") or declared["input_schema"]
        word = schema["properties"]["word"]
        assert "pattern" not in word
        assert "^(?!the$)[a-z]+$" in word["description"]
    said = notes(tmp_path, contract, anthropic_strict=True)
    assert any(n.startswith("OpenAI:") and "lookaround" in n for n in said), said
    assert any(n.startswith("Anthropic:") and "lookaround" in n for n in said), said
    # MCP and Gemini keep the pattern as written (MCP takes every keyword; Gemini moves it for its own reason)
    assert files["mcp.json"]["lookup"]["inputSchema"]["properties"]["word"]["pattern"] == "^(?!the$)[a-z]+$"


def test_object_without_properties_gets_empty_properties_in_both_openai_files(tmp_path: Path) -> None:
    files, _ = project(tmp_path, make_contract("ping", {"type": "object"}))
    assert files["openai_chat.json"]["ping"]["function"]["parameters"]["properties"] == {}
    assert files["openai_responses.json"]["ping"]["parameters"]["properties"] == {}
    nested = {"type": "object", "properties": {"meta": {"type": "object", "description": "Anything."}}}
    files, _ = project(tmp_path, make_contract("tag", nested))
    for declared in (files["openai_chat.json"]["tag"]["function"], files["openai_responses.json"]["tag"]):
        assert declared["parameters"]["properties"]["meta"]["properties"] == {}


ALL_OF = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "range": {
            "allOf": [
                {"type": "object", "properties": {"start": {"type": "integer"}}, "required": ["start"]},
                {"type": "object", "properties": {"end": {"type": "integer"}}, "required": ["end"]},
            ]
        }
    },
}


def test_anthropic_strict_takes_a_mergeable_multi_branch_all_of(tmp_path: Path) -> None:
    files, diagnostics = project(tmp_path, make_contract("span", ALL_OF), anthropic_strict=True)
    declared = files["anthropic.json"]["span"]
    assert declared["strict"] is True, [d.message for d in diagnostics]
    merged = declared["input_schema"]["properties"]["range"]
    assert merged["required"] == ["start", "end"]
    assert Draft202012Validator(declared["input_schema"]).is_valid({"range": {"start": 1, "end": 2}})


def test_an_all_of_that_cannot_be_merged_names_the_real_cause(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "$defs": {"base": {"type": "object", "properties": {"id": {"type": "integer"}}}},
        "properties": {"item": {"allOf": [{"$ref": "#/$defs/base"}, {"required": ["id"]}]}},
    }
    _, diagnostics = project(tmp_path, make_contract("thing", schema), anthropic_strict=True)
    anthropic = [d.message for d in diagnostics if d.code == "TG307"]
    assert anthropic and all("no type" not in m for m in anthropic), anthropic
    assert any("allOf together with $ref" in m for m in anthropic), anthropic
    openai = [d.message for d in diagnostics if d.code == "TG301"]
    assert openai and all("no type" not in m for m in openai), openai


def test_gemini_decides_per_keyword_from_its_documented_subset(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "word": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$", "default": "a"},
            "mode": {"type": "string", "not": {"enum": ["off"]}},
            "span": ALL_OF["properties"]["range"],  # type: ignore[index]
            "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "level": {"type": "integer", "enum": [0, 1, 2]},
        },
    }
    contract = make_contract("word_tool", schema)
    files, diagnostics = project(tmp_path, contract)
    gemini = files["gemini.json"]["word_tool"]["parametersJsonSchema"]["properties"]
    assert set(gemini["word"]) == {"type", "description"}
    said = "At least 2 characters. Matches the regular expression `^[a-z]+$`. Default: `\"a\"`."
    assert said in gemini["word"]["description"]
    assert "not" not in gemini["mode"] and "Not (one of `\"off\"`)." in gemini["mode"]["description"]
    assert gemini["span"]["required"] == ["start", "end"] and "allOf" not in gemini["span"]
    assert "oneOf" in gemini["pick"]  # documented: kept
    assert gemini["level"]["enum"] == [0, 1, 2]
    warned = [(d.code, d.pointer) for d in diagnostics if d.message.startswith("Gemini")]
    assert warned == [("TG309", "/input_schema/properties/mode/not")]
    said = notes(tmp_path, contract)
    assert any(n.startswith("Gemini: does not document minLength, pattern, default") for n in said), said


def test_mcp_keeps_x_mcp_header_and_takes_icons_and_meta(tmp_path: Path) -> None:
    from mcp_types import _v2026_07_28 as wire

    schema = {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region", "x-sensitive": True},
            "weight": {"type": "number", "x-mcp-header": "Weight"},
        },
    }
    icons = [{"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48"]}]
    contract = make_contract("route", schema, providers={"icons": icons, "_meta": {"team": "geo"}})
    files, diagnostics = project(tmp_path, contract)
    tool = files["mcp.json"]["route"]
    assert tool["inputSchema"]["properties"]["region"] == {"type": "string", "x-mcp-header": "Region"}
    assert "x-mcp-header" not in tool["inputSchema"]["properties"]["weight"]
    assert [(d.code, d.pointer) for d in diagnostics] == [("TG311", "/input_schema/properties/weight/x-mcp-header")]
    assert tool["icons"] == icons and tool["_meta"] == {"team": "geo"}
    assert "annotations" in set(tool) and len(tool["annotations"]) == 4
    assert "title" not in tool  # none made up from the name (issue 29)
    wire.Tool.model_validate(tool)
    assert "x-mcp-header" not in json.dumps(files["openai_chat.json"]["route"])


def test_defer_loading_namespace_and_cache_control_match_the_sdk_types(tmp_path: Path) -> None:
    import anthropic.types
    from openai.types.responses import NamespaceToolParam
    from pydantic import TypeAdapter

    from toolgen.config import Settings

    first = make_contract("alpha", WORD, providers={"defer_loading": True, "namespace": "words"})
    second = make_contract("beta", WORD, providers={"namespace": "nowhere"})
    configured = Settings(
        root=tmp_path,
        contracts_dir=tmp_path / "contracts",
        output_dir=tmp_path / "generated",
        providers={
            "namespaces": {"words": "Word tools."},
            "anthropic_cache_control": {"type": "ephemeral", "ttl": "1h"},
        },
    )
    result = providers.project(catalog_of(first, second), configured)
    files = {p.file: p.document for p in result.payloads}
    responses = files["openai_responses.json"]
    assert [t["type"] for t in responses] == ["namespace", "function"]
    TypeAdapter(NamespaceToolParam).validate_python(responses[0])
    assert responses[0]["tools"][0]["defer_loading"] is True and "_toolgen_namespace" not in json.dumps(files)
    assert [(d.code, d.file) for d in result.diagnostics] == [("TG310", "contracts/beta.json")]
    claude = files["anthropic.json"]
    assert claude[0]["defer_loading"] is True and "cache_control" not in claude[0]
    assert claude[-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    for tool in claude:
        TypeAdapter(anthropic.types.ToolParam).validate_python(tool)
    assert checkers.all_files(files) == []


def test_a_bad_providers_table_is_a_clear_error(tmp_path: Path) -> None:
    from toolgen.config import load_settings
    from toolgen.pipeline.stages import generate

    (tmp_path / "contracts").mkdir()
    contract = {"name": "ping", "version": "1.0.0", "description": "Ping.", "permissions": [], "input_schema": WORD}
    contract["providers"] = {"exclude": ["openai"], "defer_loading": "yes"}
    (tmp_path / "contracts" / "ping.json").write_text(json.dumps(contract), encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text('[providers]\nanthropic_cache_control = { type = "forever" }\n')
    found, problems = load_settings(tmp_path)
    assert [(d.code, d.file, d.pointer) for d in problems] == [
        ("TG100", "toolgen.toml", "/providers/anthropic_cache_control/type")
    ]
    (tmp_path / "toolgen.toml").write_text('targets = ["providers"]\n')
    found, problems = load_settings(tmp_path)
    result = generate(found)
    assert not result.ok
    errors = sorted((d.code, d.file, d.pointer) for d in result.diagnostics if d.is_error)
    assert errors == [
        ("TG106", "contracts/ping.json", "/providers/defer_loading"),
        ("TG106", "contracts/ping.json", "/providers/exclude/0"),
    ]
    assert not (tmp_path / "generated").exists()


def test_a_ref_that_cannot_point_at_defs_falls_back_to_non_strict(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "parent": {"$ref": "#"}},
        "definitions": {"unused": {"type": "string"}},
    }
    files, diagnostics = project(tmp_path, make_contract("node", schema))
    assert files["openai_chat.json"]["node"]["function"]["strict"] is False
    reasons = [d.message for d in diagnostics if d.code == "TG301"]
    assert any("$ref (#) that is not a root $defs entry" in m for m in reasons), reasons


def test_definitions_move_into_defs_for_strict_mode(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"$ref": "#/definitions/word"}},
        "definitions": {"word": {"type": "string"}},
    }
    files, _ = project(tmp_path, make_contract("defs", schema))
    parameters = files["openai_chat.json"]["defs"]["function"]["parameters"]
    assert parameters["properties"]["a"] == {"$ref": "#/$defs/word"}
    assert "definitions" not in parameters and strict_problems(parameters) == []


def test_a_refused_keyword_is_the_only_reason_given_for_its_place(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"type": "object", "properties": {"a": {"type": "string"}}, "if": {"required": ["a"]}}},
    }
    _, diagnostics = project(tmp_path, make_contract("cond", schema))
    reasons = [d.message for d in diagnostics if d.code == "TG301"]
    assert len(reasons) == 1 and "uses if, which OpenAI strict mode does not support" in reasons[0], reasons


@pytest.mark.slow
def test_importing_a_150_tool_mcp_catalog_builds_with_a_count_warning(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from toolgen.cli import main

    (tmp_path / "contracts").mkdir()
    (tmp_path / "toolgen.toml").write_text('targets = ["providers"]\n', encoding="utf-8")
    tools = [
        {"name": f"tool_{i:03}", "description": f"Tool number {i}.", "inputSchema": {"type": "object"}}
        for i in range(150)
    ]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    runner = CliRunner()
    imported = runner.invoke(main, ["-C", str(tmp_path), "import", str(tmp_path / "tools.json"), "--from", "mcp"])
    assert imported.exit_code == 0, imported.output
    built = runner.invoke(main, ["-C", str(tmp_path), "build"])
    assert built.exit_code == 0, built.output
    assert "TG305 (warning) OpenAI: tool `tool_128` is tool 129 of the 150 in openai_chat.json" in built.stderr
    chat = json.loads((tmp_path / "generated" / "providers" / "openai_chat.json").read_text(encoding="utf-8"))
    assert len(chat) == 150 and all(t["function"]["parameters"]["properties"] == {} for t in chat)


def test_gemini_says_why_an_all_of_stays_unmerged(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"allOf": [{"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 5}]}},
    }
    files, diagnostics = project(tmp_path, make_contract("bounded", schema))
    [warning] = [d for d in diagnostics if d.code == "TG309"]
    assert "cannot be merged: two branches of allOf give `minimum` different values" in warning.message
    n = files["gemini.json"]["bounded"]["parametersJsonSchema"]["properties"]["n"]
    assert "allOf" not in n and "at least 5" in n["description"]


def test_the_contract_format_schema_describes_the_providers_table_as_validation_checks_it() -> None:
    from toolgen import formatschema, provideroptions

    shipped = json.loads(formatschema.schema_text())["properties"]["providers"]
    assert shipped == json.loads(json.dumps(provideroptions.CONTRACT_SCHEMA))


def test_anthropic_strict_keeps_an_all_of_of_plain_constraints_and_merges_differing_descriptions(
    tmp_path: Path,
) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "code": {"allOf": [{"type": "string", "pattern": "^[A-Z]"}, {"type": "string", "pattern": "[0-9]$"}]},
            "span": {
                "allOf": [
                    {"type": "object", "description": "Start.", "properties": {"start": {"type": "integer"}}},
                    {"type": "object", "description": "End.", "properties": {"end": {"type": "integer"}}},
                ]
            },
        },
    }
    files, diagnostics = project(tmp_path, make_contract("codes", schema), anthropic_strict=True)
    declared = files["anthropic.json"]["codes"]
    assert declared["strict"] is True, [d.message for d in diagnostics]
    properties = declared["input_schema"]["properties"]
    assert [b["pattern"] for b in properties["code"]["allOf"]] == ["^[A-Z]", "[0-9]$"]
    assert properties["span"]["description"] == "Start.\n\nEnd." and set(properties["span"]["properties"]) == {
        "start",
        "end",
    }
    assert checkers.anthropic(declared) == []
