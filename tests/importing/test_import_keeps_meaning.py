"""The rule every import repair keeps, checked on real declarations (`meaning_check`).

Default run: the licence-clean sample in tests/data/corpus_sample (see its NOTICE.md), a few values
per tool. `-m corpus`: every record of ../shared/corpora (or $TOOLGEN_CORPORA), skipped when absent.
A tool whose report says a repair changes what is accepted is counted, not compared.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.importing.meaning_check import Tally, check_tool
from toolgen.config import load_settings
from toolgen.importing.importer import Options, Planned, plan_import
from toolgen.importing.repair import Repair
from toolgen.importing.shapes import SourceRecord

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "data" / "corpus_sample"
CORPORA = Path(os.environ.get("TOOLGEN_CORPORA", REPO.parent / "shared" / "corpora"))


def _shape(path: Path) -> str:
    return "mcp" if path.name.startswith("mcp") else "openai"


def check_file(path: Path, examples: int, every: int = 1) -> Tally:
    """Import one corpus file with --repair and check every `every`-th imported tool."""
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "contracts").mkdir()
        settings, _ = load_settings(Path(tmp))
        plan = plan_import(path.read_text(encoding="utf-8"), _shape(path), settings, Options(path.name, repair=True))
    for item in plan.planned[::every]:
        check_tool(item, _shape(path), tally, examples)
    return tally


@pytest.mark.parametrize("path", sorted(SAMPLE.glob("*.jsonl")), ids=lambda p: p.name)
def test_repairs_keep_what_the_sample_accepts(path: Path) -> None:
    tally = check_file(path, examples=3)
    print(f"{path.name}: {tally.line()}")
    assert not tally.failures, tally.failures
    assert tally.counts["kept"] + tally.counts["identical"] > 0, tally.line()


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "bfcl_functions.jsonl",
        "mcp_tools.jsonl",
        "mcp_tools_docker_arguments_format.jsonl",
        "other/acebench_en_functions.jsonl",
        "other/functionchat_bench_tools.jsonl",
        "other/sealtools_tools.jsonl",
        "other/taubench_tools.jsonl",
    ],
)
def test_repairs_keep_what_the_corpora_accept(name: str) -> None:
    path = CORPORA / name
    if not path.is_file():
        pytest.skip(f"{path} is absent: the corpora come from ../shared/corpora (or $TOOLGEN_CORPORA)")
    tally = check_file(path, examples=int(os.environ.get("TOOLGEN_MEANING_EXAMPLES", "5")))
    print(f"{name}: {tally.line()}")
    assert not tally.failures, tally.failures[:20]


def _planned(source: dict[str, object], repaired: dict[str, object], *repairs: Repair) -> Planned:
    record = SourceRecord({"name": "t", "parameters": source}, 1, "")
    document = {"name": "t", "input_schema": repaired}
    return Planned(record, "t", document, Path("t.toml"), "toml", repairs)


def test_the_check_catches_a_repair_that_silently_loosens_or_tightens() -> None:
    source = {"type": "dict", "properties": {"q": {"type": "str"}}, "required": ["q"]}
    loose = {"type": "object", "properties": {"q": {"type": "string"}}}
    tight = {"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}, "required": ["q"]}
    for repaired in (loose, tight):
        tally = Tally()
        check_tool(_planned(source, repaired), "openai", tally)
        assert tally.counts["VIOLATED"] == 1, tally.line()
        assert "is refused by the other" in tally.failures[0]


def test_the_check_counts_reported_changes_and_same_meaning() -> None:
    source = {"type": "dict", "properties": {"q": {"type": "str", "nullable": True}}, "required": ["q"]}
    same = {"type": "object", "properties": {"q": {"type": ["string", "null"]}}, "required": ["q"]}
    reworded = {
        "type": "object",
        "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["q"],
    }
    tally = Tally()
    check_tool(_planned(source, same), "openai", tally)
    check_tool(_planned(source, reworded), "openai", tally)
    check_tool(_planned(source, {"type": "object"}, Repair.changed("/parameters", "dropped")), "openai", tally)
    assert tally.counts == {"identical": 1, "kept": 1, "changed (reported)": 1}, tally.line()
