"""The runtime every generated package carries: `toolgen/runtime/`, copied byte for byte.

The runtime is ordinary Python in toolgen's own source tree, so ruff, mypy, coverage and mutation
testing see it and the tests import it directly (`toolgen.runtime._runtime`). Nothing in it depends
on the catalog: the python target writes its modules unchanged beside the rendered `__init__.py`
and tool modules, and the mocks target writes the three mock modules the same way. A reader can diff
`generated/python/<package>/_runtime.py` against `toolgen/runtime/_runtime.py`: they are equal.
"""

from __future__ import annotations

from pathlib import Path

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"
"""The runtime's source folder (inside the installed toolgen package)."""

PACKAGE_MODULES: tuple[str, ...] = (
    "_runtime",
    "_contract",
    "_outcome",
    "_implements",
    "_tool",
    "_masking",
    "_results",
    "_content",
    "_schemas",
    "_patterns",
    "_redact",
    "_quote",
    "_policy",
    "_invoke",
    "_context",
    "_calls",
    "_approval",
    "_retry",
    "_otel",
    "_roundtrip",
    "_tracefile",
    "_enforce",
    "_replay",
    "integrations/__init__",
    "integrations/openai_agents",
    "integrations/pydantic_ai",
    "integrations/langchain",
    "integrations/mcp",
    "integrations/_mcp_context",
)
"""The runtime modules the python target writes (`<name>.py` under the package folder)."""

MOCK_MODULES: tuple[str, ...] = ("mocks", "_mock_synth", "_mock_values", "_mock_pattern")
"""The runtime modules the mocks target writes."""


def source(name: str) -> str:
    """The text of the runtime module `name` (`"_runtime"`, `"integrations/mcp"`), exactly as stored."""
    return (RUNTIME / f"{name}.py").read_bytes().decode("utf-8")
