"""`toolgen mock-server`: the catalog's mocks over MCP, on stdio or streamable HTTP.

Kept apart from cli.py, which registers it; the same conventions hold (exit 0 served and stopped,
1 nothing to serve, 2 usage; bad input never shows a traceback). Over HTTP it listens on
127.0.0.1 unless told otherwise; another address needs `--unauthenticated`, which says the mocks are
served to anyone who can reach it (the command has no token verifier; `integrations.mcp.serve_http`
takes one). SIGINT and SIGTERM stop it cleanly (exit 0).
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

import click

from toolgen.cliout import Context, counts, emit, settings_or_exit


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@click.command("mock-server")
@click.option("--http", "http", is_flag=True, help="Serve over streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="With --http: the address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="With --http: the port.")
@click.option(
    "--unauthenticated",
    is_flag=True,
    help="With --http on an address that is not loopback: serve it without authentication to anyone who can reach it.",
)
@click.pass_obj
def mock_server_command(ctx: Context, http: bool, host: str, port: int, unauthenticated: bool) -> None:
    """Serve the catalog's mock tools over MCP (stdio, or --http) (needs the MCP SDK: toolgen[mcp])."""
    from toolgen import mock_server

    if not http and (host != "127.0.0.1" or port != 8000 or unauthenticated):
        raise click.UsageError("--host, --port and --unauthenticated go with --http")
    try:
        mock_server.require_mcp()
    except mock_server.MissingDependencyError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(1)
    settings = settings_or_exit(ctx)
    from toolgen.pipeline import stages

    catalog, problems, _ = stages.load_catalog(settings)
    if catalog is None:
        emit(problems, "text")
        click.echo(f"toolgen: contracts are invalid ({counts(problems)}); nothing to serve", err=True)
        sys.exit(1)
    tools = f"{len(catalog)} tool{'s' * (len(catalog) != 1)}"
    where = mock_server.HttpPlace(host, port, unauthenticated) if http else None
    signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops the server as SIGINT does
    try:
        mock_server.check_package_name(settings.python_package)
        mock_server.check_place(where)
        how = f"streamable HTTP at {where.url}" if where else "MCP stdio (stdout is the protocol)"
        click.echo(f"toolgen: serving the mocks of {tools} over {how}", err=True)
        mock_server.run(catalog, settings, where)
    except KeyboardInterrupt:
        click.echo("toolgen: stopped", err=True)
    except mock_server.ServeError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(1)
    except mock_server.GenerationError as exc:
        emit(exc.diagnostics, "text")
        click.echo("toolgen: the mocks could not be generated; nothing to serve", err=True)
        sys.exit(1)
