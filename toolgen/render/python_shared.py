"""What the python target adds beside the tool modules: the shared modules' names, and each tool's
provider declarations for the framework adapters (`ToolContract.declarations`)."""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Contract
from toolgen.config import Settings

SHARED: tuple[str, ...] = (
    "_runtime",
    "_results",
    "_schemas",
    "_redact",
    "_policy",
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


def declarations(contract: Contract, settings: Settings) -> dict[str, Any]:
    """The tool's entries in `providers/openai_responses.json` (`openai`) and `providers/mcp.json`
    (`mcp`), each absent when `[providers]` leaves the tool out of that file; the framework adapters
    declare exactly these. The providers target reports their diagnostics."""
    from toolgen.render.providers import mcp, openai
    from toolgen.render.providers.common import Output

    out = Output()
    found: dict[str, Any] = {}
    entry = openai.tool_entries(settings, contract, out).get("openai_responses.json")
    if entry is not None:  # without the namespace marker, which only `wrap` reads
        found["openai"] = {k: v for k, v in entry.items() if k != openai.NAMESPACE_KEY}
    tool = mcp.tool_entries(settings, contract, out).get("mcp.json")
    if tool is not None:
        found["mcp"] = tool
    return found
