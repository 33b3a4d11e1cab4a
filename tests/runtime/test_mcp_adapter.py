"""`<package>.integrations.mcp.serve_stdio(registry)`: the real MCP client against the generated server over a
subprocess, serving real implementations (not mocks) with a policy and a trace file."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.agent_support import agent_contracts
from tests.python_support import build, write_package, write_project

PACKAGE = "served_tools"

SERVER = textwrap.dedent(
    """
    import sys

    import anyio

    from served_tools import JsonlTracer, Ok, Policy, Registry
    from served_tools.integrations.mcp import serve_stdio

    def lookup(arguments):
        with open(sys.argv[2], "a", encoding="utf-8") as seen:
            seen.write(arguments.model_dump_json() + "\\n")
        return Ok({"definition": f"{arguments.word} x{arguments.limit}"})

    registry = Registry(Policy(allow={"read"}), JsonlTracer(sys.argv[1]))
    registry.register("lookup_word", lookup)
    registry.register("erase_word", lambda arguments: Ok({}))
    anyio.run(lambda: serve_stdio(registry, offer_all=True))  # the earlier list: every declared tool
    """
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(tmp_path_factory.mktemp("mcp"), agent_contracts(), PACKAGE)
    (root / "toolgen.toml").write_text(f'targets = ["python", "providers"]\npython_package = "{PACKAGE}"\n')
    folder = write_package(build(root), root / "out")
    (folder / "server.py").write_text(SERVER, encoding="utf-8")
    return root


async def _talk(project: Path) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    folder = project / "out" / "python"
    params = StdioServerParameters(
        command=sys.executable,
        args=["server.py", str(project / "trace.jsonl"), str(project / "seen.jsonl")],
        cwd=folder,
    )
    seen: dict[str, Any] = {}
    with (project / "server.stderr").open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as streams,
            ClientSession(streams[0], streams[1], read_timeout_seconds=120) as session,
        ):
            initialized = await session.initialize()
            seen["version"] = initialized.server_info.version
            listed = await session.list_tools()
            seen["tools"] = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]
            for key, name, arguments in (
                ("ok", "lookup_word", {"word": "catalog"}),
                ("denied", "erase_word", {"word": "catalog"}),
                ("invalid", "lookup_word", {"word": 7}),
                ("unregistered", "pause", {"ms": 1}),
            ):
                result = await session.call_tool(name, arguments)
                seen[key] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return seen


@pytest.fixture(scope="module")
def session(project: Path) -> dict[str, Any]:
    try:
        return anyio.run(_talk, project)
    except Exception:
        print((project / "server.stderr").read_text(encoding="utf-8"), file=sys.stderr)
        raise


def test_tools_list_is_exactly_providers_mcp_json(project: Path, session: dict[str, Any]) -> None:
    document = json.loads((project / "out" / "providers" / "mcp.json").read_text(encoding="utf-8"))
    assert session["tools"] == document["tools"]
    assert [t["name"] for t in session["tools"]] == ["erase_word", "lookup_word", "pause"]


def test_a_call_reaches_the_implementation_with_the_validated_input(project: Path, session: dict[str, Any]) -> None:
    assert session["ok"]["isError"] is False
    assert session["ok"]["structuredContent"] == {"definition": "catalog x1"}
    assert json.loads(session["ok"]["content"][0]["text"]) == {"definition": "catalog x1"}
    seen = [json.loads(line) for line in (project / "seen.jsonl").read_text(encoding="utf-8").splitlines()]
    assert seen == [{"word": "catalog", "limit": 1, "api_key": None}]  # the input model, its default applied


def test_denial_invalid_input_and_an_unregistered_tool_are_error_results(session: dict[str, Any]) -> None:
    for key, code in (("denied", "PERMISSION_DENIED"), ("invalid", "INVALID_INPUT"), ("unregistered", "UNKNOWN_TOOL")):
        assert session[key]["isError"] is True, key
        assert "structuredContent" not in session[key], key
        assert json.loads(session[key]["content"][0]["text"])["error"]["code"] == code


def test_server_info_has_a_version_from_the_catalog(session: dict[str, Any]) -> None:
    # the package is not installed as a distribution: the version names the served tools' versions
    assert session["version"].startswith("0+catalog.")
    assert len(session["version"]) == len("0+catalog.") + 12


def test_the_registry_traced_every_call(project: Path, session: dict[str, Any]) -> None:
    records = [json.loads(line) for line in (project / "trace.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["tool"], r["code"]) for r in records] == [
        ("lookup_word", "OK"),
        ("erase_word", "PERMISSION_DENIED"),
        ("lookup_word", "INVALID_INPUT"),
        ("pause", "UNKNOWN_TOOL"),
    ]
    assert {r["package"] for r in records} == {PACKAGE}
