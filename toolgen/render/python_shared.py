"""What the python target adds to each tool module: its provider declarations for the framework
adapters (`ToolContract.declarations`)."""

from __future__ import annotations

from toolgen.catalog import Contract
from toolgen.config import Settings


def provider_entries(contract: Contract, settings: Settings) -> dict[str, object]:
    """The tool's entries in `providers/openai_responses.json` (`openai`), `providers/mcp.json`
    (`mcp`) and `providers/gemini.json` (`gemini`), each absent when `[providers]` leaves the tool out
    of that file; the framework adapters declare exactly these. The providers target reports their
    diagnostics."""
    from toolgen.render.providers import gemini, mcp, openai
    from toolgen.render.providers.common import ProviderResult

    out = ProviderResult()
    found: dict[str, object] = {}
    entry = openai.tool_entries(settings, contract, out).get("openai_responses.json")
    if isinstance(entry, dict):  # without the namespace marker, which only `wrap` reads
        found["openai"] = {k: v for k, v in entry.items() if k != openai.NAMESPACE_KEY}
    tool = mcp.tool_entries(settings, contract, out).get("mcp.json")
    if tool is not None:
        found["mcp"] = tool
    declaration = gemini.tool_entries(settings, contract, out).get("gemini.json")
    if declaration is not None:
        found["gemini"] = declaration
    return found
