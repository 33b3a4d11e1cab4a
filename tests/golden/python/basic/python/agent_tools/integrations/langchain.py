# The toolgen runtime's integrations/langchain.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as LangChain tools: `tools(registry)` -> a list of `StructuredTool`.

Each tool's `args_schema` is the declared JSON schema (the input schema without toolgen's `x-`
annotations, as `providers/mcp.json` declares it). LangChain passes a JSON-schema `args_schema`'s
arguments through as the model sent them, without filling in defaults, and the registry validates
them. A success is the output's JSON text; a failure raises `ToolException` with the error's JSON
text, which the tool (`handle_tool_error=True`) turns into a `ToolMessage` with `status="error"`.
Sync `invoke` goes through `Registry.call`, `ainvoke` through `Registry.acall`. The
`langchain_core` package is imported when `tools` is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._runtime import Err, Registry, ToolContract, ToolResult
from . import declared_input

if TYPE_CHECKING:
    from langchain_core.tools import StructuredTool  # type: ignore[import-not-found,unused-ignore]


def _text(result: ToolResult[Any]) -> str:
    from langchain_core.tools import ToolException  # type: ignore[import-not-found,unused-ignore]

    if isinstance(result, Err):
        raise ToolException(result.text())
    return result.text()


def tool(registry: Registry, contract: ToolContract) -> StructuredTool:
    """The `StructuredTool` of one tool of `registry`."""
    from langchain_core.tools import StructuredTool  # type: ignore[import-not-found,unused-ignore]

    name = contract.name

    def run(**arguments: Any) -> str:
        return _text(registry.call(name, arguments))

    async def arun(**arguments: Any) -> str:
        return _text(await registry.acall(name, arguments))

    declared = declared_input(contract)
    return StructuredTool(
        name=name,
        description=declared["description"],
        args_schema=declared["inputSchema"],
        func=run,
        coroutine=arun,
        handle_tool_error=True,
    )


def tools(registry: Registry) -> list[StructuredTool]:
    """One `StructuredTool` per tool `registry` has an implementation for, sorted by name."""
    return [
        tool(registry, c) for c in registry.contracts if c.name in registry.registered
    ]


__all__ = ["tool", "tools"]
