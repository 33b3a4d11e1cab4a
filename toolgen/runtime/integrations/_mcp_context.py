# The toolgen runtime's integrations/_mcp_context.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""How a call's context and approval reach an MCP client (used by `integrations/mcp.py`).

`Notifier` is the `Reporter` of one `tools/call`: an implementation's `ToolContext` reports reach
the client, `progress(...)` as `notifications/progress` (only when the client's request carried a
`progressToken`) and `log(level, message)` as `notifications/message` (logger: the server's name; on
2026-07-28 connections only when the request opted in to that level, as the protocol says), each
sent before the call's result. `elicitor` approves a call the policy answers "ask" for through
elicitation when the client declared that capability: the user sees the tool, why it asks and the
redacted input, and accepts (approve: true) or declines; the trace's approval is
`by="mcp-elicitation"`. A client without it, or a connection that cannot carry the request (the
SDK's 2026-07-28 connections have no back channel for server requests), leaves the decision to the
registry's approver.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import warnings
import weakref
from typing import Any

from .._approval import Approval, ApprovalRequest, Approver, aask
from .._runtime import LogLevel, ToolContext


def elicitor(ctx: Any, fallback: Approver | None) -> Approver | None:
    """An approver asking the client's user through elicitation; None when the client cannot."""
    import mcp_types as types  # type: ignore[import-not-found,unused-ignore]

    try:
        able = ctx.session.check_client_capability(
            types.ClientCapabilities(elicitation=types.ElicitationCapability())
        )
    except Exception:
        return None
    if not able:
        return None

    async def elicit(request: ApprovalRequest) -> Approval:
        shown = json.dumps(request.input, ensure_ascii=False, default=str)
        message = f"Approve the call of {request.tool} ({', '.join(request.reasons)})? Input: {shown}"
        try:
            answer = await ctx.session.elicit_form(message, _APPROVE, ctx.request_id)
        except (
            Exception
        ):  # no back channel for requests (2026-07-28 connections): the approver
            return await aask(fallback, request, None)
        content = answer.content or {}
        granted = answer.action == "accept" and content.get("approve") is True
        reason = str(content.get("reason") or answer.action)
        return Approval(granted, reason, "mcp-elicitation")

    return elicit


_APPROVE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Approve this call"},
        "reason": {"type": "string", "title": "Reason"},
    },
    "required": ["approve"],
}
"""What an elicitation asks the user for: yes or no, and why."""


SEVERITY: dict[str, int] = {
    name: rank
    for rank, name in enumerate(
        (
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency",
        )
    )
}
"""The MCP (RFC 5424) log levels, least severe first: `logging/setLevel` asks for one and above."""


class Levels:
    """The log level each client connection asked for with `logging/setLevel` (none: every level).

    Kept per server, by connection, weakly: a closed connection's entry goes with it. The SDK makes
    a `ServerSession` per request around the connection's state, so the key is that connection.
    """

    def __init__(self) -> None:
        self._asked: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    def ask(self, session: Any, level: str) -> None:
        """Remember `level` for the connection of `session`."""
        with contextlib.suppress(
            TypeError
        ):  # a connection that cannot be weakly referenced
            self._asked[_connection(session)] = level

    def of(self, session: Any) -> str | None:
        """The level the connection of `session` asked for, or None."""
        try:
            return self._asked.get(_connection(session))
        except TypeError:
            return None


def _connection(session: Any) -> Any:
    return getattr(session, "_connection", session)


class Notifier:
    """A `Reporter` that sends a call's progress and logs to the MCP client, in order.

    A report made in a worker thread (a sync implementation) is handed to the event loop; `drain`
    waits until every report was sent (the server calls it before answering).
    """

    def __init__(self, session: Any, logger: str, minimum: str | None = None) -> None:
        self._session = session
        self._logger = logger
        self._minimum = SEVERITY.get(minimum or "debug", 0)
        self._loop = asyncio.get_running_loop()
        self._sent: list[Any] = []

    def _send(self, coroutine: Any) -> None:
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            here = False
        if here:
            self._sent.append(self._loop.create_task(coroutine))
        else:
            self._sent.append(asyncio.run_coroutine_threadsafe(coroutine, self._loop))

    def progress(
        self,
        context: ToolContext[Any],
        done: float,
        total: float | None,
        message: str | None,
    ) -> None:
        """`notifications/progress` (a no-op when the request carried no progress token)."""
        self._send(self._session.report_progress(done, total, message))

    def log(self, context: ToolContext[Any], level: LogLevel, message: str) -> None:
        """`notifications/message` on the request's stream, unless below the client's `logging/setLevel`."""
        if SEVERITY.get(level, 0) < self._minimum:
            return
        with (
            warnings.catch_warnings()
        ):  # the SDK marks logging deprecated from 2026-07-28 on
            warnings.simplefilter("ignore")
            sending = self._session.send_log_message(level, message, self._logger)
        self._send(sending)

    async def drain(self) -> None:
        """Wait until every report so far was sent (a failed send is dropped)."""
        for sent in self._sent:
            waited = (
                sent if isinstance(sent, asyncio.Task) else asyncio.wrap_future(sent)
            )
            with contextlib.suppress(Exception):  # a report never changes the result
                await waited
        self._sent.clear()


__all__ = ["SEVERITY", "Levels", "Notifier", "elicitor"]
