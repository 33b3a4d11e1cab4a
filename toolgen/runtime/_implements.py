# The toolgen runtime's _implements.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The types of an implementation, sync or async, and the `@registry.implements(...)` decorator.

Part of the runtime: `_runtime` (and the package) re-export the public names here. An
implementation is called with the validated input model and returns a `ToolResult`, or is an
`async def` whose coroutine does: `ToolReturn[T]` is either. `TypedImplementation[In, Out]` is
what a tool's contract `ToolContract[In, Out]` accepts, so mypy checks an implementation's input
type and result type against the tool's models when it is registered through its contract
(`registry.register(read_file.CONTRACT, read)`) or with the decorator. An implementation may take
a second parameter, the call's `ToolContext` (`_context.py`); by name, on a `Registry[Deps]`, mypy
checks it is a `ToolContext[Deps]` (`Typed[Deps]`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, overload

from pydantic import BaseModel
from typing_extensions import TypeVar

from ._context import DepsT, ToolContext
from ._results import ToolResult

if TYPE_CHECKING:
    from ._contract import ToolContract

T = TypeVar("T")
In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out")

ToolReturn: TypeAlias = ToolResult[T] | Awaitable[ToolResult[T]]
"""What an implementation returns: a `ToolResult[T]`, or an awaitable of one (`async def`)."""

Implementation: TypeAlias = (
    Callable[[Any], ToolReturn[Any]]
    | Callable[[Any, ToolContext[Any]], ToolReturn[Any]]
)
"""What `Registry.register` accepts by name: called with the validated input model (and the context)."""

Typed: TypeAlias = (
    Callable[[Any], ToolReturn[Any]]
    | Callable[[Any, ToolContext[DepsT]], ToolReturn[Any]]
)
"""`Implementation` for a `Registry[Deps]`: a context parameter must take `ToolContext[Deps]`."""

SyncPlain: TypeAlias = Callable[[In], ToolResult[Out | Mapping[str, Any]]]
"""A plain function implementing a tool: its `Ok` data is the output model or a mapping."""

SyncWithContext: TypeAlias = Callable[
    [In, ToolContext[Any]], ToolResult[Out | Mapping[str, Any]]
]
"""A plain function implementing a tool that takes the call's context too."""

AsyncPlain: TypeAlias = Callable[[In], Awaitable[ToolResult[Out | Mapping[str, Any]]]]
"""An `async def` implementing a tool."""

AsyncWithContext: TypeAlias = Callable[
    [In, ToolContext[Any]], Awaitable[ToolResult[Out | Mapping[str, Any]]]
]
"""An `async def` implementing a tool that takes the call's context too."""

SyncImplementation: TypeAlias = SyncPlain[In, Out] | SyncWithContext[In, Out]
"""A plain function implementing a tool, with or without the context."""

AsyncImplementation: TypeAlias = AsyncPlain[In, Out] | AsyncWithContext[In, Out]
"""An `async def` implementing a tool, with or without the context."""

TypedImplementation: TypeAlias = (
    SyncImplementation[In, Out] | AsyncImplementation[In, Out]
)
"""What implements the tool of a `ToolContract[In, Out]`, sync or async."""


class Implements(Generic[In, Out]):
    """`@registry.implements(read_file.CONTRACT)`: registers the function it decorates, unchanged.

    mypy checks the function's parameter against the tool's input model and its result against
    `ToolResult[<Tool>Output | Mapping[str, Any]]` (an `async def` too).
    """

    def __init__(
        self, register: Callable[[str, Implementation], None], name: str
    ) -> None:
        self._register = register
        self._name = name

    @overload
    def __call__(self, implementation: AsyncPlain[In, Out]) -> AsyncPlain[In, Out]: ...

    @overload
    def __call__(self, implementation: SyncPlain[In, Out]) -> SyncPlain[In, Out]: ...

    @overload
    def __call__(
        self, implementation: AsyncWithContext[In, Out]
    ) -> AsyncWithContext[In, Out]: ...

    @overload
    def __call__(
        self, implementation: SyncWithContext[In, Out]
    ) -> SyncWithContext[In, Out]: ...

    def __call__(self, implementation: Implementation) -> Implementation:
        self._register(self._name, implementation)
        return implementation


def contract_name(tool: str | ToolContract[Any, Any]) -> str:
    """The tool name `register` is given, as a name or as the tool's contract record."""
    return tool if isinstance(tool, str) else tool.name


__all__ = [
    "AsyncImplementation",
    "AsyncPlain",
    "AsyncWithContext",
    "Implementation",
    "Implements",
    "SyncImplementation",
    "SyncPlain",
    "SyncWithContext",
    "ToolReturn",
    "Typed",
    "TypedImplementation",
]
