# The toolgen runtime's integrations/mcp.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as an MCP server (the official `mcp` SDK): `server`, `serve_stdio`, `serve_http`.

`tools/list` answers with the tools `offered` names (registered, not denied by the policy: a tool
the policy asks about is offered; optionally only those with one of `tags`), each as its
`providers/mcp.json` declaration, sorted by name; `offer_all=True` lists exactly `providers/mcp.json`
(every tool of the catalog that `[providers]` does not leave out of MCP, registered or not). It is
one page: a `cursor` is answered with JSON-RPC -32602 (invalid params), since this server never
hands one out. A tool is called by its MCP name (the contract's
`providers.mcp_name` when it has one, else its name). `tools/call` goes through
`Registry.acall`, and every outcome of a listed tool is a `CallToolResult`
(`ToolResult.to_mcp()`): a failure, invalid input and a listed tool without an implementation
are results with `isError: true` and the error as JSON text in `content`, with no
`structuredContent` (which clients validate against the tool's `outputSchema`). A name that is
not listed is a protocol error, JSON-RPC -32602, as the MCP specification's example and the
reference servers answer it. `serverInfo.version` is the installed distribution's version of
this package, else `0+catalog.<digest>` of the served tools' names and versions.

An implementation's `ToolContext` progress and log reports reach the client as notifications, and a
call the policy asks about is approved through elicitation where the client can (`_mcp_context.py`).
The server declares the `logging` capability: `logging/setLevel` (sessions up to protocol
2025-11-25) sets the least severe level that session's log notifications carry.

`serve_http` serves over the SDK's streamable HTTP transport (`http_app` is the ASGI app, for
mounting): on 127.0.0.1 by default with Host and Origin checks against DNS rebinding; any other
address needs a `token_verifier` (with the SDK's `AuthSettings`) or `unauthenticated=True`.
SIGINT and SIGTERM shut it down cleanly. `toolgen mock-server` is this server over
`mocks.mock_registry()`. The `mcp` package is imported when a server is made.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._runtime import Registry, ToolContract, ToolResult, thaw
from . import offered
from ._mcp_context import Levels, Notifier, elicitor

SERVER_NAME = __name__.split(".")[0]
"""The server name the MCP handshake reports (the package's name, unless `server` is given one)."""

INVALID_PARAMS = -32602
"""JSON-RPC's code for invalid params: an unknown tool, a cursor this server never gave."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""The addresses `serve_http` binds without an auth hook."""


def listed_contracts(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> list[ToolContract]:
    """The contracts `tools/list` names: the offered ones (`offer_all`: all) that MCP declares."""
    chosen = offered(registry, tags, offer_all, registered_only=not offer_all)
    return [c for c in chosen if "mcp" in c.declarations]


def tools_list(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> dict[str, Any]:
    """The `tools/list` result as plain JSON data (`offer_all=True`: the `providers/mcp.json` document)."""
    listed = listed_contracts(registry, tags, offer_all)
    return {"tools": [thaw(c.declarations["mcp"]) for c in listed]}


def wire_names(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> dict[str, str]:
    """The name each listed tool is called by over MCP -> its contract's name."""
    listed = listed_contracts(registry, tags, offer_all)
    return {str(c.declarations["mcp"]["name"]): c.name for c in listed}


def call_result(result: ToolResult[Any]) -> dict[str, Any]:
    """The `CallToolResult` of one outcome: no `structuredContent` on an error result."""
    message = result.to_mcp()
    if result.is_error:
        message.pop("structuredContent", None)
    return message


def server_version(registry: Registry[Any]) -> str:
    """The installed distribution's version, else a digest of the tools' names and versions."""
    from importlib import metadata

    try:
        return metadata.version(SERVER_NAME)
    except metadata.PackageNotFoundError:
        pairs = "\n".join(f"{c.name}@{c.version}" for c in registry.contracts)
        return "0+catalog." + hashlib.sha256(pairs.encode()).hexdigest()[:12]


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
    from mcp.shared.exceptions import MCPError  # type: ignore[import-not-found,unused-ignore]

    listed = types.ListToolsResult.model_validate(tools_list(registry, tags, offer_all))
    levels = Levels()

    async def list_tools(ctx: Any, params: Any) -> Any:
        cursor = getattr(params, "cursor", None)
        if cursor is not None:
            raise MCPError(
                INVALID_PARAMS,
                f"Invalid cursor {cursor!r}: this server lists every tool on one page",
            )
        return listed

    async def set_level(ctx: Any, params: Any) -> Any:
        levels.ask(ctx.session, str(params.level))
        return types.EmptyResult()

    call_tool = _caller(registry, wire_names(registry, tags, offer_all), name, levels)
    with warnings.catch_warnings():  # logging/setLevel is deprecated from 2026-07-28
        warnings.simplefilter("ignore")
        return Server(
            name,
            version=version or server_version(registry),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=set_level,
        )


def _caller(
    registry: Registry[Any], names: Mapping[str, str], logger: str, levels: Levels
) -> Any:
    """The `tools/call` handler: a listed name through `Registry.acall`, any other -32602."""
    import mcp_types as types  # type: ignore[import-not-found,unused-ignore]
    from mcp.shared.exceptions import MCPError  # type: ignore[import-not-found,unused-ignore]

    async def call_tool(ctx: Any, params: Any) -> Any:
        tool = names.get(params.name)
        if tool is None:
            known = ", ".join(sorted(names)) or "none"
            message = f"Unknown tool: {params.name!r}. Available tools: {known}."
            raise MCPError(INVALID_PARAMS, message)
        notifier = Notifier(ctx.session, logger, levels.of(ctx.session))
        result = await registry.acall(
            tool,
            dict(params.arguments or {}),
            call_id=str(ctx.request_id) if ctx.request_id is not None else None,
            reporter=notifier,
            approver=elicitor(ctx, registry.approver) or registry.approver,
        )
        await notifier.drain()
        return types.CallToolResult.model_validate(call_result(result))

    return call_tool


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


def _security(host: str, allowed_hosts: Sequence[str], origins: Sequence[str]) -> Any:
    """Host and Origin checks against DNS rebinding: the bound address and those named."""
    from mcp.server.transport_security import (  # type: ignore[import-not-found,unused-ignore]
        TransportSecuritySettings,
    )

    names = ["127.0.0.1", "localhost", "[::1]"] if host in LOOPBACK else [host]
    hosts = [f"{n}:*" for n in names] + list(allowed_hosts)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{n}:*" for n in names] + list(origins),
    )


def _check_exposure(host: str, token_verifier: Any, auth: Any, open_: bool) -> None:
    if (token_verifier is None) != (auth is None):
        raise ValueError("token_verifier and auth (mcp AuthSettings) go together")
    if host not in LOOPBACK and token_verifier is None and not open_:
        raise ValueError(
            f"refusing to serve on {host}, which is not a loopback address, without "
            "authentication: pass token_verifier and auth, or unauthenticated=True "
            "to serve it to anyone who can reach it"
        )


def http_app(
    registry: Registry[Any],
    name: str = SERVER_NAME,
    version: str = "",
    *,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    token_verifier: Any = None,
    auth: Any = None,
    unauthenticated: bool = False,
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
) -> Any:
    """The streamable HTTP ASGI app (Starlette) serving `registry` at `path`.

    `host` is the address it will be reached on: Host and Origin headers must name it (or one
    of `allowed_hosts`, `allowed_origins`, like "tools.example:443"); a non-loopback `host`
    needs `token_verifier` and `auth` (the SDK's `TokenVerifier`, `AuthSettings`) or
    `unauthenticated=True`. `tags` and `offer_all` choose the tools as `server` does. Its lifespan
    runs the session manager: mount it with its lifespan.
    """
    _check_exposure(host, token_verifier, auth, unauthenticated)
    served = server(registry, name, version, tags=tags, offer_all=offer_all)
    app: Any = served.streamable_http_app(
        streamable_http_path=path,
        transport_security=_security(host, allowed_hosts, allowed_origins),
        host=host,
        token_verifier=token_verifier,
        auth=auth,
    )
    return app


async def serve_http(
    registry: Registry[Any],
    name: str = SERVER_NAME,
    version: str = "",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    options: Mapping[str, Any] | None = None,
) -> None:
    """Serve `registry` over streamable HTTP at `http://host:port/path` until SIGINT or SIGTERM.

    `options` are `http_app`'s keywords (`allowed_hosts`, `token_verifier`, `auth`,
    `unauthenticated`, `tags`, `offer_all`, ...). After a signal the server closes its sessions, then the signal
    takes its usual course (SIGINT raises KeyboardInterrupt)."""
    import uvicorn  # type: ignore[import-not-found,unused-ignore]

    app = http_app(registry, name, version, host=host, path=path, **dict(options or {}))
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


__all__ = [
    "SERVER_NAME",
    "Notifier",
    "call_result",
    "http_app",
    "listed_contracts",
    "serve_http",
    "serve_stdio",
    "server",
    "server_version",
    "tools_list",
    "wire_names",
]
