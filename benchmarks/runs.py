"""What the benchmarks share: a timed child process with its peak memory, the report rows, and
the synthetic projects they build (`bench_build`, `bench_compare` and `bench_nochange` import it;
it imports none of them).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import synth_catalog

PYTHON = sys.executable


@dataclass
class Run:
    """One child process: wall time, peak RSS and what it printed."""

    seconds: float
    peak_mb: float
    returncode: int
    stdout: str
    stderr: str
    cpu: float = 0.0
    """User and system CPU seconds of the child and the workers it waited for (what a loaded
    machine inflates least)."""


@dataclass
class Row:
    """One line of the result table."""

    figure: str
    value: str
    target: str = ""
    ratio: str = ""
    ok: bool | None = None


@dataclass
class Report:
    """Every figure of the run, for the table and `--json`."""

    rows: list[Row] = field(default_factory=list)
    raw: dict[str, object] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)


def child_environment(snapshot: Path | None = None) -> dict[str, str]:
    """The environment of a timed child: this one, with `snapshot` (a copy of toolgen: `git archive`)
    first on PYTHONPATH, and bytecode written and read as an installed toolgen has it (a shell that
    sets PYTHONDONTWRITEBYTECODE would make every child compile toolgen from source again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if snapshot is not None:
        env["PYTHONPATH"] = str(snapshot.resolve())
    return env


ENV = child_environment()
"""The children's environment (`--toolgen-path` puts a snapshot of toolgen first on PYTHONPATH)."""


def run_child(args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """Run a child process, time it and read its own peak RSS (os.wait4, kilobytes on Linux)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(args, stdout=out, stderr=err, cwd=cwd, env=ENV if env is None else env)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            seconds,
            usage.ru_maxrss / 1024,
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            usage.ru_utime + usage.ru_stime,
        )


def toolgen(project: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    """`python -m toolgen -C project ARGS` as a child process (`env`: the default `ENV`)."""
    return run_child([PYTHON, "-m", "toolgen", "-C", str(project), *args], cwd=project.parent, env=env)


def expect(run: Run, what: str, report: Report, codes: tuple[int, ...] = (0,)) -> Run:
    """Record a failed run (with the head of its output) instead of timing garbage."""
    if run.returncode not in codes:
        tail = (run.stdout + run.stderr).strip().splitlines()[-15:]
        report.failed.append(f"{what}: exit {run.returncode}\n    " + "\n    ".join(tail))
    return run


def median_run(runs: list[Run]) -> Run:
    """The run with the median time (peak memory is the largest of them)."""
    ordered = sorted(runs, key=lambda r: r.seconds)
    middle = ordered[len(ordered) // 2]
    cpu = sorted(r.cpu for r in runs)[len(runs) // 2]
    return Run(middle.seconds, max(r.peak_mb for r in runs), middle.returncode, middle.stdout, middle.stderr, cpu)


def new_project(base: Path, name: str, count: int) -> Path:
    """A fresh project folder with `count` synthetic contracts."""
    project = base / name
    project.mkdir()
    synth_catalog.write_catalog(project, count)
    # A catalog this size is never sent to one model request: OpenAI's 128-tools limit is off.
    (project / "toolgen.toml").write_text('[rules]\nTG305 = "off"\n', encoding="utf-8")
    return project


EDITS = ("description", "property")
"""What `change_one` edits: a description (a patch bump), or a new optional input property (a minor bump)."""


def change_one(project: Path, index: int, step: int, edit: str = "description") -> None:
    """Edit one contract as an author would: a new sentence in its description and a patch bump, or
    (`edit="property"`) a new optional string property in its input schema and a minor bump."""
    doc = synth_catalog.contract(index)
    major, minor, patch = doc["version"].split(".")
    if edit == "property":
        schema = doc["input_schema"]
        schema["properties"][f"revision_note_{step}"] = {"type": "string", "description": f"Revision note {step}."}
        doc["version"] = f"{major}.{int(minor) + step}.0"
    else:
        doc["description"] += f" Revised note {step}."
        doc["version"] = f"{major}.{minor}.{int(patch) + step}"
    group = synth_catalog.GROUPS[index % len(synth_catalog.GROUPS)]
    folder = project / "contracts" / group
    if index % 4 == 0:
        (folder / f"{doc['name']}.toml").write_text(synth_catalog.toml_text(doc), encoding="utf-8")
    else:
        (folder / f"{doc['name']}.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by relative path (for byte-for-byte comparison)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def machine() -> str:
    """A one-line description of the machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
