"""Time the no-change `toolgen build` and `toolgen check`, alternating toolgen snapshots in one run.

    git archive <commit> toolgen templates | (mkdir -p /tmp/snap-<commit> && tar -x -C /tmp/snap-<commit>)
    .venv/bin/python -m benchmarks.bench_nochange --size 1000 --repeat 9 --toolgen-path /tmp/snap-a /tmp/snap-b

For each snapshot (`--toolgen-path`, first on PYTHONPATH of the child; none: the installed toolgen)
it writes the same synthetic catalog (`synth_catalog.py`) into a project of its own and builds it
once, untimed (a snapshot's cache and no-change record are its own). Then it times, in turns, one
no-change build and one `check` of each project per round, as child processes (`python -m toolgen`),
and prints each snapshot's median and its ratio to the first snapshot. Only these two figures: the
cold build, the anchors and the large catalog are `bench_build.py`'s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import runs


def timed(project: Path, snapshot: Path | None, *args: str) -> float:
    """Seconds of one `python -m toolgen -C project ARGS` child run (which must exit 0)."""
    env = runs.child_environment(snapshot)
    started = time.perf_counter()
    command = [sys.executable, "-m", "toolgen", "-C", str(project), *args]
    # cwd: `python -m` puts the working folder first on sys.path, ahead of PYTHONPATH; run from the
    # checkout, every snapshot would import the checkout's own toolgen
    proc = subprocess.run(command, env=env, cwd=project, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if proc.returncode != 0 or (args[0] == "build" and "no input changed" not in proc.stdout):
        raise SystemExit(f"toolgen {' '.join(args)} ({snapshot}): exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return seconds


def main() -> int:
    """Build each snapshot's project, then time the no-change figures in turns and print them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1000, help="contracts in the synthetic catalog")
    parser.add_argument("--repeat", type=int, default=9, help="rounds (each snapshot timed once per round)")
    parser.add_argument("--toolgen-path", type=Path, nargs="*", default=[], help="toolgen snapshots to compare")
    args = parser.parse_args()
    snapshots: list[Path | None] = list(args.toolgen_path) or [None]
    base = Path(tempfile.mkdtemp(prefix="toolgen-nochange-"))
    try:
        projects = [runs.new_project(base, f"p{i}", args.size) for i in range(len(snapshots))]
        for project, snapshot in zip(projects, snapshots, strict=True):
            subprocess.run(
                [sys.executable, "-m", "toolgen", "-C", str(project), "build"],
                env=runs.child_environment(snapshot),
                cwd=project,
                capture_output=True,
                check=True,
            )
        times: dict[tuple[int, str], list[float]] = {}
        for _ in range(args.repeat):
            for index, (project, snapshot) in enumerate(zip(projects, snapshots, strict=True)):
                for command in ("build", "check"):
                    times.setdefault((index, command), []).append(timed(project, snapshot, command))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"machine: {runs.machine()}")
    print(f"{args.size} contracts, median of {args.repeat} alternating rounds")
    for command in ("build", "check"):
        first = statistics.median(times[(0, command)])
        for index, snapshot in enumerate(snapshots):
            median = statistics.median(times[(index, command)])
            label = "no-change build" if command == "build" else "check (nothing changed)"
            print(f"  {label:24} {snapshot or 'installed'}: {median:.3f} s  (x{median / first:.2f} of the first)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
