"""A build killed with SIGKILL at any moment of its write phase leaves nothing the next build cannot fix.

Each run kills a real `toolgen build` (a child process) with SIGKILL just before its k-th file event
in the output folder: a file opened for writing, a folder made or removed, a file moved or deleted.
An audit hook (`sys.addaudithook`) in the child counts the events, so no test hook lives in toolgen.
After the kill the output folder must be wholly as before, wholly new, or else `check` must say that
a build was interrupted; the next `build` must then leave exactly what a fresh build makes (no
staging folder, no journal), and a `check` must pass. The same holds when the contracts are put back
as they were before the killed build (as after a `git checkout`): no file of a tool that no longer
exists may stay.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build_support import reworded, run, tree, two_tools
from tests.factory import contract, write_json

DRIVER = """
import atexit, os, signal, sys

out, kill_at, tally = os.path.realpath(sys.argv[1]) + os.sep, int(sys.argv[2]), sys.argv[3]
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT
seen = 0

def paths(event, args):
    if event == "open":
        path, mode, flags = args
        writing = any(c in str(mode or "") for c in "wax+") or bool((flags or 0) & WRITING)
        return [path] if writing else []
    if event == "os.rename":
        return [args[0], args[1]]
    if event in ("os.remove", "os.rmdir", "os.mkdir", "shutil.rmtree", "tempfile.mkdtemp"):
        return [args[0]]
    return []

def hook(event, args):
    global seen
    for path in paths(event, args):
        if isinstance(path, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(path)).startswith(out):
            seen += 1
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return

sys.addaudithook(hook)
atexit.register(lambda: open(tally, "w").write(str(seen)))
from toolgen.cli import main
main(sys.argv[4:], prog_name="toolgen")
"""

LEFTOVERS = (".toolgen-staging-", ".toolgen-journal")


def _visible(folder: Path) -> dict[str, bytes]:
    """The output tree without staging folders (a killed build cannot remove its own)."""
    return {k: v for k, v in tree(folder).items() if not k.startswith(".toolgen-staging-")}


def _killed_build(project: Path, driver: Path, kill_at: int) -> int:
    """Run `toolgen build` in a child killed before its `kill_at`-th file event; the events it saw."""
    tally = project.parent / f"{project.name}.tally"
    command = [sys.executable, str(driver), str(project / "generated"), str(kill_at), str(tally)]
    proc = subprocess.run(
        [*command, "-C", str(project), "build"], capture_output=True, text=True, timeout=300, check=False
    )
    if kill_at:
        assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
        return kill_at
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return int(tally.read_text())


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A project built once, then changed (a contract reworded, one removed, one added), not rebuilt;
    the output before, the output a fresh build of the change makes, and the number of file events."""
    root = tmp_path_factory.mktemp("interrupt")
    base = root / "base"
    (base / "contracts").mkdir(parents=True)
    old_contracts = root / "old-contracts"
    two_tools(base, ("echo_text", "write_file", "old_tool"))
    assert run(base, "build")[0] == 0
    shutil.copytree(base / "contracts", old_contracts)
    before = tree(base / "generated")
    reworded(base, "echo_text")
    (base / "contracts" / "old_tool.json").unlink()
    write_json(base, contract("new_tool"))
    fresh = root / "fresh"
    shutil.copytree(base / "contracts", fresh / "contracts")
    assert run(fresh, "build", "--no-cache")[0] == 0
    driver = root / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    counting = root / "counting"
    shutil.copytree(base, counting, symlinks=True)
    events = _killed_build(counting, driver, 0)
    assert tree(counting / "generated") == tree(fresh / "generated")
    assert events >= 10
    return {
        "base": base,
        "old": old_contracts,
        "before": before,
        "after": tree(fresh / "generated"),
        "driver": driver,
        "events": events,
    }


def _points(events: int) -> list[int]:
    """About ten kill points spread over the events, the first and the last included."""
    return sorted(
        {1, 2, 3, events // 4, events // 3, events // 2, 2 * events // 3, 3 * events // 4, events - 1, events}
    )


@pytest.mark.slow
def test_a_killed_build_is_detected_and_completed(scene: dict[str, object], tmp_path: Path) -> None:
    base, driver, events = scene["base"], scene["driver"], scene["events"]
    assert isinstance(base, Path) and isinstance(driver, Path) and isinstance(events, int)
    failures: list[str] = []
    outcomes: set[str] = set()
    for kill_at in _points(events):
        project = tmp_path / f"kill-{kill_at}"
        shutil.copytree(base, project, symlinks=True)
        _killed_build(project, driver, kill_at)
        shown = _visible(project / "generated")
        outcomes.add("old" if shown == scene["before"] else "new" if shown == scene["after"] else "mixed")
        if shown not in (scene["before"], scene["after"]):
            code, stdout, stderr = run(project, "check")
            if code != 1 or "interrupted" not in stdout + stderr:
                failures.append(f"kill at {kill_at}/{events}: a mixed output and check did not say so")
        reverted = tmp_path / f"revert-{kill_at}"
        shutil.copytree(project, reverted, symlinks=True)
        failures += _rebuilt(project, scene["after"], f"kill at {kill_at}/{events}, then build")
        shutil.rmtree(reverted / "contracts")
        shutil.copytree(scene["old"], reverted / "contracts")  # type: ignore[arg-type]
        failures += _rebuilt(reverted, scene["before"], f"kill at {kill_at}/{events}, contracts reverted, build")
    assert failures == [], "\n".join(failures)
    assert {"old", "mixed"} <= outcomes, f"the kill points must reach the moves: {outcomes}"


def _rebuilt(project: Path, expected: object, label: str) -> list[str]:
    code, stdout, stderr = run(project, "build")
    if code != 0:
        return [f"{label}: exit {code}: {stdout}{stderr}"]
    found = tree(project / "generated")
    problems: list[str] = []
    if any(k.startswith(LEFTOVERS) for k in found):
        problems.append(f"{label}: left {sorted(k for k in found if k.startswith(LEFTOVERS))}")
    if found != expected:
        assert isinstance(expected, dict)
        extra, missing = sorted(set(found) - set(expected)), sorted(set(expected) - set(found))
        changed = sorted(k for k in set(found) & set(expected) if found[k] != expected[k])
        problems.append(f"{label}: extra {extra}, missing {missing}, different {changed}")
    if run(project, "check")[0] != 0:
        problems.append(f"{label}: check fails after the build")
    return problems


def test_a_staging_folder_left_by_an_older_build_is_removed(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    leftover = project / "generated" / ".toolgen-staging-4194305-abcdefgh"
    (leftover / "docs").mkdir(parents=True)
    (leftover / "docs" / "echo_text.md").write_text("half a build\n", encoding="utf-8")
    reworded(project, "echo_text")
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert not leftover.exists()
    assert not [p for p in (project / "generated").iterdir() if p.name.startswith(LEFTOVERS)]


def test_a_leftover_staging_folder_is_removed_even_when_nothing_changed(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    leftover = project / "generated" / ".toolgen-staging-4194305-abcdefgh"
    leftover.mkdir()
    (leftover / "catalog.json").write_text("{}\n", encoding="utf-8")
    code, stdout, stderr = run(project, "check")
    assert code == 0 and "TG135" in stderr and leftover.name in stderr and "next build removes it" in stderr
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert not leftover.exists()


def test_a_journal_toolgen_did_not_write_stops_build_and_check(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    (project / "generated" / ".toolgen-journal.json").write_text('{"staging": "../..", "moves": {}}', encoding="utf-8")
    reworded(project, "echo_text")
    before = tree(project / "generated")
    for command in ("build", "check"):
        code, _, stderr = run(project, command)
        assert code == 1 and "TG135" in stderr, stderr
    assert tree(project / "generated") == before


@pytest.mark.slow
def test_an_edit_made_after_a_kill_is_kept_by_the_replay(scene: dict[str, object], tmp_path: Path) -> None:
    base, driver, events = scene["base"], scene["driver"], scene["events"]
    assert isinstance(base, Path) and isinstance(driver, Path) and isinstance(events, int)
    out = tmp_path / "p" / "generated"
    pending: list[str] = []
    for kill_at in range(events // 2, events):  # a kill that leaves a journal with a move still to do
        shutil.rmtree(tmp_path / "p", ignore_errors=True)
        shutil.copytree(base, tmp_path / "p", symlinks=True)
        _killed_build(tmp_path / "p", driver, kill_at)
        if (out / ".toolgen-journal.json").exists():
            record = json.loads((out / ".toolgen-journal.json").read_text(encoding="utf-8"))
            staged = out / record["staging"]
            pending = [p for p, before in record["moves"].items() if before and (staged / p).is_file()]
            if pending:
                break
    assert pending, "no kill point left a move to do"
    edited = out / pending[0]
    edited.write_text("edited after the kill\n", encoding="utf-8")
    code, _, stderr = run(tmp_path / "p", "build")
    assert code == 1 and "TG132" in stderr and pending[0] in stderr
    assert edited.read_text(encoding="utf-8") == "edited after the kill\n"
    assert not (out / ".toolgen-journal.json").exists()
    assert run(tmp_path / "p", "build", "--force")[0] == 0
    assert tree(out) == scene["after"]


@pytest.mark.slow
def test_a_build_killed_while_it_completes_an_interrupted_one(scene: dict[str, object], tmp_path: Path) -> None:
    base, driver, events = scene["base"], scene["driver"], scene["events"]
    assert isinstance(base, Path) and isinstance(driver, Path) and isinstance(events, int)
    project = tmp_path / "twice"
    shutil.copytree(base, project, symlinks=True)
    for kill_at in range(events // 2, events):  # the first kill point that leaves a journal
        _killed_build(project, driver, kill_at)
        if (project / "generated" / ".toolgen-journal.json").exists():
            break
        shutil.rmtree(project)
        shutil.copytree(base, project, symlinks=True)
    assert (project / "generated" / ".toolgen-journal.json").exists()
    for again in (1, 2, 3):  # the next build dies while it replays the journal, three times over
        _killed_build(project, driver, again)
    assert _rebuilt(project, scene["after"], "killed during recovery, then build") == []


def test_a_second_build_while_one_is_writing_is_refused(project: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    two_tools(project)
    assert run(project, "build")[0] == 0
    reworded(project, "echo_text")
    before = tree(project / "generated")
    handle = os.open(project / "generated", os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # as a build does while it writes
        code, _, stderr = run(project, "build")
    finally:
        os.close(handle)
    assert code == 1 and "another toolgen build is writing" in stderr
    assert tree(project / "generated") == before
    assert run(project, "build")[0] == 0
