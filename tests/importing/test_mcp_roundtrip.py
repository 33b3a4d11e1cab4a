"""Round trip of real MCP declarations (tests/data/corpus_sample/mcp_tools.jsonl, licences in its
NOTICE.md, and declarations with the shapes the sample lacks: `-` and `.` names, `execution`, a title
only in the annotations): import, build, list again. Every field of every tool is kept, or changed with
a line in the import report: no silent change. A mock served from the imported catalog answers to
every original name."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from toolgen.cli import main

SAMPLE = REPO / "tests" / "data" / "corpus_sample" / "mcp_tools.jsonl"
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
OBJECT = {"type": "object", "properties": {"path": {"type": "string", "description": "A path."}}, "required": ["path"]}
EXTRA = [
    {
        "name": "git-add",
        "description": "Stage the given file for the next commit.",
        "inputSchema": OBJECT,
        "annotations": {"readOnlyHint": False, "destructiveHint": False},
    },
    {
        "name": "files.read",
        "title": "Read a file",
        "description": "Read a text file and return it.",
        "inputSchema": OBJECT,
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "execution": {"taskSupport": "optional"},
    },
    {
        "name": "memory_forget",
        "description": "Forget one stored memory by its path.",
        "inputSchema": OBJECT,
        "annotations": {"title": "Forget a memory", "idempotentHint": True},
    },
]
KEPT = ("title", "execution", "icons", "_meta")


def _records() -> list[dict[str, Any]]:
    sample = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{k: v for k, v in r.items() if k not in ("server", "source", "schema_origin")} for r in sample] + EXTRA


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("roundtrip")
    (root / "contracts").mkdir()
    (root / "toolgen.toml").write_text('targets = ["providers", "python", "mocks"]\n', encoding="utf-8")
    source = root / "tools.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    done = CliRunner().invoke(main, ["-C", str(root), "import", str(source), "--from", "mcp", "--repair"])
    assert done.exit_code == 0, done.output
    built = CliRunner().invoke(main, ["-C", str(root), "build"])
    assert built.exit_code == 0, built.output
    return root, done.stdout


def _report_blocks(report: str) -> dict[str, str]:
    """Source name -> its block of the import report."""
    blocks: dict[str, str] = {}
    name = ""
    for line in report.splitlines():
        if line.startswith("line ") and "(" in line:
            name = line.split("(", 1)[1].split(")", 1)[0]
        if name:
            blocks[name] = blocks.get(name, "") + line + "\n"
    return blocks


def test_every_field_is_kept_or_its_change_is_reported(imported: tuple[Path, str]) -> None:
    root, report = imported
    listed = json.loads((root / "generated" / "providers" / "mcp.json").read_text(encoding="utf-8"))["tools"]
    by_name = {t["name"]: t for t in listed}
    blocks = _report_blocks(report)
    silent = []
    for record in _records():
        tool = by_name.get(record["name"])
        assert tool is not None, f"{record['name']} is not served under its own name"
        for key in KEPT:
            if record.get(key) != tool.get(key):
                silent.append(f"{record['name']}: {key} {record.get(key)!r} -> {tool.get(key)!r}")
        given = record.get("annotations", {})
        expected = {**HINT_DEFAULTS, **given}
        if expected["readOnlyHint"] and "destructiveHint" not in given:
            expected["destructiveHint"] = False  # meaningful only when not read-only (MCP spec): stated as false
        if expected != tool["annotations"]:
            silent.append(f"{record['name']}: annotations {given} -> {tool['annotations']}")
        for key, where in (
            ("description", "description"),
            ("inputSchema", "/inputSchema"),
            ("outputSchema", "/outputSchema"),
        ):
            block = blocks.get(record["name"], "")
            if record.get(key) != tool.get(key) and where not in block and "trimmed and dedented" not in block:
                silent.append(f"{record['name']}: {key} changed without a note")
    assert silent == [], "\n".join(silent)


async def _call_all(root: Path, names: list[str]) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "toolgen", "-C", str(root), "mock-server"])
    answered: dict[str, Any] = {}
    with (root / "server.log").open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as streams,
            ClientSession(streams[0], streams[1], read_timeout_seconds=120) as session,
        ):
            await session.initialize()
            for name in names:
                result = await session.call_tool(name, {"path": "a.txt"})
                answered[name] = result.is_error, result.content[0].text if result.content else ""
    return answered


@pytest.mark.slow  # starts the mock server over the whole imported catalog
def test_a_mock_of_the_imported_catalog_answers_to_every_original_name(imported: tuple[Path, str]) -> None:
    root, _ = imported
    names = [r["name"] for r in EXTRA]
    answered = anyio.run(_call_all, root, names)
    assert sorted(answered) == sorted(names)
    for name, (is_error, text) in answered.items():
        assert not is_error or "UNKNOWN_TOOL" not in text, (name, text)
