"""The repository's own example catalog (`contracts/`): valid under --strict, honest, and varied enough
to exercise every target (nullable types, `$ref`, free-form maps, sensitive values, keyword names)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO
from jsonschema import Draft202012Validator

from toolgen.catalog import STANDARD_ERRORS
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.frozen import thaw
from toolgen.load import parse_text
from toolgen.pipeline.stages import load_catalog

CONTRACTS = REPO / "contracts"
FILES = sorted(p for p in CONTRACTS.rglob("*") if p.suffix in {".toml", ".json"})
DOCS: dict[str, dict[str, Any]] = {
    p.relative_to(REPO).as_posix(): parse_text(p.read_text(encoding="utf-8"), p.suffix[1:]) for p in FILES
}
BY_NAME = {doc["name"]: doc for doc in DOCS.values()}

HONEST_PERMISSIONS = {
    "apply_patch": ["write"],
    "ask_user": [],
    "delete_file": ["write"],
    "git_commit": ["execute", "read", "write"],  # commit hooks are programs
    "git_diff": ["read"],
    "git_status": ["read"],
    "grep_files": ["read"],
    "http_fetch": ["network"],
    "list_files": ["read"],
    "read_file": ["read"],
    "run_command": ["execute", "network", "read", "write"],  # any program may reach the network
    "run_tests": ["execute", "network", "read", "write"],  # tests run project code, which may reach the network
    "search_code": ["read"],
    "write_file": ["write"],
}
"""What each tool really does; a change here is a permission change reviewers must see."""


def invoke(project: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["-C", str(project), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def walk(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside a schema, depth first."""
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def properties(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(name, schema) of every property declared anywhere in the contract's schemas."""
    for key in ("input_schema", "output_schema"):
        for node in walk(doc.get(key, {})):
            props = node.get("properties")
            if isinstance(props, Mapping):
                yield from props.items()


def test_catalog_size_formats_and_layout() -> None:
    assert 12 <= len(FILES) <= 14
    assert sum(p.suffix == ".json" for p in FILES) >= 3
    assert any(p.parent != CONTRACTS for p in FILES), "at least one contract lives in a subfolder"
    for rel, doc in DOCS.items():
        assert Path(rel).stem == doc["name"], rel
    assert sorted(BY_NAME) == sorted(HONEST_PERMISSIONS)


@pytest.mark.parametrize("project", ["repo", "bare copy"])
def test_validate_strict_reports_nothing(project: str, repo_contracts: Path) -> None:
    """Zero diagnostics with the repo's configuration and with defaults only (no relaxed severities)."""
    root = REPO if project == "repo" else repo_contracts
    code, out, err = invoke(root, "validate", "--strict", "--format", "json")
    assert json.loads(out) == [], out
    assert code == 0, err


def test_validate_strict_through_python_m() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "-C", str(REPO), "validate", "--strict"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "0 errors, 0 warnings" in proc.stderr


def test_catalog_and_docs_targets_build(repo_contracts: Path) -> None:
    (repo_contracts / "toolgen.toml").write_text('targets = ["catalog", "docs"]\n', encoding="utf-8")
    code, out, err = invoke(repo_contracts, "build")
    assert code == 0, out + err
    catalog = json.loads((repo_contracts / "generated" / "catalog.json").read_text(encoding="utf-8"))
    assert [t["name"] for t in catalog["tools"]] == sorted(HONEST_PERMISSIONS)
    assert (repo_contracts / "generated" / "docs" / "git_diff.md").is_file()


@pytest.mark.parametrize("rel", sorted(DOCS))
def test_examples_validate_against_the_schemas(rel: str) -> None:
    doc = DOCS[rel]
    Draft202012Validator.check_schema(doc["input_schema"])
    inputs = Draft202012Validator(doc["input_schema"])
    outputs = Draft202012Validator(doc["output_schema"]) if "output_schema" in doc else None
    known = {e["code"] for e in doc.get("errors", [])} | set(STANDARD_ERRORS)
    assert 2 <= len(doc["examples"]) <= 3, "each tool shows two or three example calls"
    for example in doc["examples"]:
        assert [e.message for e in inputs.iter_errors(example["input"])] == [], example["title"]
        if "output" in example:
            assert outputs is not None, f"{example['title']}: an output needs an output schema"
            assert [e.message for e in outputs.iter_errors(example["output"])] == [], example["title"]
        else:
            assert example["error"]["code"] in known, example["title"]


def test_the_frozen_catalog_keeps_valid_examples() -> None:
    """After normalization and freezing, examples still validate (nothing lost on the way)."""
    settings, problems = load_settings(REPO)
    assert problems == []
    catalog, diagnostics, _ = load_catalog(settings)
    assert catalog is not None, diagnostics
    for contract in catalog:
        assert contract.output_schema is not None, f"{contract.name} returns data and needs an output schema"
        outputs = Draft202012Validator(thaw(contract.output_schema))
        for example in contract.examples:
            if example.output is not None:
                assert outputs.is_valid(thaw(example.output)), (contract.name, example.title)


def test_permissions_are_honest() -> None:
    assert {name: doc["permissions"] for name, doc in BY_NAME.items()} == HONEST_PERMISSIONS


def test_read_file_returns_the_digest_write_file_expects() -> None:
    """`write_file` asks for `expected_sha256` "from an earlier read": `read_file` must return one, in
    the same form, and the examples must chain (a read's digest is the one a later write expects)."""
    read, write = BY_NAME["read_file"], BY_NAME["write_file"]
    digest = read["output_schema"]["properties"]["sha256"]
    expected = write["input_schema"]["properties"]["expected_sha256"]
    assert "sha256" in read["output_schema"]["required"] and digest["pattern"] == expected["pattern"]
    read_digests = {e["output"]["sha256"] for e in read["examples"] if "output" in e}
    written = {e["output"]["sha256"] for e in write["examples"] if "output" in e}
    expected_by_writes = {e["input"].get("expected_sha256") for e in write["examples"]}
    assert read_digests & written and read_digests & expected_by_writes
    for example in write["examples"]:
        if "output" in example:
            content = example["input"]["content"].encode("utf-8")
            assert example["output"]["sha256"] == hashlib.sha256(content).hexdigest()
            assert example["output"]["bytes_written"] == len(content)


def test_side_effects_declare_errors_and_network_declares_retryable_failures() -> None:
    for name, doc in BY_NAME.items():
        codes = {e["code"] for e in doc.get("errors", [])}
        if {"write", "execute"} & set(doc["permissions"]):
            assert codes, f"{name} has side effects and declares no errors"
            assert doc["input_schema"]["additionalProperties"] is False, name
        if "network" in doc["permissions"]:
            assert codes & {"TIMEOUT", "UNAVAILABLE"}, name
        for error in doc.get("errors", []):
            assert "retryable" in error or error["code"] in STANDARD_ERRORS, (name, error["code"])


def test_catalog_exercises_the_hard_cases() -> None:
    """The example catalog is also the end-to-end fixture: keep the shapes that stress the targets."""
    every_prop = [(name, schema) for doc in DOCS.values() for name, schema in properties(doc)]
    names = {name for name, _ in every_prop}
    assert {"from", "type", "id"} <= names, "a keyword and builtin-named properties exercise the Python target"
    assert any(isinstance(s.get("type"), list) and "null" in s["type"] for _, s in every_prop)
    assert any(s.get("x-sensitive") is True for _, s in every_prop)
    free_maps = [s for _, s in every_prop if isinstance(s.get("additionalProperties"), Mapping)]
    assert free_maps, "a free-form map (which OpenAI strict mode cannot express)"
    assert any("$defs" in doc["input_schema"] for doc in DOCS.values())
    assert any("$ref" in node for doc in DOCS.values() for node in walk(doc["input_schema"]))
    arrays_of_objects = [s for _, s in every_prop if s.get("type") == "array" and s.get("items", {}).get("type")]
    assert any(s["items"]["type"] == "object" for s in arrays_of_objects)
    assert [n for n, d in BY_NAME.items() if isinstance(d.get("deprecated"), str)] == ["grep_files"]
    assert [n for n, d in BY_NAME.items() if d["permissions"] == []] == ["ask_user"]
    assert any("error" in ex for doc in DOCS.values() for ex in doc["examples"])


def test_descriptions_fit_every_provider() -> None:
    for name, doc in BY_NAME.items():
        assert len(doc["description"].strip()) < 900, name
        assert all(s.get("description") for _, s in properties(doc)), name


def test_contracts_satisfy_the_editor_schema() -> None:
    """What an editor checks as the author types (`toolgen schema`) accepts every example contract."""
    code, out, err = invoke(REPO, "schema")
    assert code == 0, err
    editor = Draft202012Validator(json.loads(out))
    for rel, doc in DOCS.items():
        assert [f"{e.json_path}: {e.message}" for e in editor.iter_errors(doc)] == [], rel
    first_lines = {rel: (REPO / rel).read_text(encoding="utf-8").splitlines()[0] for rel in DOCS}
    for rel, line in first_lines.items():
        depth = "../" * rel.count("/")
        expected = f"{depth}generated/contract.schema.json"
        if rel.endswith(".toml"):
            assert line == f"#:schema {expected}", rel
        else:
            assert DOCS[rel]["$schema"] == expected, rel


def test_a_timeout_the_contract_says_to_narrow_is_not_retryable() -> None:
    """An error whose own text tells the model to change the call must not inherit `retryable = true`."""
    for name in ("run_tests", "search_code"):
        timeout = next(e for e in BY_NAME[name]["errors"] if e["code"] == "TIMEOUT")
        assert "narrow" in timeout["description"] and timeout["retryable"] is False, name
