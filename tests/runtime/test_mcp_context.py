"""The MCP server turns a `ToolContext`'s reports into notifications: the real MCP client (in memory, and over
the handshake protocol) receives `notifications/progress` for a request with a progress token and
`notifications/message` for each log, redacted, before the result."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import anyio
import pytest

from tests.agent_support import agent_package

PACKAGE = "mcp_context_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("mcpctx"), PACKAGE) as package:
        yield package


def _registry(pkg: ModuleType, asynchronous: bool) -> Any:
    def report(arguments: Any, context: Any) -> Any:
        context.progress(1, 2, "half way")
        context.log("warning", f"used key {arguments.api_key}")
        context.progress(2, 2)
        return pkg.Ok({"definition": context.call_id})

    async def areport(arguments: Any, context: Any) -> Any:
        return report(arguments, context)

    registry = pkg.Registry(pkg.Policy(allow={"read"}))
    registry.register("lookup_word", areport if asynchronous else report)
    return registry


async def _talk(pkg: ModuleType, asynchronous: bool, mode: str, level: str | None = None) -> dict[str, Any]:
    from mcp import Client

    server = importlib.import_module(f"{PACKAGE}.integrations.mcp").server(_registry(pkg, asynchronous))
    seen: dict[str, Any] = {"progress": [], "logs": []}

    async def on_log(params: Any) -> None:
        seen["logs"].append((params.level, params.data, params.logger))

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen["progress"].append((progress, total, message))

    async with Client(server, logging_callback=on_log, log_level="debug", mode=mode) as client:  # type: ignore[arg-type]
        if level is not None:
            await client.set_logging_level(level)  # type: ignore[arg-type]
        result = await client.call_tool("lookup_word", {"word": "w", "api_key": "sk-9"}, progress_callback=on_progress)
        seen["result"] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        seen["plain"] = await client.call_tool("lookup_word", {"word": "w"})
    return seen


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_client_receives_progress_and_log_notifications(pkg: ModuleType, asynchronous: bool, mode: str) -> None:
    seen = anyio.run(_talk, pkg, asynchronous, mode)
    assert seen["result"]["isError"] is False
    assert seen["progress"] == [(1.0, 2.0, "half way"), (2.0, 2.0, None)]
    assert seen["logs"] == [("warning", "used key [REDACTED]", PACKAGE), ("warning", "used key None", PACKAGE)]
    assert seen["plain"].is_error is False  # a call without a progress token: no progress sent, still answered


@pytest.mark.parametrize(("level", "received"), [("warning", 2), ("error", 0)])
def test_a_session_that_set_a_log_level_receives_only_that_level_and_above(
    pkg: ModuleType, level: str, received: int
) -> None:
    """`logging/setLevel` (protocol up to 2025-11-25: the legacy handshake) filters the session's logs."""
    seen = anyio.run(_talk, pkg, True, "legacy", level)
    assert [entry[0] for entry in seen["logs"]] == ["warning"] * received
    assert seen["progress"] == [(1.0, 2.0, "half way"), (2.0, 2.0, None)]  # progress is not a log
