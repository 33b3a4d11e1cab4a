"""`toolgen mock-server --http`: streamable HTTP on 127.0.0.1, driven by the MCP Python client; the
Host and Origin checks against DNS rebinding; refusal of a non-loopback address without a flag; a
clean stop on SIGTERM and SIGINT."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from click.testing import CliRunner

from tests.docs_support import write_project
from tests.http_support import Served, free_port, serving
from tests.runtime.test_mock_server import catalog
from toolgen.cli import main

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("http"), catalog(), ["providers"])


def _command(root: Path, port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "toolgen", "-C", str(root), "mock-server", "--http", "--port", str(port), *extra]


async def _talk(url: str) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with (
        streamable_http_client(url) as streams,
        ClientSession(streams[0], streams[1], read_timeout_seconds=60) as session,
    ):
        await session.initialize()
        listed = await session.list_tools()
        result = await session.call_tool("echo_text", {"text": "hello"})
        return {"tools": [t.name for t in listed.tools], "ok": result.model_dump(mode="json", by_alias=True)}


@pytest.mark.slow  # starts a server (about 30 s on 2 cores)
def test_the_mocks_over_streamable_http(root: Path, tmp_path: Path) -> None:
    port = free_port()
    with serving(_command(root, port), port, tmp_path / "server.log") as served:
        seen = anyio.run(_talk, served.url)
        assert seen["tools"] == ["echo_text", "stamp_file"]
        assert seen["ok"]["structuredContent"] == {"text": "hello"}
        assert served.stop(signal.SIGTERM) == 0
    log = served.log.read_text(encoding="utf-8")
    assert f"streamable HTTP at {served.url}" in log and "toolgen: stopped" in log
    assert "Traceback" not in log


def _post(served: Served, **headers: str) -> int:
    response = httpx.post(served.url, json=INITIALIZE, headers={**HEADERS, **headers}, timeout=30)
    return response.status_code


@pytest.mark.slow
def test_host_and_origin_headers_that_name_another_site_are_refused(root: Path, tmp_path: Path) -> None:
    port = free_port()
    with serving(_command(root, port), port, tmp_path / "server.log") as served:
        assert _post(served) == 200
        assert _post(served, Origin=f"http://localhost:{port}") == 200
        assert _post(served, Host="attacker.example") == 421  # DNS rebinding: the name resolves here
        assert _post(served, Origin="http://attacker.example") == 403
        assert served.stop(signal.SIGINT) == 0
    assert "Traceback" not in served.log.read_text(encoding="utf-8")


def test_a_non_loopback_address_needs_the_unauthenticated_flag(root: Path) -> None:
    result = CliRunner().invoke(main, ["-C", str(root), "mock-server", "--http", "--host", "0.0.0.0"])
    assert result.exit_code == 1
    assert "--host 0.0.0.0 is not a loopback address" in result.output and "--unauthenticated" in result.output
    assert "Traceback" not in result.output


def test_http_options_without_http_are_a_usage_error(root: Path) -> None:
    result = CliRunner().invoke(main, ["-C", str(root), "mock-server", "--port", "9000"])
    assert result.exit_code == 2
    assert "go with --http" in result.output
