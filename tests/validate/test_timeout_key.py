"""The `timeout_ms` contract key: TG240, the catalog, the format schema, the docs page and the tool module."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.agent_support import agent_contracts
from tests.python_support import write_project
from toolgen.catalog import catalog_from_json, contract_from_document
from toolgen.config import load_settings
from toolgen.formatschema import schema
from toolgen.pipeline.stages import generate
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths


def _diagnostics(tmp_path: Path, value: Any) -> list[Any]:
    pause = agent_contracts()["pause"]
    pause["timeout_ms"] = value
    root = write_project(tmp_path, {"pause": pause})
    settings, problems = load_settings(root)
    assert not problems
    return [d for d in validate_paths(settings, [], target_diagnostics) if d.code == "TG240"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (True, "not a boolean"),
        (1.5, "not a number"),
        ("30s", "not a string"),
        (0, "from 1 to 86400000"),
        (-5, "from 1 to 86400000"),
        (86_400_001, "from 1 to 86400000"),
    ],
)
def test_tg240_refuses_what_is_not_positive_milliseconds(tmp_path: Path, value: Any, says: str) -> None:
    found = _diagnostics(tmp_path, value)
    assert len(found) == 1 and found[0].pointer == "/timeout_ms" and found[0].is_error
    assert found[0].file.endswith("pause.json") and "timeout_ms = 30000" in found[0].message
    assert says in found[0].message
    document = {**agent_contracts()["pause"], "timeout_ms": value}
    assert not jsonschema.Draft202012Validator(schema()).is_valid(document)  # the format schema agrees


@pytest.mark.parametrize("value", [1, 400, 86_400_000])
def test_valid_timeouts_pass_and_reach_the_catalog(tmp_path: Path, value: int) -> None:
    assert _diagnostics(tmp_path, value) == []
    document = {**agent_contracts()["pause"], "timeout_ms": value}
    jsonschema.Draft202012Validator(schema()).validate(document)
    contract = contract_from_document(document, "contracts/pause.json")
    assert contract.timeout_ms == value and contract.to_json()["timeout_ms"] == value


def test_a_contract_without_timeout_keeps_its_digest_and_catalog_json_shape() -> None:
    plain = agent_contracts()["lookup_word"]
    contract = contract_from_document(plain, "contracts/lookup_word.json")
    assert contract.timeout_ms is None and "timeout_ms" not in contract.to_json()
    limited = contract_from_document({**plain, "timeout_ms": 1000}, "contracts/lookup_word.json")
    assert limited.digest != contract.digest  # the limit is part of what the tool means
    document = {"tools": [limited.to_json(), contract.to_json()]}
    again = catalog_from_json(json.loads(json.dumps(document)))
    assert [c.timeout_ms for c in again] == [1000, None] and again.get("lookup_word") is not None


def test_docs_page_and_tool_module_carry_the_limit(tmp_path: Path) -> None:
    root = write_project(tmp_path, agent_contracts())
    (root / "toolgen.toml").write_text('targets = ["docs", "python"]\npython_package = "agent_tools"\n')
    settings, _ = load_settings(root)
    files = {a.path: a.text for a in generate(settings).artifacts}
    assert "Time limit: 400 ms; a longer call fails with `TIMEOUT` (retryable: yes)." in files["docs/pause.md"]
    assert "Time limit" not in files["docs/lookup_word.md"]
    assert "    timeout_ms=400,\n" in files["python/agent_tools/pause.py"]
    assert "timeout_ms=" not in files["python/agent_tools/lookup_word.py"]


def test_the_docs_say_the_retryable_a_timeout_really_has(tmp_path: Path) -> None:
    """A contract that declares TIMEOUT not retryable: the time limit line says so (the runtime's
    TIMEOUT takes the contract's `retryable`)."""
    contracts = agent_contracts()
    pause = contracts["pause"]
    pause["errors"] = [*pause.get("errors", []), {"code": "TIMEOUT", "description": "Too slow.", "retryable": False}]
    root = write_project(tmp_path, {"pause": pause})
    (root / "toolgen.toml").write_text('targets = ["docs"]\n')
    settings, _ = load_settings(root)
    page = {a.path: a.text for a in generate(settings).artifacts}["docs/pause.md"]
    assert "Time limit: 400 ms; a longer call fails with `TIMEOUT` (retryable: no)." in page
