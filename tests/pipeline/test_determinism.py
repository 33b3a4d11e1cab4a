"""Byte-determinism of the whole build: file order, hash seed and working directory change nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
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


SEEDS = ("0", "1", "2", "3", "4")
"""Hash seeds to build under: chosen so the permission sets of the repo's contracts iterate in
several different orders among them (checked by `test_the_seeds_reorder_the_permission_sets`)."""


def _permission_sets() -> list[list[str]]:
    sets = []
    for path in sorted((REPO / "contracts").rglob("*")):
        if path.suffix == ".toml":
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        elif path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            continue
        if len(data.get("permissions", ())) > 1:
            sets.append(sorted(data["permissions"]))
    return sets


def test_the_seeds_reorder_the_permission_sets() -> None:
    """Without this, a build that leaks set order could still give the same bytes under every seed."""
    sets = _permission_sets()
    assert sets, "no contract in the repo has two permissions: the seed test would prove nothing"
    script = f"import json; print(json.dumps([list(set(s)) for s in {sets!r}]))"
    orders = set()
    for seed in SEEDS:
        proc = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        orders.add(proc.stdout)
    assert len(orders) >= 3, f"the seeds {SEEDS} give only {len(orders)} set orders"


@pytest.mark.slow  # ~14 s: five builds of the repo catalog, one per hash seed
def test_same_bytes_across_seeds_file_order_and_cwd(tmp_path: Path) -> None:
    """Each build gets a fresh copy (a warm cache would replay the first build's bytes)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    builds = {}
    for index, seed in enumerate(SEEDS):
        # Alternate file creation order (directory order differs) and the working directory.
        project = tmp_path / f"seed-{seed}"
        _copy_contracts(project, reverse=index % 2 == 1)
        builds[seed] = _build(project, cwd=elsewhere if index % 2 == 1 else project, seed=seed)
    one = builds[SEEDS[0]]
    for seed, other in builds.items():
        assert one.keys() == other.keys(), f"seed {seed}: different files"
        for path in one:
            assert one[path] == other[path], f"{path} differs between PYTHONHASHSEED={SEEDS[0]} and {seed}"
    for path in one:
        assert b"\r\n" not in one[path], f"{path} has CRLF line endings"
        assert one[path].endswith(b"\n"), f"{path} has no trailing newline"
        assert str(tmp_path).encode() not in one[path], f"{path} leaks an absolute path"


def test_committed_generated_folder_is_current() -> None:
    """The repository's own `generated/` matches its contracts (what CI's `toolgen check` proves)."""
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "check"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
