"""Byte-determinism of the whole build: file order, hash seed and working directory change nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def _build(project: Path, cwd: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "-C", str(project), "build"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = project / "generated"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _copy_contracts(destination: Path, reverse: bool) -> None:
    """Copy the repo's contracts creating files in forward or reverse order (directory order differs)."""
    sources = sorted((REPO / "contracts").rglob("*"), reverse=reverse)
    for source in sources:
        if source.is_file():
            target = destination / "contracts" / source.relative_to(REPO / "contracts")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def test_same_bytes_across_seeds_file_order_and_cwd(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _copy_contracts(first, reverse=False)
    _copy_contracts(second, reverse=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    one = _build(first, cwd=first, seed="0")
    two = _build(second, cwd=elsewhere, seed="1")
    assert one.keys() == two.keys()
    for path in one:
        assert one[path] == two[path], f"{path} differs between builds"
        assert b"\r\n" not in one[path], f"{path} has CRLF line endings"
        assert one[path].endswith(b"\n"), f"{path} has no trailing newline"
        assert str(tmp_path).encode() not in one[path], f"{path} leaks an absolute path"


def test_committed_generated_folder_is_current() -> None:
    """The repository's own `generated/` matches its contracts (what CI's `toolgen check` proves)."""
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "check"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
