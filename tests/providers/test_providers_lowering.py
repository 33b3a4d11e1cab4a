"""One test per lowering rule, each on a real tool schema from the shared corpora that needs the rule.

Licence-clean records are copied in tests/data/providers (see its NOTICE.md); third-party captures
are read from the shared corpora folder at test time. Where no record in the corpora has the shape
a rule handles (a root `oneOf`), the test says so and uses the shape PROVIDERS.md reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.providers_support import (
    annotation_keys,
    catalog_of,
    check_all,
    clean_record,
    make_contract,
    schema_of,
    settings,
    shared_record,
    strict_problems,
)
from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.render import providers
from toolgen.render.providers.lower import RefError, flatten_root, inline_refs

LIVE = "icip-cas/LiveMCPBench"


def project(tmp_path: Path, *contracts: Contract, anthropic_strict: bool = False) -> tuple[Any, list[Diagnostic]]:
    """Project contracts; return `{file: {tool: declaration}}` and the diagnostics."""
    result = providers.project(catalog_of(*contracts), settings(tmp_path, anthropic_strict=anthropic_strict))
    files = {p.file: p.tools for p in result.payloads}
    return files, list(result.diagnostics)


def record_contract(record: dict[str, Any], name: str, **extra: Any) -> Contract:
    """A contract carrying a corpus record's description and schemas."""
    output = record.get("outputSchema")
    if output is not None:
        extra.setdefault("output_schema", output)
    return make_contract(name, schema_of(record), description=record["description"], **extra)


@pytest.mark.corpus  # a third-party capture, read from the corpora, never copied
def test_x_annotations_are_removed_everywhere(tmp_path: Path) -> None:
    record = shared_record("mcp_tools.jsonl", "random_int", LIVE)
    assert "x-fastmcp-wrap-result" in record["outputSchema"]
    files, _ = project(tmp_path, record_contract(record, "random_int"))
    assert annotation_keys(files["mcp.json"]["random_int"]["outputSchema"]) == []
    assert annotation_keys(files["gemini.json"]["random_int"]["responseJsonSchema"]) == []
    assert files["mcp.json"]["random_int"]["outputSchema"]["properties"] == record["outputSchema"]["properties"]


def test_openai_strict_requires_every_property_and_makes_optional_ones_nullable(tmp_path: Path) -> None:
    record = clean_record("list_issues")
    files, diagnostics = project(tmp_path, record_contract(record, "list_issues"))
    tool = files["openai_chat.json"]["list_issues"]["function"]
    assert tool["strict"] is True
    assert strict_problems(tool["parameters"]) == []
    assert [d for d in diagnostics if d.code == "TG301"] == []
    optional = [n for n in schema_of(record)["properties"] if n not in schema_of(record)["required"]]
    assert optional
    nulls = {"owner": "o", "repo": "r", **dict.fromkeys(optional)}
    assert not list(Draft202012Validator(tool["parameters"]).iter_errors(nulls))
    assert list(Draft202012Validator(tool["parameters"]).iter_errors({"owner": "o", "repo": "r"}))


def test_openai_one_of_becomes_any_of(tmp_path: Path) -> None:
    record = clean_record("update_issue_labels")
    assert "oneOf" in schema_of(record)["properties"]["labels"]["items"]
    files, _ = project(tmp_path, record_contract(record, "update_issue_labels"))
    tool = files["openai_responses.json"]["update_issue_labels"]
    assert tool["strict"] is True
    items = tool["parameters"]["properties"]["labels"]["items"]
    assert "oneOf" not in items
    assert len(items["anyOf"]) == 2
    assert items["anyOf"][1]["additionalProperties"] is False
    assert strict_problems(tool["parameters"]) == []


def test_openai_strict_states_unsupported_keywords_in_the_description(tmp_path: Path) -> None:
    record = clean_record("fetch")
    files, _ = project(tmp_path, record_contract(record, "fetch"))
    parameters = files["openai_chat.json"]["fetch"]["function"]["parameters"]
    url, max_length = parameters["properties"]["url"], parameters["properties"]["max_length"]
    assert "format" not in url
    assert "format: uri" in url["description"]
    assert "default" not in max_length
    assert "Default: 5000." in max_length["description"]  # OpenAI keeps the `key: value` form; Gemini has sentences
    assert max_length["exclusiveMinimum"] == 0
    assert strict_problems(parameters) == []


def test_openai_free_form_map_falls_back_to_non_strict_with_a_warning(tmp_path: Path) -> None:
    record = clean_record("actions_run_trigger")
    files, diagnostics = project(tmp_path, record_contract(record, "actions_run_trigger"))
    assert files["openai_chat.json"]["actions_run_trigger"]["function"]["strict"] is False
    assert files["openai_responses.json"]["actions_run_trigger"]["strict"] is False
    warnings = [d for d in diagnostics if d.code == "TG301"]
    assert [(d.file, d.pointer, d.severity) for d in warnings] == [
        ("contracts/actions_run_trigger.json", "/input_schema/properties/inputs", Severity.WARNING)
    ]
    assert "OpenAI" in warnings[0].message
    assert "`actions_run_trigger`" in warnings[0].message
    assert "free-form" in warnings[0].message


def test_array_without_items_is_not_strict_and_gets_items_when_loose(tmp_path: Path) -> None:
    record = clean_record("get_account_details")
    bare = [n for n, s in schema_of(record)["properties"].items() if s.get("type") == "array" and "items" not in s]
    assert bare
    files, diagnostics = project(tmp_path, record_contract(record, "get_account_details"))
    tool = files["openai_chat.json"]["get_account_details"]["function"]
    assert tool["strict"] is False
    assert all(tool["parameters"]["properties"][n]["items"] == {} for n in bare)
    pointers = {d.pointer for d in diagnostics if d.code == "TG301"}
    assert {f"/input_schema/properties/{n}" for n in bare} <= pointers


def test_long_description_is_shortened_for_openai_only_with_a_warning(tmp_path: Path) -> None:
    record = clean_record("pull_request_review_write")
    assert len(record["description"]) > 1024
    files, diagnostics = project(tmp_path, record_contract(record, "pull_request_review_write"))
    assert not [d for d in diagnostics if d.is_error]
    warnings = [d for d in diagnostics if d.code == "TG304"]
    assert [(d.pointer, d.severity.value) for d in warnings] == [("/description", "warning")]
    assert "1024" in warnings[0].message
    chat = files["openai_chat.json"]["pull_request_review_write"]["function"]["description"]
    responses = files["openai_responses.json"]["pull_request_review_write"]["description"]
    assert chat == responses
    assert len(chat) <= 1024
    assert record["description"].startswith(chat)
    whole = files["anthropic.json"]["pull_request_review_write"]["description"]
    assert len(whole) > 1024


@pytest.mark.corpus  # a third-party capture, read from the corpora, never copied
def test_gemini_inlines_refs(tmp_path: Path) -> None:
    record = shared_record("mcp_tools.jsonl", "generate_district_map", LIVE)
    files, diagnostics = project(tmp_path, record_contract(record, "generate_district_map"))
    schema = files["gemini.json"]["generate_district_map"]["parametersJsonSchema"]
    assert "$ref" not in str(schema)
    assert not [d for d in diagnostics if d.is_error]
    check_all(_documents(files))


def _documents(files: dict[str, Any]) -> dict[str, Any]:
    """The files as the provider APIs take them, rebuilt from the per-tool declarations."""
    tools = {k: list(v.values()) for k, v in files.items()}
    gemini = [{"functionDeclarations": tools["gemini.json"]}]
    return {**tools, "gemini.json": gemini, "mcp.json": {"tools": tools["mcp.json"]}}


@pytest.mark.corpus  # a third-party capture, read from the corpora, never copied
def test_recursion_through_an_optional_property_is_kept_for_gemini_and_not_anthropic_strict(tmp_path: Path) -> None:
    record = shared_record("mcp_tools.jsonl", "generate_mind_map", LIVE)
    files, diagnostics = project(tmp_path, record_contract(record, "generate_mind_map"), anthropic_strict=True)
    assert [d for d in diagnostics if d.is_error or d.code == "TG306"] == []
    gemini = files["gemini.json"]["generate_mind_map"]["parametersJsonSchema"]
    children = gemini["properties"]["data"]["properties"]["children"]["items"]["properties"]["children"]
    assert children["items"] == {"$ref": "#/$defs/items"}
    assert gemini["$defs"]["items"]["required"] == ["name"]  # `children` is optional: Gemini unrolls it
    assert files["openai_chat.json"]["generate_mind_map"]["function"]["strict"] is True
    assert files["anthropic.json"]["generate_mind_map"]["strict"] is False
    assert any(d.code == "TG307" and "recursive" in d.message for d in diagnostics)


@pytest.mark.corpus  # a third-party capture, read from the corpora, never copied
def test_gemini_const_becomes_enum_and_empty_string_enum_moves_to_description(tmp_path: Path) -> None:
    record = shared_record("mcp_tools.jsonl", "get-bbc-news", LIVE)
    files, diagnostics = project(tmp_path, record_contract(record, "get_bbc_news"))
    branches = files["gemini.json"]["get_bbc_news"]["parametersJsonSchema"]["properties"]["category"]["anyOf"]
    assert branches[1]["enum"] == ["world"]
    assert "const" not in str(branches)
    assert "enum" not in branches[0]
    assert '""' in branches[0]["description"]
    pointers = [d.pointer for d in diagnostics if d.code == "TG308"]
    assert "/input_schema/properties/category/anyOf/0/enum" in pointers
    assert all(p.endswith("/anyOf/0/enum") for p in pointers)


def test_gemini_non_string_enum_keeps_its_type(tmp_path: Path) -> None:
    record = clean_record("RealEstateAdvisor_getMortgageDetails")
    files, diagnostics = project(tmp_path, record_contract(record, "get_mortgage_details"))
    loan = files["gemini.json"]["get_mortgage_details"]["parametersJsonSchema"]["properties"]["loanDetails"]
    term = loan["properties"]["loanTerm"]
    assert term["type"] == "integer"
    assert term["enum"] == [15, 30]  # Gemini documents enum "for strings and numbers"
    assert [d for d in diagnostics if d.code == "TG308"] == []


def test_gemini_removes_exclusive_bounds_and_schema_keyword(tmp_path: Path) -> None:
    record = clean_record("fetch")
    files, _ = project(tmp_path, record_contract(record, "fetch"))
    max_length = files["gemini.json"]["fetch"]["parametersJsonSchema"]["properties"]["max_length"]
    assert "exclusiveMinimum" not in max_length
    assert "exclusiveMaximum" not in max_length
    assert "Greater than 0." in max_length["description"]
    assert "default" not in max_length  # not in Gemini's documented keywords
    assert "Default: `5000`" in max_length["description"]


def test_root_one_of_is_flattened() -> None:
    # No record in the corpora has root composition; this is the shape PROVIDERS.md 2.3 reports
    # Anthropic refusing ({"type": "object", ..., "anyOf": [{"required": [...]}]}).
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "url": {"type": "string"}},
        "oneOf": [{"required": ["path"]}, {"required": ["url"]}],
    }
    flat, issues = flatten_root(schema, "/input_schema")
    assert "oneOf" not in flat
    assert flat["properties"] == schema["properties"]
    assert "required" not in flat
    assert "exactly one of" in flat["description"]
    assert [i.pointer for i in issues] == ["/input_schema/oneOf"]


def test_anthropic_strict_lowering_and_per_request_limits(tmp_path: Path) -> None:
    record = clean_record("list_issues")
    copies = [record_contract(record, f"list_issues_{i}") for i in range(3)]
    files, diagnostics = project(tmp_path, *copies, anthropic_strict=True)
    flags = [files["anthropic.json"][c.name]["strict"] for c in copies]
    assert flags == [True, True, False]
    refused = [d for d in diagnostics if d.code == "TG307"]
    assert [d.file for d in refused] == ["contracts/list_issues_2.json"]
    assert "optional parameters" in refused[0].message
    strict_schema = files["anthropic.json"]["list_issues_0"]["input_schema"]
    assert strict_schema["required"] == ["owner", "repo"]
    assert strict_schema["properties"]["perPage"].get("maximum") is None


@pytest.mark.corpus  # a third-party capture, read from the corpora, never copied
def test_openai_enum_value_limit(tmp_path: Path) -> None:
    record = shared_record("mcp_tools.jsonl", "lol-champion-analysis", LIVE)
    champion = next(s for s in schema_of(record)["properties"].values() if len(s.get("enum", [])) > 150)
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": [f"pick_{i}" for i in range(6)],
        "properties": {f"pick_{i}": champion for i in range(6)},
    }
    files, diagnostics = project(tmp_path, make_contract("pick_champions", schema))
    assert files["openai_chat.json"]["pick_champions"]["function"]["strict"] is False
    assert any("enum values" in d.message for d in diagnostics if d.code == "TG301")


def test_name_rules_per_provider(tmp_path: Path) -> None:
    record = clean_record("RealEstateAdvisor_getMortgageDetails")
    contract = record_contract(record, "HomeProjectManager.trackProgress")  # a real ACEBench name
    _, diagnostics = project(tmp_path, contract)
    assert sorted(d.message.split(":")[0] for d in diagnostics if d.code == "TG303") == ["Anthropic", "OpenAI"]


def test_more_than_128_tools_is_an_openai_warning_per_file(tmp_path: Path) -> None:
    record = clean_record("get_file_contents")
    contracts = [record_contract(record, f"get_file_contents_{i:03}") for i in range(129)]
    files, diagnostics = project(tmp_path, *contracts)
    assert [d for d in diagnostics if d.is_error] == []
    found = [(d.code, d.severity, d.file) for d in diagnostics if d.code == "TG305"]
    assert found == [("TG305", Severity.WARNING, "contracts/get_file_contents_128.json")] * 2
    assert len(files["openai_chat.json"]) == 129  # the file is a catalog a request takes a subset from


def test_anthropic_strict_input_examples_all_match_the_strict_schema(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"opts": {"type": "object", "properties": {"a": {"type": "string"}}}},
    }
    examples = [{"input": {"opts": {"a": "x", "extra": 1}}}, {"input": {"opts": {"a": "y"}}}]
    tool = make_contract("configure", schema, examples=examples)
    loose, _ = project(tmp_path, tool)
    assert len(loose["anthropic.json"]["configure"]["input_examples"]) == 2  # the open object takes `extra`
    files, _ = project(tmp_path, tool, anthropic_strict=True)
    declared = files["anthropic.json"]["configure"]
    assert declared["strict"] is True
    assert declared["input_examples"] == [{"opts": {"a": "y"}}]
    notes = providers.provider_notes(catalog_of(tool), settings(tmp_path, anthropic_strict=True))["configure"]
    assert any(n.startswith("Anthropic: example 1 does not match the declared schema") for n in notes), notes


def test_anthropic_input_examples_mask_every_sensitive_value_as_the_docs_do(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "query": {"type": "string"},
            "token": {"type": "string", "x-sensitive": True},
            "auth": {"type": "object", "properties": {"password": {"$ref": "#/$defs/secret"}}},
            "headers": {"type": "object", "additionalProperties": {"type": "string", "x-sensitive": True}},
        },
        "$defs": {"secret": {"type": "string", "x-sensitive": True}},
    }
    inputs = [
        {"query": "plain"},
        {"query": "a", "token": "sk-1"},
        {"query": "b", "auth": {"password": "pw-2"}},
        {"query": "c", "headers": {"X-Key": "k-3"}},
        {"query": "d", "auth": {}},
    ]
    tool = make_contract("lookup", schema, examples=[{"input": i} for i in inputs])
    files, _ = project(tmp_path, tool)
    assert files["anthropic.json"]["lookup"]["input_examples"] == [
        {"query": "plain"},
        {"query": "a", "token": "***"},
        {"query": "b", "auth": {"password": "***"}},
        {"query": "c", "headers": {"X-Key": "***"}},
        {"query": "d", "auth": {}},
    ]
    notes = providers.provider_notes(catalog_of(tool), settings(tmp_path))["lookup"]
    assert "Anthropic: input_examples show example 2, 3, 4 masked, as these docs do" in notes


@pytest.mark.parametrize(
    ("permissions", "idempotent", "expected"),
    [
        ([], True, (True, False, True, False)),
        (["read"], False, (True, False, False, False)),
        (["network", "read"], True, (False, True, True, True)),  # network alone is not read-only (issue 29)
        (["network"], False, (False, True, False, True)),
        (["write"], True, (False, True, True, False)),
        (["execute", "network"], False, (False, True, False, True)),
    ],
)
def test_mcp_hints_from_permissions(
    tmp_path: Path, permissions: list[str], idempotent: bool, expected: tuple[bool, ...]
) -> None:
    record = clean_record("get_file_contents")
    contract = record_contract(record, "get_file_contents", permissions=permissions, idempotent=idempotent)
    files, _ = project(tmp_path, contract)
    hints = files["mcp.json"]["get_file_contents"]["annotations"]
    keys = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
    assert tuple(hints[k] for k in keys) == expected


def test_mcp_annotations_stated_in_the_contract_replace_the_derived_ones(tmp_path: Path) -> None:
    record = clean_record("get_file_contents")
    stated = {"title": "Read a file", "destructiveHint": False}
    providers_table = {"annotations": stated, "mcp_name": "get-file.contents", "execution": {"taskSupport": "optional"}}
    contract = record_contract(
        record, "get_file_contents", permissions=["network", "write"], idempotent=False, providers=providers_table
    )
    files, diagnostics = project(tmp_path, contract)
    assert not [d for d in diagnostics if d.severity.value == "error"]
    [tool] = files["mcp.json"].values()
    assert tool["name"] == "get-file.contents"
    assert tool["annotations"] == {
        "title": "Read a file",
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    assert tool["execution"] == {"taskSupport": "optional"}


def test_provider_notes_for_the_docs(tmp_path: Path) -> None:
    free = record_contract(clean_record("actions_run_trigger"), "actions_run_trigger")
    strict = record_contract(clean_record("get_file_contents"), "get_file_contents")
    notes = providers.provider_notes(catalog_of(free, strict), settings(tmp_path))
    assert set(notes) == {"actions_run_trigger", "get_file_contents"}
    assert notes["actions_run_trigger"] == (
        "OpenAI: not strict, because `/input_schema/properties/inputs` is a free-form object "
        "(no properties, additionalProperties not false)",
    )
    assert notes["get_file_contents"][0].startswith("OpenAI: strict; the optional properties `fields`, `path`")


def test_more_than_512_tools_is_also_a_gemini_error(tmp_path: Path) -> None:
    schema = schema_of(clean_record("get_file_contents"))
    contracts = [make_contract(f"tool_{i:03}", schema) for i in range(513)]
    _, diagnostics = project(tmp_path, *contracts)
    found = sorted((d.message.split(":")[0], d.file) for d in diagnostics if d.code == "TG305")
    assert found == [("Gemini", "contracts/tool_512.json")] + [("OpenAI", "contracts/tool_128.json")] * 2


def test_inlining_that_would_explode_is_refused(tmp_path: Path) -> None:
    # Each level refers to the previous one twice: 2**30 nodes once inlined.
    defs: dict[str, Any] = {"d0": {"type": "string"}}
    for level in range(1, 31):
        below = {"$ref": f"#/$defs/d{level - 1}"}
        defs[f"d{level}"] = {"type": "object", "properties": {"a": below, "b": below}}
    schema = {"type": "object", "properties": {"top": {"$ref": "#/$defs/d30"}}, "$defs": defs}
    with pytest.raises(RefError, match="grows the schema past"):
        inline_refs(schema, "/input_schema")
    files, diagnostics = project(tmp_path, make_contract("bomb", schema))
    assert [d for d in diagnostics if d.is_error] == []
    gemini = files["gemini.json"]["bomb"]["parametersJsonSchema"]
    assert gemini["properties"]["top"] == {"$ref": "#/$defs/d30"}  # kept as references, not inlined
    assert len(gemini["$defs"]) == 31
    notes = providers.provider_notes(catalog_of(make_contract("bomb", schema)), settings(tmp_path))["bomb"]
    assert any(n.startswith("Gemini: the $refs are kept, because inlining") for n in notes)


def test_values_that_look_like_schemas_are_left_alone() -> None:
    from toolgen.render.providers.lower import strip_annotations

    value = {"x-trace": "kept", "$ref": "#/not/a/ref"}
    schema = {
        "type": "object",
        "x-owner": "dropped",
        "properties": {
            "x-header": {"type": "object", "default": value, "examples": [value], "x-sensitive": True},
            "mode": {"enum": [value, "plain"]},
        },
    }
    stripped = strip_annotations(schema)
    assert "x-owner" not in stripped
    assert stripped["properties"]["x-header"] == {"type": "object", "default": value, "examples": [value]}
    assert inline_refs(stripped, "/input_schema")["properties"]["mode"] == {"enum": [value, "plain"]}
