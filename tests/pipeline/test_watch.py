"""`toolgen watch`: every change of an input is built, the same bytes as a fresh build of the same
contracts, in one process that keeps what it loaded; bad input is a round's report, never the end
of the watch; Ctrl-C ends it cleanly, workers and all."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

import toolgen
from tests.build_support import reworded, tree, two_tools
from tests.factory import contract, write_json
from toolgen import cli_watch
from toolgen.config import load_settings
from toolgen.incremental import cachekey, snapshot
from toolgen.incremental.parallel import Workers
from toolgen.pipeline.project import Project
from toolgen.pipeline.watch import Round, Watch, inputs

Edit = Callable[[Path], None]


def _watched(root: Path, edits: list[Edit]) -> list[Round]:
    """Every round of a watch of `root` that makes `edits`, one while it waits after each round."""
    rounds: list[Round] = []
    todo = list(edits)
    looks = iter(range(10_000))

    def sleep(_seconds: float) -> None:
        assert next(looks, None) is not None, "an edit was never seen"
        if todo and len(rounds) == len(edits) - len(todo) + 1:  # the round before was built
            todo.pop(0)(root)

    Watch(root, interval=0).run(rounds.append, stop=lambda: not todo and len(rounds) == len(edits) + 1, wait=sleep)
    return rounds


def _fresh(root: Path, elsewhere: Path) -> dict[str, bytes]:
    """What a fresh build without the cache writes from `root`'s contracts and settings."""
    shutil.rmtree(elsewhere, ignore_errors=True)
    shutil.copytree(root, elsewhere, ignore=shutil.ignore_patterns("generated", ".toolgen-cache"))
    assert toolgen.build_project(elsewhere, use_cache=False).ok
    return tree(elsewhere / "generated")


def _added(root: Path) -> None:
    two_tools(root, ("read_file",))


def _removed(root: Path) -> None:
    (root / "contracts" / "echo_text.json").unlink()


def _broken(root: Path) -> None:
    bad = contract("echo_text")
    bad["input_schema"] = {"type": "object", "properties": {"x": {"type": "no-such-type"}}}
    write_json(root, bad)


def _new_property(root: Path) -> None:
    data = contract("write_file")
    data["input_schema"]["properties"]["mode"] = {"type": "string", "description": "How to open it."}
    write_json(root, data)


def test_each_change_is_built_as_a_fresh_build_of_the_same_contracts_would_be(tmp_path: Path) -> None:
    root = tmp_path / "project"
    two_tools(root)
    outputs: list[dict[str, bytes]] = []

    def then(edit: Edit) -> Edit:  # the output the round before left, kept before the edit
        def edited(at: Path) -> None:
            outputs.append(tree(at / "generated"))
            edit(at)

        return edited

    edits: list[Edit] = [
        lambda at: reworded(at, "echo_text"),
        _new_property,
        _added,
        _removed,
    ]
    rounds = _watched(root, [then(edit) for edit in edits])
    outputs.append(tree(root / "generated"))
    assert [r.report.ok for r in rounds] == [True] * 5
    assert rounds[0].changed == () and rounds[1].changed == ("contracts/echo_text.json",)
    assert rounds[3].changed == ("contracts/read_file.json",) and rounds[4].report.removed
    assert rounds[2].report.written and "python/agent_tools/write_file.py" in rounds[2].report.written
    fresh = _fresh(root, tmp_path / "fresh")
    assert outputs[-1] == fresh
    assert b"How to open it." in fresh["python/agent_tools/write_file.py"]


def test_a_bad_contract_is_a_round_that_writes_nothing_and_the_fix_builds(tmp_path: Path) -> None:
    root = tmp_path / "project"
    two_tools(root)
    written: list[dict[str, bytes]] = []

    def mended(at: Path) -> None:
        written.append(tree(at / "generated"))
        two_tools(at)

    rounds = _watched(root, [_broken, mended])
    assert [(r.report.ok, r.report.failed) for r in rounds] == [(True, ""), (False, "contracts"), (True, "")]
    assert any(d.is_error and d.file == "contracts/echo_text.json" for d in rounds[1].report.diagnostics)
    assert written[0] == _fresh(root, tmp_path / "fresh")  # the failed round wrote nothing


def test_settings_with_an_error_are_watched_until_they_are_mended(tmp_path: Path) -> None:
    root = tmp_path / "project"
    two_tools(root)
    (root / "toolgen.toml").write_text('targets = ["python", "no-such-target"]\n', encoding="utf-8")
    before: list[bool] = []

    def mended(at: Path) -> None:
        before.append((at / "generated").exists())
        (at / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")

    rounds = _watched(root, [mended])
    assert rounds[0].report.failed == "settings" and before == [False]
    assert rounds[1].changed == ("toolgen.toml",) and rounds[1].report.ok
    assert sorted(tree(root / "generated")) == sorted(_fresh(root, tmp_path / "fresh"))
    assert not (root / "generated" / "docs").exists()


def test_without_a_usable_key_a_watch_says_so_once_per_opening_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "config"
    blocked.write_text("a file where the configuration folder should be\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    monkeypatch.delenv(cachekey.ENV, raising=False)
    root = tmp_path / "project"
    two_tools(root)

    def settings_changed(at: Path) -> None:
        (at / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")

    rounds = _watched(root, [lambda at: reworded(at, "echo_text"), settings_changed])
    problems = [done.cache_problem for done in rounds]
    assert problems[0] is not None and str(blocked / "toolgen" / "cache-key") in problems[0]
    assert problems[1] is None and problems[2] == problems[0]  # the settings opened the project again
    assert all(done.report.ok for done in rounds) and not (root / ".toolgen-cache").exists()
    for done in rounds:
        cli_watch.print_round(done, "text")
    said = capsys.readouterr().err
    assert said.count("running without the build cache") == 2 and cachekey.ENV in said


def test_the_inputs_are_the_settings_the_contracts_and_the_templates_not_the_output(tmp_path: Path) -> None:
    two_tools(tmp_path)
    (tmp_path / "toolgen.toml").write_text('templates = "templates"\n', encoding="utf-8")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "notes.md.j2").write_text("x\n", encoding="utf-8")
    assert toolgen.build_project(tmp_path).ok
    settings = load_settings(tmp_path)[0]
    found = sorted(os.path.relpath(p, tmp_path) for p in inputs(tmp_path, settings))
    assert found == ["contracts/echo_text.json", "contracts/write_file.json", "templates/notes.md.j2", "toolgen.toml"]
    assert sorted(os.path.relpath(p, tmp_path) for p in inputs(tmp_path, None)) == ["toolgen.toml"]


def test_a_project_built_again_takes_its_contracts_from_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    two_tools(tmp_path)
    settings = load_settings(tmp_path)[0]
    project = Project(settings)
    assert project.build().ok
    reads = _counted_reads(monkeypatch)
    reworded(tmp_path, "echo_text")
    assert project.build().ok and reads == []  # the resident snapshot, not the cache's
    reworded(tmp_path, "write_file")
    assert Project(settings).build().ok and len(reads) == 1  # a new project reads it
    assert tree(tmp_path / "generated") == _fresh(tmp_path, tmp_path.parent / f"{tmp_path.name}-fresh")


def _counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every store `snapshot.read` reads from, from now on."""
    reads: list[object] = []
    real = snapshot.read

    def counted(store: Any) -> snapshot.Snapshot:
        reads.append(store)
        return real(store)

    monkeypatch.setattr(snapshot, "read", counted)
    return reads


def test_a_worker_leaves_ctrl_c_to_its_parent() -> None:
    def interrupted(item: int) -> int:
        os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C reaches every process of the group
        return item * 2

    assert Workers(2, fork_min=2).map(interrupted, list(range(8))) == [i * 2 for i in range(8)]


def _line(stream: IO[str] | None, deadline: float) -> str:
    """The next line the watch prints, failing (not hanging) when none comes before `deadline`."""
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
    assert ready, "the watch did not answer in time"
    return stream.readline()


AS_A_TERMINAL_JOB = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); os.execv(sys.argv[1], sys.argv[1:])"
)
"""Run the command after it (same process) as a terminal's job runs: Ctrl-C reaches it, whatever the
test runner inherited (one started in the background by a shell ignores SIGINT, and so would the
watch: Python leaves an ignored SIGINT ignored)."""


def _stopped(process: subprocess.Popen[str]) -> tuple[str, str]:
    """The output of a watch that ends within a minute; else it is aborted, and the test fails with
    its signal masks and the stack of every thread of it (`-X faulthandler` prints them on SIGABRT)."""
    try:
        return process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        status = Path(f"/proc/{process.pid}/status").read_text(encoding="utf-8")
        masks = "\n".join(line for line in status.splitlines() if line.startswith(("Sig", "ShdPnd")))
        process.send_signal(signal.SIGABRT)
        out, err = process.communicate(timeout=30)
        pytest.fail(f"the watch did not stop within 60 s of Ctrl-C\n{masks}\nstdout:\n{out}\nstderr:\n{err}")


def test_the_command_builds_each_change_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    two_tools(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    watch = [sys.executable, "-X", "faulthandler", "-m", "toolgen", "-C", str(tmp_path), "watch", "--interval", "0.05"]
    process = subprocess.Popen(
        [sys.executable, "-c", AS_A_TERMINAL_JOB, *watch],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's job is
    )
    try:
        deadline = time.monotonic() + 120
        assert "2 contracts:" in _line(process.stdout, deadline)
        reworded(tmp_path, "echo_text")
        assert " written, " in _line(process.stdout, deadline)
        os.killpg(process.pid, signal.SIGINT)
        _, err = _stopped(process)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0
    assert "changed: contracts/echo_text.json" in err and "stopped watching" in err
    assert "Traceback" not in err
    assert b"Reworded." in (tmp_path / "generated" / "python" / "agent_tools" / "echo_text.py").read_bytes()


def test_a_warmed_project_has_read_the_last_builds_contracts_and_its_build_reads_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two_tools(tmp_path)
    assert toolgen.build_project(tmp_path).ok  # another process's build, as far as the next project knows
    reads = _counted_reads(monkeypatch)
    project = Project(load_settings(tmp_path)[0])
    project.warm()
    assert len(reads) == 1
    reworded(tmp_path, "echo_text")
    report = project.build()
    assert report.ok and "python/agent_tools/echo_text.py" in report.written and len(reads) == 1


def test_priming_loads_datamodel_code_generator_and_black_in_a_new_process() -> None:
    program = (
        "import sys\n"
        "from toolgen.render import python_models\n"
        "before = {'datamodel_code_generator', 'black'} & set(sys.modules)\n"
        "python_models.prime('agent_tools')\n"
        "print(sorted(before), sorted({'datamodel_code_generator', 'black'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split("\n")[0] == "[] ['black', 'datamodel_code_generator']"


def _gone(pid: int) -> bool:
    """The process ended (a zombie no one reaps yet counts: it runs nothing)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_workers_end_when_their_parent_is_killed_outright(tmp_path: Path) -> None:
    program = (
        "import os, sys, time\n"
        "from toolgen.incremental.parallel import Workers\n"
        "def work(item):\n"
        "    open(os.path.join(sys.argv[1], str(os.getpid())), 'w').close()\n"
        "    time.sleep(300)\n"
        "    return item\n"
        "Workers(2, fork_min=2).map(work, list(range(4)))\n"
    )
    process = subprocess.Popen([sys.executable, "-c", program, str(tmp_path)])
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [int(p.name) for p in tmp_path.iterdir()]
        assert len(workers) == 2
    finally:
        process.kill()  # SIGKILL: nothing of the parent's runs
        process.wait()
    deadline = time.monotonic() + 60
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if not _gone(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []


def test_the_command_line_loads_the_watch_only_when_it_runs() -> None:
    """An edited `toolgen build` imports the command line; the watch and inotify's ctypes were 14 ms of it."""
    watch = "{'toolgen.pipeline.watch', 'toolgen.pipeline.notify'}"
    program = f"import sys, toolgen.cli\nprint(sorted({watch} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"
