"""The official TypeScript SDK client (the one inside Claude Desktop, VS Code, Cursor and the Inspector)
against `toolgen mock-server` over stdio: every error result of a tool with an output schema reaches the
model, and a success validates against the schema (the client checks both)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from tests.docs_support import write_project
from tests.node_support import ts_client
from tests.runtime.test_mock_server import catalog
from toolgen.cli import main

pytestmark = pytest.mark.node


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = write_project(tmp_path_factory.mktemp("ts"), catalog(), ["providers"])
    result = CliRunner().invoke(main, ["-C", str(root), "build"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    calls = [
        ["echo_text", {"text": "hello"}],
        ["echo_text", {"text": "HELLO"}],
        ["echo_text", {"text": 42}],
        ["stamp_file", {"text": "a.txt"}],
        ["no_such_tool", {}],
    ]
    return ts_client({"command": [sys.executable, "-m", "toolgen", "-C", str(root), "mock-server"], "calls": calls})


def _error(call: dict[str, Any]) -> dict[str, Any]:
    assert "result" in call, call
    result = call["result"]
    assert result["isError"] is True
    assert "structuredContent" not in result
    [block] = result["content"]
    error: dict[str, Any] = json.loads(block["text"])["error"]
    return error


def test_a_success_validates_against_the_output_schema(report: dict[str, Any]) -> None:
    assert report["calls"][0]["result"]["structuredContent"] == {"text": "hello"}
    assert report["calls"][3]["result"]["structuredContent"] == {"stamped_at": "2024-01-01T00:00:00Z"}


def test_a_tool_error_reaches_the_typescript_client(report: dict[str, Any]) -> None:
    assert _error(report["calls"][1]) == {"code": "TOO_LOUD", "message": "no shouting", "retryable": False}


def test_invalid_input_reaches_the_typescript_client(report: dict[str, Any]) -> None:
    assert _error(report["calls"][2])["code"] == "INVALID_INPUT"


def test_an_unknown_tool_is_json_rpc_invalid_params(report: dict[str, Any]) -> None:
    error = report["calls"][4]["error"]
    assert error["code"] == -32602
    assert "no_such_tool" in error["message"]


def test_server_info_names_the_version(report: dict[str, Any]) -> None:
    assert report["serverInfo"]["version"]
