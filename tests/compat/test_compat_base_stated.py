"""The base side of `toolgen diff` stated: every message names the file or `REF:path` it read and says
what is wrong there. Written against the surviving mutants of `benchmarks/mutation.py compat-report`
(`toolgen/compat/base.py`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from factory import contract, write_json

import toolgen
from toolgen.cli import main
from toolgen.compat.base import BaseError, catalog_path_in_repo, parse_base, read_base_at_ref, read_base_file
from toolgen.config import Settings

TOOL = {"name": "x", "version": "1.0.0", "description": "d", "input_schema": {}}


def problem(tools: Any) -> str:
    with pytest.raises(BaseError) as raised:
        parse_base(json.dumps({"tools": tools}), "base.json")
    return str(raised.value)


@pytest.mark.parametrize("key", ["permissions", "errors", "examples", "owners", "tags", "content_kinds"])
def test_each_list_field_that_is_not_a_list_is_named(key: str) -> None:
    assert problem([TOOL, {**TOOL, key: "read"}]) == f"base.json: tools[1]: `{key}` is not a list"


def test_a_tool_that_is_not_an_object_is_named() -> None:
    assert problem([TOOL, "x"]) == "base.json: tools[1]: not an object"


def test_a_malformed_entry_names_the_file_and_the_python_error() -> None:
    message = problem([{**TOOL, "errors": [3]}])
    assert message.startswith("base.json: malformed catalog entry: TypeError: ")


def test_a_base_file_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "base.json"
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(BaseError) as raised:
        read_base_file(path)
    assert str(raised.value) == f"{path}:1:2: not valid JSON: Expecting property name enclosed in double quotes"


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True
    )


def settings(root: Path, output: str = "generated") -> Settings:
    return Settings(root=root, contracts_dir=root / "contracts", output_dir=root / output)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose committed generated/catalog.json is not JSON."""
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "catalog.json").write_text("{oops", encoding="utf-8")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    return tmp_path


def test_a_committed_catalog_is_named_by_ref_and_path(repo: Path) -> None:
    with pytest.raises(BaseError) as raised:
        read_base_at_ref(settings(repo), "main")
    assert str(raised.value).startswith("main:generated/catalog.json:1:2: not valid JSON")


def test_a_range_is_not_a_ref(repo: Path) -> None:
    """`main..main` names no commit: `rev-parse --verify` refuses it before `git show` is tried."""
    with pytest.raises(BaseError) as raised:
        read_base_at_ref(settings(repo), "main..main")
    assert str(raised.value) == "unknown git ref 'main..main' (fetch it first, for example `git fetch origin main`)"


def test_an_output_folder_outside_the_repository_is_named(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    with pytest.raises(BaseError) as raised:
        catalog_path_in_repo(Settings(root=repo, contracts_dir=repo / "contracts", output_dir=elsewhere))
    assert str(raised.value) == f"the output folder {elsewhere} is outside the git repository {repo.resolve()}"


def test_git_that_cannot_start_is_named(tmp_path: Path) -> None:
    with pytest.raises(BaseError) as raised:
        catalog_path_in_repo(settings(tmp_path / "no-such-folder"))
    assert str(raised.value).startswith("cannot run git: [Errno 2] ")


# --- a base catalog read under a locale that is not UTF-8 -----------------------------------------

WAS = "Renvoie le texte — « tel quel », inchangé ; utilisé par les tests du pipeline."
NOW = "Renvoie le texte — « tel quel », modifié ; utilisé par les tests du pipeline."


def ascii_locale() -> dict[str, str]:
    """The environment of a CI runner with no UTF-8 locale (`LC_ALL=C`, UTF-8 mode off), running the
    toolgen these tests import (the checkout, or the mutated copy a mutation run judges)."""
    here = str(Path(toolgen.__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "PYTHONPATH")}
    return {**env, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONPATH": here}


def toolgen_diff(project: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolgen", "-C", str(project), "diff", "--format", "json", *args]
    return subprocess.run(command, env=ascii_locale(), capture_output=True, check=False)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A project whose contract's description is not ASCII, built and committed on `main`, then edited."""
    (tmp_path / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    write_json(tmp_path, contract(description=WAS))
    assert CliRunner().invoke(main, ["-C", str(tmp_path), "build"]).exit_code == 0
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    write_json(tmp_path, contract(description=NOW, version="1.0.1"))
    return tmp_path


def test_the_test_locale_is_not_utf8() -> None:
    """What the two tests below rely on: in that environment Python decodes and reads as ASCII."""
    probe = "import locale, sys; print(locale.getpreferredencoding(False), sys.flags.utf8_mode)"
    done = subprocess.run([sys.executable, "-c", probe], env=ascii_locale(), capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["ANSI_X3.4-1968", "0"]


def description_change(done: subprocess.CompletedProcess[bytes]) -> tuple[Any, Any]:
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    [tool] = json.loads(done.stdout.decode("utf-8"))["tools"]
    [change] = tool["changes"]
    return change["rule"], (change["old"], change["new"])


def test_a_committed_catalog_with_non_ascii_text_is_read_intact_under_any_locale(built: Path) -> None:
    """`git show` prints the committed catalog as UTF-8 whatever the locale: it is decoded as UTF-8,
    so the description change shows the base text as committed (not a decode error, exit 3)."""
    assert read_base_at_ref(settings(built), "main").contracts[0].description == WAS  # same read, in-process
    assert description_change(toolgen_diff(built, "--base", "main")) == ("TG407", (WAS, NOW))


def test_a_base_file_with_non_ascii_text_is_read_intact_under_any_locale(built: Path) -> None:
    """`--base-file` reads the catalog as UTF-8 (what `toolgen build` writes), not in the locale's encoding."""
    base = built / "base.json"
    shown = subprocess.run(["git", "show", "main:generated/catalog.json"], cwd=built, capture_output=True, check=True)
    base.write_bytes(shown.stdout)
    assert read_base_file(base).contracts[0].description == WAS  # same read, in-process
    assert description_change(toolgen_diff(built, "--base-file", str(base))) == ("TG407", (WAS, NOW))
