"""OpenAI: `openai_chat.json` (Chat Completions) and `openai_responses.json` (Responses).

Mapping decisions:
- Chat: `{"type": "function", "function": {name, description, parameters, strict}}`; Responses: the
  flat `{"type": "function", name, description, parameters, strict}`. Both always carry `strict`
  (Responses would otherwise try strict mode on its own and make optional fields mandatory).
- Strict when the schema can be made strict (`strict.OPENAI`): `additionalProperties: false` and
  `properties` on every object, every property required with optional ones made nullable,
  `oneOf` → `anyOf`, a one-branch `allOf` merged, keywords and formats outside the strict subset
  (`default`, `minLength`, `uniqueItems`, `format: uri`, ...) stated in the description instead, and
  the size limits checked (5,000 properties, depth 10, 120,000 characters, 1,000 enum values).
- Otherwise `strict: false` with a TG301 warning per reason; the schema keeps its keywords, with
  `oneOf` → `anyOf` and `items: {}` added to arrays without one (both APIs refuse them).
- A root `anyOf`/`oneOf`/`allOf` is flattened first (TG302).
- A description over 1,024 characters (Chat refuses it) and more than 128 tools are TG304/TG305
  errors; the same limits are applied to Responses so both files declare the same tools.
- No `output_schema` on Responses: it describes string outputs and its server semantics are
  unverified (PROVIDERS.md 1.2).
"""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.render.markdown import code as code_span
from toolgen.render.providers import codes, strict
from toolgen.render.providers.common import (
    Output,
    Spec,
    always,
    check_name,
    description,
    flat_input_schema,
    moved_note,
)
from toolgen.render.providers.lower import Issue, Schema, transform

PROVIDER = "OpenAI"
MAX_TOOLS = 128
MAX_DESCRIPTION = 1024


def _kinds(node: Schema) -> list[Any]:
    kind = node.get("type")
    return kind if isinstance(kind, list) else [kind]


def _loose_node(node: Schema, _pointer: str) -> Schema:
    if "oneOf" in node and "anyOf" not in node:
        node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
    if "array" in _kinds(node) and "items" not in node:
        node = {**node, "items": {}}
    if "object" in _kinds(node) and "properties" not in node:
        node = {**node, "properties": {}}  # both APIs refuse an object schema without `properties`
    return node


def parameters(contract: Contract, out: Output) -> tuple[Schema, bool]:
    """The `parameters` schema for `contract` and whether it is strict; records diagnostics and notes."""
    schema = flat_input_schema(contract, PROVIDER, out)
    moves: list[Issue] = []
    lowered, issues = strict.lower_strict(schema, "/input_schema", strict.OPENAI, moves)
    if not issues:
        optional = [n for n in schema.get("properties") or {} if n not in (schema.get("required") or [])]
        if optional:
            names = ", ".join(code_span(n, in_table=False) for n in optional)
            text = f"OpenAI: strict; the optional properties {names} arrive as null when the model leaves them out"
            out.note(contract.name, text)
        moved = moved_note(PROVIDER, moves)
        if moved:
            out.note(contract.name, moved)
        return lowered, True
    for issue in issues:
        message = f"is not strict, because {issue.pointer} {issue.message}; it is declared with strict: false"
        out.diagnostics.append(codes.diagnostic(codes.NOT_STRICT, contract, PROVIDER, issue.pointer, message))
    first = issues[0]
    out.note(contract.name, f"OpenAI: not strict, because {code_span(first.pointer, in_table=False)} {first.message}")
    loose: Schema = transform(schema, _loose_node)
    return loose, False


def _check_description(contract: Contract, out: Output) -> None:
    text = description(contract)
    if len(text) > MAX_DESCRIPTION:
        message = f"has a description of {len(text)} characters; Chat Completions accepts at most {MAX_DESCRIPTION}"
        out.diagnostics.append(codes.diagnostic(codes.DESCRIPTION_LENGTH, contract, PROVIDER, "/description", message))
        out.note(contract.name, f"OpenAI: the description has {len(text)} characters, over {MAX_DESCRIPTION}")


def tool_entries(contract: Contract, out: Output) -> dict[str, Any]:
    """One tool's entry in `openai_chat.json` and in `openai_responses.json`."""
    out.diagnostics.extend(check_name(contract, PROVIDER))
    _check_description(contract, out)
    schema, is_strict = parameters(contract, out)
    function = {"name": contract.name, "description": description(contract), "parameters": schema}
    return {
        "openai_chat.json": {"type": "function", "function": {**function, "strict": is_strict}},
        "openai_responses.json": {"type": "function", **function, "strict": is_strict},
    }


def check_count(catalog: Catalog, out: Output) -> None:
    """TG305 on the first tool past the 128 one request takes."""
    if len(catalog) > MAX_TOOLS:
        contract = catalog.contracts[MAX_TOOLS]
        message = f"is tool {MAX_TOOLS + 1} of {len(catalog)}; OpenAI accepts at most {MAX_TOOLS} tools per request"
        out.diagnostics.append(codes.diagnostic(codes.TOOL_COUNT, contract, PROVIDER, "", message))


SPEC = Spec(
    name=PROVIDER,
    files=("openai_chat.json", "openai_responses.json"),
    tools=lambda _settings: tool_entries,
    wrap=lambda _file, entries: entries,
    check=check_count,
    independent=always,
)
