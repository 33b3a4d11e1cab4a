"""What the python target adds beside the tool modules: the shared modules' names, and each tool's
provider declarations for the framework adapters (`ToolContract.declarations`)."""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Contract

SHARED: tuple[str, ...] = (
    "_runtime",
    "_results",
    "_schemas",
    "_invoke",
    "_roundtrip",
    "_tracefile",
    "_enforce",
    "_replay",
    "integrations/__init__",
    "integrations/openai_agents",
    "integrations/pydantic_ai",
    "integrations/langchain",
    "integrations/mcp",
)
"""The package's modules that are the same for every catalog (`templates/python/<name>.py.jinja`)."""


def declarations(contract: Contract) -> dict[str, Any]:
    """The tool's entries in `providers/openai_responses.json` and `providers/mcp.json` (the
    framework adapters declare exactly these); the providers target reports their diagnostics."""
    from toolgen.render.providers import mcp, openai
    from toolgen.render.providers.common import Output

    return {"openai": openai.tool_entries(contract, Output())["openai_responses.json"], "mcp": mcp.tool(contract)}
