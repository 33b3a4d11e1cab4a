# The toolgen runtime's integrations/pydantic_ai.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as pydantic-ai tools: `tools(registry)` -> a list of `pydantic_ai.Tool`.

Each tool is made with `Tool.from_schema` from the declared JSON schema (the input schema with
toolgen's `x-` annotations removed, as `providers/mcp.json` declares it), so pydantic-ai validates
nothing itself: the arguments go to `Registry.acall` as the model sent them. A success returns the
output as plain JSON data. A failure raises what pydantic-ai turns into a failed tool result the
model sees: `INVALID_INPUT` raises `ModelRetry` (the model is asked to correct the arguments; it
counts against the tool's retries), every other error `ToolFailed` with the error's JSON text
(policy denial included). The `pydantic_ai` package is imported when `tools` is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._runtime import Err, Registry, ToolContract
from . import declared_input

if TYPE_CHECKING:
    from pydantic_ai import Tool  # type: ignore[import-not-found,unused-ignore]


def _function(registry: Registry, name: str) -> Any:
    from pydantic_ai import ModelRetry, ToolFailed  # type: ignore[import-not-found,unused-ignore]

    async def call(**arguments: Any) -> Any:
        result = await registry.acall(name, arguments)
        if isinstance(result, Err):
            if result.code == "INVALID_INPUT":
                raise ModelRetry(result.text())
            raise ToolFailed(result.text())
        return result.payload()

    call.__name__ = name
    return call


def tool(registry: Registry, contract: ToolContract) -> Tool[Any]:
    """The pydantic-ai `Tool` of one tool of `registry`."""
    from pydantic_ai import Tool  # type: ignore[import-not-found,unused-ignore]

    declared = declared_input(contract)
    return Tool.from_schema(
        _function(registry, contract.name),
        name=contract.name,
        description=declared["description"],
        json_schema=declared["inputSchema"],
    )


def tools(registry: Registry) -> list[Tool[Any]]:
    """One `Tool` per tool `registry` has an implementation for, sorted by name."""
    return [
        tool(registry, c) for c in registry.contracts if c.name in registry.registered
    ]


__all__ = ["tool", "tools"]
