# The toolgen runtime's integrations/mcp.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as an MCP server (the official `mcp` SDK): `server(registry)`, `serve_stdio(registry)`.

`tools/list` answers with exactly the tools of `providers/mcp.json` (each contract's `mcp`
declaration, sorted by name; every tool of the catalog that `[providers]` does not leave out of
MCP, registered or not). `tools/call` goes
through `Registry.acall`, and every outcome is a `CallToolResult` (`ToolResult.to_mcp()`):
failures, invalid input and an unknown tool included, are results with `isError: true` and the
error in `structuredContent`, never protocol errors. `toolgen mock-server` is this server over
`mocks.mock_registry()`. The `mcp` package is imported when `server` is called.
"""

from __future__ import annotations

from typing import Any

from .._runtime import Registry, thaw

SERVER_NAME = __name__.split(".")[0]
"""The server name the MCP handshake reports (the package's name, unless `server` is given one)."""


def tools_list(registry: Registry) -> dict[str, Any]:
    """The `tools/list` result as plain JSON data: the `providers/mcp.json` document."""
    return {
        "tools": [
            thaw(c.declarations["mcp"])
            for c in registry.contracts
            if "mcp" in c.declarations
        ]
    }


def server(registry: Registry, name: str = SERVER_NAME, version: str = "") -> Any:
    """A low-level `mcp.server.lowlevel.Server` serving `registry`."""
    import mcp_types as types  # type: ignore[import-not-found,unused-ignore]
    from mcp.server.lowlevel import Server  # type: ignore[import-not-found,unused-ignore]

    listed = types.ListToolsResult.model_validate(tools_list(registry))

    async def list_tools(ctx: Any, params: Any) -> Any:
        return listed

    async def call_tool(ctx: Any, params: Any) -> Any:
        result = await registry.acall(params.name, dict(params.arguments or {}))
        return types.CallToolResult.model_validate(result.to_mcp())

    return Server(
        name, version=version, on_list_tools=list_tools, on_call_tool=call_tool
    )


async def serve_stdio(
    registry: Registry, name: str = SERVER_NAME, version: str = ""
) -> None:
    """Serve `registry` over stdin/stdout until the client closes the connection."""
    from mcp.server.stdio import stdio_server  # type: ignore[import-not-found,unused-ignore]

    served = server(registry, name, version)
    async with stdio_server() as (read_stream, write_stream):
        await served.run(
            read_stream, write_stream, served.create_initialization_options()
        )


__all__ = ["SERVER_NAME", "serve_stdio", "server", "tools_list"]
