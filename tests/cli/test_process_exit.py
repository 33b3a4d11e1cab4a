"""The `toolgen` process ends without the interpreter's teardown (`toolgen.__main__.run`), and still
says everything and exits with the status `main` chose."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import weakref
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from tests.factory import contract, write_json
from toolgen import __version__
from toolgen.__main__ import exit_code
from toolgen.cli import main
from toolgen.pipeline import stages as pipeline


def _toolgen(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "toolgen", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def test_the_status_and_output_of_main_come_through(project: Path) -> None:
    assert (_toolgen("--version").returncode, __version__ in _toolgen("--version").stdout) == (0, True)
    usage = _toolgen("-C", str(project / "nowhere"), "build")
    assert usage.returncode == 2 and "does not exist" in usage.stderr
    write_json(project, contract("echo_text", description="Echo text."))  # a warning
    built = _toolgen("-C", str(project), "build", "--format", "json")
    assert built.returncode == 0, built.stderr
    document = json.loads(built.stdout)  # the whole document, flushed before the process ended
    assert document["ok"] is True and any(d["code"] == "TG201" for d in document["diagnostics"])
    assert (project / "generated" / "catalog.json").is_file()
    broken = project / "contracts" / "echo_text.json"
    broken.write_text("{", encoding="utf-8")
    failed = _toolgen("-C", str(project), "build")
    assert failed.returncode == 1 and "nothing was written" in failed.stderr


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (2, 2), (3, 3)])
def test_an_exit_code_is_the_status(code: int | None, status: int) -> None:
    assert exit_code(code) == status


def test_an_exit_with_a_message_prints_it_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert exit_code("stopped: no project") == 1
    assert capsys.readouterr().err == "stopped: no project\n"


class _Tracked(pipeline.Generated):
    """A build's result that a weak reference can follow."""

    __slots__ = ("__weakref__",)


@pytest.mark.parametrize("command", ["build", "check"])
def test_the_result_of_a_command_lives_until_its_exit_is_let_go(
    project: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """`run` ends the process inside its `except`: the command's result (the frozen catalog) is
    still alive there, not freed object by object as the command returned, and it is freed once
    the exit is let go, as a library caller lets it go."""
    write_json(project, contract("echo_text"))
    assert main.main(["-C", str(project), "build"], standalone_mode=False) is None
    (project / "contracts" / "echo_text.json").write_text(
        json.dumps(contract("echo_text", description="Echo the given text back.")), encoding="utf-8"
    )
    if command == "check":  # up to date, so `check` returns rather than exits from inside
        assert main.main(["-C", str(project), "build"], standalone_mode=False) is None
    made: list[weakref.ref[Any]] = []
    real = pipeline.generate

    def generate(*args: Any, **kwargs: Any) -> pipeline.Generated:
        result = real(*args, **kwargs)
        tracked = _Tracked(**{f.name: getattr(result, f.name) for f in fields(result)})
        made.append(weakref.ref(tracked))
        return tracked

    monkeypatch.setattr(pipeline, "generate", generate)
    alive = False
    try:
        main.main(["-C", str(project), command, "--no-cache"], prog_name="toolgen")
    except SystemExit as exc:
        alive = len(made) == 1 and made[0]() is not None
        assert exc.code == 0
    gc.collect()
    assert alive and made[0]() is None
