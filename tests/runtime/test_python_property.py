"""Property test: values drawn from each input schema pass the model and the registry; mutants fail.

Schemas: the repository's contracts and a fixed sample of 50 input schemas from the licence-clean
MCP records in `tests/data/corpus_sample/mcp_tools.jsonl` (object roots, valid draft 2020-12, only
local `$ref`s; see its NOTICE.md), so the test needs nothing outside the repository.
"""

from __future__ import annotations

import functools
import importlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from tests.conftest import CORPUS_SAMPLE, REPO
from tests.python_support import build, write_package, write_project

CORPUS = CORPUS_SAMPLE / "mcp_tools.jsonl"
SAMPLE = 50
DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"


def _nonlocal_ref(value: Any) -> bool:
    if isinstance(value, dict):
        ref = value.get("$ref")
        return (isinstance(ref, str) and not ref.startswith("#")) or any(_nonlocal_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_nonlocal_ref(v) for v in value)
    return False


def _usable(schema: Any) -> bool:
    if (
        not isinstance(schema, dict)
        or schema.get("type") != "object"
        or schema.get("$schema", DRAFT_2020) != DRAFT_2020
    ):
        return False
    try:
        Draft202012Validator.check_schema(schema)
    except Exception:
        return False
    return not _nonlocal_ref(schema) and not _bad_defaults(schema)


def _bad_defaults(schema: dict[str, Any]) -> bool:
    """A default its own schema refuses (TG214, an error: the build stops) leaves the record out."""
    from toolgen.validate.report import Reporter
    from toolgen.validate.schemacheck import check_defaults

    report = Reporter("corpus", lambda pointer: (None, None))
    check_defaults(schema, "/input_schema", report)
    return bool(report.found)


@functools.cache
def corpus_sample() -> list[dict[str, Any]]:
    """Every k-th usable record, sorted by server and name: the same 50 every run."""
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    usable = sorted((r for r in rows if _usable(r.get("inputSchema"))), key=lambda r: (r["server"], r["name"]))
    step = max(1, len(usable) // SAMPLE)
    return usable[::step][:SAMPLE]


def corpus_contracts() -> dict[str, dict[str, Any]]:
    """The sample as contracts named `corpus_NN`, pure tools without an output schema."""
    contracts = {}
    for index, record in enumerate(corpus_sample()):
        name = f"corpus_{index:02d}"
        description = f"Corpus tool {record['name']} from {record['server']}: {record.get('description') or ''}"
        contracts[name] = {
            "name": name,
            "version": "1.0.0",
            "description": description,
            "permissions": [],
            "input_schema": record["inputSchema"],
        }
    return contracts


def _import(root: Path, package: str) -> ModuleType:
    folder = write_package(build(root), root / "out")
    sys.path.insert(0, str(folder))
    return importlib.import_module(package)


def _forget(package: str) -> None:
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    """The repo's contracts as `prop_repo` and the corpus sample as `prop_corpus`, imported."""
    repo_root = tmp_path_factory.mktemp("repo")
    shutil.copytree(REPO / "contracts", repo_root / "contracts")
    (repo_root / "toolgen.toml").write_text('targets = ["python"]\npython_package = "prop_repo"\n')
    corpus_root = write_project(tmp_path_factory.mktemp("corpus"), corpus_contracts(), "prop_corpus")
    saved = list(sys.path)
    try:
        yield {"repo": _import(repo_root, "prop_repo"), "corpus": _import(corpus_root, "prop_corpus")}
    finally:
        sys.path[:] = saved
        _forget("prop_repo")
        _forget("prop_corpus")


def _repo_names() -> list[str]:
    return sorted(p.stem for p in (REPO / "contracts").rglob("*") if p.suffix in {".toml", ".json"})


def _mutants(value: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """Changes to a valid value that often make it invalid (the test keeps those that are)."""
    found: list[Any] = [[value], "not an object"]
    if schema.get("additionalProperties") is False:
        found.append({**value, "\u0000unexpected": 1})
    for key in schema.get("required", []):
        found.append({k: v for k, v in value.items() if k != key})
    for key in schema.get("properties", {}):
        found.extend({**value, key: wrong} for wrong in (True, 123456789, "\u0000text", [{}], {"\u0000": []}))
        if key in schema.get("required", []):
            found.append({**value, key: None})
    return found


def _null_means_absent(registry: Any, name: str, value: dict[str, Any], schema: dict[str, Any]) -> int:
    """A null for an optional property that refuses null is read as absent; returns the calls made."""
    calls = 0
    for key, sub in schema.get("properties", {}).items():
        if key in schema.get("required", []) or Draft202012Validator(sub).is_valid(None):
            continue
        absent = {k: v for k, v in value.items() if k != key}
        assert registry.call(name, {**value, key: None}).code == registry.call(name, absent).code, key
        calls += 2
    return calls


def _check(pkg: ModuleType, name: str, data: st.DataObject) -> None:
    contract = pkg.CONTRACTS[name]
    schema = pkg._runtime.thaw(contract.input_schema)
    value = data.draw(from_schema(schema), label="arguments")
    contract.input_model.model_validate(value)
    seen: list[Any] = []
    registry = pkg.Registry(policy=pkg.Policy.allow_all())
    probe = "NOT_FOUND" if "NOT_FOUND" in contract.error_codes else "TIMEOUT"  # http_fetch excludes NOT_FOUND
    registry.register(name, lambda arguments: seen.append(arguments) or contract.error(probe, "probe"))
    result = registry.call(name, value)
    assert result.code == probe, result
    assert isinstance(seen[0], contract.input_model)
    assert registry.call(name, json.dumps(value)).code == probe
    validator = Draft202012Validator(schema)
    invalid = [m for m in _mutants(value, schema) if not validator.is_valid(m)]
    assert invalid, "no mutant was invalid"
    for mutant in invalid:
        assert registry.call(name, mutant).code == "INVALID_INPUT", mutant
    extra = _null_means_absent(registry, name, value, schema)
    assert len(seen) == 2 + extra


PROPERTY = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@pytest.mark.slow
@pytest.mark.parametrize("name", _repo_names())
@PROPERTY
@given(data=st.data())
def test_repo_contract_inputs(packages: dict[str, ModuleType], name: str, data: st.DataObject) -> None:
    _check(packages["repo"], name, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", [f"corpus_{i:02d}" for i in range(SAMPLE)])
@PROPERTY
@given(data=st.data())
def test_corpus_inputs(packages: dict[str, ModuleType], name: str, data: st.DataObject) -> None:
    _check(packages["corpus"], name, data)


def test_corpus_sample_is_fixed_and_full() -> None:
    sample = corpus_sample()
    assert len(sample) == SAMPLE == len({(r["server"], r["name"]) for r in sample})
    assert all(_usable(r["inputSchema"]) for r in sample)
