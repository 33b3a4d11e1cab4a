"""A small catalog for the agent-loop tests (async, timeouts, round trips, framework adapters, MCP).

`lookup_word` reads (strict for OpenAI: its optional `limit` arrives as null), `erase_word` writes
(a read-only policy denies it) and `pause` is pure, with `timeout_ms` set, for the timeout tests.
`agent_package(tmp, name)` generates the package and imports it under `name`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.python_support import build, write_package, write_project


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


def agent_contracts() -> dict[str, dict[str, Any]]:
    """Three tools: a read, a write and a pure one with a time limit."""
    lookup = {
        "name": "lookup_word",
        "version": "1.0.0",
        "description": "Look up a word in the glossary and return its definition.",
        "permissions": ["read"],
        "input_schema": _object(
            {
                "word": {"type": "string", "description": "The word.", "minLength": 1},
                "limit": {"type": "integer", "description": "At most this many.", "minimum": 1, "default": 1},
                "api_key": {"type": "string", "description": "Glossary key.", "x-sensitive": True},
            },
            ["word"],
        ),
        "output_schema": _object({"definition": {"type": "string", "description": "The definition."}}, ["definition"]),
        "errors": [{"code": "UNKNOWN_WORD", "description": "No such word.", "retryable": False}],
        "examples": [{"input": {"word": "catalog"}, "output": {"definition": "All contracts."}}],
    }
    erase = {
        "name": "erase_word",
        "version": "1.0.0",
        "description": "Remove a word and its definition from the glossary for good.",
        "permissions": ["write"],
        "input_schema": _object({"word": {"type": "string", "description": "The word."}}, ["word"]),
        "errors": [{"code": "UNKNOWN_WORD", "description": "No such word.", "retryable": False}],
    }
    pause = {
        "name": "pause",
        "version": "1.0.0",
        "description": "Wait for the given number of milliseconds, then say how long it waited.",
        "permissions": [],
        "timeout_ms": 400,
        "input_schema": _object({"ms": {"type": "integer", "description": "How long.", "minimum": 0}}, ["ms"]),
        "output_schema": _object({"waited_ms": {"type": "integer", "description": "Waited."}}, ["waited_ms"]),
    }
    return {"lookup_word": lookup, "erase_word": erase, "pause": pause}


def generate_package(tmp: Path, package: str) -> Path:
    """Generate the agent catalog's package under `tmp`; the folder to put on sys.path."""
    root = write_project(tmp, agent_contracts(), package)
    return write_package(build(root), root / "out")


@contextmanager
def agent_package(tmp: Path, package: str) -> Iterator[ModuleType]:
    """The package, imported under `package` for the duration of the block."""
    folder = generate_package(tmp, package)
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


class Glossary:
    """Implementations that record the validated input they were called with."""

    def __init__(self, pkg: ModuleType) -> None:
        self.pkg = pkg
        self.seen: list[tuple[str, Any]] = []

    def lookup(self, arguments: Any) -> Any:
        self.seen.append(("lookup_word", arguments))
        if arguments.word == "missing":
            return self.pkg.Err("UNKNOWN_WORD", "no such word")
        return self.pkg.Ok({"definition": f"{arguments.word} x{arguments.limit}"})

    def erase(self, arguments: Any) -> Any:
        self.seen.append(("erase_word", arguments))
        return self.pkg.Ok({})

    def registry(self, tracer: Any = None, allow: tuple[str, ...] = ("read",)) -> Any:
        """A registry granting `allow`, with `lookup_word` and `erase_word` registered."""
        registry = self.pkg.Registry(policy=self.pkg.Policy(allow=set(allow)), tracer=tracer)
        registry.register("lookup_word", self.lookup)
        registry.register("erase_word", self.erase)
        return registry
