"""`toolgen import` never changes what a tool means without saying so (issue 15), each from a minimal record.

One test (or a few) per item: Gemini spellings, unwrapped items, composition `required`, a required
typo, long descriptions, MCP annotations, and the smaller ones (`$schema`, `--update`, `--format`,
the editor-schema line, coerced defaults, TOML keys).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.importing.test_import_shapes import DESCRIPTION, assert_catalog_loads, read_contract, run_import
from toolgen.config import load_settings
from toolgen.importing import tomlemit
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths

CITY = {"type": "object", "properties": {"city": {"type": "string", "description": "City."}}, "required": ["city"]}


def validation_codes(project: Path, name: str) -> set[str]:
    settings, _ = load_settings(project)
    return {d.code for d in validate_paths(settings, [], target_diagnostics) if d.file.endswith(f"/{name}.toml")}


# 1. Gemini: every spelling the SDKs emit; a schema that cannot be found is an error.


@pytest.mark.parametrize("key", ["parametersJsonSchema", "parameters_json_schema"])
def test_gemini_json_schema_in_either_spelling(project: Path, key: str) -> None:
    out_key = key.replace("parameters", "response")
    record = {"name": "get_weather", "description": DESCRIPTION, key: CITY, out_key: CITY}
    result = run_import(project, [{"function_declarations": [record]}], "gemini")
    assert result.exit_code == 0, result.output
    contract = read_contract(project, "get_weather")
    assert contract["input_schema"] == CITY
    assert contract["output_schema"] == CITY


def test_gemini_model_dump_with_null_fields(project: Path) -> None:
    """`FunctionDeclaration.model_dump()` writes every field, the unset ones as null."""
    from google.genai import types

    declaration = types.FunctionDeclaration(name="get_weather", description=DESCRIPTION, parameters_json_schema=CITY)
    dumped = types.Tool(function_declarations=[declaration]).model_dump(mode="json")
    assert dumped["function_declarations"][0]["parameters"] is None
    result = run_import(project, [dumped], "gemini")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "get_weather")["input_schema"] == CITY


def test_gemini_openapi_subset_is_converted_faithfully(project: Path) -> None:
    from google.genai import types

    schema = types.Schema(
        type=types.Type.OBJECT,
        properties={
            "unit": types.Schema(type=types.Type.STRING, enum=["c", "f"], nullable=True),
            "days": types.Schema(type=types.Type.INTEGER, minimum=1, maximum=7, format="int32"),
            "floor": types.Schema(type=types.Type.INTEGER, format="enum", enum=["1", "2"]),
            "tags": types.Schema(type=types.Type.ARRAY, items=types.Schema(type=types.Type.STRING), min_items=1),
            "where": types.Schema(any_of=[types.Schema(type=types.Type.STRING), types.Schema(type=types.Type.NUMBER)]),
            "city": types.Schema(type=types.Type.STRING, min_length=2, example="Paris"),
        },
        required=["city"],
        property_ordering=["city", "unit"],
    )
    for dump in (schema.model_dump(mode="json", exclude_none=True), schema.model_dump(mode="json", by_alias=True)):
        (project / "contracts").mkdir(exist_ok=True)
        record = {"name": "get_weather", "description": DESCRIPTION, "parameters": dump}
        result = run_import(project, [record], "gemini", "--force")
        assert result.exit_code == 0, result.output
        got = json.loads((project / "contracts" / "get_weather.json").read_text(encoding="utf-8"))["input_schema"]
        assert list(got["properties"]) == ["city", "unit", "days", "floor", "tags", "where"]
        assert got["properties"]["unit"] == {"type": ["string", "null"], "enum": ["c", "f", None]}
        assert got["properties"]["days"] == {"type": "integer", "minimum": 1, "maximum": 7, "format": "int32"}
        assert got["properties"]["floor"] == {"type": "integer", "enum": [1, 2]}
        assert got["properties"]["tags"] == {"type": "array", "items": {"type": "string"}, "minItems": 1}
        assert got["properties"]["where"] == {"anyOf": [{"type": "string"}, {"type": "number"}]}
        assert got["properties"]["city"] == {"type": "string", "minLength": 2, "examples": ["Paris"]}
        assert got["required"] == ["city"]
        validator = Draft202012Validator(got)
        assert validator.is_valid({"city": "Paris", "unit": None, "floor": 2})
        assert not validator.is_valid({"city": "Paris", "floor": "2"})


def test_gemini_int64_limits_written_as_strings_and_defs(project: Path) -> None:
    parameters = {
        "type": "OBJECT",
        "properties": {"q": {"type": "STRING", "maxLength": "10"}, "p": {"ref": "#/defs/point"}},
        "defs": {"point": {"type": "OBJECT", "properties": {"x": {"type": "NUMBER"}}}},
    }
    result = run_import(project, [{"name": "f", "description": DESCRIPTION, "parameters": parameters}], "gemini")
    assert result.exit_code == 0, result.output
    got = read_contract(project, "f")["input_schema"]
    assert got["properties"] == {"q": {"type": "string", "maxLength": 10}, "p": {"$ref": "#/$defs/point"}}
    assert got["$defs"] == {"point": {"type": "object", "properties": {"x": {"type": "number"}}}}


def test_gemini_both_schema_spellings_is_an_error(project: Path) -> None:
    record = {"name": "f", "description": DESCRIPTION, "parameters": CITY, "parametersJsonSchema": CITY}
    result = run_import(project, [record], "gemini")
    assert result.exit_code == 1
    assert "TG451 record #/0 (f): both `parametersJsonSchema` and `parameters` are set" in result.stderr
    assert not list((project / "contracts").iterdir())


@pytest.mark.parametrize(
    ("shape", "record"),
    [
        ("openai", {"name": "f", "description": DESCRIPTION, "schema": CITY}),
        ("openai", {"name": "f", "description": DESCRIPTION, "parameters": None, "input": CITY}),
        ("mcp", {"name": "f", "description": DESCRIPTION, "input_schema_v2": {}, "args": CITY}),
        ("anthropic", {"name": "f", "description": DESCRIPTION, "inputs": CITY}),
    ],
)
def test_an_input_schema_under_a_key_the_shape_does_not_read_is_an_error(
    project: Path, shape: str, record: dict[str, Any]
) -> None:
    result = run_import(project, [record], shape, "--repair")
    assert result.exit_code == 1, result.output
    assert "TG451 record #/0 (f): no input schema where this format keeps it, but `" in result.stderr
    assert not list((project / "contracts").iterdir())


def test_no_input_schema_at_all_takes_no_arguments_and_says_so(project: Path) -> None:
    result = run_import(project, [{"name": "ping", "description": DESCRIPTION}], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "ping")["input_schema"] == {"type": "object", "properties": {}}
    assert "note: the source declares no input schema: the tool takes no arguments" in result.stdout


def test_openai_agents_sdk_params_json_schema(project: Path) -> None:
    record = {"name": "get_weather", "description": DESCRIPTION, "params_json_schema": CITY, "strict_json_schema": True}
    result = run_import(project, [record], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "get_weather")["input_schema"] == CITY


# 2. Items without "type": "function" (Mistral, Groq) are unwrapped.


def test_function_item_without_type_is_unwrapped(project: Path) -> None:
    source = [{"function": {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}}]
    result = run_import(project, source, "openai")
    assert result.exit_code == 0, result.output
    assert "record #/0/function (get_weather) -> contracts/get_weather.toml" in result.stdout
    assert read_contract(project, "get_weather")["input_schema"] == CITY


# 3. `required` inside oneOf/anyOf branches names the parent's properties: kept.


def test_required_in_one_of_branches_is_kept(project: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"connectionId": {"type": "string"}, "connectionName": {"type": "string"}},
        "oneOf": [{"required": ["connectionId"]}, {"required": ["connectionName"]}],
    }
    result = run_import(project, [{"name": "connect", "description": DESCRIPTION, "inputSchema": schema}], "mcp")
    assert result.exit_code == 0, result.output
    got = read_contract(project, "connect")["input_schema"]
    assert got == schema
    validator = Draft202012Validator(got)
    assert validator.is_valid({"connectionId": "a"})
    assert not validator.is_valid({"connectionId": "a", "connectionName": "b"})
    assert not validator.is_valid({})


# 4. A required typo beside a property is not made optional.


def test_required_typo_is_renamed_and_tagged_for_review(project: Path) -> None:
    schema = {"type": "object", "properties": {"search_query": {"type": "string"}}, "required": ["query"]}
    result = run_import(project, [{"name": "search", "description": DESCRIPTION, "parameters": schema}], "openai")
    assert result.exit_code == 1
    assert "TG116 record #/0 (search): changes what is accepted: required 'query' is not a property" in result.stderr
    result = run_import(
        project, [{"name": "search", "description": DESCRIPTION, "parameters": schema}], "openai", "--repair"
    )
    assert result.exit_code == 0, result.output
    contract = read_contract(project, "search")
    assert contract["input_schema"]["required"] == ["search_query"]
    assert "schema:unconfirmed" in contract["tags"]
    assert (
        "  repaired /parameters/required/0: changes what is accepted: required 'query' is not a property; "
        "'search_query' is required instead" in result.stdout
    )
    assert "TG450" in validation_codes(project, "search")


def test_unknown_required_name_with_no_close_property_is_kept(project: Path) -> None:
    population = {"type": "object", "properties": {"households": {"type": "integer"}}, "required": ["adults"]}
    schema = {"type": "object", "properties": {"population": population}}
    result = run_import(project, [{"name": "waste", "description": DESCRIPTION, "parameters": schema}], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "waste")["input_schema"] == schema
    assert "TG215" in validation_codes(project, "waste")


# 5. Long descriptions stay whole in the contract; only OpenAI's files shorten them.


def test_long_description_builds_whole_and_openai_gets_a_shortened_copy(project: Path) -> None:
    from toolgen.pipeline import stages as pipeline

    text = "Run a shell command. " * 50 + "A timed-out command keeps running in the background."
    result = run_import(project, [{"name": "run", "description": text, "parameters": CITY}], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "run")["description"].endswith("keeps running in the background.")
    settings, _ = load_settings(project)
    built = pipeline.generate(settings)
    assert built.ok, [d.message for d in built.diagnostics if d.is_error]
    assert [d.severity.value for d in built.diagnostics if d.code == "TG304"] == ["warning"]
    files = {a.path: a for a in built.artifacts}
    chat = next(a for p, a in files.items() if str(p).endswith("openai_chat.json"))
    anthropic = next(a for p, a in files.items() if str(p).endswith("anthropic.json"))
    assert len(json.loads(chat.text)[0]["function"]["description"]) <= 1024
    assert json.loads(anthropic.text)[0]["description"].endswith("keeps running in the background.")


# 6. MCP annotations propose the permissions (still unconfirmed).


@pytest.mark.parametrize(
    ("annotations", "permissions"),
    [
        ({"readOnlyHint": True, "openWorldHint": False}, ["read"]),
        ({"readOnlyHint": True}, ["network", "read"]),
        ({"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False}, ["read", "write"]),
        ({"destructiveHint": False, "openWorldHint": True}, ["network", "read", "write"]),
        ({"idempotentHint": True}, ["execute", "network", "read", "write"]),
    ],
)
def test_mcp_hints_propose_permissions(project: Path, annotations: dict[str, bool], permissions: list[str]) -> None:
    record = {"name": "tool", "description": DESCRIPTION, "inputSchema": CITY, "annotations": annotations}
    result = run_import(project, [record], "mcp")
    assert result.exit_code == 0, result.output
    contract = read_contract(project, "tool")
    assert contract["permissions"] == permissions
    assert contract["tags"] == ["permissions:unconfirmed"]
    assert ("permissions proposed from the MCP annotations" in result.stdout) is ("idempotentHint" not in annotations)


def test_permissions_option_still_wins_over_hints(project: Path) -> None:
    record = {"name": "tool", "description": DESCRIPTION, "inputSchema": CITY, "annotations": {"readOnlyHint": True}}
    result = run_import(project, [record], "mcp", "--permissions", "none")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "tool")["permissions"] == []


# 7. The smaller ones.


def test_draft07_schema_is_removed_without_repair(project: Path) -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", **CITY}
    result = run_import(project, [{"name": "get_weather", "description": DESCRIPTION, "inputSchema": schema}], "mcp")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "get_weather")["input_schema"] == CITY
    assert "  note /inputSchema/$schema: removed $schema 'http://json-schema.org/draft-07/schema#'" in result.stdout


def test_update_rewrites_only_what_changed_and_keeps_what_a_person_decided(project: Path) -> None:
    record = {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}
    assert run_import(project, [record], "openai").exit_code == 0
    path = project / "contracts" / "get_weather.toml"
    edited = path.read_text(encoding="utf-8").replace('"execute", "network", "read", "write"', '"network"')
    edited = edited.replace('tags = ["permissions:unconfirmed"]', 'tags = ["weather"]').replace("1.0.0", "1.2.0")
    path.write_text(edited, encoding="utf-8")
    again = run_import(project, [record], "openai")
    assert again.exit_code == 1
    assert "pass --update to rewrite what changed" in again.stderr
    same = run_import(project, [record], "openai", "--update")
    assert same.exit_code == 0, same.output
    assert "note: unchanged (--update): not written" in same.stdout
    assert path.read_text(encoding="utf-8") == edited
    wider = {**CITY, "properties": {**CITY["properties"], "days": {"type": "integer", "description": "Days."}}}
    changed = run_import(project, [{**record, "parameters": wider}], "openai", "--update")
    assert changed.exit_code == 0, changed.output
    assert "note: updated (--update): input_schema changed" in changed.stdout
    contract = read_contract(project, "get_weather")
    assert contract["input_schema"] == wider
    assert (contract["permissions"], contract["tags"], contract["version"]) == (["network"], ["weather"], "1.2.0")


def test_update_and_force_exclude_each_other(project: Path) -> None:
    result = run_import(project, [{"name": "f", "description": DESCRIPTION}], "openai", "--update", "--force")
    assert result.exit_code == 2
    assert "--force and --update exclude each other" in result.output


def test_format_json_with_force_replaces_a_toml_contract_and_says_so(project: Path) -> None:
    record = {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}
    assert run_import(project, [record], "openai").exit_code == 0
    result = run_import(project, [record], "openai", "--format", "json", "--force")
    assert result.exit_code == 0, result.output
    assert not (project / "contracts" / "get_weather.toml").exists()
    assert json.loads((project / "contracts" / "get_weather.json").read_text(encoding="utf-8"))["name"] == "get_weather"
    assert "note: contracts/get_weather.toml was replaced by contracts/get_weather.json" in result.stdout
    assert_catalog_loads(project, {"get_weather"})


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_imported_contracts_carry_the_editor_schema_line(project: Path, fmt: str) -> None:
    record = {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}
    assert run_import(project, [record], "openai", "--format", fmt).exit_code == 0
    text = (project / "contracts" / f"get_weather.{fmt}").read_text(encoding="utf-8")
    if fmt == "toml":
        assert text.startswith("#:schema ../generated/contract.schema.json\n")
        assert tomllib.loads(text)["name"] == "get_weather"
    else:
        assert next(iter(json.loads(text).items())) == ("$schema", "../generated/contract.schema.json")
    assert_catalog_loads(project, {"get_weather"})


def test_integer_default_written_as_a_string_is_coerced(project: Path) -> None:
    schema = {"type": "object", "properties": {"limit": {"type": "integer", "default": "5", "description": "Most."}}}
    result = run_import(
        project, [{"name": "f", "description": DESCRIPTION, "parameters": schema}], "openai", "--repair"
    )
    assert result.exit_code == 0, result.output
    assert read_contract(project, "f")["input_schema"]["properties"]["limit"]["default"] == 5
    assert "repaired /parameters/properties/limit/default: default '5' is a string; now 5" in result.stdout


@pytest.mark.parametrize("name", ["0\n", "a\n", "a b", "é", "a\r"])
def test_toml_keys_with_a_trailing_newline_are_quoted(name: str) -> None:
    text = tomlemit.dumps({name: 1, "t": {name: {name: 2}}})
    assert tomllib.loads(text) == {name: 1, "t": {name: {name: 2}}}
    assert tomlemit.key(name).startswith('"')


def test_update_never_rewrites_a_contract_it_cannot_read(project: Path) -> None:
    path = project / "contracts" / "get_weather.toml"
    path.write_text("name = [broken\n", encoding="utf-8")
    record = {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}
    result = run_import(project, [record], "openai", "--update")
    assert result.exit_code == 1
    assert "TG109 record #/0 (get_weather): --update cannot read the existing contract contracts/get_weather.toml" in (
        result.stderr
    )
    assert path.read_text(encoding="utf-8") == "name = [broken\n"


def test_update_with_another_format_keeps_what_a_person_decided(project: Path) -> None:
    record = {"name": "get_weather", "description": DESCRIPTION, "parameters": CITY}
    assert run_import(project, [record], "openai", "--permissions", "network").exit_code == 0
    result = run_import(project, [record], "openai", "--update", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "note: updated (--update): nothing changed but the format" in result.stdout
    assert "contracts/get_weather.toml was replaced by contracts/get_weather.json" in result.stdout
    assert not (project / "contracts" / "get_weather.toml").exists()
    assert read_contract(project, "get_weather")["permissions"] == ["network"]
