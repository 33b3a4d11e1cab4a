# The toolgen runtime's integrations/openai_agents.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as OpenAI Agents SDK tools: `tools(registry)` -> a list of `agents.FunctionTool`.

Each tool's `params_json_schema` is the OpenAI Responses declaration toolgen built
(`providers/openai_responses.json`), `strict_json_schema` its `strict` flag. The SDK's invocation
hands the model's argument text to `Registry.acall` unchanged (the registry drops the nulls strict
mode sends for left-out optional properties); the tool's output is the result's JSON text: the
data, or `{"error": {...}}` for a failure (policy denial and invalid input included), which the SDK
gives the model as the tool's output. The `agents` package is imported when `tools` is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._runtime import Registry, ToolContract, thaw

if TYPE_CHECKING:
    from agents import FunctionTool  # type: ignore[import-not-found,unused-ignore]


def _invoker(registry: Registry, name: str) -> Any:
    async def invoke(context: Any, arguments: str) -> str:
        result = await registry.acall(name, arguments or "{}")
        return result.text()

    invoke.__name__ = f"invoke_{name}"
    return invoke


def tool(registry: Registry, contract: ToolContract) -> FunctionTool:
    """The `FunctionTool` of one tool of `registry`."""
    from agents import FunctionTool  # type: ignore[import-not-found,unused-ignore]

    declared = thaw(contract.declarations["openai"])
    return FunctionTool(
        name=declared["name"],
        description=declared["description"],
        params_json_schema=declared["parameters"],
        on_invoke_tool=_invoker(registry, contract.name),
        strict_json_schema=bool(declared["strict"]),
    )


def tools(registry: Registry) -> list[FunctionTool]:
    """One `FunctionTool` per tool `registry` has an implementation for, sorted by name (a tool that
    `[providers]` leaves out of `openai_responses.json` has no OpenAI declaration and is left out).
    """
    return [
        tool(registry, c)
        for c in registry.contracts
        if c.name in registry.registered and "openai" in c.declarations
    ]


__all__ = ["tool", "tools"]
