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

What is offered (`offered`): every adapter and the MCP server's `tools/list` offer the same tools,
those registered whose permissions the policy allows or asks an approval for (a denied tool is
left out: the model never sees a tool it cannot call), optionally only those with one of `tags`.
`offer_all=True` keeps the earlier lists: every registered tool (the MCP server: every tool of the
catalog it declares). How "ask" reaches a framework (`approval="framework"` or `"registry"`) is in
each adapter's docstring.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from .._runtime import Registry, ToolContract, thaw

ApprovalMode = Literal["framework", "registry"]
"""Who asks for an "ask" tool: the framework's own approval flow, or the registry's approver."""


def offered(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
    *,
    registered_only: bool = True,
) -> tuple[ToolContract, ...]:
    """The tools to offer, sorted by name (see the module docstring)."""
    wanted = set(tags) if tags is not None else None
    found = []
    for contract in registry.contracts:
        if registered_only and contract.name not in registry.registered:
            continue
        if wanted is not None and not wanted & set(contract.tags):
            continue
        if not offer_all and registry.policy.decide(contract)[0] == "deny":
            continue
        found.append(contract)
    return tuple(found)


def asks(registry: Registry[Any], contract: ToolContract) -> bool:
    """True when the policy answers "ask" for `contract`."""
    return registry.policy.decide(contract)[0] == "ask"


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


__all__ = ["ApprovalMode", "asks", "declared_input", "offered"]
