"""The README's test command collects every stage folder (pytest's default norecursedirs skips `build`)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_the_default_run_collects_every_stage_folder() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n0", "-p", "no:cacheprovider"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    folders = {line.split("/")[1] for line in done.stdout.splitlines() if line.startswith("tests/") and "::" in line}
    stages = {p.name for p in (REPO / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert stages <= folders, sorted(stages - folders)
