"""`toolgen new`, `toolgen schema` and the contract-format schema, kept in agreement with the validator."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator

from tests.conftest import REPO
from tests.validate.test_validate_cases import CASES, case_names, make_project
from toolgen.cli import main
from toolgen.formatschema import SCHEMA_FILE, schema, schema_text
from toolgen.load import MAX_FILE_BYTES, parse_text

FORMAT = Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)

STRUCTURAL = {
    "TG103",
    "TG104",
    "TG105",
    "TG106",
    "TG107",
    "TG110",
    "TG111",
    "TG112",
    "TG113",
    "TG114",
    "TG115",
    "TG116",
    "TG122",
    "TG123",
    "TG124",
    "TG128",
}
"""Errors the contract-format schema can see by itself (no file name, no other contract, no $ref target)."""


def run(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["-C", str(root), *args])


def read(path: Path) -> Any:
    return parse_text(path.read_text(encoding="utf-8"), path.suffix[1:])


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_new_contract_validates_and_passes_strict_once_its_todos_are_written(project: Path, fmt: str) -> None:
    result = run(project, "new", "find_symbol", "--format", fmt)
    assert result.exit_code == 0, result.output
    path = project / "contracts" / f"find_symbol.{fmt}"
    assert f"wrote contracts/find_symbol.{fmt}" in result.stdout
    relaxed = run(project, "validate")
    assert relaxed.exit_code == 0, relaxed.output
    assert "0 errors, 4 warnings" in relaxed.stderr
    strict = run(project, "validate", "--strict", "--format", "json")
    assert strict.exit_code == 1
    assert {(d["code"], d["pointer"]) for d in json.loads(strict.stdout)} == {
        ("TG150", "/description"),
        ("TG150", "/input_schema/properties/query/description"),
        ("TG150", "/output_schema/properties/result/description"),
        ("TG150", "/errors/0/description"),
    }
    written = re.sub(r"TODO: [^\"\n]*", "Find where a symbol is defined in the workspace, by name.", path.read_text())
    path.write_text(written, encoding="utf-8")
    checked = run(project, "validate", "--strict")
    assert checked.exit_code == 0, checked.output
    assert "0 errors, 0 warnings" in checked.stderr
    assert list(FORMAT.iter_errors(read(path))) == []
    text = path.read_text(encoding="utf-8")
    if fmt == "toml":
        assert text.startswith("#:schema ../generated/contract.schema.json\n")
    else:
        assert json.loads(text)["$schema"] == "../generated/contract.schema.json"


def test_new_in_a_subfolder_points_at_the_schema_relatively_and_the_build_provides_it(project: Path) -> None:
    (project / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    assert run(project, "new", "git_blame", "--dir", "git/history").exit_code == 0
    path = project / "contracts" / "git" / "history" / "git_blame.toml"
    directive = path.read_text(encoding="utf-8").splitlines()[0]
    assert directive == "#:schema ../../../generated/contract.schema.json"
    build = run(project, "build")
    assert build.exit_code == 0, build.output
    target = (path.parent / directive.removeprefix("#:schema ")).resolve()
    assert target.read_text(encoding="utf-8") == schema_text()


def test_new_refuses_to_overwrite_or_duplicate_a_name(project: Path) -> None:
    assert run(project, "new", "find_symbol").exit_code == 0
    before = (project / "contracts" / "find_symbol.toml").read_bytes()
    again = run(project, "new", "find_symbol")
    assert again.exit_code == 1
    assert "already exists" in again.stderr
    assert (project / "contracts" / "find_symbol.toml").read_bytes() == before
    other = run(project, "new", "find_symbol", "--format", "json", "--dir", "more")
    assert other.exit_code == 1
    assert "a contract named 'find_symbol' already exists at contracts/find_symbol.toml" in other.stderr
    assert not (project / "contracts" / "more").exists()


@pytest.mark.parametrize("name", ["FindSymbol", "find-symbol", "1tool", "x" * 65, "find_symbol_v2", ""])
def test_new_rejects_a_bad_name_as_a_usage_error(project: Path, name: str) -> None:
    result = run(project, "new", name)
    assert result.exit_code == 2
    assert "Invalid value for NAME" in result.stderr
    assert "like " in result.stderr
    assert "Traceback" not in result.output
    assert list((project / "contracts").iterdir()) == []


def test_new_refuses_a_folder_outside_the_contracts(project: Path) -> None:
    result = run(project, "new", "find_symbol", "--dir", "../elsewhere")
    assert result.exit_code == 1
    assert "must be a folder inside contracts/" in result.stderr
    assert not (project / "elsewhere").exists()


def test_schema_command_prints_the_shipped_schema(tmp_path: Path) -> None:
    result = run(tmp_path, "schema")
    assert result.exit_code == 0
    assert result.stdout == (REPO / "toolgen" / SCHEMA_FILE).read_text(encoding="utf-8")
    Draft202012Validator.check_schema(json.loads(result.stdout))


def test_repo_contracts_satisfy_the_format_schema() -> None:
    paths = sorted(p for p in (REPO / "contracts").rglob("*") if p.suffix in (".toml", ".json"))
    assert paths
    for path in paths:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in FORMAT.iter_errors(read(path))]
        assert errors == [], path


READ_ERRORS = {"TG101", "TG102", "TG127"}
"""Codes for a file the validator cannot read as a document (bytes, syntax, size): no schema sees it."""


def _corpus_documents(case: str, root: Path) -> list[tuple[Path, Any]]:
    """Every contract file of the case, with its parsed document, or None where it cannot be parsed."""
    contracts = make_project(case, root) / "contracts"
    out: list[tuple[Path, Any]] = []
    for path in sorted(contracts.rglob("*")):
        if path.suffix in (".toml", ".json") and path.is_file():
            if path.stat().st_size > MAX_FILE_BYTES:
                out.append((path, None))
                continue
            try:
                out.append((path, parse_text(path.read_text(encoding="utf-8"), path.suffix[1:])))
            except (ValueError, tomllib.TOMLDecodeError, RecursionError):
                out.append((path, None))
    return out


@pytest.mark.parametrize("case", case_names())
def test_format_schema_agrees_with_the_validator_on_the_corpus(case: str, tmp_path: Path) -> None:
    """A file with a structural error is rejected by the schema; one without any is accepted.

    A file whose errors are all outside STRUCTURAL is accepted too: the schema cannot see those (if
    it now can, the code belongs in STRUCTURAL). A file that cannot be parsed must be one the
    validator refuses to read as well. Each case must check at least one file.
    """
    expected = (CASES / case / "expected.txt").read_text(encoding="utf-8")
    checked = 0
    for path, data in _corpus_documents(case, tmp_path):
        rel = path.relative_to(tmp_path).as_posix()
        lines = [x for x in expected.splitlines() if x.startswith(rel + ":")]
        codes = {x.split(": ", 1)[1].split(" ", 1)[0] for x in lines if " (warning) " not in x}
        checked += 1
        if data is None or "TG127" in codes:
            # TG127 too deep for jsonschema itself: the validator refuses it before any recursion.
            assert codes & READ_ERRORS, f"{rel}: unreadable here, but the validator reports {sorted(codes)}"
            continue
        rejected = bool(list(FORMAT.iter_errors(data)))
        if codes & STRUCTURAL:
            assert rejected, f"{rel}: the schema accepts a contract with {sorted(codes & STRUCTURAL)}"
        else:
            assert not rejected, f"{rel}: the schema rejects a contract with only {sorted(codes)}"
    assert checked, f"case {case}: no contract file was checked"


def test_a_bad_name_gets_a_valid_suggestion(project: Path) -> None:
    result = run(project, "new", "2 Find-Symbol")
    assert result.exit_code == 2
    assert "like find_symbol" in result.stderr
