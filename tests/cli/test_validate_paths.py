"""`toolgen validate PATH` checks the files it is given, wherever they are, or says it cannot.

A file outside the contracts folder (or outside the project) is validated with the same rules as one
inside it, the stem-equals-name and duplicate-name rules included; a named file is never reported as
clean when it was not checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.build_support import run
from tests.factory import contract, write_json
from toolgen.cli import main

BAD = {"name": "bad_tool", "version": "one", "description": ""}


@pytest.fixture
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside the project."""
    return tmp_path_factory.mktemp("elsewhere")


def test_a_bad_file_outside_the_project_is_reported(project: Path, elsewhere: Path) -> None:
    write_json(project, contract("echo_text"))
    bad = elsewhere / "bad_tool.json"
    bad.write_text(json.dumps(BAD), encoding="utf-8")
    code, _, stderr = run(project, "validate", str(bad))
    assert code == 1, stderr
    assert f"{bad.as_posix()}:" in stderr and "TG110" in stderr and "0 errors" not in stderr


def test_a_good_file_outside_the_project_is_clean(project: Path, elsewhere: Path) -> None:
    good = write_json(elsewhere, contract("lookup_word"))
    code, _, stderr = run(project, "validate", str(good))
    assert code == 0 and "0 errors, 0 warnings" in stderr


def test_the_name_must_match_the_file_outside_too(project: Path, elsewhere: Path) -> None:
    other = elsewhere / "other_name.json"
    other.write_text(json.dumps(contract("lookup_word")), encoding="utf-8")
    code, _, stderr = run(project, "validate", str(other))
    assert code == 1 and "TG108" in stderr


def test_a_file_outside_that_repeats_a_project_tool_is_a_duplicate(project: Path, elsewhere: Path) -> None:
    write_json(project, contract("echo_text"))
    twin = write_json(elsewhere, contract("echo_text"))
    code, _, stderr = run(project, "validate", str(twin))
    assert code == 1 and "TG109" in stderr


def test_a_folder_outside_the_project_is_validated(project: Path, elsewhere: Path) -> None:
    (elsewhere / "bad_tool.json").write_text(json.dumps(BAD), encoding="utf-8")
    code, _, stderr = run(project, "validate", str(elsewhere))
    assert code == 1 and "bad_tool.json" in stderr and "TG110" in stderr


def test_a_file_named_from_inside_the_contracts_folder(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "contracts" / "bad_tool.json").write_text(json.dumps(BAD), encoding="utf-8")
    monkeypatch.chdir(project / "contracts")
    result = CliRunner().invoke(main, ["validate", "bad_tool.json"])
    assert result.exit_code == 1, result.output
    assert "TG110" in result.stderr and "bad_tool.json" in result.stderr
    result = CliRunner().invoke(main, ["-C", "..", "validate", "bad_tool.json"])
    assert result.exit_code == 1 and "contracts/bad_tool.json" in result.stderr and "TG110" in result.stderr


def test_a_named_file_that_is_not_a_contract_is_never_clean(project: Path) -> None:
    notes = project / "contracts" / "notes.txt"
    notes.write_text("not a contract\n", encoding="utf-8")
    code, _, stderr = run(project, "validate", str(notes))
    assert code in (1, 2) and "notes.txt" in stderr and "0 errors" not in stderr


def test_a_missing_path_is_still_an_error(project: Path) -> None:
    code, _, stderr = run(project, "validate", "contracts/nope.toml")
    assert code == 1 and "TG101" in stderr


def test_the_targets_checks_are_passed_in_by_the_command(project: Path) -> None:
    """Validation judges the contracts; the targets' checks (here TG304, the OpenAI files' shortened
    description) run when the caller passes them, as `toolgen validate` does."""
    from toolgen.config import load_settings
    from toolgen.pipeline.targetchecks import target_diagnostics
    from toolgen.validate import validate_paths

    long = "Echo the given text back unchanged. " + "It keeps every character as it was given. " * 30
    write_json(project, contract("echo_text", description=long))
    settings, _ = load_settings(project)
    alone = {d.code for d in validate_paths(settings, [])}
    judged = {d.code for d in validate_paths(settings, [], target_diagnostics)}
    assert "TG304" not in alone and "TG304" in judged and alone <= judged
    code, _, err = run(project, "validate")
    assert code == 0 and "TG304" in err
