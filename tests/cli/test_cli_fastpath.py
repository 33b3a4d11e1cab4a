"""`build` and `check` take the no-change fast path through one helper: what a fast run says (its
diagnostics, its counts, its exit code, its JSON document) is what the full run it stands for said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.build_support import run
from tests.factory import contract, write_json

FAST = "no input changed since the last build"


def _project(project: Path) -> Path:
    """Two tools, one with a warning (TG201: a description too short), so diagnostics travel too."""
    write_json(project, contract("echo_text"))
    write_json(project, contract("write_file", description="Writes."))
    (project / "toolgen.toml").write_text('targets = ["catalog", "docs"]\n', encoding="utf-8")
    return project


def _lines(text: str) -> list[str]:
    """The diagnostic lines of an output (stderr: the summary, which names the seconds, is on stdout)."""
    return [line for line in text.splitlines() if "TG" in line]


@pytest.mark.parametrize("command", ["build", "check"])
@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_fast_run_reports_what_the_full_run_reported(project: Path, command: str, fmt: str) -> None:
    _project(project)
    assert run(project, "build")[0] == 0
    full = run(project, command, "--format", fmt, "--no-cache")
    run(project, "check")  # records again: the --no-cache run did not
    fast = run(project, command, "--format", fmt)
    assert FAST in fast[1] and FAST not in full[1]
    assert fast[0] == full[0] == 0
    assert _lines(fast[2]) == _lines(full[2]) and any("TG201" in line for line in _lines(fast[2]))


def _document(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return data


def test_a_fast_check_gives_the_full_checks_json_document(project: Path) -> None:
    _project(project)
    assert run(project, "build")[0] == 0
    full = run(project, "check", "--format", "json", "--no-cache")
    fast = run(project, "check", "--format", "json")
    assert FAST in fast[2] and FAST not in full[2]
    assert fast[0] == full[0] == 0
    assert _document(fast[1]) == _document(full[1])


def test_a_fast_build_gives_the_full_builds_json_document(project: Path) -> None:
    _project(project)
    assert run(project, "build")[0] == 0
    full = run(project, "build", "--format", "json", "--no-cache")  # writes nothing: all current
    fast = run(project, "build", "--format", "json")
    assert FAST in fast[2] and FAST not in full[2]
    assert fast[0] == full[0] == 0
    assert _document(fast[1]) == _document(full[1])
    assert _document(fast[1])["written"] == [] and _document(fast[1])["unchanged"] > 0


@pytest.mark.parametrize("first", ["build", "check"])
def test_either_command_records_what_the_other_takes_fast(project: Path, first: str) -> None:
    """A build leaves a record `check` takes fast, and a check that found the output current one a build takes."""
    _project(project)
    assert run(project, "build", "--no-cache")[0] == 0  # output current, nothing recorded
    assert FAST not in run(project, "check", "--no-cache")[1]
    assert run(project, first)[0] == 0
    for command in ("build", "check"):
        code, out, _ = run(project, command)
        assert code == 0 and FAST in out, (command, out)


def test_the_counts_of_a_fast_check_are_the_full_checks(project: Path) -> None:
    _project(project)
    assert run(project, "build")[0] == 0
    full = run(project, "check", "--no-cache")[1].strip()
    fast = run(project, "check")[1].strip()
    assert fast == full.removesuffix(")") + f"; {FAST})"
