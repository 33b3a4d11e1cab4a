"""The quick answer (`toolgen.quick`): `toolgen build` or `check`, run plainly when nothing changed,
answered before the command line is loaded, with exactly what the command line prints; anything
else goes on to the command line, with the probe already made."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.build_support import reworded, two_tools
from toolgen import quick
from toolgen.cli import main
from toolgen.incremental import fastpath
from toolgen.pipeline.project import Project

SECONDS = re.compile(r"\d+\.\d\ds\)")


def _process(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m toolgen ARGS` in `root`, as a user runs it (the quick answer first)."""
    command = [sys.executable, "-X", "importtime", "-m", "toolgen", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=root)


def _imported(stderr: str) -> set[str]:
    """The modules `-X importtime` lists."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def _built(root: Path) -> Path:
    two_tools(root)
    result = CliRunner().invoke(main, ["-C", str(root), "build"])
    assert result.exit_code == 0, result.output
    return root


@pytest.mark.parametrize(
    ("argv", "form"),
    [
        (["build"], (None, "build")),
        (["check"], (None, "check")),
        (["-C", "p", "check"], (Path("p"), "check")),
        (["--project", "p", "build"], (Path("p"), "build")),
        (["--project=p", "build"], (Path("p"), "build")),
        (["build", "--force"], None),
        (["--debug", "build"], None),
        (["check", "--format", "json"], None),
        (["-C", "p", "build", "--no-cache"], None),
        (["validate"], None),
        (["-C", "", "build"], None),
        (["--project=", "check"], None),
        ([], None),
    ],
)
def test_only_the_plain_forms_are_answered_quickly(argv: list[str], form: tuple[Path | None, str] | None) -> None:
    assert quick.plain_form(argv) == form


@pytest.mark.parametrize("command", ["build", "check"])
def test_the_quick_answer_prints_what_the_command_line_prints_and_loads_no_click(
    tmp_path: Path, command: str
) -> None:
    root = _built(tmp_path / "p")
    done = _process(root, command)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "click" not in _imported(done.stderr)
    assert "no input changed since the last build" in done.stdout
    expected = CliRunner().invoke(main, ["-C", str(root), command])
    assert expected.exit_code == 0
    assert SECONDS.sub("", done.stdout) == SECONDS.sub("", expected.stdout)
    done = _process(root.parent, "-C", "p", command)
    assert done.returncode == 0 and SECONDS.sub("", done.stdout) == SECONDS.sub("", expected.stdout)


def test_a_change_goes_on_to_the_command_line_which_does_not_probe_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _built(tmp_path / "p")
    reworded(root, "echo_text")
    probes: list[object] = []
    original = fastpath.probe
    monkeypatch.setattr(fastpath, "probe", lambda *a, **k: probes.append(a) or original(*a, **k))
    project = quick.answer(["-C", str(root), "build"])
    assert isinstance(project, Project) and len(probes) == 1
    result = CliRunner().invoke(main, ["-C", str(root), "build"], obj=project)
    assert result.exit_code == 0, result.output
    assert "written" in result.output and "no input changed" not in result.output
    assert len(probes) == 1  # the command line went on with the quick answer's probe
    assert isinstance(quick.answer(["-C", str(root), "build"]), int)  # and now nothing changed
    assert len(probes) == 2


def test_a_changed_contract_is_built_by_the_process_as_always(tmp_path: Path) -> None:
    root = _built(tmp_path / "p")
    reworded(root, "write_file")
    done = _process(root, "build")
    assert done.returncode == 0 and "written" in done.stdout and "no input changed" not in done.stdout
    assert "click" in _imported(done.stderr)


def test_a_missing_folder_or_bad_settings_are_left_to_the_command_line(tmp_path: Path) -> None:
    done = _process(tmp_path, "-C", "nowhere", "build")
    assert done.returncode == 2 and "nowhere" in done.stderr and "Traceback" not in done.stderr
    root = _built(tmp_path / "p")
    (root / "toolgen.toml").write_text("targets = 3\n", encoding="utf-8")
    done = _process(root, "build")
    assert done.returncode == 1 and "configuration is invalid" in done.stderr and "Traceback" not in done.stderr


def test_without_a_cache_key_the_command_line_says_so(tmp_path: Path) -> None:
    root = _built(tmp_path / "p")
    env = {**os.environ, "TOOLGEN_CACHE_KEY": "short"}
    command = [sys.executable, "-m", "toolgen", "build"]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=root, env=env)
    assert done.returncode == 0 and "running without the build cache" in done.stderr
