"""The invalid-contract corpus: each `tests/cases/invalid/<case>/` is a contracts folder whose
`toolgen validate` output is golden (`expected.txt`; regenerate with `.venv/bin/pytest --update-golden`).

Cases that cannot be committed as files (a 10 MB description, a schema nested 500 levels deep, a
symlink loop, an unreadable file) are built at run time by the functions in `GENERATED`.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import REPO, assert_golden
from toolgen.cli import main

CASES = REPO / "tests" / "cases" / "invalid"


def _valid_text(name: str) -> str:
    return (
        f'name = "{name}"\nversion = "1.0.0"\n'
        'description = "Look up a word in the project glossary and return its definition."\n'
        'permissions = []\n\n[input_schema]\ntype = "object"\nadditionalProperties = false\n'
    )


def _huge_description(contracts: Path) -> None:
    text = _valid_text("big_tool").replace("Look up a word", "Look up a word " + "x" * (10 * 1024 * 1024))
    (contracts / "big_tool.toml").write_text(text, encoding="utf-8")


def _deep_schema(contracts: Path) -> None:
    # Built as text: json.dumps itself would recurse too deeply. 250 schema levels are 500 JSON levels.
    opening = '{"type": "object", "description": "A level.", "properties": {"a": ' * 250
    schema = opening + '{"type": "string", "description": "The bottom."}' + "}}" * 250
    text = (
        '{"name": "deep_json", "version": "1.0.0", "permissions": [], '
        '"description": "A schema nested five hundred levels deep, which toolgen must refuse cleanly.", '
        f'"input_schema": {schema}}}'
    )
    (contracts / "deep_json.json").write_text(text, encoding="utf-8")
    header = "input_schema" + ".properties.a" * 500
    (contracts / "deep_toml.toml").write_text(
        _valid_text("deep_toml") + f'\n[{header}]\ntype = "string"\ndescription = "The bottom."\n', encoding="utf-8"
    )


def _symlink_loop(contracts: Path) -> None:
    (contracts / "ok_tool.toml").write_text(_valid_text("ok_tool"), encoding="utf-8")
    (contracts / "nested").mkdir()
    os.symlink("..", contracts / "nested" / "loop")


def _unreadable(contracts: Path) -> None:
    (contracts / "ok_tool.toml").write_text(_valid_text("ok_tool"), encoding="utf-8")
    os.symlink("does-not-exist.toml", contracts / "gone.toml")
    (contracts / "folder.toml").mkdir()


GENERATED: dict[str, Callable[[Path], None]] = {
    "huge_description": _huge_description,
    "deep_schema": _deep_schema,
    "symlink_loop": _symlink_loop,
    "unreadable": _unreadable,
}


def case_names() -> list[str]:
    """Every case folder, sorted."""
    return sorted(p.name for p in CASES.iterdir() if p.is_dir())


def make_project(case: str, root: Path, targets: str = '["catalog"]') -> Path:
    """A project at `root` whose contracts folder holds the case's files (or the generated ones)."""
    contracts = root / "contracts"
    contracts.mkdir(parents=True)
    (root / "toolgen.toml").write_text(f"targets = {targets}\n", encoding="utf-8")
    for path in sorted((CASES / case).rglob("*")):
        if path.is_file() and path.name != "expected.txt":
            target = contracts / path.relative_to(CASES / case)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    if case in GENERATED:
        GENERATED[case](contracts)
    return root


def run(root: Path, *args: str) -> Result:
    """Run the real CLI entry point on the project at `root`."""
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=True)


def test_corpus_is_large_enough() -> None:
    assert len(case_names()) >= 30


@pytest.mark.parametrize("case", case_names())
def test_validate_output_is_golden(case: str, tmp_path: Path, update_golden: bool) -> None:
    root = make_project(case, tmp_path)
    result = run(root, "validate")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1)
    actual = result.stderr + result.stdout + f"exit {result.exit_code}\n"
    assert_golden(CASES / case / "expected.txt", actual, update_golden)


@pytest.mark.parametrize("case", case_names())
def test_build_writes_nothing_for_an_invalid_case(case: str, tmp_path: Path) -> None:
    root = make_project(case, tmp_path)
    checked = run(root, "validate")
    result = run(root, "build")
    assert "Traceback" not in result.output
    if checked.exit_code == 1:
        assert result.exit_code == 1
        assert "nothing was written" in result.stderr
        assert not (root / "generated").exists()
    else:  # warnings only: the build succeeds, and `--strict` validation fails
        assert result.exit_code == 0, result.output
        assert (root / "generated" / "catalog.json").is_file()
        assert run(root, "validate", "--strict").exit_code == 1


@pytest.mark.parametrize("case", ["dangling_ref", "unknown_keys", "warnings_review"])
def test_json_format_has_exactly_the_documented_keys(case: str, tmp_path: Path) -> None:
    root = make_project(case, tmp_path)
    result = run(root, "validate", "--format", "json")
    records = json.loads(result.stdout)
    assert records
    for record in records:
        assert list(record) == ["file", "pointer", "line", "column", "code", "severity", "message"]
        assert record["file"].startswith("contracts/")
        assert record["severity"] in ("error", "warning")
        assert record["pointer"] == "" or record["pointer"].startswith("/")
        assert isinstance(record["line"], int)
    assert result.exit_code == (1 if any(r["severity"] == "error" for r in records) else 0)


def test_github_format_annotates_each_problem(tmp_path: Path) -> None:
    root = make_project("permission_typo", tmp_path)
    result = run(root, "validate", "--format", "github")
    assert result.exit_code == 1
    line = next(x for x in result.stderr.splitlines() if "TG112" in x)
    assert line.startswith("::error file=contracts/lookup_word.toml,line=4,col=16,title=TG112::")
    assert "did you mean 'read'?" in line


def test_strict_turns_warnings_into_errors(tmp_path: Path) -> None:
    root = make_project("warnings_review", tmp_path)
    relaxed = run(root, "validate", "--format", "json")
    strict = run(root, "validate", "--format", "json", "--strict")
    assert relaxed.exit_code == 0
    assert strict.exit_code == 1
    assert {r["severity"] for r in json.loads(relaxed.stdout)} == {"warning"}
    assert {r["severity"] for r in json.loads(strict.stdout)} == {"error"}
    assert len(json.loads(relaxed.stdout)) == len(json.loads(strict.stdout))


def test_project_severity_overrides(tmp_path: Path) -> None:
    root = make_project("warnings_review", tmp_path)
    (root / "toolgen.toml").write_text(
        'targets = ["catalog"]\n[rules]\nTG203 = "off"\nTG208 = "error"\nTG110 = "off"\n', encoding="utf-8"
    )
    records = json.loads(run(root, "validate", "--format", "json").stdout)
    codes = {r["code"]: r["severity"] for r in records}
    assert "TG203" not in codes
    assert codes["TG208"] == "error"
    assert codes["TG201"] == "warning"
    ignored = [r for r in records if r["file"] == "toolgen.toml"]
    assert [(r["code"], r["severity"], r["pointer"], r["line"]) for r in ignored] == [
        ("TG128", "warning", "/rules/TG110", 5)
    ]


def test_validate_only_the_given_paths(tmp_path: Path) -> None:
    root = make_project("many_problems_many_files", tmp_path)
    result = run(root, "validate", "--format", "json", str(root / "contracts/one.toml"))
    assert {r["file"] for r in json.loads(result.stdout)} == {"contracts/one.toml"}
    relative = run(root, "validate", "--format", "json", "contracts/two.json", "contracts/nothing-here.toml")
    records = json.loads(relative.stdout)
    assert {r["file"] for r in records} == {"contracts/two.json", "contracts/nothing-here.toml"}
    assert [r["code"] for r in records if r["file"] == "contracts/nothing-here.toml"] == ["TG101"]
    assert relative.exit_code == 1


def test_python_dash_m_reports_a_case(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = make_project("permission_typo", tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "toolgen", "-C", str(root), "validate"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "contracts/lookup_word.toml:4:16: TG112 unknown permission 'raed'; did you mean 'read'?" in done.stderr
    assert "Traceback" not in done.stderr
