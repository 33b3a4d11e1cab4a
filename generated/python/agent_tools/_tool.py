# The toolgen runtime's _tool.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""`Tool`: the typed view of one tool of a registry (`registry.tool(read_file.CONTRACT)`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic

from pydantic import BaseModel
from typing_extensions import TypeVar

from ._contract import ToolContract
from ._results import ToolResult, thaw

if TYPE_CHECKING:
    from ._runtime import Registry

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out")


@dataclass(frozen=True, slots=True)
class Tool(Generic[In, Out]):
    """One tool of a registry, typed: `call` returns `ToolResult[<Tool>Output]` (`Any` data without one)."""

    registry: Registry[Any]
    contract: ToolContract[In, Out]

    def call(self, arguments: In | Mapping[str, Any] | str | bytes) -> ToolResult[Out]:
        """`Registry.call` for this tool; an input model instance is sent as the data it holds."""
        given = thaw(arguments) if isinstance(arguments, BaseModel) else arguments
        result: ToolResult[Out] = self.registry.call(self.contract.name, given)
        return result

    async def acall(
        self, arguments: In | Mapping[str, Any] | str | bytes
    ) -> ToolResult[Out]:
        """`Registry.acall` for this tool, typed as `call` is."""
        given = thaw(arguments) if isinstance(arguments, BaseModel) else arguments
        result: ToolResult[Out] = await self.registry.acall(self.contract.name, given)
        return result
