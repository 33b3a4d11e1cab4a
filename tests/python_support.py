"""Helpers for the python target tests: hostile and edge-case catalogs, building a package, mypy."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from toolgen.config import load_settings
from toolgen.pipeline.stages import generate

HOSTILE = (
    "x \"\"\" ''' \\ \\n {{ a }} {% if x %} \x01\x7f \u2028 \u2029 \u202e\u2066 "
    '"); import os; os.system("echo pwned") # ${x} `rm -rf /` </script>'
)
"""Text that tries to break out of every kind of string, docstring, comment and template."""

NAMES = [
    "from",
    "type",
    "id",
    "Content-Type",
    "2fa",
    "model_config",
    "schema",
    "json",
    "copy",
    "validate",
    "str",
    "int",
    "list",
    "Literal",
    "BaseModel",
    "Field",
    "self",
    "a b",
    "ünï",
    "model_dump",
    "fields",
]
"""Property names that are keywords, builtins, pydantic-reserved, imports or not identifiers."""


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": properties}
    if required:
        schema["required"] = required
    return schema


def hostile_contracts() -> dict[str, dict[str, Any]]:
    """Contracts whose names and text are as awkward as validation allows."""
    odd = {name: {"type": "string", "description": f"{name}: {HOSTILE}"} for name in NAMES}
    odd["mode"] = {"enum": ["a", HOSTILE, 'b"c', "{{ x }}"], "description": HOSTILE}
    odd["implementation"] = _object({"a": {"type": "string", "default": HOSTILE}})
    odd["error_code"] = _object({"CONTRACT": {"type": "integer"}})
    odd["items"] = {"type": "array", "items": {"$ref": "#/$defs/item"}}
    odd["q'u\"ote"] = {"type": "string", "pattern": '^it\'s "x" \\d+ \'\'\' """$'}
    odd["fixed"] = {"const": HOSTILE}
    odd["weird_ref"] = {"$ref": '#/$defs/we\'ird "def"'}
    schema = _object(odd, ["from", "Content-Type"])
    schema["$defs"] = {
        "item": _object({"x": {"type": "number"}, "token": {"type": "string", "x-sensitive": True}}),
        'we\'ird "def"': _object({"n": {"type": "integer"}}),
    }
    first = {
        "name": "class",
        "version": "1.0.0",
        "title": HOSTILE,
        "description": f"Keyword tool. {HOSTILE}",
        "permissions": ["read"],
        "input_schema": schema,
        "output_schema": _object({"from": {"type": "string"}, "ok": {"type": "boolean"}}, ["ok"]),
        "errors": [{"code": "BROKEN_THING", "description": HOSTILE, "retryable": True}],
        "examples": [{"title": HOSTILE, "input": {"from": HOSTILE, "Content-Type": "x"}, "output": {"ok": True}}],
        "deprecated": HOSTILE,
    }
    plain = _object({"q": {"type": "string", "description": "A query."}})
    others = {
        name: {
            "name": name,
            "version": "0.1.0",
            "description": f"Tool named {name}, which a module might shadow.",
            "permissions": [],
            "input_schema": plain,
        }
        for name in ("mocks", "mocks_", "import", "registry", "annotations", "catalog_mapping", "mapping", "typing")
    }
    return {"class": first, **others, "secret_store": secret_contract()}


def secret_contract() -> dict[str, Any]:
    """A tool with `x-sensitive` values at several depths, behind `$ref`, arrays and unions."""
    cred = _object({"user": {"type": "string"}, "password": {"type": "string", "x-sensitive": True}}, ["user"])
    schema = _object(
        {
            "api_key": {"type": "string", "x-sensitive": True, "minLength": 8},
            "label": {"type": "string"},
            "creds": {"type": "array", "items": {"$ref": "#/$defs/cred"}},
            "nested": _object({"deeper": _object({"pin": {"type": "integer", "x-sensitive": True}})}),
            "either": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/cred"}]},
            "headers": {"type": "object", "additionalProperties": {"type": "string", "x-sensitive": True}},
            "blob": _object({"x": {"type": "string"}}) | {"x-sensitive": True},
        },
        ["api_key"],
    )
    schema["$defs"] = {"cred": cred}
    return {
        "name": "secret_store",
        "version": "2.0.0",
        "description": "Stores secrets for a user; returns a receipt.",
        "permissions": ["write", "network"],
        "input_schema": schema,
        "output_schema": _object({"receipt": {"type": "string"}}, ["receipt"]),
        "errors": [{"code": "VAULT_SEALED", "description": "The vault is sealed.", "retryable": True}],
    }


def write_project(root: Path, contracts: dict[str, dict[str, Any]], package: str = "agent_tools") -> Path:
    """A project folder at `root` holding `contracts` as JSON files, python target only."""
    (root / "contracts").mkdir(parents=True, exist_ok=True)
    for name, contract in contracts.items():
        (root / "contracts" / f"{name}.json").write_text(json.dumps(contract, indent=1), encoding="utf-8")
    (root / "toolgen.toml").write_text(f'targets = ["python"]\npython_package = "{package}"\n', encoding="utf-8")
    return root


def build(root: Path) -> dict[str, str]:
    """Generate in memory; path -> text. Fails with the diagnostics when generation fails."""
    settings, problems = load_settings(root)
    assert not problems, problems
    result = generate(settings)
    errors = [d for d in result.diagnostics if d.is_error]
    assert result.ok, "\n".join(f"{d.file}{d.pointer}: {d.code} {d.message}" for d in errors)
    return {a.path: a.text for a in result.artifacts}


def write_package(files: dict[str, str], dest: Path) -> Path:
    """Write generated files under `dest`; returns the folder that holds the package (for sys.path)."""
    for path, text in files.items():
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    return dest / "python"


@contextmanager
def imported(contracts: dict[str, dict[str, Any]], root: Path, package: str) -> Iterator[ModuleType]:
    """The catalog generated under `root` and imported as `package` for the block, then forgotten."""
    write_project(root, contracts, package)
    folder = write_package(build(root), root / "out")
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


def run_mypy(folder: Path, package: str, module: bool = False) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` over the package (or module) in `folder`, ignoring any project configuration."""
    kind = "-m" if module else "-p"
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", "/dev/null", "--no-incremental", kind, package],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "MYPYPATH": str(folder)},
    )


def basic_contracts() -> dict[str, dict[str, Any]]:
    """A small, ordinary catalog: one tool with an output schema and examples, one without."""
    read = {
        "name": "read_file",
        "version": "1.2.0",
        "title": "Read file",
        "description": "Read a UTF-8 text file from the workspace and return its lines.",
        "permissions": ["read"],
        "idempotent": True,
        "input_schema": _object(
            {
                "path": {"type": "string", "description": "Relative path.", "minLength": 1},
                "max_lines": {"type": "integer", "description": "At most this many.", "minimum": 1, "default": 200},
                "encoding": {"enum": ["utf-8", "latin-1"], "description": "Text encoding."},
                "notify": {"type": "string", "format": "email", "description": "Who to tell."},
                "token": {"type": "string", "format": "password", "description": "Access token."},
            },
            ["path"],
        ),
        "output_schema": _object(
            {
                "content": {"type": "string", "description": "The lines."},
                "lines": {"type": "array", "items": _object({"n": {"type": "integer"}, "text": {"type": "string"}})},
            },
            ["content"],
        ),
        "errors": [{"code": "NOT_FOUND", "description": "No such file."}],
        "examples": [{"title": "Read", "input": {"path": "a.py"}, "output": {"content": "x"}}],
    }
    ping = {
        "name": "ping",
        "version": "0.1.0",
        "description": "Check that the agent runtime answers at all.",
        "permissions": [],
        "input_schema": _object({}),
    }
    return {"read_file": read, "ping": ping}


USER_CODE = '''
"""A user's implementation, type-checked against the generated protocol."""

from typing import Literal, assert_type

from agent_tools import Err, Ok, Policy, Registry, ToolResult, TraceRecord
from agent_tools import ping, read_file


def read(arguments: read_file.ReadFileInput) -> ToolResult[read_file.ReadFileOutput]:
    if arguments.path == "missing":
        return read_file.CONTRACT.error("NOT_FOUND", "no such file")
    return Ok(read_file.ReadFileOutput(content=arguments.path))


def pong(arguments: ping.PingInput) -> ToolResult[dict[str, bool]]:
    return Ok({"pong": True})


implementation: read_file.Implementation = read
other: ping.Implementation = pong
traces: list[TraceRecord] = []
registry = Registry(Policy(allow={"read"}), traces.append)
registry.register("read_file", implementation)
result = registry.call("read_file", {"path": "a"})
if isinstance(result, Err):
    assert_type(result.code, str)
else:
    assert_type(result.ok, Literal[True])
'''
"""Code a user writes against the basic catalog; `mypy --strict` must accept it."""
