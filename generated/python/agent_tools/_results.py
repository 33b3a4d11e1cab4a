# The toolgen runtime's _results.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Results of a call (`Ok`, `Err`, `ToolResult`) and their provider conversions; `ToolModel`, `freeze`, `thaw`.

Part of the runtime: `_runtime` (and the package) re-export every public name here, and its module
docstring is the reference for them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Literal, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict

from . import _content
from ._content import Content

T_co = TypeVar("T_co", covariant=True)


class ToolModel(BaseModel):
    """Base of every generated model: dumps use the wire names; fields may be named `model_*`;
    `repr()` and `str()` mask what the tool's schema marks `x-sensitive`.

    Patterns use Python's `re`, as the registry's jsonschema validation does: pydantic's default
    engine refuses lookarounds and large repetitions that JSON Schema allows.
    """

    model_config = ConfigDict(
        protected_namespaces=(), serialize_by_alias=True, regex_engine="python-re"
    )

    __toolgen_schema__: ClassVar[Mapping[str, Any] | None] = None
    """The contract schema of a tool's input or output model (its tool module sets it)."""

    def __repr_args__(self) -> Iterable[tuple[str | None, Any]]:
        """`repr()` and `str()` show every `x-sensitive` value as `[REDACTED]` (`_masking.py`)."""
        from ._masking import masked_args

        return masked_args(self, super().__repr_args__())


def freeze(value: Any) -> Any:
    """A deep, read-only copy of JSON data: mappings become read-only proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A deep, mutable copy of (frozen) JSON data: plain dicts and lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


class _Convertible:
    """Conversions of a result into each provider's tool-result message."""

    __slots__ = ()

    def payload(self) -> Any:
        """The result as plain JSON data."""
        raise NotImplementedError

    @property
    def pieces(self) -> tuple[Content, ...]:
        """The content beyond JSON (`Ok(..., content=[...])`); none for an `Err`."""
        return ()

    @property
    def is_error(self) -> bool:
        """True for an `Err`."""
        raise NotImplementedError

    def text(self) -> str:
        """The payload as compact JSON text (what text-only providers receive)."""
        return _json_text(self.payload())

    def to_openai_chat(self, call_id: str) -> dict[str, Any]:
        """A Chat Completions `tool` message answering the call `call_id` (text only: content
        beyond JSON becomes text notes saying what was left out)."""
        content: Any = self.text()
        if self.pieces:
            why = "tool messages carry text only"
            notes = [
                _content.note(p, "OpenAI Chat Completions", why) for p in self.pieces
            ]
            content = [{"type": "text", "text": t} for t in [content, *notes]]
        return {"role": "tool", "tool_call_id": call_id, "content": content}

    def to_openai_responses(self, call_id: str) -> dict[str, Any]:
        """A Responses API `function_call_output` input item answering `call_id`."""
        output: Any = self.text()
        if self.pieces:
            parts = [_content.openai_responses(p) for p in self.pieces]
            output = [{"type": "input_text", "text": output}, *parts]
        return {"type": "function_call_output", "call_id": call_id, "output": output}

    def to_anthropic(self, tool_use_id: str) -> dict[str, Any]:
        """An Anthropic `tool_result` content block, with `is_error` set."""
        content: Any = self.text()
        if self.pieces:
            blocks = [_content.anthropic(p) for p in self.pieces]
            content = [{"type": "text", "text": content}, *blocks]
        return {
            "type": "tool_result",
            "tool_use_id": tool_use_id,
            "content": content,
            "is_error": self.is_error,
        }

    def to_gemini(self, name: str, call_id: str | None = None) -> dict[str, Any]:
        """A Gemini `functionResponse`: `{"output": ...}` on success, `{"error": ...}` on failure."""
        payload = self.payload()
        response = payload if self.is_error else {"output": payload}
        message: dict[str, Any] = {"name": name, "response": response}
        if call_id is not None:
            message["id"] = call_id
        if self.pieces:
            message["parts"] = [_content.gemini(p) for p in self.pieces]
        return message

    def to_mcp(self) -> dict[str, Any]:
        """An MCP `CallToolResult`: text content, `structuredContent` and `isError`."""
        payload = self.payload()
        blocks = [_content.mcp(p, i) for i, p in enumerate(self.pieces)]
        message: dict[str, Any] = {
            "content": [{"type": "text", "text": self.text()}, *blocks]
        }
        if isinstance(payload, dict):
            message["structuredContent"] = payload
        message["isError"] = self.is_error
        return message


@dataclass(frozen=True, slots=True)
class Ok(_Convertible, Generic[T_co]):
    """A success carrying the tool's output, and optionally content beyond JSON (`_content.py`)."""

    data: T_co
    content: tuple[Content, ...] = ()
    ok: Literal[True] = field(default=True, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "content", _content.checked(self.content))

    @property
    def pieces(self) -> tuple[Content, ...]:
        """The content beyond JSON."""
        return self.content

    @property
    def is_error(self) -> bool:
        """Always False."""
        return False

    def payload(self) -> Any:
        """The output as plain JSON data (a model is dumped by alias)."""
        return thaw(self.data)


@dataclass(frozen=True, slots=True)
class Err(_Convertible):
    """A failure: a code from the contract, a message for the model, and whether to retry."""

    code: str
    message: str
    retryable: bool = False
    details: Mapping[str, Any] | None = None
    ok: Literal[False] = field(default=False, init=False)

    @property
    def is_error(self) -> bool:
        """Always True."""
        return True

    def payload(self) -> dict[str, Any]:
        """`{"error": {"code", "message", "retryable", "details"?}}`."""
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "retryable": self.retryable,
        }
        if self.details is not None:
            error["details"] = thaw(self.details)
        return {"error": error}


ToolResult: TypeAlias = Ok[T_co] | Err
"""What a tool returns: `Ok(data)` or `Err(code, message, ...)`."""


__all__ = ["Err", "Ok", "ToolModel", "ToolResult", "freeze", "thaw"]
