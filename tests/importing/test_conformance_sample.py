"""Real-world conformance on the fixed, licence-clean corpus sample (see tests/data/corpus_sample/NOTICE.md).

Every record is imported with `--repair`, built with every target, its Python package imported and its
provider JSON checked with the SDK types (`benchmarks/conformance.py`). Nothing may crash and at least
99% of each corpus file must build. The full corpora run is the same harness without arguments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import conformance
from tests.conftest import CORPUS_SAMPLE

SAMPLE = CORPUS_SAMPLE


@pytest.mark.slow
def test_sample_builds_without_crashes() -> None:
    files = sorted(SAMPLE.glob("*.jsonl"))
    assert len(files) == 7
    results = [conformance.run_corpus(f, "mcp" if f.name.startswith("mcp") else "openai", 100, 2) for f in files]
    report = conformance.table(results)
    assert sum(r.counts()["records"] for r in results) == 340, report
    for result in results:
        counts = result.counts()
        assert counts["crashed"] == 0, report
        assert counts["lost"] == 0, report
        assert counts["imported"] >= counts["built"], report
        assert result.rate >= 0.99, report


def test_harness_names_rejected_and_crashed_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgen.importing import importer

    good = {"name": "get_x", "description": "Return the x of a thing, as a number.", "parameters": {"type": "object"}}
    remote = {**good, "name": "remote", "parameters": {"type": "object", "properties": {"a": {"$ref": "http://x/y"}}}}
    boom = {**good, "name": "boom", "parameters": {"type": "object", "x-boom": True}}
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in (good, remote, "text", boom)) + "\n", encoding="utf-8")
    real = importer.repair_schema

    def explode(schema: dict[str, object], where: str, notes: list[object]) -> object:
        if schema.get("x-boom"):
            raise KeyError("boom")
        return real(schema, where, notes)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "repair_schema", explode)
    result = conformance.run_corpus(corpus, "openai", batch=10, jobs=1)
    states = {o.line: (o.state, o.reason) for o in result.outcomes}
    assert states[1] == ("built", "")
    assert states[2][0] == "rejected"
    assert "TG117" in states[2][1]
    assert states[3][0] == "rejected"
    assert "not an object" in states[3][1]
    assert states[4][0] == "crashed"
    assert "KeyError" in states[4][1]
    report = conformance.table([result])
    assert "| corpus.jsonl | 4 | 2 | 1 | 2 | 0 | 1 | 0 | 0 | 25.00% |" in report
    assert "- corpus.jsonl:4 (boom) crashed: import raised KeyError" in report


def test_harness_names_changed_meaning_and_lost_schemas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgen.importing import importer

    typo = {
        "name": "search",
        "description": "Search the documents for a query and return the best matches.",
        "parameters": {"type": "object", "properties": {"search_query": {"type": "string"}}, "required": ["query"]},
    }
    wipe = {**typo, "name": "wipe", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in (typo, wipe)) + "\n", encoding="utf-8")
    real = importer.repair_schema

    def lose(schema: dict[str, object], where: str, notes: list[object]) -> object:
        fixed = real(schema, where, notes)  # type: ignore[arg-type]
        if "a" in (fixed.get("properties") or {}):
            fixed["properties"] = {}
        return fixed

    monkeypatch.setattr(importer, "repair_schema", lose)
    result = conformance.run_corpus(corpus, "openai", batch=10, jobs=1)
    counts = result.counts()
    assert (counts["changed"], counts["lost"]) == (1, 1)
    report = conformance.table([result])
    assert "| corpus.jsonl | 2 | 2 | 2 | 0 | 0 | 0 | 1 | 1 | 100.00% |" in report
    assert (
        "- corpus.jsonl:1 (search) meaning changed: /parameters/required/0: changes what is accepted: "
        "required 'query' is not a property; 'search_query' is required instead" in report
    )
    assert "- corpus.jsonl:2 (wipe) schema lost: the contract lacks the source's properties ['a']" in report
