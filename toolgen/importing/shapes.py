"""The shapes `toolgen import` reads: where each provider keeps a tool's name, schemas and extras.

`find_records` turns a source text (JSON or JSON Lines) into declaration records, unwrapping the
containers providers use: arrays, `{"tools": [...]}` (an MCP `tools/list` result or a request body),
a JSON-RPC `{"result": {"tools": [...]}}`, Gemini `{"functionDeclarations": [...]}` and OpenAI chat
`{"type": "function", "function": {...}}`. Each record keeps its JSONL line and RFC 6901 pointer.
A `Shape` says where one provider puts the parts of a declaration:
- openai: `parameters` (chat and responses shapes);
- anthropic: `input_schema`, `input_examples`;
- gemini: `parametersJsonSchema` or OpenAPI-style `parameters` (upper-case types, lower-cased here),
  `responseJsonSchema` or `response`;
- mcp: `inputSchema`, `outputSchema`, `title`, `annotations` (`title`, `idempotentHint`), or Docker's
  registry format `arguments: [{name, type, desc, optional}]`, turned into a JSON Schema here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.importing.repair import Repair
from toolgen.positions import join

_CONTAINER_KEYS = ("tools", "functionDeclarations", "function_declarations")
_SCHEMA_KEYS = {
    "parameters": "openai",
    "input_schema": "anthropic",
    "inputSchema": "mcp",
    "arguments": "mcp",
    "parametersJsonSchema": "gemini",
}


@dataclass(frozen=True, slots=True)
class Record:
    """One declaration found in a source file, and where it was found."""

    data: Any
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

    input_schema: Any = None
    input_pointer: str = ""
    output_schema: Any = None
    output_pointer: str = ""
    title: Any = None
    idempotent: bool | None = None
    examples: Any = None
    repairs: tuple[Repair, ...] = ()


@dataclass(frozen=True, slots=True)
class Shape:
    """How one provider lays out a declaration."""

    name: str
    schema_keys: tuple[str, ...]
    parts: Callable[[dict[str, Any]], Parts]
    builtin_types: tuple[str, ...] = ("function",)

    def mismatch(self, data: Any) -> str:
        """Why this record cannot be read in this shape, or an empty string."""
        if not isinstance(data, dict):
            return f"the declaration is {type(data).__name__}, not an object"
        kind = data.get("type")
        if isinstance(kind, str) and kind not in self.builtin_types and "name" in data:
            return f"a built-in {kind!r} tool, not a function declaration; only function tools can be imported"
        if not any(k in data for k in self.schema_keys):
            for key, other in _SCHEMA_KEYS.items():
                if key == "arguments" and not isinstance(data.get(key), list):
                    continue
                if key in data and other != self.name:
                    return f"this looks like a {other} declaration (it has `{key}`); import it with --from {other}"
        return ""


def _openai(data: dict[str, Any]) -> Parts:
    if "parameters" not in data and isinstance(data.get("arguments"), dict):
        moved = Repair("/arguments", "the input schema is under `arguments`; read it as `parameters`")
        return Parts(input_schema=data["arguments"], input_pointer="/arguments", repairs=(moved,))
    return Parts(input_schema=data.get("parameters"), input_pointer="/parameters")


def _anthropic(data: dict[str, Any]) -> Parts:
    return Parts(
        input_schema=data.get("input_schema"), input_pointer="/input_schema", examples=data.get("input_examples")
    )


def _openapi_types(schema: Any) -> Any:
    if isinstance(schema, dict):
        out = {k: _openapi_types(v) for k, v in schema.items()}
        kind = out.get("type")
        if isinstance(kind, str) and kind.isupper():
            out["type"] = kind.lower()
        return out
    if isinstance(schema, list):
        return [_openapi_types(v) for v in schema]
    return schema


def _gemini(data: dict[str, Any]) -> Parts:
    key_in = "parametersJsonSchema" if "parametersJsonSchema" in data else "parameters"
    key_out = "responseJsonSchema" if "responseJsonSchema" in data else "response"
    schema_in = data.get(key_in) if key_in == "parametersJsonSchema" else _openapi_types(data.get(key_in))
    schema_out = data.get(key_out) if key_out == "responseJsonSchema" else _openapi_types(data.get(key_out))
    return Parts(
        input_schema=schema_in,
        input_pointer=f"/{key_in}",
        output_schema=schema_out,
        output_pointer=f"/{key_out}",
    )


def _docker_arguments(arguments: Any) -> Any:
    if not isinstance(arguments, list):
        return arguments
    properties: dict[str, Any] = {}
    required: list[str] = []
    for argument in arguments:
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            continue
        prop: dict[str, Any] = {}
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


def _mcp(data: dict[str, Any]) -> Parts:
    annotations: dict[str, Any] = data["annotations"] if isinstance(data.get("annotations"), dict) else {}
    idempotent = annotations.get("idempotentHint")
    if "inputSchema" in data or "arguments" not in data:
        schema, pointer = data.get("inputSchema"), "/inputSchema"
    else:
        schema, pointer = _docker_arguments(data.get("arguments")), "/arguments"
    return Parts(
        input_schema=schema,
        input_pointer=pointer,
        output_schema=data.get("outputSchema"),
        output_pointer="/outputSchema",
        title=data.get("title") or annotations.get("title"),
        idempotent=idempotent if isinstance(idempotent, bool) else None,
    )


SHAPES: dict[str, Shape] = {
    "openai": Shape("openai", ("parameters",), _openai),
    "anthropic": Shape("anthropic", ("input_schema",), _anthropic, ("custom",)),
    "gemini": Shape("gemini", ("parameters", "parametersJsonSchema"), _gemini),
    "mcp": Shape("mcp", ("inputSchema", "arguments"), _mcp),
}
"""Every `--from` choice."""


def _unwrap(value: Any, line: int | None, pointer: str, depth: int = 0) -> Iterator[Record]:
    if depth > 4:
        yield Record(value, line, pointer)
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
        elif value.get("type") == "function" and isinstance(value.get("function"), dict):
            yield Record(value["function"], line, join(pointer, "function"))
        else:
            yield Record(value, line, pointer)
    else:
        yield Record(value, line, pointer)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _parse_message(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    return exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)


def find_records(text: str, source: str) -> tuple[list[Record], list[Diagnostic]]:
    """Every declaration in a JSON or JSON Lines text, and a diagnostic for each unreadable part."""
    try:
        value = _loads(text)
        single = isinstance(value, dict) and "name" in value and len(text.strip().splitlines()) == 1
        return list(_unwrap(value, 1 if single else None, "")), []
    except (ValueError, RecursionError) as exc:
        whole_error = exc
    lines = text.splitlines()
    non_empty = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    records: list[Record] = []
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


__all__ = ["SHAPES", "Parts", "Record", "Shape", "find_records"]
