# The toolgen runtime's integrations/mcp.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as an MCP server (the official `mcp` SDK): `server(registry)`, `serve_stdio(registry)`.

`tools/list` answers with the tools `offered` names (registered, not denied by the policy,
optionally only those with one of `tags`), each as its `providers/mcp.json` declaration, sorted by
name; `server(registry, offer_all=True)` lists exactly `providers/mcp.json` (every tool of the
catalog that `[providers]` does not leave out of MCP, registered or not). `tools/call` goes
through `Registry.acall`, and every outcome is a `CallToolResult` (`ToolResult.to_mcp()`):
failures, invalid input and an unknown tool included, are results with `isError: true` and the
error in `structuredContent`, never protocol errors. `toolgen mock-server` is this server over
`mocks.mock_registry()`. The `mcp` package is imported when `server` is called.

An implementation's `ToolContext` reports reach the client: `progress(...)` as
`notifications/progress` (only when the client's request carried a `progressToken`) and
`log(level, message)` as `notifications/message` (logger: the server's name; on 2026-07-28
connections only when the request opted in to that level, as the protocol says). Each is sent
before the call's result; the request's id is the context's `call_id`.

A tool the policy answers "ask" for is approved through elicitation when the client declared the
elicitation capability: the user sees the tool, why it asks and the redacted input, and accepts
(approve: true) or declines; the trace's approval is `by="mcp-elicitation"`. A client without it,
or a connection that cannot carry the request (the SDK's 2026-07-28 connections have no back channel
for server requests), leaves the decision to the registry's approver.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import warnings
from collections.abc import Iterable
from typing import Any

from .._approval import Approval, ApprovalRequest, Approver, aask
from .._runtime import LogLevel, Registry, ToolContext, thaw
from . import offered

SERVER_NAME = __name__.split(".")[0]
"""The server name the MCP handshake reports (the package's name, unless `server` is given one)."""


def tools_list(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> dict[str, Any]:
    """The `tools/list` result as plain JSON data (`offer_all=True`: the `providers/mcp.json` document)."""
    chosen = offered(registry, tags, offer_all, registered_only=not offer_all)
    return {
        "tools": [
            thaw(c.declarations["mcp"]) for c in chosen if "mcp" in c.declarations
        ]
    }


def _elicitor(ctx: Any, fallback: Approver | None) -> Approver | None:
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


def server(
    registry: Registry[Any],
    name: str = SERVER_NAME,
    version: str = "",
    *,
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> Any:
    """A low-level `mcp.server.lowlevel.Server` serving `registry`."""
    import mcp_types as types  # type: ignore[import-not-found,unused-ignore]
    from mcp.server.lowlevel import Server  # type: ignore[import-not-found,unused-ignore]

    listed = types.ListToolsResult.model_validate(tools_list(registry, tags, offer_all))

    async def list_tools(ctx: Any, params: Any) -> Any:
        return listed

    async def call_tool(ctx: Any, params: Any) -> Any:
        notifier = Notifier(ctx.session, name)
        call_id = str(ctx.request_id) if ctx.request_id is not None else None
        arguments = dict(params.arguments or {})
        result = await registry.acall(
            params.name,
            arguments,
            call_id=call_id,
            reporter=notifier,
            approver=_elicitor(ctx, registry.approver) or registry.approver,
        )
        await notifier.drain()
        return types.CallToolResult.model_validate(result.to_mcp())

    return Server(
        name, version=version, on_list_tools=list_tools, on_call_tool=call_tool
    )


class Notifier:
    """A `Reporter` that sends a call's progress and logs to the MCP client, in order.

    A report made in a worker thread (a sync implementation) is handed to the event loop; `drain`
    waits until every report was sent (the server calls it before answering).
    """

    def __init__(self, session: Any, logger: str) -> None:
        self._session = session
        self._logger = logger
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
        """`notifications/message` on the request's stream."""
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


async def serve_stdio(
    registry: Registry[Any],
    name: str = SERVER_NAME,
    version: str = "",
    *,
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> None:
    """Serve `registry` over stdin/stdout until the client closes the connection."""
    from mcp.server.stdio import stdio_server  # type: ignore[import-not-found,unused-ignore]

    served = server(registry, name, version, tags=tags, offer_all=offer_all)
    async with stdio_server() as (read_stream, write_stream):
        await served.run(
            read_stream, write_stream, served.create_initialization_options()
        )


__all__ = ["SERVER_NAME", "Notifier", "serve_stdio", "server", "tools_list"]
