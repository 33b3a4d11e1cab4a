"""The output synthesizer that ships in the generated package (`_mock_synth.py`), tested as rendered.

It must give, for every output schema in the shared corpora's mcp_tools.jsonl (and every input schema,
for breadth; by default those of its licence-clean sample), a value that validates with formats checked,
and the same value on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import date, datetime, time
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlparse

import jsonschema
import pytest

from tests.conftest import CORPORA, CORPUS_SAMPLE, CORPUS_SOURCES
from toolgen.runtime import _mock_synth


@pytest.fixture(scope="module")
def synth() -> ModuleType:
    """The synthesizer, from the runtime's source (copied as it is into every package)."""
    return _mock_synth


def _datetime(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return "T" in value.upper() and datetime.fromisoformat(value.replace("Z", "+00:00")) is not None


def _date(value: object) -> bool:
    return not isinstance(value, str) or date.fromisoformat(value) is not None


def _time(value: object) -> bool:
    return not isinstance(value, str) or time.fromisoformat(value.replace("Z", "+00:00")) is not None


def _uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parsed = urlparse(value)
    return bool(parsed.scheme and parsed.netloc) and " " not in value


STRICT_FORMATS = jsonschema.FormatChecker()
"""Every format jsonschema can check here, plus stdlib checks for the ones it skips without extras."""
for _name, _check in (("date-time", _datetime), ("date", _date), ("time", _time), ("uri", _uri), ("iri", _uri)):
    STRICT_FORMATS.checks(_name, raises=ValueError)(_check)


def assert_valid(value: Any, schema: dict[str, Any]) -> None:
    """`value` validates against `schema` with formats checked."""
    validator = jsonschema.Draft202012Validator(schema, format_checker=STRICT_FORMATS)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]


def corpus_schemas(key: str, source: Path = CORPORA) -> list[tuple[str, dict[str, Any]]]:
    """(server/name, schema) for every record of the MCP corpus (or its sample) that has `key`."""
    found = []
    for line in (source / "mcp_tools.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if isinstance(record.get(key), dict):
            found.append((f"{record['server']}/{record['name']}", record[key]))
    return found


@pytest.mark.corpus  # the licence-clean records have no output schemas
def test_every_corpus_output_schema_gets_a_valid_output(synth: ModuleType) -> None:
    schemas = corpus_schemas("outputSchema")
    assert len(schemas) >= 100
    for name, schema in schemas:
        value = synth.synthesize(schema)
        assert isinstance(value, dict), name
        assert_valid(value, schema)


@pytest.mark.parametrize("source", CORPUS_SOURCES)
def test_every_corpus_input_schema_gets_a_valid_value_too(synth: ModuleType, source: Path) -> None:
    schemas = corpus_schemas("inputSchema", source)
    assert len(schemas) >= (50 if source == CORPUS_SAMPLE else 800)
    for _, schema in schemas:
        assert_valid(synth.synthesize(schema), schema)


@pytest.mark.corpus
def test_same_schema_same_output_within_a_run(synth: ModuleType) -> None:
    for _, schema in corpus_schemas("outputSchema"):
        assert json.dumps(synth.synthesize(schema)) == json.dumps(synth.synthesize(json.loads(json.dumps(schema))))


_DIGEST_SCRIPT = """
import hashlib, importlib, json, sys
module = importlib.import_module("toolgen.runtime._mock_synth")
digest = hashlib.sha256()
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    for key in ("outputSchema", "inputSchema"):
        if isinstance(record.get(key), dict):
            digest.update(json.dumps(module.synthesize(record[key]), sort_keys=False).encode())
print(digest.hexdigest())
"""


@pytest.mark.parametrize("source", CORPUS_SOURCES)
def test_same_output_in_every_process_whatever_the_hash_seed(synth: ModuleType, source: Path) -> None:
    local = hashlib.sha256()
    for line in (source / "mcp_tools.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for key in ("outputSchema", "inputSchema"):
            if isinstance(record.get(key), dict):
                local.update(json.dumps(synth.synthesize(record[key])).encode())
    digests = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT, str(source / "mcp_tools.jsonl")],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        digests.add(done.stdout.strip())
    assert digests == {local.hexdigest()}


CASES: list[dict[str, Any]] = [
    {"type": "string", "pattern": "^[A-Z]{3}-\\d{2,4}$"},
    {"type": "string", "pattern": "^(foo|bar)+baz$", "minLength": 10},
    {"type": "string", "format": "email"},
    {"type": "string", "format": "uuid"},
    {"type": "string", "format": "ipv6"},
    {"type": "string", "minLength": 40, "maxLength": 41},
    {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 7},
    {"type": "number", "minimum": 0.25, "maximum": 0.3},
    {"type": "integer", "minimum": 7, "multipleOf": 5},
    {"type": "number", "multipleOf": 0.1, "minimum": 0.15},
    {"type": ["null", "integer"], "minimum": 3},
    {"const": {"a": [1, 2]}},
    {"enum": [None, "x"]},
    {"type": "array", "minItems": 3, "uniqueItems": True, "items": {"type": "integer", "maximum": 2}},
    {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": False, "minItems": 2},
    {"type": "array", "contains": {"type": "integer", "minimum": 10}, "items": {"type": "integer"}},
    {"type": "object", "minProperties": 2, "additionalProperties": {"type": "boolean"}},
    {"type": "object", "required": ["x"], "patternProperties": {"^x$": {"type": "integer", "minimum": 3}}},
    {"allOf": [{"type": "object", "required": ["a"]}, {"properties": {"a": {"type": "string", "format": "date"}}}]},
    {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
    {"anyOf": [{"type": "integer", "minimum": 100}, {"type": "null"}]},
    {
        "$defs": {
            "node": {
                "type": "object",
                "required": ["v"],
                "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/node"}},
            }
        },
        "$ref": "#/$defs/node",
    },
    {"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}, "required": ["when"]},
    {"not": {"type": "string"}},
    {},
]


@pytest.mark.parametrize("schema", CASES, ids=[json.dumps(c)[:60] for c in CASES])
def test_keyword_cases_validate(synth: ModuleType, schema: dict[str, Any]) -> None:
    assert_valid(synth.synthesize(schema), schema)


def test_an_unsatisfiable_schema_raises_a_clear_error(synth: ModuleType) -> None:
    with pytest.raises(synth.SynthesisError):
        synth.synthesize({"type": "string", "minLength": 5, "maxLength": 2})
    with pytest.raises(synth.SynthesisError):
        synth.synthesize({"allOf": [{"type": "string"}, {"type": "integer"}]})


def test_with_defaults_fills_missing_properties_at_any_depth(synth: ModuleType) -> None:
    schema = {
        "type": "object",
        "$defs": {"opts": {"type": "object", "properties": {"deep": {"type": "integer", "default": 3}}}},
        "properties": {
            "mode": {"type": "string", "default": "fast"},
            "opts": {"$ref": "#/$defs/opts", "default": {}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"default": 1}}}},
        },
    }
    assert synth.with_defaults({"items": [{}, {"n": 2}]}, schema) == {
        "items": [{"n": 1}, {"n": 2}],
        "mode": "fast",
        "opts": {"deep": 3},
    }
    given = {"mode": "slow"}
    synth.with_defaults(given, schema)
    assert given == {"mode": "slow"}
