# The toolgen runtime's _contract.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The frozen record of a tool's contract (`ToolContract`, `ErrorInfo`) and the standard errors.

Part of the runtime: `_runtime` (and the package) re-export every public name here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Literal

from pydantic import BaseModel
from typing_extensions import TypeVar

from ._results import Err, thaw

STANDARD_ERRORS: Mapping[str, bool] = MappingProxyType(
    {
        "APPROVAL_DENIED": False,
        "CONFLICT": False,
        "INTERNAL": False,
        "INVALID_INPUT": False,
        "NOT_FOUND": False,
        "PERMISSION_DENIED": False,
        "RATE_LIMITED": True,
        "TIMEOUT": True,
        "UNAVAILABLE": True,
        "UNKNOWN_TOOL": False,
    }
)
"""Error codes every tool may return without declaring them, with their `retryable`."""


@dataclass(frozen=True, slots=True)
class ErrorInfo:
    """A declared error of a tool."""

    code: str
    description: str
    retryable: bool


InputT = TypeVar("InputT", bound=BaseModel, default=BaseModel, covariant=True)
OutputT = TypeVar("OutputT", default=Any, covariant=True)


@dataclass(frozen=True, slots=True)
class ToolContract(Generic[InputT, OutputT]):
    """The frozen record of one tool's contract, with its generated models."""

    name: str
    version: str
    title: str | None
    description: str
    permissions: tuple[str, ...]
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None
    errors: tuple[ErrorInfo, ...]
    idempotent: bool
    deprecated: bool | str
    digest: str
    input_model: type[InputT]
    output_model: type[OutputT] | None
    examples: tuple[Mapping[str, Any], ...] = ()
    timeout_ms: int | None = None
    declarations: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """The provider declarations toolgen built: `openai` (the Responses entry), `mcp` (the `Tool`)."""
    content_kinds: tuple[str, ...] = ()
    """The content beyond JSON a result may carry (`image`, `audio`, `file`, `resource_link`)."""
    tags: tuple[str, ...] = ()
    """The contract's tags, sorted (what `Policy(ask_tags=...)` and the adapters' `tags=` match)."""
    excluded_errors: tuple[str, ...] = ()
    """Standard codes the tool never returns (the contract's `excluded_standard_errors`)."""

    def json_schema(
        self, which: Literal["input", "output"] = "input"
    ) -> dict[str, Any] | None:
        """The input or output schema as plain JSON data (`json.dumps` takes it); None: no output schema."""
        schema = self.input_schema if which == "input" else self.output_schema
        return thaw(schema) if schema is not None else None

    @property
    def error_codes(self) -> tuple[str, ...]:
        """Declared and standard error codes, sorted; not the standard codes the contract
        excludes."""
        standard = set(STANDARD_ERRORS) - set(self.excluded_errors)
        return tuple(sorted({e.code for e in self.errors} | standard))

    def retryable(self, code: str) -> bool:
        """Whether `code` is retryable for this tool (declared first, then the standard default)."""
        for error in self.errors:
            if error.code == code:
                return error.retryable
        return STANDARD_ERRORS.get(code, False)

    def error(
        self, code: str, message: str, details: Mapping[str, Any] | None = None
    ) -> Err:
        """An `Err` with this tool's `retryable` for `code`."""
        return Err(code, message, self.retryable(code), details)


__all__ = ["STANDARD_ERRORS", "ErrorInfo", "InputT", "OutputT", "ToolContract"]
