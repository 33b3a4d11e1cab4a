"""`toolgen mock-server`: the catalog's mocks over MCP stdio, driven end to end by the MCP Python client."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from tests.docs_support import write_project
from tests.factory import contract
from toolgen.cli import main


def catalog() -> dict[str, dict[str, Any]]:
    """An echo tool with an output example and an error example, and a write tool with no examples."""
    echo = contract(
        "echo_text",
        errors=[{"code": "TOO_LOUD", "description": "Shouting is not allowed.", "retryable": False}],
        examples=[
            {"title": "Echo hello", "input": {"text": "hello"}, "output": {"text": "hello"}},
            {"title": "Shout", "input": {"text": "HELLO"}, "error": {"code": "TOO_LOUD", "message": "no shouting"}},
        ],
    )
    stamp = contract("stamp_file", permissions=["write"], examples=[], title="Stamp a file")
    stamp["errors"] = [{"code": "NOT_FOUND", "description": "No such file."}]
    stamp["input_schema"]["properties"]["note"] = {"type": ["string", "null"], "default": None, "description": "Note."}
    stamp["output_schema"] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["stamped_at"],
        "properties": {"stamped_at": {"type": "string", "format": "date-time", "description": "When."}},
    }
    return {"echo_text": echo, "stamp_file": stamp}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose providers are built, so the test can compare with `providers/mcp.json`."""
    root = write_project(tmp_path_factory.mktemp("server"), catalog(), ["providers"])
    result = CliRunner().invoke(main, ["-C", str(root), "build"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root


async def _session_run(root: Path, errlog: Any) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError
    from mcp_types import PaginatedRequestParams

    params = StdioServerParameters(command=sys.executable, args=["-m", "toolgen", "-C", str(root), "mock-server"])
    seen: dict[str, Any] = {}
    async with (
        stdio_client(params, errlog=errlog) as streams,
        ClientSession(streams[0], streams[1], read_timeout_seconds=120) as session,
    ):
        initialized = await session.initialize()
        seen["server_info"] = initialized.server_info.model_dump(mode="json", by_alias=True, exclude_none=True)
        listed = await session.list_tools()
        for key, call in (
            ("unknown", session.call_tool("no_such_tool", {})),
            ("cursor", session.list_tools(params=PaginatedRequestParams(cursor="page-2"))),
        ):
            try:
                await call
            except MCPError as exc:
                seen[key] = {"code": exc.code, "message": exc.message}
        seen["tools"] = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]
        for key, name, arguments in (
            ("ok", "echo_text", {"text": "hello"}),
            ("example_error", "echo_text", {"text": "HELLO"}),
            ("invalid", "echo_text", {"text": 42}),
            ("synthetic", "stamp_file", {"text": "a.txt"}),
        ):
            result = await session.call_tool(name, arguments)
            seen[key] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return seen


@pytest.fixture(scope="module")
def session(served: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    log = tmp_path_factory.mktemp("log") / "server.stderr"
    with log.open("w", encoding="utf-8") as errlog:
        try:
            return anyio.run(_session_run, served, errlog)
        except BaseException:
            errlog.flush()
            print(log.read_text(encoding="utf-8"), file=sys.stderr)
            raise


def _text(result: dict[str, Any]) -> Any:
    [block] = result["content"]
    assert block["type"] == "text"
    return json.loads(block["text"])


def test_tools_list_is_exactly_providers_mcp_json(served: Path, session: dict[str, Any]) -> None:
    declared = json.loads((served / "generated" / "providers" / "mcp.json").read_text(encoding="utf-8"))
    assert session["tools"] == declared["tools"]


def test_a_call_matching_an_example_returns_its_output_structured_and_as_text(session: dict[str, Any]) -> None:
    result = session["ok"]
    assert result["isError"] is False
    assert result["structuredContent"] == {"text": "hello"}
    assert _text(result) == result["structuredContent"]


def test_an_example_error_is_an_error_result_not_a_protocol_error(session: dict[str, Any]) -> None:
    result = session["example_error"]
    assert result["isError"] is True
    assert _text(result)["error"] == {"code": "TOO_LOUD", "message": "no shouting", "retryable": False}


def test_an_error_result_carries_no_structured_content_that_the_output_schema_would_refuse(
    session: dict[str, Any],
) -> None:
    # echo_text has an output schema: clients validate any structuredContent against it (issue 29)
    for key in ("example_error", "invalid"):
        assert "structuredContent" not in session[key], key


def test_invalid_input_is_an_error_result_naming_the_path(session: dict[str, Any]) -> None:
    result = session["invalid"]
    assert result["isError"] is True
    error = _text(result)["error"]
    assert error["code"] == "INVALID_INPUT"
    assert [e["path"] for e in error["details"]["errors"]] == ["/text"]


def test_without_an_example_the_output_is_synthetic_and_valid(session: dict[str, Any]) -> None:
    result = session["synthetic"]
    assert result["isError"] is False
    assert result["structuredContent"] == {"stamped_at": "2024-01-01T00:00:00Z"}


def test_an_unknown_tool_is_json_rpc_invalid_params(session: dict[str, Any]) -> None:
    assert session["unknown"]["code"] == -32602
    assert "'no_such_tool'" in session["unknown"]["message"]
    assert "echo_text, stamp_file" in session["unknown"]["message"]


def test_a_cursor_the_server_never_gave_is_invalid_params(session: dict[str, Any]) -> None:
    assert session["cursor"]["code"] == -32602
    assert "page-2" in session["cursor"]["message"]


def test_server_info_names_toolgen_and_its_version(session: dict[str, Any]) -> None:
    from toolgen import __version__

    assert session["server_info"]["name"] == "toolgen-mock"
    assert session["server_info"]["version"] == __version__


def test_without_the_mcp_sdk_the_command_says_how_to_install_it(served: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.lowlevel", None)
    result = CliRunner().invoke(main, ["-C", str(served), "mock-server"])
    assert result.exit_code == 1
    assert "pip install 'toolgen[mcp]'" in result.output
    assert "Traceback" not in result.output


def test_invalid_contracts_are_reported_and_nothing_is_served(tmp_path: Path) -> None:
    broken = contract("broken_tool", version="one")
    write_project(tmp_path, {"broken_tool": broken}, ["providers"])
    result = CliRunner().invoke(main, ["-C", str(tmp_path), "mock-server"])
    assert result.exit_code == 1
    assert "contracts/broken_tool.json" in result.output and "TG110" in result.output
    assert "nothing to serve" in result.output


def test_a_package_name_that_would_shadow_the_mcp_sdk_is_refused(tmp_path: Path) -> None:
    write_project(tmp_path, {"echo_text": contract()}, ["providers"])
    toml = tmp_path / "toolgen.toml"
    toml.write_text('python_package = "mcp"\n' + toml.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(tmp_path), "mock-server"])
    assert result.exit_code == 1, result.output
    assert "python_package = 'mcp' is also the name of a module the mock server runs on" in result.output
    assert "serving" not in result.output and "Traceback" not in result.output
