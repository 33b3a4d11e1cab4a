"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, Node 22) against the suite's
reference tools (tests/data/conformance: contracts, server.py on the generated registry, serve_http).

Every scenario about lifecycle, ping and tools that toolgen offers passes; the rest are in
tests/data/conformance/baseline.yml, each with its reason, and the suite itself fails the run when
a baselined scenario passes (a stale entry) or another one fails.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.http_support import free_port, serving
from tests.node_support import NODE_DIR, node, require
from tests.python_support import build, write_package

pytestmark = pytest.mark.node

PROJECT = REPO / "tests" / "data" / "conformance"
MUST_PASS = (
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-with-progress",
    "logging-set-level",
    "json-schema-2020-12",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
)


def test_the_conformance_suite_passes_but_its_baseline(tmp_path: Path) -> None:
    suite = require("@modelcontextprotocol/conformance")
    runner = node(modern=True)
    shutil.copytree(PROJECT, tmp_path / "project")
    folder = write_package(build(tmp_path / "project"), tmp_path / "out")
    shutil.copy(PROJECT / "server.py", folder / "server.py")
    port = free_port()
    command = [sys.executable, "server.py", str(port)]
    with serving(command, port, tmp_path / "server.log", cwd=folder) as served:
        done = subprocess.run(
            [
                runner,
                str(suite / "dist" / "index.js"),
                "server",
                "--url",
                served.url,
                "--suite",
                "all",
                "--expected-failures",
                str(PROJECT / "baseline.yml"),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
            check=False,
        )
    summary = done.stdout[done.stdout.find("=== SUMMARY") :]
    print(summary)  # the scenario table, for -s
    assert done.returncode == 0, f"{summary}\n{done.stderr[-3000:]}"
    for scenario in MUST_PASS:
        assert f"✓ {scenario}:" in summary, summary
    assert NODE_DIR.is_dir()
