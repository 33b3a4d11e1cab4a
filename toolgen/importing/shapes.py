"""The shapes `toolgen import` reads: where each provider keeps a tool's name, schemas and extras.

`find_records` turns a source text (JSON or JSON Lines) into declaration records, unwrapping the
containers providers use: arrays, `{"tools": [...]}` (an MCP `tools/list` result or a request body),
a JSON-RPC `{"result": {"tools": [...]}}`, Gemini `{"functionDeclarations": [...]}` (or
`function_declarations`), OpenAI chat `{"type": "function", "function": {...}}` and the same item
without `type` (Mistral, Groq). Each record keeps its JSONL line and RFC 6901 pointer.
A `Shape` says where one provider puts the parts of a declaration, in every spelling its SDKs emit
(a key whose value is null counts as absent, as in a `model_dump()`):
- openai: `parameters` (chat and responses shapes), `params_json_schema` (the Agents SDK);
- anthropic: `input_schema`, `input_examples`;
- gemini: `parametersJsonSchema`/`parameters_json_schema` or the OpenAPI-style `parameters` (read by
  `dialects.gemini_schema`), `responseJsonSchema`/`response_json_schema` or `response`;
- mcp: `inputSchema`, `outputSchema`, `title`, `annotations` (`title`, `idempotentHint` and the
  `readOnlyHint`/`destructiveHint`/`openWorldHint` that propose permissions), or Docker's registry
  format `arguments: [{name, type, desc, optional}]`, turned into a JSON Schema here.
A declaration without any input schema takes no arguments; one whose input schema sits under a key
its shape does not read is refused (TG451), never imported with an empty schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.importing.dialects import gemini_schema
from toolgen.importing.repairnote import Repair
from toolgen.positions import join

_CONTAINER_KEYS = ("tools", "functionDeclarations", "function_declarations")
_SCHEMA_KEYS = {
    "parameters": "openai",
    "input_schema": "anthropic",
    "inputSchema": "mcp",
    "arguments": "mcp",
    "parametersJsonSchema": "gemini",
    "parameters_json_schema": "gemini",
}
INPUT_SPELLINGS = (
    *("parameters", "parametersJsonSchema", "parameters_json_schema", "params_json_schema", "paramsJsonSchema"),
    *("input_schema", "inputSchema", "arguments", "args", "args_schema", "argsSchema", "schema", "input"),
    *("inputs", "params", "json_schema", "jsonSchema", "argument_schema", "function_parameters"),
)
"""Keys under which declarations written anywhere keep an input schema (`lost_schema` looks at all)."""
MCP_HINTS = ("readOnlyHint", "destructiveHint", "openWorldHint")


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One declaration found in a source file, and where it was found."""

    data: object
    """The declaration as parsed: an object, unless the source holds something else here."""
    line: int | None
    pointer: str

    @property
    def label(self) -> str:
        """How reports name this record: its line (JSON Lines) or pointer, and its name."""
        where = f"line {self.line}" if self.line is not None else f"record #{self.pointer or '/'}"
        if self.line is not None and self.pointer:
            where += f" #{self.pointer}"
        name = self.data.get("name") if isinstance(self.data, dict) else None
        return f"{where} ({name})" if isinstance(name, str) else where


@dataclass(frozen=True, slots=True)
class Parts:
    """The parts of a declaration a contract is made from."""

    input_schema: object = None
    input_pointer: str = ""
    output_schema: object = None
    output_pointer: str = ""
    title: object = None
    idempotent: bool | None = None
    examples: object = None
    repairs: tuple[Repair, ...] = ()
    hints: tuple[tuple[str, bool], ...] = ()
    problem: str = ""


@dataclass(frozen=True, slots=True)
class Shape:
    """How one provider lays out a declaration."""

    name: str
    schema_keys: tuple[str, ...]
    parts: Callable[[dict[str, object]], Parts]
    builtin_types: tuple[str, ...] = ("function",)

    def mismatch(self, data: object) -> str:
        """Why this record cannot be read in this shape, or an empty string."""
        if not isinstance(data, dict):
            return f"the declaration is {type(data).__name__}, not an object"
        kind = data.get("type")
        if isinstance(kind, str) and kind not in self.builtin_types and "name" in data:
            return f"a built-in {kind!r} tool, not a function declaration; only function tools can be imported"
        if not any(data.get(k) is not None for k in self.schema_keys):
            for key, other in _SCHEMA_KEYS.items():
                if key == "arguments" and not isinstance(data.get(key), list):
                    continue
                if data.get(key) is not None and other != self.name:
                    return f"this looks like a {other} declaration (it has `{key}`); import it with --from {other}"
        return ""


def lost_schema(data: dict[str, object], read: str) -> str:
    """Why the input schema of a declaration is lost: a key (other than `read`, the one its shape read)
    holding an object schema while the shape found none; else an empty string."""
    for key in INPUT_SPELLINGS:
        value = data.get(key)
        if key != read and isinstance(value, dict | list) and value:
            return f"no input schema where this format keeps it, but `{key}` holds one"
    return ""


def _one_of(data: dict[str, object], *keys: str) -> tuple[str, object, str]:
    """The first of `keys` with a non-null value (key, value), and a problem when several have one."""
    given = [k for k in keys if data.get(k) is not None]
    problem = f"both `{given[0]}` and `{given[1]}` are set; a declaration has one of them" if len(given) > 1 else ""
    key = given[0] if given else keys[0]
    return key, data.get(key), problem


def _openai(data: dict[str, object]) -> Parts:
    if data.get("parameters") is None and isinstance(data.get("arguments"), dict):
        moved = Repair("/arguments", "the input schema is under `arguments`; read it as `parameters`")
        return Parts(input_schema=data["arguments"], input_pointer="/arguments", repairs=(moved,))
    key, schema, problem = _one_of(data, "parameters", "params_json_schema")
    return Parts(input_schema=schema, input_pointer=f"/{key}", problem=problem)


def _anthropic(data: dict[str, object]) -> Parts:
    return Parts(
        input_schema=data.get("input_schema"), input_pointer="/input_schema", examples=data.get("input_examples")
    )


def _gemini(data: dict[str, object]) -> Parts:
    key_in, schema_in, problem_in = _one_of(data, "parametersJsonSchema", "parameters_json_schema", "parameters")
    key_out, schema_out, problem_out = _one_of(data, "responseJsonSchema", "response_json_schema", "response")
    return Parts(
        input_schema=gemini_schema(schema_in) if key_in == "parameters" else schema_in,
        input_pointer=f"/{key_in}",
        output_schema=gemini_schema(schema_out) if key_out == "response" else schema_out,
        output_pointer=f"/{key_out}",
        problem=problem_in or problem_out,
    )


def _docker_arguments(arguments: object) -> object:
    if not isinstance(arguments, list):
        return arguments
    properties: dict[str, object] = {}
    required: list[str] = []
    for argument in arguments:
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            continue
        prop: dict[str, object] = {}
        for key, target in (
            ("type", "type"),
            ("desc", "description"),
            ("description", "description"),
            ("items", "items"),
        ):
            if key in argument:
                prop[target] = argument[key]
        properties[argument["name"]] = prop
        if not argument.get("optional", False) and argument.get("required", True) is not False:
            required.append(argument["name"])
    return {"type": "object", "properties": properties, "required": required}


def _mcp(data: dict[str, object]) -> Parts:
    given = data.get("annotations")
    annotations: dict[str, object] = given if isinstance(given, dict) else {}
    idempotent = annotations.get("idempotentHint")
    hints = tuple((k, v) for k in MCP_HINTS if isinstance(v := annotations.get(k), bool))
    if data.get("inputSchema") is not None or data.get("arguments") is None:
        schema, pointer = data.get("inputSchema"), "/inputSchema"
    else:
        schema, pointer = _docker_arguments(data.get("arguments")), "/arguments"
    return Parts(
        input_schema=schema,
        input_pointer=pointer,
        output_schema=data.get("outputSchema"),
        output_pointer="/outputSchema",
        title=data.get("title"),  # annotations.title stays there (importing.mcpkeep)
        idempotent=idempotent if isinstance(idempotent, bool) else None,
        hints=hints,
    )


SHAPES: dict[str, Shape] = {
    "openai": Shape("openai", ("parameters", "params_json_schema"), _openai),
    "anthropic": Shape("anthropic", ("input_schema",), _anthropic, ("custom",)),
    "gemini": Shape("gemini", ("parameters", "parametersJsonSchema", "parameters_json_schema"), _gemini),
    "mcp": Shape("mcp", ("inputSchema", "arguments"), _mcp),
}
"""Every `--from` choice."""


def _unwrap(value: object, line: int | None, pointer: str, depth: int = 0) -> Iterator[SourceRecord]:
    if depth > 4:
        yield SourceRecord(value, line, pointer)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unwrap(item, line, join(pointer, index), depth + 1)
    elif isinstance(value, dict):
        container = next((k for k in _CONTAINER_KEYS if isinstance(value.get(k), list)), None)
        result = value.get("result")
        if container is not None and "name" not in value:
            yield from _unwrap(value[container], line, join(pointer, container), depth + 1)
        elif isinstance(result, dict) and isinstance(result.get("tools"), list):
            yield from _unwrap(result["tools"], line, join(pointer, "result", "tools"), depth + 1)
        elif value.get("type", "function") == "function" and isinstance(value.get("function"), dict):
            yield SourceRecord(value["function"], line, join(pointer, "function"))
        else:
            yield SourceRecord(value, line, pointer)
    else:
        yield SourceRecord(value, line, pointer)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _loads(text: str) -> object:
    return json.loads(text, parse_constant=_reject_constant)


def _parse_message(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    return exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)


def find_records(text: str, source: str) -> tuple[list[SourceRecord], list[Diagnostic]]:
    """Every declaration in a JSON or JSON Lines text, and a diagnostic for each unreadable part."""
    try:
        value = _loads(text)
        single = isinstance(value, dict) and "name" in value and len(text.strip().splitlines()) == 1
        return list(_unwrap(value, 1 if single else None, "")), []
    except (ValueError, RecursionError) as exc:
        whole_error = exc
    lines = text.splitlines()
    non_empty = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    records: list[SourceRecord] = []
    problems: list[Diagnostic] = []
    parsed_any = False
    for number, line in non_empty:
        try:
            value = _loads(line)
        except (ValueError, RecursionError) as exc:
            message = _parse_message(exc)
            problems.append(Diagnostic("TG102", Severity.ERROR, f"malformed JSON line: {message}", source, "", number))
            continue
        parsed_any = True
        records.extend(_unwrap(value, number, ""))
    if not parsed_any:
        line_no = getattr(whole_error, "lineno", None)
        column = getattr(whole_error, "colno", None)
        message = _parse_message(whole_error)
        return [], [Diagnostic("TG102", Severity.ERROR, f"malformed JSON: {message}", source, "", line_no, column)]
    return records, problems


__all__ = ["INPUT_SPELLINGS", "MCP_HINTS", "SHAPES", "Parts", "Shape", "SourceRecord", "find_records", "lost_schema"]
