"""The independent provider checkers (tests/providers/checkers.py) find nothing in what toolgen writes.

Over: the declarations built from the repository's own contracts, the golden provider files, a hostile
catalog holding every keyword issue 14 names, and corpus samples (the repository's copy by default;
the shared corpora in the `corpus` tier). The checkers are first shown to catch each rule they check.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema.exceptions import SchemaError

from tests.conftest import GOLDEN, REPO
from tests.providers import checkers
from tests.providers_support import catalog_of, check_schema, make_contract, settings
from toolgen.catalog import Contract
from toolgen.config import load_settings
from toolgen.pipeline import stages as pipeline
from toolgen.render import providers

OK = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}


def _chat(parameters: dict[str, Any], strict: bool = True) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": "t", "description": "d", "parameters": parameters, "strict": strict},
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "object"},  # object schema missing properties
        {**OK, "properties": {"a": {"type": "string", "pattern": "^(?!x)"}}},
        {**OK, "properties": {"a": {"$ref": "#/properties/b"}, "b": {"type": "string"}}, "required": ["a", "b"]},
        {**OK, "properties": {"a": {"type": "string", "format": "uri"}}},
        {**OK, "properties": {"a": {"allOf": [{"type": "string"}]}}},
        {**OK, "required": []},
        {**OK, "additionalProperties": True},
        {"anyOf": [OK], **OK},
    ],
)
def test_openai_checker_catches_each_rule(bad: dict[str, Any]) -> None:
    assert checkers.openai_chat(_chat(OK)) == []
    assert checkers.openai_chat(_chat(bad)), bad


def test_the_other_checkers_catch_their_rules() -> None:
    tool = {"name": "t", "description": "d", "input_schema": OK, "strict": True}
    assert checkers.anthropic(tool) == []
    assert checkers.anthropic({**tool, "input_schema": {**OK, "properties": {"a": {"type": "integer", "maximum": 3}}}})
    assert checkers.anthropic({**tool, "input_schema": {**OK, "anyOf": [OK]}})
    assert checkers.anthropic({**tool, "bogus": 1})
    declaration = {"name": "t", "parametersJsonSchema": OK}
    assert checkers.gemini_declaration(declaration) == []
    assert checkers.gemini_declaration({**declaration, "parametersJsonSchema": {**OK, "allOf": [OK]}})
    enum = {**OK, "properties": {"a": {"type": "boolean", "enum": [True]}}}
    assert checkers.gemini_declaration({**declaration, "parametersJsonSchema": enum})
    beside = {**OK, "properties": {"a": {"$ref": "#/$defs/a", "description": "x"}}, "$defs": {"a": {"type": "string"}}}
    assert checkers.gemini_declaration({**declaration, "parametersJsonSchema": beside})
    hints = dict.fromkeys(checkers.MCP_HINTS, False)
    mcp = {"name": "t", "title": "T", "description": "d", "inputSchema": OK, "annotations": hints}
    assert checkers.mcp_tool(mcp) == []
    assert checkers.mcp_tool({**mcp, "inputSchema": {**OK, "x-sensitive": True}})
    header = {**OK, "properties": {"a": {"type": "number", "x-mcp-header": "A"}}}
    assert checkers.mcp_tool({**mcp, "inputSchema": header})


def _provider_files(artifacts: Any) -> dict[str, Any]:
    return {a.path.removeprefix("providers/"): json.loads(a.text) for a in artifacts if a.path.startswith("providers/")}


@pytest.mark.parametrize("anthropic_strict", [False, True])
def test_repository_contracts_have_no_findings(repo_contracts: Path, anthropic_strict: bool) -> None:
    config = 'targets = ["providers"]\n' + ("anthropic_strict = true\n" if anthropic_strict else "")
    (repo_contracts / "toolgen.toml").write_text(config, encoding="utf-8")
    found, problems = load_settings(repo_contracts)
    assert problems == []
    result = pipeline.generate(found)
    assert result.ok, [str(d) for d in result.diagnostics if d.is_error]
    files = _provider_files(result.artifacts)
    assert len(files["mcp.json"]["tools"]) >= 10
    assert checkers.all_files(files) == []


def test_the_repository_generated_provider_files_have_no_findings() -> None:
    folder = REPO / "generated" / "providers"
    files = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")}
    assert sorted(files) == sorted(providers.FILES)
    assert checkers.all_files(files) == []


@pytest.mark.parametrize("case", ["edge_project", "edge_project_anthropic_strict"])
def test_golden_provider_files_have_no_findings(case: str) -> None:
    folder = GOLDEN / "providers" / case
    files = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")}
    assert files
    if len(files) == len(providers.FILES):
        assert checkers.all_files(files) == []
    else:
        assert checkers.anthropic_file(files["anthropic.json"]) == []


HOSTILE_PROPERTIES: dict[str, Any] = {
    "word": {"type": "string", "pattern": "^(?!the$)[a-z]+$", "minLength": 2, "maxLength": 40, "default": "a"},
    "from": {"type": "string", "format": "uri"},
    "to": {"$ref": "#/properties/from", "description": "Where it ends."},
    "level": {"type": "integer", "enum": [0, 1, 2], "multipleOf": 1, "exclusiveMinimum": -1},
    "flag": {"type": "boolean", "const": True},
    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minItems": 2, "maxItems": 9},
    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
    "span": {
        "allOf": [
            {"type": "object", "properties": {"start": {"type": "integer"}}, "required": ["start"]},
            {"type": "object", "properties": {"end": {"type": "integer"}}, "required": ["end"]},
        ]
    },
    "labels": {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "string"}},
               "propertyNames": {"minLength": 1}},
    "mode": {"type": "string", "not": {"const": "off"}},
    "when": {"type": "object", "properties": {"kind": {"type": "string"}}, "if": {"required": ["kind"]},
             "then": {"properties": {"kind": {"minLength": 1}}}, "else": {"properties": {}}},
    "tree": {"$ref": "#/$defs/node"},
    "empty": {"type": "object"},
    "header": {"type": "string", "x-mcp-header": "Word"},
    "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "range": {"type": "object", "properties": {"lo": {"type": "number"}, "hi": {"type": "number"}},
              "dependentRequired": {"hi": ["lo"]}, "minProperties": 1},
}  # fmt: skip
DEFS = {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}
HOSTILE = {
    "type": "object",
    "required": ["word", "to"],
    "properties": HOSTILE_PROPERTIES,
    "anyOf": [{"required": ["level"]}, {"required": ["flag"]}],
    "$defs": {
        "node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}
    },
}
"""Every keyword issue 14 names, and the shapes it reports (a ref into properties, lookaround, no properties)."""


def _hostile() -> list[Contract]:
    return [
        make_contract("hostile", HOSTILE, examples=[{"input": {"word": "ab", "to": "https://x"}}]),
        make_contract("no_arguments", {"type": "object"}),
        make_contract("chart", {"type": "object", "required": ["to"], "properties": HOSTILE_PROPERTIES, "$defs": DEFS}),
    ]


WORDS = {
    "pattern": "the regular expression",
    "minLength": r"at least \d+ characters?",
    "multipleOf": "a multiple of",
    "uniqueItems": "no item repeated",
    "not": r"not \(",
    "patternProperties": "whose name matches",
    "if": r"if \(",
}
"""How a keyword moved into a description reads in words (`render.providers.sentences`)."""


@pytest.mark.parametrize("anthropic_strict", [False, True])
def test_a_hostile_catalog_has_no_findings_and_loses_no_constraint_silently(
    tmp_path: Path, anthropic_strict: bool
) -> None:
    catalog = catalog_of(*_hostile())
    projection = providers.project(catalog, settings(tmp_path, anthropic_strict=anthropic_strict))
    assert [d for d in projection.diagnostics if d.is_error] == []
    files = {p.file: p.document for p in projection.payloads}
    assert checkers.all_files(files) == []
    tools = {p.file: p.tools for p in projection.payloads}
    for file in ("openai_chat.json", "anthropic.json", "gemini.json"):
        declared = json.dumps(tools[file]["hostile"])
        for keyword in ("pattern", "minLength", "multipleOf", "uniqueItems", "not", "patternProperties", "if"):
            said = re.search(rf'"{keyword}"|{keyword}: |{WORDS[keyword]}', declared, re.IGNORECASE)
            warned = any(keyword in d.message or keyword in d.pointer for d in projection.diagnostics)
            assert said or warned, (file, keyword)


def _corpus_contracts(folder: Path, every: int) -> list[Contract]:
    contracts: list[Contract] = []
    seen: set[str] = set()
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines()[::every]:
            record = json.loads(line)
            schema = record.get("inputSchema") or record.get("parameters")
            name = re.sub(r"[^a-z0-9_]", "_", str(record.get("name", "")).lower()).strip("_")[:64]
            if not isinstance(schema, dict) or schema.get("type") != "object" or not name or name in seen:
                continue
            try:
                check_schema(schema)
            except SchemaError:
                continue
            seen.add(name)
            description = (record.get("description") or "").strip() or f"The {name} tool."
            contracts.append(make_contract(name, schema, description=description[:1000]))
    return contracts


def _sweep(tmp_path: Path, contracts: list[Contract]) -> None:
    for start in range(0, len(contracts), 100):
        catalog = catalog_of(*contracts[start : start + 100])
        projection = providers.project(catalog, settings(tmp_path, anthropic_strict=True))
        files = {p.file: p.document for p in projection.payloads}
        assert checkers.all_files(files) == []


def test_the_repository_corpus_sample_has_no_findings(tmp_path: Path) -> None:
    contracts = _corpus_contracts(REPO / "tests" / "data" / "corpus_sample", 1)
    assert len(contracts) > 100
    _sweep(tmp_path, contracts)


@pytest.mark.corpus
def test_a_sample_of_the_shared_corpora_has_no_findings(tmp_path: Path) -> None:
    from tests.conftest import CORPORA

    contracts = _corpus_contracts(CORPORA, 5) + _corpus_contracts(CORPORA / "other", 5)
    assert len(contracts) > 300
    _sweep(tmp_path, contracts)


def test_a_provider_file_can_leave_tools_out(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(REPO / "tests" / "data" / "providers" / "edge_project", root)
    config = 'targets = ["providers"]\n[providers.exclude]\ngemini = ["read_text"]\n'
    (root / "toolgen.toml").write_text(config, encoding="utf-8")
    found, problems = load_settings(root)
    assert problems == []
    result = pipeline.generate(found)
    files = _provider_files(result.artifacts)
    names = [d["name"] for d in files["gemini.json"][0]["functionDeclarations"]]
    assert "read_text" not in names and len(names) == 4
    assert "read_text" in [t["name"] for t in files["mcp.json"]["tools"]]
    assert result.catalog is not None
    notes = providers.provider_notes(result.catalog, result.settings)["read_text"]
    assert "Gemini: left out of gemini.json (providers exclude)" in notes
