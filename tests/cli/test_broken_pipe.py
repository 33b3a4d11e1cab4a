"""A reader that stops early (`toolgen build | head -1`) is not an internal error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factory import contract, write_json


def _closed_early(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run toolgen with its stdout a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        command = [sys.executable, "-m", "toolgen", "-C", str(project), *args]
        return subprocess.run(command, stdout=write, stderr=subprocess.PIPE, text=True, timeout=300, check=False)
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "args", [("build",), ("build", "--format", "json"), ("check",), ("validate", "--format", "json")]
)
def test_a_closed_stdout_is_not_an_internal_error(project: Path, args: tuple[str, ...]) -> None:
    write_json(project, contract("echo_text"))
    proc = _closed_early(project, *args)
    assert proc.returncode != 3, proc.stderr
    assert "internal error" not in proc.stderr and "BrokenPipe" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_shell_pipe_into_head(project: Path) -> None:
    write_json(project, contract("echo_text", description="Echo text."))  # a warning: a JSON document of lines
    script = f"{sys.executable} -m toolgen -C {project} build --format json | head -1"
    proc = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert proc.stdout == "{\n"
    assert "internal error" not in proc.stderr and "BrokenPipe" not in proc.stderr
