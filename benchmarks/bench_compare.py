"""`bench_build`'s toolgen figures for two or more toolgen snapshots, timed in turns, with ratios.

    git archive <commit> toolgen templates | (mkdir -p /tmp/snap-a && tar -x -C /tmp/snap-a)
    .venv/bin/python -m benchmarks.bench_build --sizes 1000 10000 --skip-anchors --toolgen-path /tmp/snap-a /tmp/snap-b

Each snapshot (first on PYTHONPATH of the child) gets a project of its own with the same synthetic
catalog (a snapshot's cache and no-change record are its own). The machine is noisy, so every
figure alternates the snapshots run by run: cold build (no output, no cache), no-change build,
`check`, a build after the same one description edited in each project, and one after the same
property added to one input schema; each figure is the median of `repeat` runs. Then, unless
`skip_large`, one cold build of the large size per snapshot (its time, CPU time and peak memory).
Each snapshot's output after the edited builds is compared byte for byte with the first
snapshot's. Prints one table: each snapshot's figure and its ratio to the first snapshot's, wall
time and, less inflated by a loaded machine, CPU time (user and system, of the child and the
workers it waited for).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.runs import (
    Report,
    Run,
    change_one,
    child_environment,
    expect,
    median_run,
    new_project,
    toolgen,
    tree_bytes,
)

FIGURES = ("cold", "nochange", "check", "description", "property")
"""The figures, in the order they run: `description` and `property` are `change_one`'s edits."""


def _round(
    figure: str, projects: Sequence[Path], envs: Sequence[dict[str, str]], step: int, report: Report
) -> list[Run]:
    """One run of `figure` for each snapshot, in turn."""
    count = len(list((projects[0] / "contracts").rglob("*.*")))
    runs: list[Run] = []
    for project, env in zip(projects, envs, strict=True):
        if figure == "cold":
            shutil.rmtree(project / "generated", ignore_errors=True)
            shutil.rmtree(project / ".toolgen-cache", ignore_errors=True)
        if figure in ("description", "property"):
            change_one(project, (count * step) // 7 % count, step, figure)
        runs.append(expect(toolgen(project, "check" if figure == "check" else "build", env=env), figure, report))
    return runs


def compare(snapshots: Sequence[Path], sizes: Sequence[int], repeat: int, skip_large: bool) -> int:
    """Time every figure for each snapshot in turns; print the table; 1 when a run failed or the
    snapshots' outputs differ."""
    count = sizes[0]
    envs = [child_environment(s) for s in snapshots]
    report = Report()
    base = Path(tempfile.mkdtemp(prefix="toolgen-compare-"))
    figures: dict[str, list[list[Run]]] = {name: [[] for _ in snapshots] for name in FIGURES}
    try:
        projects = [new_project(base, f"p{i}", count) for i in range(len(snapshots))]
        for project, env in zip(projects, envs, strict=True):
            expect(toolgen(project, "--version", env=env), "warm-up", report)
        for name in FIGURES:
            print(f"  {name} x {repeat} per snapshot, in turns ...", flush=True)
            for step in range(1, repeat + 1):
                for index, run in enumerate(_round(name, projects, envs, step, report)):
                    figures[name][index].append(run)
        first = tree_bytes(projects[0] / "generated")
        for project, snapshot in zip(projects[1:], snapshots[1:], strict=True):
            if tree_bytes(project / "generated") != first:
                report.failed.append(f"{snapshot}: the output differs from {snapshots[0]}'s")
        large = _large(base, sizes, envs, report) if len(sizes) > 1 and not skip_large else None
    finally:
        shutil.rmtree(base, ignore_errors=True)
    _print(snapshots, {k: [median_run(r) for r in v] for k, v in figures.items()}, large, count, sizes)
    for failure in report.failed:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if report.failed else 0


def _large(base: Path, sizes: Sequence[int], envs: Sequence[dict[str, str]], report: Report) -> list[Run]:
    print(f"  cold build of {sizes[1]}, once per snapshot ...", flush=True)
    runs = []
    for index, env in enumerate(envs):
        project = new_project(base, f"large{index}", sizes[1])
        runs.append(expect(toolgen(project, "build", env=env), "large build", report))
        shutil.rmtree(project, ignore_errors=True)
    return runs


def _print(
    snapshots: Sequence[Path], medians: dict[str, list[Run]], large: list[Run] | None, count: int, sizes: Sequence[int]
) -> None:
    heads = " | ".join(f"{s.name}" for s in snapshots)
    ratios = " | ".join(f"{s.name} / {snapshots[0].name}" for s in snapshots[1:])
    print(f"\n| figure ({count} contracts) | {heads} | {ratios} |")
    print("|---|" + "---:|" * (2 * len(snapshots) - 1))
    rows = [(name, [r.seconds for r in runs], "s") for name, runs in medians.items()]
    rows += [(f"{name}, CPU (median)", [r.cpu for r in runs], "s") for name, runs in medians.items()]
    rows.append(
        (
            "peak memory, any run above",
            [max(medians[n][i].peak_mb for n in FIGURES) for i in range(len(snapshots))],
            "MB",
        )
    )
    if large is not None:
        rows.append((f"cold build of {sizes[1]}", [r.seconds for r in large], "s"))
        rows.append((f"cold build of {sizes[1]}, CPU", [r.cpu for r in large], "s"))
        rows.append((f"peak memory, cold build of {sizes[1]}", [r.peak_mb for r in large], "MB"))
    for name, values, unit in rows:
        shown = " | ".join(f"{v:.2f} {unit}" for v in values)
        ratio = " | ".join(f"{v / values[0]:.2f}" if values[0] else "-" for v in values[1:])
        print(f"| {name} | {shown} | {ratio} |")
