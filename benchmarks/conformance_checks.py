"""The checks of `conformance.py` on a built batch: the generated Python package imported module by
module with its mocks (in a subprocess), and every provider file validated with the provider SDKs'
own types. Each marks the records whose output fails as broken.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = "conformance_tools"
"""The Python package every conformance batch builds."""


@dataclass
class Outcome:
    """What happened to one record: its line, name, state and (unless built) the reason."""

    line: int
    name: str
    state: str = "built"
    reason: str = ""
    imported: bool = False
    changed: list[str] = field(default_factory=list)
    lost: str = ""


def describe(exc: BaseException | None) -> str:
    """An exception in one line: its type, message (cut) and where it was raised."""
    if exc is None:
        return "?"
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return f"{type(exc).__name__}: {str(exc)[:200]}{where}"


_IMPORT_CHECK = """
import importlib, json, pkgutil, sys
failures = {}
pkg = importlib.import_module(sys.argv[1])
for info in pkgutil.iter_modules(pkg.__path__):
    try:
        importlib.import_module(f"{sys.argv[1]}.{info.name}")
    except Exception as exc:
        failures[info.name] = f"{type(exc).__name__}: {str(exc)[:200]}"
try:
    registry = pkg.mocks.mock_registry() if hasattr(pkg, "mocks") else importlib.import_module(
        f"{sys.argv[1]}.mocks").mock_registry()
    for contract in pkg.CATALOG:
        result = registry.call(contract.name, "{}")
        if result.ok is not True and result.code not in ("INVALID_INPUT",):
            failures[contract.name] = f"mock call with {{}} gave {result.code}: {result.message[:150]}"
except Exception as exc:
    failures["*"] = f"{type(exc).__name__}: {str(exc)[:200]}"
print(json.dumps(failures))
"""


def check_python(out: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> str | None:
    """Import the package and each module; mark broken tools. Returns the contract file (relative) of
    a tool whose module stops the whole package from importing, so the caller can drop it and retry."""
    by_name = {Path(rel).stem: n for rel, n in files.items()}
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_CHECK, PACKAGE],
        cwd=out / "python",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    try:
        failures = json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        culprit = _culprit(run.stderr, by_name)
        last = run.stderr.strip().splitlines()[-1][:300] if run.stderr.strip() else f"exit {run.returncode}"
        reason = f"the package does not import: {last}"
        if culprit is not None:
            stopper = by_name[culprit]
            outcomes[stopper].state, outcomes[stopper].reason = "broken", f"python package ({culprit}): {reason}"
            return next(rel for rel, n in files.items() if n == stopper)
        failures = {"*": reason}
    for module, reason in failures.items():
        number = by_name.get(module, by_name.get(module.rstrip("_")))
        for line in [number] if number is not None else list(by_name.values()):
            if outcomes[line].state == "built":
                outcomes[line].state, outcomes[line].reason = "broken", f"python package ({module}): {reason}"
    return None


def _culprit(stderr: str, by_name: dict[str, int]) -> str | None:
    """The tool whose module appears last in an import traceback, if any."""
    modules: list[str] = re.findall(rf"{PACKAGE}/(\w+)\.py", stderr)
    for module in reversed(modules):
        for name in (module, module.rstrip("_")):
            if name in by_name:
                return name
    return None


@functools.cache
def _sdk_validators() -> dict[str, Any]:
    from anthropic.types import ToolParam
    from google.genai import types as genai
    from mcp import types as mcp
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam
    from pydantic import TypeAdapter

    def typed(adapter: TypeAdapter[Any], keys: set[str]) -> Any:
        def check(item: Any) -> None:
            adapter.validate_python(item)
            extra = set(item) - keys
            if extra:
                raise ValueError(f"keys the SDK type does not declare: {sorted(extra)}")

        return check

    return {
        "openai_chat.json": typed(TypeAdapter(ChatCompletionFunctionToolParam), {"type", "function"}),
        "openai_responses.json": typed(TypeAdapter(FunctionToolParam), set(FunctionToolParam.__annotations__)),
        "anthropic.json": typed(TypeAdapter(ToolParam), set(ToolParam.__annotations__)),
        "gemini.json": genai.Tool.model_validate,
        "mcp.json": mcp.ListToolsResult.model_validate,
    }


@functools.cache
def _validators() -> dict[str, Any]:
    """The provider helper's checks (tests/providers_support.py: the SDK types plus the strict-mode and
    Gemini-subset rules the SDKs do not check) when they exist, else the SDK types alone."""
    try:
        from tests import providers_support as checks
    except ImportError:
        return _sdk_validators()
    return {
        "openai_chat.json": checks.check_openai_chat,
        "openai_responses.json": checks.check_openai_responses,
        "anthropic.json": checks.check_anthropic,
        "gemini.json": lambda tool: checks.check_gemini([tool]),
        "mcp.json": checks.check_mcp,
    }


def check_providers(out: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> None:
    """Validate every provider file's tools with `_validators()`; mark broken tools."""
    by_name = {Path(rel).stem: n for rel, n in files.items()}
    for filename, check in _validators().items():
        path = out / "providers" / filename
        if not path.exists():
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        if filename == "mcp.json":
            items = [({"tools": [tool]}, tool.get("name")) for tool in document.get("tools", [])]
        elif filename == "gemini.json":
            items = [
                ({"functionDeclarations": [d]}, d.get("name")) for t in document for d in t["functionDeclarations"]
            ]
        else:
            items = [(item, item.get("name") or item.get("function", {}).get("name")) for item in document]
        for item, name in items:
            try:
                check(item)
            except Exception as exc:
                number = by_name.get(name)
                if number is not None and outcomes[number].state == "built":
                    outcomes[number].state = "broken"
                    outcomes[number].reason = f"{filename} fails its check: {describe(exc)}"
