"""`toolgen build` and `toolgen check` when nothing changed, answered before the command line loads.

A pre-commit hook or a CI step runs one of them on every commit, plainly, and most of the time
nothing changed: the no-change shortcut then answers in a few tens of milliseconds, and importing
the command line (click and what it brings: about 60 ms) would be most of the run. `answer` takes
exactly those plain forms, `[-C DIR | --project DIR | --project=DIR] (build | check)`, and when the
shortcut answers (`Project.unchanged`) with nothing to report but its summary, prints the line the
command line prints and gives the exit code, 0. Otherwise it gives the project it probed (its probe
kept for the build or check that follows, which then reads nothing again), or None when it did not
get that far: the command line (`toolgen.cli`) runs as always and says whatever there is to say.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from toolgen.config import find_root, load_settings
from toolgen.diagnostics import has_errors
from toolgen.pipeline.project import Project
from toolgen.summaries import built_line, current_line

COMMANDS = frozenset({"build", "check"})


def plain_form(argv: Sequence[str]) -> tuple[Path | None, str] | None:
    """(the project folder given, or None; the command) when `argv` is one of the plain forms."""
    args = list(argv)
    if len(args) == 1 and args[0] in COMMANDS:
        return None, args[0]
    if len(args) == 3 and args[0] in ("-C", "--project") and args[1] and args[2] in COMMANDS:
        return Path(args[1]), args[2]
    if len(args) == 2 and args[0].startswith("--project=") and args[0] != "--project=" and args[1] in COMMANDS:
        return Path(args[0].removeprefix("--project=")), args[1]
    return None  # an empty folder name too: the command line refuses it


def answer(argv: Sequence[str]) -> int | Project | None:
    """The exit code when the shortcut answered `argv` (its summary printed), else the project
    probed for the command line to go on with, else None. Any failure here is None: the command
    line runs and reports it as it reports everything (no traceback from here)."""
    form = plain_form(argv)
    if form is None:
        return None
    started = time.perf_counter()
    try:
        project = _project(form[0])
        report = project.unchanged(check=form[1] == "check") if project and project.secret else None
    except Exception:  # the command line runs instead, and says what went wrong
        return None
    if report is None or report.found:  # nothing answered, or diagnostics to show as always
        return project
    if form[1] == "check":
        line = current_line(report.output, report.unchanged, fast=True)
    else:
        seconds = time.perf_counter() - started
        line = built_line(report.contracts, report.output, unchanged=report.unchanged, seconds=seconds, fast=True)
    try:
        print(line, flush=True)
    except BrokenPipeError:  # a reader that left early: the command line's exit for it
        return 1
    except UnicodeEncodeError:  # an output folder name stdout cannot encode: nothing was written
        return project
    return 0


def _project(given: Path | None) -> Project | None:
    """The project at `given` (else the one the current folder is in), None when its folder or its
    settings have a problem, which the command line reports."""
    if given is not None and not given.is_dir():
        return None
    settings, problems = load_settings(given if given is not None else find_root(Path.cwd()))
    return None if has_errors(problems) else Project(settings)
