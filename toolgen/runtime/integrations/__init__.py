# The toolgen runtime's integrations/__init__.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Adapters that put this package's registry into agent frameworks, one module per framework.

- `openai_agents.tools(registry)`: OpenAI Agents SDK `FunctionTool`s.
- `pydantic_ai.tools(registry)`: pydantic-ai `Tool`s.
- `langchain.tools(registry)`: LangChain `StructuredTool`s.
- `mcp.server(registry)` / `mcp.serve_stdio(registry)`: an MCP server (the official `mcp` SDK).

Importing this package imports no framework; each module imports its own only when a function of
it is called, so the generated package needs none of them. Every adapter calls `Registry.acall`:
validation, policy and tracing stay the registry's, and the adapter adds none of its own. The
declarations the frameworks get are the ones toolgen built for the providers
(`ToolContract.declarations`), not re-derived here.
"""

from __future__ import annotations

from typing import Any

from .._runtime import ToolContract, thaw


def declared_input(contract: ToolContract) -> dict[str, Any]:
    """`description` and `inputSchema` of the tool's MCP declaration (its input schema without `x-`
    annotations); for a tool `[providers]` leaves out of MCP, the contract's own description and schema.
    """
    declared = contract.declarations.get("mcp")
    if declared is not None:
        found: dict[str, Any] = thaw(declared)
        return found
    return {
        "description": contract.description,
        "inputSchema": contract.json_schema("input"),
    }


__all__ = ["declared_input"]
