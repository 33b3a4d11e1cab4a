"""Contract files are regular files read with a size bound; names and text are checked before use.

A device, FIFO or socket under `contracts/` is TG101 (it is never opened for a blocking read); a file
suffix is matched whatever its case; text that cannot be written as UTF-8 (a lone surrogate from a
JSON escape) is TG137 with its place, from `validate` as from `build`, never an internal error.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build_support import run
from tests.factory import contract, write_json
from toolgen import load

MEMORY = 3 << 30
"""Address-space bound of the child toolgen: an unbounded read fails fast instead of eating the machine."""


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _toolgen(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m toolgen -C project ARGS` as a child with bounded memory and time."""
    command = [sys.executable, "-m", "toolgen", "-C", str(project), *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=120, preexec_fn=_bounded, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"toolgen {' '.join(args)} hung (killed after 120 s)")


def _special(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "dev-null":
        path.symlink_to("/dev/null")
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()


@pytest.mark.parametrize(
    ("kind", "name"), [("fifo", "pipe.toml"), ("dev-zero", "zero.json"), ("dev-null", "null.toml")]
)
@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_special_file_is_reported_not_read(project: Path, kind: str, name: str, command: str) -> None:
    write_json(project, contract("echo_text"))
    _special(kind, project / "contracts" / name)
    proc = _toolgen(project, command)
    assert proc.returncode == 1, proc.stderr
    assert f"contracts/{name}: TG101" in proc.stderr and "not a regular file" in proc.stderr
    assert not (project / "generated").exists()


def test_a_socket_is_reported(tmp_path_factory: pytest.TempPathFactory) -> None:
    project = Path(os.path.realpath(tmp_path_factory.mktemp("s")))
    (project / "contracts").mkdir()
    _special("socket", project / "contracts" / "s.json")
    proc = _toolgen(project, "validate")
    assert proc.returncode == 1 and "contracts/s.json: TG101" in proc.stderr and "not a regular file" in proc.stderr


def test_a_fifo_does_not_hang_the_no_change_shortcut(project: Path) -> None:
    write_json(project, contract("echo_text"))
    assert _toolgen(project, "build").returncode == 0
    _special("fifo", project / "contracts" / "late.json")
    for command in ("build", "check"):
        proc = _toolgen(project, command)
        assert proc.returncode == 1 and "contracts/late.json: TG101" in proc.stderr


@pytest.mark.parametrize("suffix", [".TOML", ".Json", ".JSON"])
def test_a_suffix_in_another_case_is_read(project: Path, suffix: str) -> None:
    (project / "contracts" / f"bad_tool{suffix}").write_text('name = "bad_tool"\n', encoding="utf-8")
    code, _, stderr = run(project, "validate")
    assert code == 1 and f"contracts/bad_tool{suffix}" in stderr


def test_a_valid_contract_with_an_upper_case_suffix_is_built(project: Path) -> None:
    (project / "contracts" / "echo_text.JSON").write_text(json.dumps(contract("echo_text")), encoding="utf-8")
    code, stdout, stderr = run(project, "build")
    assert code == 0 and "1 contract:" in stdout, stdout + stderr
    assert (project / "generated" / "docs" / "echo_text.md").is_file()


LONE = '"Echo the text back unchanged, \\ud800 for tests of the pipeline that need a description."'


def test_a_lone_surrogate_is_a_validation_error_with_its_place(project: Path) -> None:
    text = json.dumps(contract("echo_text"), indent=2)
    start = text.index('"Echo the given')
    end = text.index("\n", start) - 1
    (project / "contracts" / "echo_text.json").write_text(text[:start] + LONE + text[end:], encoding="utf-8")
    line = text[:start].count("\n") + 1
    code, _, stderr = run(project, "validate")
    assert code == 1 and f"contracts/echo_text.json:{line}:" in stderr and "TG137" in stderr
    assert "/description" in stderr
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG137" in stderr and "internal error" not in stderr
    assert not (project / "generated").exists()


def test_a_lone_surrogate_in_a_key_is_reported_without_printing_it(project: Path) -> None:
    data = contract("echo_text")
    text = json.dumps(data, indent=2).replace('"text": {', '"te\\udc80xt": {', 1)
    (project / "contracts" / "echo_text.json").write_text(text, encoding="utf-8")
    proc = _toolgen(project, "validate")
    assert proc.returncode == 1 and "TG137" in proc.stderr and "internal error" not in proc.stderr
    assert "/input_schema/properties" in proc.stderr


def test_a_surrogate_pair_is_fine(project: Path) -> None:
    text = json.dumps(contract("echo_text", title="Echo \U0001f600"), indent=2, ensure_ascii=True)
    assert "\\ud83d\\ude00" in text
    (project / "contracts" / "echo_text.json").write_text(text, encoding="utf-8")
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr


@pytest.mark.parametrize("size", [0, 1, 4_096, (1 << 16) + 3, 300_000])
def test_a_contract_is_read_whole_whatever_its_size(tmp_path: Path, size: int) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
    assert load.read_contract_bytes(path) == path.read_bytes()


def test_a_contract_at_the_limit_is_read_and_one_past_it_is_too_large(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"a" * 1000)
    assert load.read_contract_bytes(path, limit=1000) == b"a" * 1000
    with pytest.raises(load.TooLarge):
        load.read_contract_bytes(path, limit=999)


def test_a_file_that_grows_past_the_size_it_reported_is_read_to_the_bound(tmp_path: Path) -> None:
    """The size from `fstat` is only where reading starts: what the file holds is read, in pieces,
    up to one byte past the limit, which is then TooLarge."""
    path = tmp_path / "c.json"
    path.write_bytes(b"b" * 200_000)
    handle = os.open(path, os.O_RDONLY)
    try:
        assert load._read_at_most(handle, 150_001, size=10) == b"b" * 150_001
        os.lseek(handle, 0, os.SEEK_SET)
        assert load._read_at_most(handle, 1 << 20, size=10) == b"b" * 200_000
    finally:
        os.close(handle)
