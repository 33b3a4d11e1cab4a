"""`excluded_standard_errors`: a contract says which standard codes its tool never returns.

The issue's repro: `http_fetch` says a 404 is a result, not an error, yet its page listed the
standard `NOT_FOUND` as possible and its `ErrorCode` held it. Only codes the tool itself would return
can be excluded; the ones the generated registry answers on its own (`INVALID_INPUT`,
`PERMISSION_DENIED`, `UNKNOWN_TOOL`, `INTERNAL`, `TIMEOUT`) cannot (TG140).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.agent_support import agent_contracts
from tests.conftest import REPO
from tests.python_support import build, imported, write_project
from toolgen.catalog import catalog_from_json, contract_from_document
from toolgen.config import load_settings
from toolgen.formatschema import schema
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths


def _lookup(**changes: Any) -> dict[str, Any]:
    return {**agent_contracts()["lookup_word"], **changes}


def _diagnostics(tmp_path: Path, document: dict[str, Any]) -> list[Any]:
    root = write_project(tmp_path, {"lookup_word": document})
    settings, problems = load_settings(root)
    assert not problems
    return [d for d in validate_paths(settings, [], target_diagnostics) if d.is_error]


@pytest.mark.parametrize(
    ("value", "pointer", "code", "says"),
    [
        (["NOT_FUOND"], "/excluded_standard_errors/0", "TG140", "did you mean 'NOT_FOUND'"),
        (["BUSY"], "/excluded_standard_errors/0", "TG140", "not a standard error code"),
        (["INVALID_INPUT"], "/excluded_standard_errors/0", "TG140", "the generated registry returns it itself"),
        (["TIMEOUT"], "/excluded_standard_errors/0", "TG140", "the generated registry returns it itself"),
        (["NOT_FOUND", "NOT_FOUND"], "/excluded_standard_errors/1", "TG140", "listed twice"),
        ("NOT_FOUND", "/excluded_standard_errors", "TG106", "an array"),
        ([404], "/excluded_standard_errors/0", "TG106", "a string"),
    ],
)
def test_tg138_names_the_file_and_the_entry(tmp_path: Path, value: Any, pointer: str, code: str, says: str) -> None:
    found = _diagnostics(tmp_path, _lookup(excluded_standard_errors=value))
    assert [(d.code, d.pointer) for d in found] == [(code, pointer)], found
    assert found[0].file.endswith("lookup_word.json") and says in found[0].message


def test_an_excluded_code_cannot_also_be_declared_or_shown_in_an_example(tmp_path: Path) -> None:
    document = _lookup(
        excluded_standard_errors=["NOT_FOUND", "CONFLICT"],
        errors=[{"code": "CONFLICT", "description": "Someone else is editing the word."}],
        examples=[{"input": {"word": "zzz"}, "error": {"code": "NOT_FOUND", "message": "No word zzz"}}],
    )
    found = {(d.code, d.pointer): d.message for d in _diagnostics(tmp_path, document)}
    assert set(found) == {("TG140", "/excluded_standard_errors/1"), ("TG121", "/examples/0/error/code")}
    assert "declared under `errors`" in found["TG140", "/excluded_standard_errors/1"]
    assert "excluded_standard_errors" in found["TG121", "/examples/0/error/code"]


def test_the_format_schema_agrees() -> None:
    valid = jsonschema.Draft202012Validator(schema())
    assert valid.is_valid(_lookup(excluded_standard_errors=["NOT_FOUND", "RATE_LIMITED"]))
    for wrong in (["INTERNAL"], ["NOT_FOUND", "NOT_FOUND"], "NOT_FOUND", ["BUSY"]):
        assert not valid.is_valid(_lookup(excluded_standard_errors=wrong)), wrong


def test_the_catalog_carries_it_and_reads_it_back() -> None:
    plain = contract_from_document(_lookup(), "contracts/lookup_word.json")
    assert "excluded_standard_errors" not in plain.to_json()  # other contracts keep their digest and shape
    narrowed = contract_from_document(
        _lookup(excluded_standard_errors=["UNAVAILABLE", "NOT_FOUND"]), "contracts/lookup_word.json"
    )
    assert narrowed.to_json()["excluded_standard_errors"] == ["NOT_FOUND", "UNAVAILABLE"]
    assert narrowed.digest != plain.digest
    assert "NOT_FOUND" not in narrowed.all_error_codes and "CONFLICT" in narrowed.all_error_codes
    again = catalog_from_json(json.loads(json.dumps({"tools": [narrowed.to_json()]})))
    read_back = again.contracts[0]
    assert (read_back.excluded_errors, read_back.digest) == (narrowed.excluded_errors, narrowed.digest)


def test_error_code_and_the_runtime_respect_it(tmp_path: Path) -> None:
    contracts = {"lookup_word": _lookup(excluded_standard_errors=["NOT_FOUND", "CONFLICT"])}
    files = build(write_project(tmp_path / "src", contracts))
    module = files["python/agent_tools/lookup_word.py"]
    literal = module[module.index("ErrorCode = Literal[") : module.index("]", module.index("ErrorCode = Literal["))]
    assert '"NOT_FOUND"' not in literal and '"CONFLICT"' not in literal and '"UNAVAILABLE"' in literal
    with imported(contracts, tmp_path / "pkg", "narrowed_tools") as package:
        contract = package.lookup_word.CONTRACT
        assert "NOT_FOUND" not in contract.error_codes and "UNKNOWN_WORD" in contract.error_codes
        registry = package.Registry(policy=package.Policy(allow={"read"}))
        registry.register("lookup_word", lambda arguments: package.Err("NOT_FOUND", "no such word", False))
        result = registry.call("lookup_word", {"word": "zzz"})
        assert not result.ok and result.code == "INTERNAL"  # a code it said it never returns is a bug


def test_http_fetch_says_it_never_returns_not_found() -> None:
    data = json.loads((REPO / "contracts" / "http_fetch.json").read_text(encoding="utf-8"))
    assert "404 is a result, not an error" in data["description"]
    assert "NOT_FOUND" in data["excluded_standard_errors"]
    catalog = json.loads((REPO / "generated" / "catalog.json").read_text(encoding="utf-8"))
    tool = next(t for t in catalog["tools"] if t["name"] == "http_fetch")
    assert "NOT_FOUND" in tool["excluded_standard_errors"]
    page = (REPO / "generated" / "docs" / "http_fetch.md").read_text(encoding="utf-8")
    assert "It never returns the standard `NOT_FOUND`" in page
