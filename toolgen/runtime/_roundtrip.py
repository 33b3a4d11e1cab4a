# The toolgen runtime's _roundtrip.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Provider round trips: what a provider's SDK returned in, the messages to send next out.

Part of the runtime: `Registry` has these methods (`Answers` is its base class). Each takes plain
dicts or the SDK's own response objects (anything with `model_dump()`), answers every tool call
through `Registry.call` (the `a...` twins through `Registry.acall`, all calls at once, results kept
in the order of the calls) and returns plain JSON data in the provider's own shapes:

- `answer_openai_chat(message)`: an assistant message with `tool_calls` (or a whole
  `ChatCompletion`, whose first choice is read) -> a list of `{"role": "tool", "tool_call_id",
  "content"}` messages, one per call (`function` and `custom` calls alike).
- `answer_openai_responses(output)`: a Responses `output` list (or the whole `Response`) -> a list
  of `function_call_output` items, one per `function_call` item, and of `custom_tool_call_output`
  items, one per `custom_tool_call` item; other items are skipped.
- `answer_anthropic(content)`: an assistant message's content blocks (or the whole `Message`) ->
  one `{"role": "user", "content": [tool_result blocks]}` message, or None without `tool_use`.
- `answer_gemini(content)`: a candidate's content (or the whole response, whose first candidate is
  read) -> one `{"role": "user", "parts": [{"function_response": ...}]}` content, or None without
  a `function_call` part. Keys are read in snake_case and camelCase; the answer is snake_case, as
  the `google-genai` SDK's own dicts are.

A malformed call never raises: arguments that are not JSON or not an object are `INVALID_INPUT`,
an unknown or missing name is `UNKNOWN_TOOL` (a custom tool call, whose input is free text, is
called by its name with that text, so it is `UNKNOWN_TOOL` naming it unless a tool of that name is
registered), a call without an id is `INVALID_INPUT` without
running the tool (answered with an empty id; Gemini ids are optional and never required), each
answered in its place. The registry traces every call, these included.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._results import Err, ToolResult


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call read from a provider's response: its id, name and arguments (or why it is broken)."""

    call_id: str | None
    name: str
    arguments: Mapping[str, Any] | str | bytes
    problem: Err | None = None
    custom: bool = False
    """An OpenAI custom tool call (free-text input), answered in its own shape."""


def plain(value: Any) -> Any:
    """`value` as plain data: SDK objects through `model_dump()` (or `to_dict()`), the rest as it is."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    if hasattr(value, "to_dict") and not isinstance(value, Mapping):
        return value.to_dict()
    return value


def _get(item: Any, *keys: str) -> Any:
    if not isinstance(item, Mapping):
        return None
    for key in keys:
        if item.get(key) is not None:
            return item[key]
    return None


def _items(value: Any, key: str) -> list[Any]:
    """The list under `key` of `value` (or `value` itself when it is already a list)."""
    value = plain(value)
    if isinstance(value, Mapping):
        value = value.get(key)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [plain(v) for v in value]
    return []


def _no_id(kind: str) -> Err:
    return Err(
        "INVALID_INPUT",
        f"The {kind} has no id, so its answer cannot be matched to it; it was not run.",
        False,
    )


def _call(  # noqa: PLR0917 (one private constructor)
    call_id: Any,
    name: Any,
    arguments: Any,
    kind: str,
    id_required: bool = True,
    custom: bool = False,
) -> ToolCall:
    call_id = call_id if isinstance(call_id, str) and call_id else None
    name = name if isinstance(name, str) else ""
    if arguments is None:
        arguments = {}
    problem = _no_id(kind) if id_required and call_id is None else None
    return ToolCall(call_id, name, arguments, problem, custom)


def openai_chat_calls(message: Any) -> list[ToolCall]:
    """The function calls of a Chat Completions assistant message (or of a completion's first choice)."""
    message = plain(message)
    if isinstance(message, Mapping) and "choices" in message:
        choices = message.get("choices") or []
        message = _get(plain(choices[0]), "message") if choices else None
    calls = []
    for item in _items(message, "tool_calls"):
        function = (
            _get(item, "function", "custom") or {}
        )  # a custom call: free-text `input`
        calls.append(
            _call(
                _get(item, "id"),
                _get(function, "name"),
                _get(function, "arguments", "input"),
                "tool call",
            )
        )
    return calls


def openai_responses_calls(output: Any) -> list[ToolCall]:
    """The `function_call` and `custom_tool_call` items of a Responses `output` (or a `Response`)."""
    calls = []
    for item in _items(output, "output"):
        kind = _get(item, "type")
        if kind in ("function_call", "custom_tool_call"):
            custom = kind == "custom_tool_call"
            arguments = _get(item, "input" if custom else "arguments")
            what = "custom tool call" if custom else "function call"
            calls.append(
                _call(
                    _get(item, "call_id"),
                    _get(item, "name"),
                    arguments,
                    what,
                    True,
                    custom,
                )
            )
    return calls


def anthropic_calls(content: Any) -> list[ToolCall]:
    """The `tool_use` blocks of an assistant message's content (or of a whole `Message`)."""
    blocks = _items(content, "content")
    return [
        _call(_get(b, "id"), _get(b, "name"), _get(b, "input"), "tool_use block")
        for b in blocks
        if _get(b, "type") == "tool_use"
    ]


def gemini_calls(content: Any) -> list[ToolCall]:
    """The `function_call` parts of a Gemini content (or of a response's first candidate)."""
    content = plain(content)
    if isinstance(content, Mapping) and "candidates" in content:
        candidates = content.get("candidates") or []
        content = _get(plain(candidates[0]), "content") if candidates else None
    calls = []
    for part in _items(content, "parts"):
        found = _get(part, "function_call", "functionCall")
        if isinstance(found, Mapping):
            calls.append(
                _call(
                    _get(found, "id"),
                    _get(found, "name"),
                    _get(found, "args"),
                    "call",
                    False,
                )
            )
    return calls


def openai_chat_reply(
    calls: Sequence[ToolCall], results: Sequence[ToolResult[Any]]
) -> list[dict[str, Any]]:
    """One `tool` message per call, in order."""
    return [
        r.to_openai_chat(c.call_id or "") for c, r in zip(calls, results, strict=True)
    ]


def openai_responses_reply(
    calls: Sequence[ToolCall], results: Sequence[ToolResult[Any]]
) -> list[dict[str, Any]]:
    """One `function_call_output` (or `custom_tool_call_output`) item per call, in order."""
    items = []
    for call, result in zip(calls, results, strict=True):
        item = result.to_openai_responses(call.call_id or "")
        if call.custom:
            item["type"] = "custom_tool_call_output"
        items.append(item)
    return items


def anthropic_reply(
    calls: Sequence[ToolCall], results: Sequence[ToolResult[Any]]
) -> dict[str, Any] | None:
    """One user message holding a `tool_result` block per call, in order; None for no call."""
    if not calls:
        return None
    blocks = [
        r.to_anthropic(c.call_id or "") for c, r in zip(calls, results, strict=True)
    ]
    return {"role": "user", "content": blocks}


def gemini_reply(
    calls: Sequence[ToolCall], results: Sequence[ToolResult[Any]]
) -> dict[str, Any] | None:
    """One user content holding a `function_response` part per call, in order; None for no call."""
    if not calls:
        return None
    parts = [
        {"function_response": r.to_gemini(c.name, c.call_id)}
        for c, r in zip(calls, results, strict=True)
    ]
    return {"role": "user", "parts": parts}


def _arguments(call: ToolCall) -> Mapping[str, Any] | str | bytes:
    if isinstance(call.arguments, (Mapping, str, bytes)):
        return call.arguments
    return json.dumps(
        call.arguments
    )  # not an object: the registry answers INVALID_INPUT


class Answers:
    """The round-trip methods of `Registry` (see the module docstring)."""

    if TYPE_CHECKING:

        def call(
            self, name: str, arguments: Mapping[str, Any] | str | bytes
        ) -> ToolResult[Any]: ...

        async def acall(
            self, name: str, arguments: Mapping[str, Any] | str | bytes
        ) -> ToolResult[Any]: ...

    def _answer(self, calls: Sequence[ToolCall]) -> list[ToolResult[Any]]:
        return [c.problem or self.call(c.name, _arguments(c)) for c in calls]

    async def _aanswer(self, calls: Sequence[ToolCall]) -> list[ToolResult[Any]]:
        async def one(call: ToolCall) -> ToolResult[Any]:
            return call.problem or await self.acall(call.name, _arguments(call))

        return list(await asyncio.gather(*(one(c) for c in calls)))

    def answer_openai_chat(self, message: Any) -> list[dict[str, Any]]:
        """The `tool` messages answering a Chat Completions assistant message's tool calls."""
        calls = openai_chat_calls(message)
        return openai_chat_reply(calls, self._answer(calls))

    async def aanswer_openai_chat(self, message: Any) -> list[dict[str, Any]]:
        """`answer_openai_chat`, the calls run concurrently through `acall`."""
        calls = openai_chat_calls(message)
        return openai_chat_reply(calls, await self._aanswer(calls))

    def answer_openai_responses(self, output: Any) -> list[dict[str, Any]]:
        """The `function_call_output` items answering a Responses output's function calls."""
        calls = openai_responses_calls(output)
        return openai_responses_reply(calls, self._answer(calls))

    async def aanswer_openai_responses(self, output: Any) -> list[dict[str, Any]]:
        """`answer_openai_responses`, the calls run concurrently through `acall`."""
        calls = openai_responses_calls(output)
        return openai_responses_reply(calls, await self._aanswer(calls))

    def answer_anthropic(self, content: Any) -> dict[str, Any] | None:
        """The user message answering an Anthropic assistant message's `tool_use` blocks."""
        calls = anthropic_calls(content)
        return anthropic_reply(calls, self._answer(calls))

    async def aanswer_anthropic(self, content: Any) -> dict[str, Any] | None:
        """`answer_anthropic`, the calls run concurrently through `acall`."""
        calls = anthropic_calls(content)
        return anthropic_reply(calls, await self._aanswer(calls))

    def answer_gemini(self, content: Any) -> dict[str, Any] | None:
        """The user content answering a Gemini candidate's `function_call` parts."""
        calls = gemini_calls(content)
        return gemini_reply(calls, self._answer(calls))

    async def aanswer_gemini(self, content: Any) -> dict[str, Any] | None:
        """`answer_gemini`, the calls run concurrently through `acall`."""
        calls = gemini_calls(content)
        return gemini_reply(calls, await self._aanswer(calls))


__all__ = ["Answers", "ToolCall", "plain"]
