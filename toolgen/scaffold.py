"""`toolgen new`: write a starting contract that validates, with `TODO` placeholders where only a person
knows what to say; each is a TG150 warning, so `toolgen validate --strict` fails until they are written.

The scaffold carries the editor-schema line (a taplo `#:schema` comment in TOML, a `$schema` key in
JSON) pointing at `<output>/contract.schema.json`, relative to the new file. It refuses a bad name,
a folder outside `contracts/`, an existing file and a name another contract already uses.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from toolgen.config import Settings
from toolgen.discovery import CONTRACT_SUFFIXES
from toolgen.formatschema import SCHEMA_FILE
from toolgen.frozen import as_array, as_object
from toolgen.importing.tomlemit import inline
from toolgen.validate.contract import MAX_NAME, NAME_RE, suggest_name
from toolgen.validate.lint import VERSION_SUFFIX


class ScaffoldError(Exception):
    """The contract cannot be written; the message says why and what to do."""


def refuse_bad_name(name: str) -> None:
    """Raise `ScaffoldError` unless `name` is a valid tool name that passes the strict review."""
    if not NAME_RE.match(name) or len(name) > MAX_NAME:
        fixed = suggest_name(name)
        raise ScaffoldError(
            f"{name!r} is not a valid tool name: use snake_case (^[a-z][a-z0-9_]*$), at most {MAX_NAME} characters, "
            f"like {fixed}"
        )
    if VERSION_SUFFIX.search(name):
        raise ScaffoldError(
            f"{name!r} ends in a version suffix; name the tool without it, like {VERSION_SUFFIX.sub('', name)}, "
            "and use `version` instead"
        )


def starting_contract(name: str) -> dict[str, object]:
    """The starting contract for `name`, as data (keys in the order they are written)."""
    words = name.replace("_", " ")
    return {
        "name": name,
        "version": "0.1.0",
        "title": words.capitalize(),
        "description": (
            f"TODO: say when the model should use {name}, what it must not be used for, and what it returns.\n"
        ),
        "permissions": [],
        "idempotent": True,
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["query"],
            "properties": {
                "query": {"type": "string", "description": "TODO: what this argument means.", "minLength": 1}
            },
        },
        "output_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["result"],
            "properties": {"result": {"type": "string", "description": "TODO: what the tool returns."}},
        },
        "errors": [
            {
                "code": "NOT_FOUND",
                "description": "TODO: when this error happens and what the caller should do.",
                "retryable": False,
            }
        ],
        "examples": [
            {"title": "A typical call", "input": {"query": "example"}, "output": {"result": "example result"}},
            {
                "title": "Nothing matches",
                "input": {"query": "missing"},
                "error": {"code": "NOT_FOUND", "message": "No match"},
            },
        ],
    }


def _toml_schema(table: str, schema: Mapping[str, object]) -> list[str]:
    lines = ["", f"[{table}]"]
    lines += [f"{k} = {inline(v)}" for k, v in schema.items() if k != "properties"]
    for prop, sub in as_object(schema["properties"]).items():
        lines += ["", f"[{table}.properties.{prop}]"]
        lines += [f"{k} = {inline(v)}" for k, v in as_object(sub).items()]
    return lines


def to_toml(data: Mapping[str, object], schema_path: str) -> str:
    """The contract as TOML, with the taplo `#:schema` line first."""
    lines = [f"#:schema {schema_path}"]
    for key in ("name", "version", "title"):
        lines.append(f"{key} = {inline(data[key])}")
    lines.append(f'description = """\n{data["description"]}"""')
    lines += [f"{k} = {inline(data[k])}" for k in ("permissions", "idempotent")]
    lines += _toml_schema("input_schema", as_object(data["input_schema"]))
    lines += _toml_schema("output_schema", as_object(data["output_schema"]))
    for error in as_array(data["errors"]):
        lines += ["", "[[errors]]", *(f"{k} = {inline(v)}" for k, v in as_object(error).items())]
    for example in as_array(data["examples"]):
        lines += ["", "[[examples]]", *(f"{k} = {inline(v)}" for k, v in as_object(example).items())]
    return "\n".join(lines) + "\n"


def to_json(data: Mapping[str, object], schema_path: str) -> str:
    """The contract as JSON, with the `$schema` key first."""
    return json.dumps({"$schema": schema_path, **data}, indent=2, ensure_ascii=False) + "\n"


def _existing(settings: Settings, name: str) -> Path | None:
    if not settings.contracts_dir.is_dir():
        return None
    for suffix in CONTRACT_SUFFIXES:
        for path in sorted(settings.contracts_dir.rglob(f"{name}{suffix}")):
            return path
    return None


def target_path(settings: Settings, name: str, fmt: str, folder: str | None) -> Path:
    """Where the new contract goes; raises `ScaffoldError` for a folder outside the contracts folder."""
    base = settings.contracts_dir
    where = (base / folder).resolve() if folder else base
    if folder and (Path(folder).is_absolute() or not where.is_relative_to(base)):
        raise ScaffoldError(f"--dir {folder!r} must be a folder inside {settings.rel(base)}/")
    return where / f"{name}.{fmt}"


def create(settings: Settings, name: str, fmt: str = "toml", folder: str | None = None) -> Path:
    """Write the scaffold for `name` and return its path; raises `ScaffoldError` with the reason."""
    refuse_bad_name(name)
    path = target_path(settings, name, fmt, folder)
    if path.exists() or path.is_symlink():
        raise ScaffoldError(f"{settings.rel(path)} already exists; toolgen new never overwrites a contract")
    other = _existing(settings, name)
    if other is not None:
        raise ScaffoldError(f"a contract named {name!r} already exists at {settings.rel(other)}; tool names are unique")
    schema_path = Path(os.path.relpath(settings.output_dir / SCHEMA_FILE, path.parent)).as_posix()
    data = starting_contract(name)
    text = to_toml(data, schema_path) if fmt == "toml" else to_json(data, schema_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return path
