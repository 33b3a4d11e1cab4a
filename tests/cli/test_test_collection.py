"""The README's test command collects every stage folder (pytest's own `norecursedirs`, not overridden).

No test folder is named `build` any more (pytest, black and common `.gitignore` files skip such
folders), so the project keeps pytest's defaults; this holds that every folder is still collected.

The run is the README's own (`pytest --collect-only` from the repository root, with its configuration),
but a plugin stands in for each test module pytest would import, so the check costs a pytest start,
not an import of the whole suite: which folders pytest recurses into and which files it takes as test
modules (`norecursedirs`, `testpaths`, `python_files`) are decided before any module is imported.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

STUB_PLUGIN = """
import pytest


class StubModule(pytest.File):
    def collect(self):
        yield StubItem.from_parent(self, name="stub")


class StubItem(pytest.Item):
    def runtest(self):
        pass


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    return StubModule.from_parent(parent, path=module_path)
"""


def _collected(plugins: Path) -> set[str]:
    """The stage folders whose test modules the README's command collects (modules stubbed)."""
    (plugins / "stub_modules.py").write_text(STUB_PLUGIN, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugins), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n0", "-p", "no:cacheprovider", "-p", "stub_modules"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line.split("/")[1] for line in done.stdout.splitlines() if line.startswith("tests/") and "::stub" in line}


def test_the_default_run_collects_every_stage_folder(tmp_path: Path) -> None:
    folders = _collected(tmp_path)
    stages = {p.name for p in (REPO / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert {"pipeline", "writer", "incremental", "house"} <= stages
    assert "build" not in stages  # pytest skips a folder of that name by default
    assert stages <= folders, sorted(stages - folders)
