"""Time an edit's way to the output under `toolgen watch`, against `toolgen build` after the same edit.

    .venv/bin/python -m benchmarks.bench_watch --size 1000 --repeat 7

Two projects get the same synthetic catalog and a cold build each, untimed. One is watched by a
`toolgen watch` child (started once, timed from the moment it says it watches). Then, in turns, per
round and per edit (`runs.change_one`: a description, then a new input property): the same edit in
the other project followed by a `toolgen build` child, timed from its start to its exit (the
anchor, what the same edit costs today); and the edit in the watched project, timed from just
before the file is written to the moment the watch prints that round's summary line (so it counts
the watch's look at the inputs, every `--interval` seconds, as well as its build). Each figure is the
median of `repeat` rounds; the table gives both, their ratio, and the issue's targets for an edit
(a description: 0.5 s, a property: 0.7 s, at 1,000 contracts).
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

from benchmarks import runs

TARGETS = {"description": 0.5, "property": 0.7}
"""Seconds an edit may take at 1,000 contracts (issue 32)."""


class Watched:
    """A `toolgen watch` child: its output lines as they come (stdout's summaries, stderr's notes)."""

    def __init__(self, project: Path, interval: float) -> None:
        command = [sys.executable, "-m", "toolgen", "-C", str(project), "watch", "--interval", str(interval)]
        self.process = subprocess.Popen(
            command,
            cwd=project,
            env=runs.child_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        for name, stream in (("out", self.process.stdout), ("err", self.process.stderr)):
            threading.Thread(target=self._pump, args=(name, stream), daemon=True).start()

    def _pump(self, name: str, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put((name, line))

    def wait_for(self, stream: str, text: str, timeout: float = 600.0) -> str:
        """The next line of `stream` holding `text` (others are dropped); SystemExit after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                name, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"toolgen watch said no {text!r} in {timeout:.0f} s") from None
            if name == stream and text in line:
                return line
            if "failed" in line or "internal error" in line:
                raise SystemExit(f"toolgen watch: {line.strip()}")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)


def one_shot(project: Path) -> float:
    """Seconds of one `toolgen build` child (which must write files)."""
    run = runs.toolgen(project, "build")
    if run.returncode != 0 or " written, " not in run.stdout:
        raise SystemExit(f"toolgen build: exit {run.returncode}\n{run.stdout}{run.stderr}")
    return run.seconds


def watched(watch: Watched, project: Path, index: int, step: int, edit: str) -> float:
    """Seconds from the edit to the watch's summary of the build it started."""
    started = time.perf_counter()
    runs.change_one(project, index, step, edit)
    watch.wait_for("out", " written, ")
    return time.perf_counter() - started


def measure(size: int, repeat: int, interval: float) -> dict[str, tuple[list[float], list[float]]]:
    """(one-shot builds, watched edits) by edit, `repeat` rounds in turns."""
    base = Path(tempfile.mkdtemp(prefix="toolgen-watch-"))
    try:
        plain, kept = runs.new_project(base, "plain", size), runs.new_project(base, "watched", size)
        for project in (plain, kept):
            one_shot(project)
        watch = Watched(kept, interval)
        try:
            watch.wait_for("err", "watching")
            times: dict[str, tuple[list[float], list[float]]] = {edit: ([], []) for edit in runs.EDITS}
            for step in range(1, repeat + 1):
                for edit in runs.EDITS:
                    index = (size * step) // 7 % size
                    runs.change_one(plain, index, step, edit)
                    times[edit][0].append(one_shot(plain))
                    times[edit][1].append(watched(watch, kept, index, step, edit))
        finally:
            watch.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return times


def table(times: dict[str, tuple[list[float], list[float]]], size: int) -> list[str]:
    """The result table: each edit's median both ways, their ratio, and (at 1,000 contracts, the
    size the targets are for) whether the watch meets the target."""
    lines = [
        "| edit | `toolgen build` (anchor) | `toolgen watch` | watch / build | target | met |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for edit, (builds, watches) in times.items():
        build, watch = statistics.median(builds), statistics.median(watches)
        target = TARGETS[edit]
        met = ("yes" if watch <= target else "no") if size == 1000 else "-"
        lines.append(f"| {edit} | {build:.3f} s | {watch:.3f} s | {watch / build:.2f} | <= {target} s | {met} |")
    return lines


def main() -> int:
    """Measure, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1000, help="contracts in the synthetic catalog")
    parser.add_argument("--repeat", type=int, default=7, help="rounds (each edit timed once per round, both ways)")
    parser.add_argument("--interval", type=float, default=0.1, help="the watch's --interval")
    args = parser.parse_args()
    times = measure(args.size, args.repeat, args.interval)
    print(f"machine: {runs.machine()}")
    print(f"{args.size} contracts, median of {args.repeat} rounds in turns; watch --interval {args.interval}\n")
    print("\n".join(table(times, args.size)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
