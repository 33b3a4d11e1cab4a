"""Every generated provider declaration validates with the provider SDK types (PROVIDERS.md).

Two catalogs: an edge-case project built through the real pipeline (free-form maps, `$ref`s, `const`,
root `oneOf`, deprecation, sensitive examples, integer enums), and a sweep over the real tool schemas
of the shared corpora, projected directly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema.exceptions import SchemaError

from tests.conftest import CORPORA
from tests.providers_support import (
    catalog_of,
    check_all,
    check_anthropic,
    check_schema,
    make_contract,
    settings,
    strict_problems,
)
from toolgen.config import load_settings
from toolgen.pipeline import stages as pipeline
from toolgen.render import providers
from toolgen.render.providers import stats

EDGE_PROJECT = Path(__file__).parents[1] / "data" / "providers" / "edge_project"


def edge_payloads(
    tmp_path: Path, *, anthropic_strict: bool = False, non_ascii: bool = False
) -> tuple[dict[str, Any], pipeline.Generated]:
    """Build the edge-case project in a temporary copy and parse its provider files.

    `non_ascii` adds typographic and non-Latin text to one description (the project has none).
    """
    import shutil

    root = tmp_path / "edge"
    shutil.copytree(EDGE_PROJECT, root)
    if non_ascii:
        contract = root / "contracts" / "read_text.json"
        data = json.loads(contract.read_text(encoding="utf-8"))
        data["description"] += " Reads “naïve” UTF-8 text — 日本語 too."
        contract.write_text(json.dumps(data), encoding="utf-8")
    if anthropic_strict:
        config = root / "toolgen.toml"
        config.write_text(config.read_text(encoding="utf-8") + "anthropic_strict = true\n", encoding="utf-8")
    found, problems = load_settings(root)
    assert problems == []
    result = pipeline.generate(found)
    assert result.ok, [str(d) for d in result.diagnostics if d.is_error]
    files = {a.path.removeprefix("providers/"): json.loads(a.text) for a in result.artifacts if "providers/" in a.path}
    assert sorted(files) == sorted(providers.FILES)
    return files, result


@pytest.mark.parametrize("anthropic_strict", [False, True])
def test_edge_project_validates_with_every_sdk(tmp_path: Path, anthropic_strict: bool) -> None:
    files, _ = edge_payloads(tmp_path, anthropic_strict=anthropic_strict)
    check_all(files)
    strict_flags = {t["function"]["name"]: t["function"]["strict"] for t in files["openai_chat.json"]}
    assert strict_flags["set_headers"] is False
    assert strict_flags["read_text"] is True
    anthropic = {t["name"]: t for t in files["anthropic.json"]}
    assert all(("strict" in t) is anthropic_strict for t in anthropic.values())


def test_edge_project_responses_match_chat(tmp_path: Path) -> None:
    files, _ = edge_payloads(tmp_path)
    chat = [t["function"] for t in files["openai_chat.json"]]
    responses = [{k: v for k, v in t.items() if k != "type"} for t in files["openai_responses.json"]]
    assert chat == responses


def test_strict_checker_catches_what_it_should() -> None:
    """The test's own strict checker is not vacuous: each rule of PROVIDERS.md 1.5 it enforces fires."""
    ok = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
    assert strict_problems(ok) == []
    bad_cases = [
        {**ok, "additionalProperties": True},
        {**ok, "required": []},
        {**ok, "properties": {"a": {"type": "string", "format": "uri"}}},
        {**ok, "properties": {"a": {"oneOf": [{"type": "string"}]}}},
        {**ok, "properties": {"a": {"type": "array"}}},
        {**ok, "properties": {"a": {"description": "anything"}}},
        {**ok, "properties": {"a": {"type": "string", "default": "x"}}},
        {**ok, "properties": {"a": {"$ref": "#/$defs/missing"}}},
        {"anyOf": [ok]},
    ]
    for case in bad_cases:
        assert strict_problems(case), case


SAMPLE_EVERY = 4
"""The sweep takes every fourth record of each corpus file (about 700 tools) to stay fast."""


def _corpus_contracts() -> list[Any]:
    contracts = []
    seen: set[str] = set()
    for file in ("mcp_tools.jsonl", "other/taubench_tools.jsonl", "other/acebench_en_functions.jsonl"):
        for line in (CORPORA / file).read_text(encoding="utf-8").splitlines()[::SAMPLE_EVERY]:
            record = json.loads(line)
            schema = record.get("inputSchema") or record.get("parameters")
            name = re.sub(r"[^a-z0-9_]", "_", re.sub(r"(?<!^)(?=[A-Z])", "_", record["name"]).lower()).strip("_")[:64]
            if not isinstance(schema, dict) or schema.get("type") != "object" or not name or name in seen:
                continue
            try:
                check_schema(schema)
            except SchemaError:
                continue
            seen.add(name)
            output = record.get("outputSchema")
            extra = {"output_schema": output} if isinstance(output, dict) and output.get("type") == "object" else {}
            description = (record.get("description") or "").strip() or f"The {name} tool."
            contracts.append(make_contract(name, schema, description=description, **extra))
    return contracts


@pytest.mark.slow
@pytest.mark.corpus
def test_corpus_sweep_validates_with_every_sdk(tmp_path: Path) -> None:
    """Real schemas: every tool is declared (TG304 and TG306 are warnings now) and validates with the SDK types."""
    contracts = _corpus_contracts()
    assert len(contracts) > 500, len(contracts)
    declared = 0
    for start in range(0, len(contracts), 100):
        catalog = catalog_of(*contracts[start : start + 100])
        projection = providers.project(catalog, settings(tmp_path, anthropic_strict=True))
        errors = sorted({(d.code, d.file) for d in projection.diagnostics if d.is_error})
        assert errors == [], errors[:5]
        for payload in projection.payloads:
            _check_payload(payload.file, payload.tools, set())
            declared += len(payload.tools) if payload.file == "mcp.json" else 0
    assert declared == len(contracts)


def _check_payload(file: str, tools: Any, broken: set[str]) -> None:
    from tests import providers_support as support

    ok = {name: tool for name, tool in tools.items() if name not in broken}
    if file == "openai_chat.json":
        for tool in ok.values():
            support.check_openai_chat(tool)
    elif file == "openai_responses.json":
        for tool in ok.values():
            support.check_openai_responses(tool)
    elif file == "anthropic.json":
        for tool in ok.values():
            check_anthropic(tool)
    elif file == "gemini.json":
        support.check_gemini([{"functionDeclarations": list(ok.values())}])
    else:
        support.check_mcp({"tools": list(ok.values())})


def _sdk_body(file: str, document: Any) -> bytes:
    """The bytes an SDK sends for `document`, by the SDK's own encoder, not by `stats`.

    OpenAI's and Anthropic's request encoders; pydantic's for MCP (its SDK writes JSON-RPC with
    `model_dump_json`). google-genai sends `json.dumps` with spaces, so Gemini is held to the same
    compact figure as the others (what `toolgen stats` documents), by OpenAI's encoder.
    """
    import anthropic._utils._json
    import openai._utils._json
    import pydantic_core

    if file == "anthropic.json":
        return anthropic._utils._json.openapi_dumps(document)
    if file == "mcp.json":
        return pydantic_core.to_json(document)
    return openai._utils._json.openapi_dumps(document)


def test_stats_sizes_are_the_compact_json_of_each_declaration(tmp_path: Path) -> None:
    files, result = edge_payloads(tmp_path, non_ascii=True)
    assert "日本語" in json.dumps(files["anthropic.json"], ensure_ascii=False)
    assert result.catalog is not None
    measured = stats.measure(providers.project(result.catalog, result.settings))
    sizes = {p: s.bytes for p, _, s in measured.providers}
    for file, document in files.items():
        # An independent figure: the request-body bytes of the SDK's own JSON encoder.
        assert sizes[file] == len(_sdk_body(file, document)), file
    assert [s.bytes for _, _, s in measured.providers] == sorted(sizes.values(), reverse=True)
    largest = [max(s.bytes for s in sizes.values()) for _, sizes in measured.tools]
    assert largest == sorted(largest, reverse=True)
    assert stats.regex_pieces('{"type":"object"}') == 9


def test_provider_notes_cover_every_fallback_of_the_edge_project(tmp_path: Path) -> None:
    _, result = edge_payloads(tmp_path)
    assert result.catalog is not None
    notes = providers.provider_notes(result.catalog, result.settings)
    assert set(notes) == set(result.catalog.names)
    assert notes["set_headers"] == (
        "OpenAI: not strict, because `/input_schema/properties/headers` is a free-form map "
        "(additionalProperties is a schema)",
    )
    assert not [n for n in notes["legacy_level"] if n.startswith("Gemini: the enum")]  # numeric enums are kept
    flattened = sorted(n.split(":")[0] for n in notes["pick_source"] if "flattened" in n)
    assert flattened == ["Anthropic", "Gemini", "OpenAI"]


def test_token_estimator_counts_words_digits_and_each_other_character() -> None:
    assert stats.regex_pieces("description") == 2  # 8 + 3 letters
    assert stats.regex_pieces("12345") == 2
    assert stats.regex_pieces("获取新闻") == 4
    assert stats.regex_pieces("a b") == 3
    assert stats.estimate_tokens("a b " * 100) == round(400 * stats.CALIBRATION)


def test_stats_counts_o200k_tokens_offline_and_the_estimate_stays_within_its_stated_error(repo_contracts: Path) -> None:
    import warnings

    with warnings.catch_warnings():  # bpe-openai 0.1.4 reads its vocabulary with a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        encoding = bpe_openai.get_encoding("o200k_base")
        encoding.encode("{}")
    found, _ = load_settings(repo_contracts)
    result = pipeline.generate(found)
    assert result.catalog is not None
    projection = providers.project(result.catalog, result.settings)
    exact = stats.measure(projection)
    assert exact.tokenizer == stats.EXACT
    chat = next(p for p in projection.payloads if p.file == "openai_chat.json")
    counted = next(s for f, _, s in exact.providers if f == "openai_chat.json")
    assert counted.tokens == len(encoding.encode(stats.compact(chat.document)))
    estimated = stats.measure(projection, (stats.estimate_tokens, stats.ESTIMATOR))
    assert "calibrated against o200k_base" in estimated.tokenizer
    for (_, _, real), (_, _, guess) in zip(exact.providers, estimated.providers, strict=True):
        assert abs(guess.tokens - real.tokens) <= 0.08 * real.tokens, (guess, real)  # the issue saw 2,125 for 1,100
