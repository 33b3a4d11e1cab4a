"""`toolgen import` reads every provider shape into contracts that validate and build."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.pipeline.stages import load_catalog

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name, for example Paris."},
        "unit": {"type": "string", "enum": ["c", "f"], "description": "Temperature unit."},
    },
    "required": ["city"],
    "additionalProperties": False,
}
DESCRIPTION = "Get the current weather for a city; returns the temperature and the sky."


def run_import(project: Path, source: Any, shape: str, *extra: str, name: str = "tools.json") -> Any:
    """Write `source` (JSON data, or text) and run `toolgen import` on it through the CLI."""
    path = project / name
    path.write_text(source if isinstance(source, str) else json.dumps(source), encoding="utf-8")
    return CliRunner().invoke(main, ["-C", str(project), "import", str(path), "--from", shape, *extra])


def read_contract(project: Path, name: str) -> dict[str, Any]:
    """The contract written for `name` (TOML or JSON)."""
    toml = project / "contracts" / f"{name}.toml"
    if toml.exists():
        return tomllib.loads(toml.read_text(encoding="utf-8"))
    return dict(json.loads((project / "contracts" / f"{name}.json").read_text(encoding="utf-8")))


def assert_catalog_loads(project: Path, names: set[str]) -> None:
    """The imported contracts pass validation and form a catalog with these names."""
    settings, _ = load_settings(project)
    catalog, problems, _ = load_catalog(settings)
    errors = [d for d in problems if d.is_error]
    assert catalog is not None, errors
    assert set(catalog.names) == names


def test_openai_chat_array(project: Path) -> None:
    source = [
        {
            "type": "function",
            "function": {"name": "get_weather", "description": DESCRIPTION, "parameters": WEATHER, "strict": True},
        }
    ]
    result = run_import(project, source, "openai")
    assert result.exit_code == 0, result.output
    data = read_contract(project, "get_weather")
    assert data["input_schema"] == WEATHER
    assert data["description"] == DESCRIPTION
    assert data["version"] == "1.0.0"
    assert "record #/0/function (get_weather) -> contracts/get_weather.toml" in result.stdout
    assert_catalog_loads(project, {"get_weather"})


def test_openai_responses_array_and_request_body(project: Path) -> None:
    source = {
        "model": "x",
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": DESCRIPTION,
                "parameters": WEATHER,
                "strict": False,
            },
            {"type": "function", "name": "no_params", "description": "A tool that takes no input at all, ever."},
        ],
    }
    result = run_import(project, source, "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "no_params")["input_schema"] == {"type": "object", "properties": {}}
    assert_catalog_loads(project, {"get_weather", "no_params"})


def test_anthropic_with_input_examples(project: Path) -> None:
    source = [
        {
            "name": "get_weather",
            "description": DESCRIPTION,
            "input_schema": WEATHER,
            "input_examples": [{"city": "Paris"}, {"town": "Lyon"}],
        }
    ]
    result = run_import(project, source, "anthropic", "--repair")
    assert result.exit_code == 0, result.output
    data = read_contract(project, "get_weather")
    assert data["examples"] == [{"input": {"city": "Paris"}}]
    assert "repaired /input_examples/1: example does not match the input schema; left out" in result.stdout
    assert_catalog_loads(project, {"get_weather"})


def test_anthropic_builtin_tool_is_rejected_with_its_place(project: Path) -> None:
    source = [
        {"type": "web_search_20250305", "name": "web_search"},
        {"name": "get_weather", "description": DESCRIPTION, "input_schema": WEATHER},
    ]
    result = run_import(project, source, "anthropic")
    assert result.exit_code == 1
    assert "tools.json: TG106 record #/0 (web_search): a built-in 'web_search_20250305' tool" in result.stderr
    assert "[at /0]" in result.stderr
    assert (project / "contracts" / "get_weather.toml").exists()


def test_gemini_openapi_parameters_and_json_schema(project: Path) -> None:
    source = [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": DESCRIPTION,
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"city": {"type": "STRING", "description": "City.", "nullable": True}},
                        "required": ["city"],
                    },
                    "response": {"type": "OBJECT", "properties": {"temp": {"type": "NUMBER"}}},
                },
                {
                    "name": "get_time",
                    "description": "Current time in a time zone, as an ISO 8601 string.",
                    "parametersJsonSchema": {"type": "object", "properties": {"tz": {"type": "string"}}},
                    "responseJsonSchema": {"type": "object", "properties": {"now": {"type": "string"}}},
                },
            ]
        }
    ]
    result = run_import(project, source, "gemini", "--repair")
    assert result.exit_code == 0, result.output
    weather = read_contract(project, "get_weather")
    assert weather["input_schema"]["properties"]["city"]["type"] == ["string", "null"]
    assert weather["output_schema"] == {"type": "object", "properties": {"temp": {"type": "number"}}}
    assert read_contract(project, "get_time")["output_schema"]["properties"] == {"now": {"type": "string"}}
    assert_catalog_loads(project, {"get_weather", "get_time"})


def test_mcp_tools_list_result_with_annotations(project: Path) -> None:
    source = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "tools": [
                {
                    "name": "get_weather",
                    "title": "Weather",
                    "description": DESCRIPTION,
                    "inputSchema": WEATHER,
                    "outputSchema": {"type": "object", "properties": {"temp": {"type": "number"}}},
                    "annotations": {"readOnlyHint": True, "idempotentHint": True},
                },
            ]
        },
    }
    result = run_import(project, source, "mcp")
    assert result.exit_code == 0, result.output
    data = read_contract(project, "get_weather")
    assert data["title"] == "Weather"
    assert data["idempotent"] is True
    assert data["output_schema"]["properties"]["temp"] == {"type": "number"}
    assert "record #/result/tools/0 (get_weather)" in result.stdout
    assert_catalog_loads(project, {"get_weather"})


def test_mcp_docker_arguments_format(project: Path) -> None:
    line = {
        "name": "search",
        "description": "Search the knowledge base and return matching passages.",
        "arguments": [
            {"name": "query", "type": "string", "desc": "Search text"},
            {"name": "limit", "type": "integer", "desc": "Most results", "optional": True},
            {"name": "tags", "type": "array", "items": {"type": "string"}, "desc": "Tags"},
        ],
    }
    result = run_import(project, json.dumps(line) + "\n", "mcp", name="tools.jsonl")
    assert result.exit_code == 0, result.output
    schema = read_contract(project, "search")["input_schema"]
    assert schema["required"] == ["query", "tags"]
    assert schema["properties"]["limit"] == {"type": "integer", "description": "Most results"}
    assert schema["properties"]["tags"]["items"] == {"type": "string"}


@pytest.mark.parametrize("shape", ["openai", "anthropic", "gemini", "mcp"])
def test_jsonl_of_any_shape(project: Path, shape: str) -> None:
    key = {"openai": "parameters", "anthropic": "input_schema", "gemini": "parametersJsonSchema", "mcp": "inputSchema"}[
        shape
    ]
    one = {"name": "get_weather", "description": DESCRIPTION, key: WEATHER}
    two = {"name": "get_time", "description": "Current time in a time zone, as ISO 8601.", key: WEATHER}
    wrapped = [{"type": "function", "function": two}] if shape == "openai" else [two]
    if shape == "mcp":
        wrapped = {"tools": [two]}  # type: ignore[assignment]
    text = json.dumps(one) + "\n\n" + json.dumps(wrapped) + "\n"
    result = run_import(project, text, shape, name="tools.jsonl")
    assert result.exit_code == 0, result.output
    assert "line 1 (get_weather) -> contracts/get_weather.toml" in result.stdout
    assert "line 3 #/0" in result.stdout or "line 3 #/tools/0" in result.stdout
    assert_catalog_loads(project, {"get_weather", "get_time"})


def test_wrong_shape_says_which_one_to_use(project: Path) -> None:
    result = run_import(
        project, [{"name": "get_weather", "description": DESCRIPTION, "inputSchema": WEATHER}], "openai"
    )
    assert result.exit_code == 1
    assert "this looks like a mcp declaration (it has `inputSchema`); import it with --from mcp" in result.stderr
    assert not list((project / "contracts").iterdir())
