"""The output folder is a real folder inside the project that overlaps nothing toolgen reads or keeps.

Refused (TG131, exit 1, nothing written anywhere): the project root or a folder above it, the
contracts folder (or one inside it, or one holding it), the templates folder, the cache, `.git`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.build_support import run, tree, two_tools

OVERLAPS = [
    pytest.param({"output": ".toolgen-cache"}, id="the-cache"),
    pytest.param({"output": ".toolgen-cache/out"}, id="inside-the-cache"),
    pytest.param({"output": "contracts"}, id="the-contracts"),
    pytest.param({"output": "contracts/generated"}, id="inside-the-contracts"),
    pytest.param({"output": "src", "contracts": "src/contracts"}, id="holding-the-contracts"),
    pytest.param({"output": ".git"}, id="git"),
    pytest.param({"output": ".git/hooks"}, id="inside-git"),
    pytest.param({"output": "templates"}, id="the-templates-folder-name"),
    pytest.param({"output": "tpl", "templates": "tpl"}, id="the-configured-templates"),
    pytest.param({"output": "tpl/out", "templates": "tpl"}, id="inside-the-templates"),
    pytest.param({"output": "site", "templates": "site/templates"}, id="holding-the-templates"),
    pytest.param({"output": "."}, id="the-root"),
    pytest.param({"output": "out/.."}, id="the-root-by-a-detour"),
    pytest.param({"output": "contracts/../contracts"}, id="the-contracts-by-a-detour"),
]


def _configure(project: Path, settings: dict[str, str]) -> None:
    lines = "".join(f"{key} = {json.dumps(value)}\n" for key, value in settings.items())
    (project / "toolgen.toml").write_text(lines, encoding="utf-8")
    contracts = project / settings.get("contracts", "contracts")
    if not contracts.is_dir():
        contracts.parent.mkdir(parents=True, exist_ok=True)
        (project / "contracts").rename(contracts)
    if "templates" in settings:
        (project / settings["templates"]).mkdir(parents=True, exist_ok=True)


@pytest.mark.parametrize("settings", OVERLAPS)
def test_an_overlapping_output_folder_is_refused(project: Path, settings: dict[str, str]) -> None:
    two_tools(project)
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (project / "templates").mkdir()
    _configure(project, settings)
    before = tree(project)
    code, stdout, stderr = run(project, "build")
    assert code == 1, stdout + stderr
    assert "TG131" in stderr and "toolgen.toml" in stderr and "output" in stderr
    assert tree(project) == before, "a refused configuration must write nothing"
    code, _, stderr = run(project, "check")
    assert code == 1 and "TG131" in stderr


def test_an_output_path_that_is_a_file_is_refused(project: Path) -> None:
    two_tools(project)
    (project / "generated").write_text("not a folder\n", encoding="utf-8")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG130" in stderr and "not a folder" not in stderr.split("TG130")[0]
    assert (project / "generated").read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.parametrize("output", ["build/generated", "out", "generated/../out"])
def test_a_folder_inside_the_project_is_accepted(project: Path, output: str) -> None:
    two_tools(project)
    (project / "toolgen.toml").write_text(f"output = {json.dumps(output)}\n", encoding="utf-8")
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert Path(os.path.normpath(project / output), "catalog.json").is_file()
    assert run(project, "check")[0] == 0


def test_the_cache_never_deletes_the_output(project: Path) -> None:
    """With the cache and the output in one folder, pruning the cache deleted the build's files."""
    two_tools(project)
    (project / "toolgen.toml").write_text('output = ".toolgen-cache/v1"\n', encoding="utf-8")
    code, _, _ = run(project, "build")
    assert code == 1
    assert not (project / ".toolgen-cache").exists()
