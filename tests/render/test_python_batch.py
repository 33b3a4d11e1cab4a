"""Batched datamodel-code-generator runs make exactly the models that one run per tool makes, and
black's first pass over them is final.

The cold build runs dcg once over a folder of many tools' schemas (`python_models.batch_models`)
instead of once per schema. These tests hold the batched models equal to the per-tool models, class
for class and byte for byte, over every tool of the shared corpora, the synthetic benchmark catalog
and the repo's contracts, and check each way out of a batch: a tool whose schemas hold the batch
marker, a class dcg numbered, a batch that warns and a batch that fails.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks import synth_catalog
from tests import factory
from tests.conftest import CORPORA, REPO
from toolgen.catalog import Contract, contract_from_document
from toolgen.importing.repair import repair_schema
from toolgen.render import python_format as fmt
from toolgen.render import python_models
from toolgen.render.python_format import fixed_mode
from toolgen.render.python_models import BATCH_MARK, batch_models, tool_models

PACKAGE = "pkg"
CORPUS_FILES = (
    "bfcl_functions.jsonl",
    "mcp_tools.jsonl",
    "mcp_tools_docker_arguments_format.jsonl",
    "other/acebench_en_functions.jsonl",
    "other/sealtools_tools.jsonl",
    "other/taubench_tools.jsonl",
    "other/functionchat_bench_tools.jsonl",
)


def _contract(index: int, input_schema: dict[str, Any], output_schema: dict[str, Any] | None = None) -> Contract:
    doc = factory.contract(f"tool_{index:05d}", input_schema=input_schema)
    if output_schema is not None:
        doc["output_schema"] = output_schema
    return contract_from_document(doc, f"contracts/tool_{index:05d}.json")


def _corpus_contracts() -> Iterator[Contract]:
    index = 0
    for name in CORPUS_FILES:
        for line in (CORPORA / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            schema = record.get("parameters") or record.get("inputSchema") or record.get("input_schema")
            if not isinstance(schema, dict):
                continue
            yield _contract(index, repair_schema(schema, "/input_schema", []))
            index += 1


def _assert_batched_equal(contracts: list[Contract], size: int = 40, black_too: bool = False) -> int:
    """Batch `contracts` `size` at a time; every tool's models must equal its per-tool models.

    With `black_too`, black's first pass over each tool's imports and models must also be final
    (the python target's formatting shortcut makes only that pass: `python_format.one_pass`)."""
    batched_tools = 0
    for start in range(0, len(contracts), size):
        chunk = contracts[start : start + size]
        made = python_models._batch(chunk, PACKAGE)
        batched_tools += len(made)
        for contract in chunk:
            if contract.name not in made:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                alone = tool_models(contract, PACKAGE)
            assert made[contract.name] == alone, contract.name
            if black_too:
                text = "\n".join(alone.imports) + "\n\n\n" + alone.body + "\n"
                assert fmt.one_pass(text, fixed_mode()) == fmt.full(text, fixed_mode()), contract.name
    return batched_tools


@pytest.mark.slow
@pytest.mark.corpus
def test_every_corpus_tool_batches_to_its_own_models() -> None:
    contracts = list(_corpus_contracts())
    assert len(contracts) > 7000
    batched = _assert_batched_equal(contracts, black_too=True)
    assert batched > 0.9 * len(contracts)  # the batch path is the one taken, not the fallback


@pytest.mark.slow
def test_synthetic_catalog_batches_to_its_own_models() -> None:
    docs = [synth_catalog.contract(i) for i in range(400)]
    contracts = [contract_from_document(d, f"contracts/{d['name']}.json") for d in docs]
    batched = _assert_batched_equal(contracts, black_too=True)
    assert batched > 0.9 * len(contracts)


def test_repo_contracts_batch_to_their_own_models() -> None:
    from toolgen.config import load_settings
    from toolgen.pipeline.stages import load_catalog

    settings, _ = load_settings(REPO)
    catalog, problems, _ = load_catalog(settings)
    assert catalog is not None, problems
    contracts = list(catalog)
    assert batch_models(contracts, PACKAGE) == [tool_models(c, PACKAGE) for c in contracts]


def test_a_class_dcg_numbered_is_made_alone() -> None:
    # `notes` items and the `notes` inside them are both named `Note`: dcg numbers one of them
    note = {"type": "array", "items": {"type": "string", "maxLength": 5}}
    nested = {
        "type": "object",
        "properties": {"notes": {"type": "array", "items": {"type": "object", "properties": {"notes": note}}}},
    }
    contracts = [_contract(0, nested), _contract(1, {"type": "object", "properties": {"a": {"type": "string"}}})]
    made = python_models._batch(contracts, PACKAGE)
    assert contracts[0].name not in made and contracts[1].name in made
    assert batch_models(contracts, PACKAGE) == [tool_models(c, PACKAGE) for c in contracts]
    assert "Note1" in batch_models(contracts, PACKAGE)[0].body


def test_a_schema_holding_the_marker_is_never_batched() -> None:
    marked = {"type": "object", "properties": {BATCH_MARK.upper(): {"type": "string"}}}
    plain = {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}}}}
    contracts = [_contract(0, marked), _contract(1, plain), _contract(2, plain)]
    assert python_models._unbatchable(contracts[0], PACKAGE)
    assert not python_models._unbatchable(contracts[1], PACKAGE)
    assert python_models._unbatchable(contracts[1], "tgbatchq_pkg")
    made = batch_models(contracts, PACKAGE)
    assert made == [tool_models(c, PACKAGE) for c in contracts]
    assert BATCH_MARK.upper() in made[0].body and BATCH_MARK not in made[1].body


def test_a_batch_that_warns_is_made_one_tool_at_a_time() -> None:
    # dcg warns that a model cannot carry a length on a `format: uri` string (TG351); the warning
    # must name the tool that caused it
    uri = {"type": "string", "format": "uri", "maxLength": 50}
    weak = {"type": "object", "properties": {"a": uri}}
    plain = {"type": "object", "properties": {"b": {"type": "integer"}}}
    contracts = [_contract(0, plain), _contract(1, weak)]
    alone = [tool_models(c, PACKAGE) for c in contracts]
    assert alone[1].notes, "dcg no longer warns here: pick another constraint a model cannot carry"
    assert python_models._batch(contracts, PACKAGE) == {}
    assert batch_models(contracts, PACKAGE) == alone
    assert alone[1].notes[0][0] == "/input_schema" and not alone[0].notes


def test_a_batch_that_fails_is_made_one_tool_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import datamodel_code_generator

    plain = {"type": "object", "properties": {"b": {"type": "integer"}}}
    contracts = [_contract(0, plain), _contract(1, plain, {"type": "object", "properties": {"c": {"type": "string"}}})]
    alone = [tool_models(c, PACKAGE) for c in contracts]
    real = datamodel_code_generator.generate

    def folder_fails(input_: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(input_, Path):
            raise RuntimeError("batch run failed")
        return real(input_, *args, **kwargs)

    monkeypatch.setattr(datamodel_code_generator, "generate", folder_fails)
    assert python_models._batch(contracts, PACKAGE) == {}
    assert batch_models(contracts, PACKAGE) == alone
