"""The command line as people expect it from ruff, mypy and git: the project found from any folder in
it, one JSON document on stdout, annotations on every file a check names, located configuration
errors, plurals, and fixes for the slips people make."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from factory import contract, write_json

from toolgen.cli import main
from toolgen.cliout import counts, first_changed_line
from toolgen.config import find_root
from toolgen.summaries import built_line


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run(project: Path, *args: str) -> Result:
    return invoke("-C", str(project), *args)


# --- the project root -------------------------------------------------------------------------------


def test_build_from_inside_the_contracts_folder_finds_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_json(project, contract("echo_text"))
    (project / "contracts" / "deeper").mkdir()
    monkeypatch.chdir(project / "contracts" / "deeper")
    result = invoke("build")
    assert result.exit_code == 0, result.output
    assert (project / "generated" / "catalog.json").is_file()
    assert not (project / "contracts" / "generated").exists()


def test_the_nearest_marker_wins_and_a_pyproject_without_toolgen_is_no_marker(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "packages" / "tools"
    (inner / "src").mkdir(parents=True)
    (outer / "toolgen.toml").write_text("", encoding="utf-8")
    (inner / "pyproject.toml").write_text('[project]\nname = "tools"\n', encoding="utf-8")
    assert find_root(inner / "src") == outer.resolve()
    (inner / "pyproject.toml").write_text('[project]\nname = "tools"\n[tool.toolgen]\ncontracts = "c"\n')
    assert find_root(inner / "src") == inner.resolve()
    assert find_root(inner) == inner.resolve()


def test_configuration_is_read_from_the_root_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\ncontracts = "tools"\ntargets = ["catalog"]\n')
    (tmp_path / "tools" / "text").mkdir(parents=True)
    document = contract("echo_text")
    (tmp_path / "tools" / "text" / "echo_text.json").write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "tools" / "text")
    result = invoke("build")
    assert result.exit_code == 0, result.output
    made = sorted(p.name for p in (tmp_path / "generated").iterdir())
    assert made == [".toolgen-manifest.json", "catalog.json", "contract.schema.json"]


def test_a_missing_project_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("-C", str(tmp_path / "nonexistent"), "build")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert "TG101" not in result.output


# --- one JSON document --------------------------------------------------------------------------------


def warned(project: Path) -> Path:
    """A project with one valid contract that draws a warning (TG203, a property without description)."""
    document = contract("echo_text")
    document["input_schema"]["properties"]["text"].pop("description", None)
    write_json(project, document)
    return project


def test_build_json_is_one_document_and_the_summary_goes_to_stderr(project: Path) -> None:
    first = run(warned(project), "build", "--format", "json")
    assert first.exit_code == 0, first.output
    made = json.loads(first.stdout)
    assert made["ok"] is True and made["contracts"] == 1 and made["unchanged"] == 0 and made["removed"] == []
    assert "generated/catalog.json" in made["written"]
    assert [d["code"] for d in made["diagnostics"]] == ["TG203"]
    assert "1 contract:" in first.stderr and "files written" in first.stderr
    again = json.loads(run(project, "build", "--format", "json").stdout)  # the no-change fast path
    assert again["written"] == [] and again["unchanged"] == len(made["written"])
    assert again["diagnostics"] == made["diagnostics"]


def test_a_failed_build_in_json_is_one_document_too(project: Path) -> None:
    write_json(project, {**contract("echo_text"), "version": "one"})
    result = run(project, "build", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["ok"] is False and document["written"] == []
    assert [d["code"] for d in document["diagnostics"]] == ["TG110"]
    assert "nothing was written" in result.stderr
    assert not (project / "generated").exists()


def test_bad_configuration_in_json_is_one_document(project: Path) -> None:
    (project / "toolgen.toml").write_text("targets = 3\n", encoding="utf-8")
    for command in ("build", "check"):
        result = run(project, command, "--format", "json")
        assert result.exit_code == 1
        document = json.loads(result.stdout)
        assert document["ok"] is False
        assert [(d["code"], d["line"]) for d in document["diagnostics"]] == [("TG100", 1)]


def drifted(project: Path) -> Path:
    """A built project, then one file edited, one deleted and one left from a removed contract."""
    write_json(project, contract("echo_text"))
    write_json(project, contract("read_note"))
    assert run(project, "build").exit_code == 0
    catalog = project / "generated" / "catalog.json"
    lines = catalog.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = lines[2].replace('"', "'", 1)
    catalog.write_text("".join(lines), encoding="utf-8")
    (project / "generated" / "docs" / "README.md").unlink()
    (project / "contracts" / "read_note.json").unlink()
    return project


def test_check_json_gives_the_drift_as_data(project: Path) -> None:
    result = run(drifted(project), "check", "--format", "json")
    assert result.exit_code == 1
    document: dict[str, Any] = json.loads(result.stdout)
    assert document["ok"] is False and document["up_to_date"] is False
    states = {d["path"]: d["state"] for d in document["drift"]}
    assert states["generated/catalog.json"] == "stale"
    assert states["generated/docs/README.md"] == "missing"
    assert states["generated/docs/read_note.md"] == "orphaned"
    assert set(states.values()) == {"stale", "missing", "orphaned"}
    assert "out of date" in result.stderr


def test_check_json_when_current(project: Path) -> None:
    write_json(project, contract("echo_text"))
    assert run(project, "build").exit_code == 0
    for _ in range(2):  # the full comparison, then the fast path
        result = run(project, "check", "--format", "json")
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        assert document["ok"] is True and document["drift"] == [] and document["current"] > 5
        assert "up to date" in result.stderr


def test_check_github_annotates_stale_missing_and_orphaned_files(project: Path) -> None:
    result = run(drifted(project), "check", "--format", "github")
    assert result.exit_code == 1
    notes = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert any("file=generated/catalog.json,line=3," in n and "stale" in n for n in notes), notes  # the edited line
    assert any("file=generated/docs/README.md," in n and "missing" in n for n in notes), notes
    assert any("file=generated/docs/read_note.md," in n and "orphaned" in n for n in notes), notes
    assert all("run `toolgen build`" in n for n in notes)


# --- messages -----------------------------------------------------------------------------------------


def test_configuration_errors_carry_line_and_column(project: Path) -> None:
    (project / "toolgen.toml").write_text('contracts = "contracts"\nbogus = 1\n[rules]\nTG999 = "off"\n')
    result = run(project, "validate")
    assert result.exit_code == 1
    assert "toolgen.toml:2:1: TG100 unknown configuration key 'bogus'" in result.stderr
    assert "toolgen.toml:4:1: TG100 unknown rule code 'TG999'" in result.stderr
    (project / "toolgen.toml").write_text("a = 1\nb = = 2\n", encoding="utf-8")
    assert "toolgen.toml:2:5: TG100 cannot read the configuration: Invalid value\n" in run(project, "build").stderr
    (project / "toolgen.toml").unlink()
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.toolgen]\noutput = 5\n')
    located = "pyproject.toml:5:1: TG100 must be a non-empty string [at /tool/toolgen/output]"
    assert located in run(project, "build").stderr


def test_counts_are_singular_for_one(project: Path, tmp_path: Path) -> None:
    write_json(project, contract("echo_text"))
    assert run(project, "build").stdout.startswith("1 contract: ")
    line = built_line(1, "generated", unchanged=1, written=["catalog.json"], removed=[], seconds=0.5)
    assert line == "1 contract: 1 file written, 1 unchanged, 0 removed in generated/ (0.50s)"
    assert built_line(2, "out", unchanged=1, seconds=0, fast=True).startswith("2 contracts: nothing changed, 1 file in")
    assert counts([]) == "0 errors, 0 warnings"
    declarations = tmp_path / "one.json"
    tool = {"name": "get_time", "description": "Return the current time.", "parameters": {"type": "object"}}
    declarations.write_text(json.dumps([tool]), encoding="utf-8")
    imported = run(project, "import", str(declarations), "--from", "openai")
    assert "1 declaration: 1 imported, 0 rejected" in imported.stderr


def test_diff_of_invalid_contracts_shows_the_errors_not_every_warning(project: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.json"
    base.write_text('{"catalog_version": 1, "tools": []}', encoding="utf-8")
    for index in range(3):
        write_json(project, contract(f"tool_{index}", input_schema={"type": "object", "properties": {"a": {}}}))
    write_json(project, {**contract("broken"), "version": "one"})
    result = run(project, "diff", "--base-file", str(base))
    assert result.exit_code == 1
    assert "TG110" in result.stderr
    assert "warning" not in result.stderr.split("toolgen: contracts are invalid")[0]
    assert "1 error, 6 warnings" in result.stderr  # TG203 and TG204 on each of three contracts
    assert "validate" not in result.stdout


def test_a_json_trailing_comma_gets_its_fix(project: Path) -> None:
    text = json.dumps(contract("echo_text"), indent=2)
    (project / "contracts" / "echo_text.json").write_text(text[:-2] + ",\n}", encoding="utf-8")
    result = run(project, "validate")
    line = text.count("\n") + 1
    assert f"remove the trailing comma at line {line - 1}, column " in result.stderr
    assert "JSON allows no comma before '}'" in result.stderr


@pytest.mark.parametrize(("written", "meant"), [('"no"', "false"), ('"Yes"', "true"), ('"false"', "false")])
def test_a_quoted_boolean_gets_its_fix(project: Path, written: str, meant: str) -> None:
    (project / "contracts" / "read_note.toml").write_text(
        'name = "read_note"\nversion = "1.0.0"\ndescription = "Read one note from the notebook by its title."\n'
        'permissions = ["read"]\n[input_schema]\ntype = "object"\nadditionalProperties = false\n'
        f'[[errors]]\ncode = "GONE"\ndescription = "The note was deleted."\nretryable = {written}\n',
        encoding="utf-8",
    )
    result = run(project, "validate")
    assert result.exit_code == 1
    assert f"not a string; write retryable = {meant}, without quotes [at /errors/0/retryable]" in result.stderr


def test_the_annotated_line_is_the_first_changed_line_of_the_file_on_disk() -> None:
    diff = "--- a (on disk)\n+++ a (expected)\n@@ -7,4 +7,3 @@\n one\n two\n-three\n four\n"
    assert first_changed_line(diff) == 9
    assert first_changed_line("@@ -0,0 +1 @@\n+new\n") == 1
    assert first_changed_line("") is None


def test_every_json_command_prints_one_document_when_it_refuses(project: Path, tmp_path: Path) -> None:
    (project / "toolgen.toml").write_text("targets = 3\n", encoding="utf-8")
    listed = run(project, "validate", "--format", "json")
    assert listed.exit_code == 1
    assert [d["code"] for d in json.loads(listed.stdout)] == ["TG100"]  # validate's document is the list
    (project / "toolgen.toml").unlink()
    write_json(project, {**contract("echo_text"), "version": "one"})
    base = tmp_path / "base.json"
    base.write_text('{"catalog_version": 1, "tools": []}', encoding="utf-8")
    for args in (("stats",), ("diff", "--base-file", str(base)), ("audit",)):
        result = run(project, *args, "--format", "json")
        assert result.exit_code == 1, args
        document = json.loads(result.stdout)
        assert document["ok"] is False and [d["code"] for d in document["diagnostics"]] == ["TG110"], args
        assert "invalid" in result.stderr
