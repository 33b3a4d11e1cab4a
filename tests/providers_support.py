"""Helpers for the provider tests: corpus records, in-memory catalogs, SDK validation, a strict checker.

The validators follow PROVIDERS.md "SDK types and runtime validation": pydantic `TypeAdapter` over the
OpenAI and Anthropic TypedDicts (which ignore extra keys, so the key sets are compared here), the
OpenAI response models, `google.genai.types.Tool`, `mcp.types.Tool`, MCP's 2025-11-25 wire model,
`Draft202012Validator.check_schema` and `validate_tool_name`. `strict_problems` is an OpenAI
strict-mode checker written from PROVIDERS.md 1.5, independent of `toolgen.render.providers.strict`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validate
from jsonschema.exceptions import SchemaError, best_match
from pydantic import TypeAdapter

from tests.conftest import CORPORA
from toolgen.catalog import Catalog, Contract, build_catalog, contract_from_document
from toolgen.config import Settings
from toolgen.validate.schemacheck import flat_metaschema

CLEAN_RECORDS = Path(__file__).parent / "data" / "providers" / "corpus_records.jsonl"


def clean_record(name: str) -> dict[str, Any]:
    """A licence-clean corpus record copied into tests/data/providers (see its NOTICE.md)."""
    for line in CLEAN_RECORDS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["name"] == name:
            return record
    raise LookupError(name)


def shared_record(file: str, name: str, source_prefix: str) -> dict[str, Any]:
    """A record read from the shared corpora by file, name and source (never copied into the repo).

    Only for a test marked `corpus`, which skips when the corpora are absent."""
    path = CORPORA / file
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["name"] == name and record["source"].startswith(source_prefix):
            return record
    raise LookupError(f"{file}: {name} from {source_prefix}")


def schema_of(record: dict[str, Any]) -> dict[str, Any]:
    """The input schema of a corpus record, whatever its flavour calls it."""
    return record.get("inputSchema") or record["parameters"]


def make_contract(
    name: str, input_schema: dict[str, Any], *, description: str = "A tool used by the provider tests.", **extra: Any
) -> Contract:
    """A frozen contract built directly (no validation), as the lowering sees it."""
    document = {
        "name": name,
        "version": "1.0.0",
        "description": description,
        "permissions": [],
        "input_schema": input_schema,
        **extra,
    }
    return contract_from_document(document, f"contracts/{name}.json")


def catalog_of(*contracts: Contract) -> Catalog:
    """A catalog of the given contracts."""
    return build_catalog(list(contracts))


def settings(tmp_path: Path, *, anthropic_strict: bool = False) -> Settings:
    """Settings for an in-memory projection."""
    return Settings(
        root=tmp_path,
        contracts_dir=tmp_path / "contracts",
        output_dir=tmp_path / "generated",
        anthropic_strict=anthropic_strict,
    )


# --- OpenAI strict-mode checker (PROVIDERS.md 1.5) ------------------------------------------------

STRICT_KEYWORDS = {
    "type", "enum", "const", "anyOf", "$defs", "definitions", "$ref", "description", "title", "properties",
    "required", "additionalProperties", "items", "pattern", "format", "multipleOf", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
}  # fmt: skip
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


def _subschemas(node: dict[str, Any], pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for key in ("properties", "$defs", "definitions"):
        for name, sub in (node.get(key) or {}).items():
            yield f"{pointer}/{key}/{name}", sub
    if isinstance(node.get("items"), dict):
        yield f"{pointer}/items", node["items"]
    for index, sub in enumerate(node.get("anyOf") or []):
        yield f"{pointer}/anyOf/{index}", sub


def _resolve(root: dict[str, Any], ref: str) -> Any:
    node: Any = root
    for token in ref.removeprefix("#").split("/")[1:]:
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def strict_problems(schema: dict[str, Any]) -> list[str]:
    """Every way `schema` breaks OpenAI strict mode (empty when it is a valid strict schema)."""
    problems: list[str] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("root must be a plain object")
    stack = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        problems += [f"{pointer}: keyword {k}" for k in sorted(set(node) - STRICT_KEYWORDS)]
        kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        if "object" in kinds or "properties" in node:
            if node.get("additionalProperties") is not False:
                problems.append(f"{pointer}: additionalProperties must be false")
            if "properties" not in node:
                problems.append(f"{pointer}: object without properties")
            if sorted(node.get("required") or []) != sorted(node.get("properties") or {}):
                problems.append(f"{pointer}: required must list every property")
        if "array" in kinds and not (isinstance(node.get("items"), dict) and node["items"]):
            problems.append(f"{pointer}: array without items")
        if not any(k in node for k in ("type", "anyOf", "$ref", "enum", "const")):
            problems.append(f"{pointer}: no type")
        if "format" in node and node["format"] not in STRICT_FORMATS:
            problems.append(f"{pointer}: format {node['format']}")
        if "$ref" in node:
            if set(node) - {"$ref", "title", "description"}:
                problems.append(f"{pointer}: keywords beside $ref")
            try:
                _resolve(schema, node["$ref"])
            except (KeyError, IndexError, TypeError):
                problems.append(f"{pointer}: dangling $ref")
        stack.extend(_subschemas(node, pointer))
    return problems


# --- SDK validation -------------------------------------------------------------------------------


_METASCHEMA = Draft202012Validator(flat_metaschema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
"""The draft 2020-12 metaschema with its $dynamicRefs merged: the same verdicts as `check_schema` (see
tests/validate/test_validate_metaschema.py) at a fifth of the cost, which is most of the corpus sweep's time."""


@functools.lru_cache(maxsize=4096)
def _check_schema_text(text: str) -> None:
    error = best_match(_METASCHEMA.iter_errors(json.loads(text)))
    if error is not None:
        raise SchemaError.create_from(error)


def check_schema(schema: dict[str, Any]) -> None:
    """Raise `SchemaError` unless `schema` is valid draft 2020-12 (like `check_schema`), cached by its JSON text."""
    _check_schema_text(json.dumps(schema, sort_keys=True))


@functools.cache
def adapter(kind: Any) -> TypeAdapter[Any]:
    """A cached pydantic TypeAdapter (building one is slow)."""
    return TypeAdapter(kind)


def check_openai_chat(tool: dict[str, Any]) -> None:
    """Validate one Chat Completions tool with the SDK types and the strict checker."""
    from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionFunctionToolParam

    adapter(ChatCompletionFunctionToolParam).validate_python(tool)
    ChatCompletionFunctionTool.model_validate(tool)
    assert set(tool) == {"type", "function"}
    function = tool["function"]
    assert set(function) == {"name", "description", "parameters", "strict"}
    assert isinstance(function["strict"], bool)
    assert len(function["description"]) <= 1024
    _check_parameters(function["parameters"], function["strict"])


def check_openai_responses(tool: dict[str, Any]) -> None:
    """Validate one Responses tool with the SDK types and the strict checker."""
    from openai.types.responses import FunctionTool, FunctionToolParam

    adapter(FunctionToolParam).validate_python(tool)
    FunctionTool.model_validate(tool)
    assert {"type", "name", "description", "parameters", "strict"} <= set(tool) <= {
        "type", "name", "description", "parameters", "strict", "defer_loading"
    }  # fmt: skip
    assert isinstance(tool["strict"], bool)
    _check_parameters(tool["parameters"], tool["strict"])


def _check_parameters(schema: dict[str, Any], strict: bool) -> None:
    check_schema(schema)
    assert schema["type"] == "object"
    assert not {"anyOf", "oneOf", "allOf"} & set(schema)
    if strict:
        assert strict_problems(schema) == []
    assert "oneOf" not in json.dumps(schema)


def check_anthropic(tool: dict[str, Any]) -> None:
    """Validate one Anthropic tool with the SDK TypedDict and the rules it does not check."""
    import anthropic.types

    adapter(anthropic.types.ToolParam).validate_python(tool)
    assert {"name", "description", "input_schema"} <= set(tool)
    assert set(tool) <= {
        "name",
        "description",
        "input_schema",
        "input_examples",
        "strict",
        "defer_loading",
        "cache_control",
    }
    schema = tool["input_schema"]
    check_schema(schema)
    assert schema["type"] == "object"
    assert not {"anyOf", "oneOf", "allOf"} & set(schema)
    for example in tool.get("input_examples", []):
        validate(example, schema, cls=Draft202012Validator)


def check_gemini(document: list[dict[str, Any]]) -> None:
    """Validate the Gemini tools parameter with `google.genai.types.Tool` and the JSON Schema subset."""
    from google.genai import types

    assert len(document) == 1
    types.Tool.model_validate(document[0])
    for declaration in document[0]["functionDeclarations"]:
        types.FunctionDeclaration.model_validate(declaration)
        assert set(declaration) <= {"name", "description", "parametersJsonSchema", "responseJsonSchema"}
        for key in ("parametersJsonSchema", "responseJsonSchema"):
            if key in declaration:
                _check_gemini_schema(declaration[key])


def _check_gemini_schema(schema: dict[str, Any]) -> None:
    """Draft 2020-12, and the documented keyword subset (PROVIDERS.md corrections) per the independent checker."""
    from tests.providers import checkers

    check_schema(schema)
    assert checkers.gemini_declaration({"name": "t", "parametersJsonSchema": schema}) == []


def check_mcp(document: dict[str, Any]) -> None:
    """Validate the `tools/list` result with the MCP SDK models, the 2025-11-25 wire model and the name rule."""
    import mcp.types
    from mcp.shared.tool_name_validation import validate_tool_name
    from mcp_types import _v2025_11_25 as wire

    mcp.types.ListToolsResult.model_validate(document)
    wire.ListToolsResult.model_validate(document)
    for tool in document["tools"]:
        mcp.types.Tool.model_validate(tool)
        wire.Tool.model_validate(tool)
        check_schema(tool["inputSchema"])
        if "outputSchema" in tool:
            check_schema(tool["outputSchema"])
        assert validate_tool_name(tool["name"]).is_valid
        hints = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
        assert set(tool["annotations"]) - {"title"} == hints  # MCP's optional `annotations.title` is kept on import
        assert isinstance(tool["annotations"].get("title", ""), str)
        assert [k for k in annotation_keys(tool["inputSchema"]) if not k.endswith("/x-mcp-header")] == []


def annotation_keys(schema: dict[str, Any]) -> list[str]:
    """Every `x-` key on a schema node of `schema`."""
    from toolgen.render.providers.lower import walk

    return [f"{pointer}/{key}" for pointer, node in walk(schema) for key in node if key.startswith("x-")]


def check_all(payloads: dict[str, Any]) -> None:
    """Validate every provider file (`{file name: parsed JSON}`) with its provider's checks."""
    for tool in payloads["openai_chat.json"]:
        check_openai_chat(tool)
    for tool in payloads["openai_responses.json"]:
        check_openai_responses(tool)
    for tool in payloads["anthropic.json"]:
        check_anthropic(tool)
    check_gemini(payloads["gemini.json"])
    check_mcp(payloads["mcp.json"])
