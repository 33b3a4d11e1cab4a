"""The merged (flat) draft 2020-12 metaschema gives exactly the official metaschema's errors."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from jsonschema import Draft202012Validator

from tests.conftest import CORPUS_SAMPLE, CORPUS_SOURCES
from toolgen.validate.schemacheck import flat_metaschema

OFFICIAL = Draft202012Validator(Draft202012Validator.META_SCHEMA)
FLAT = Draft202012Validator(flat_metaschema())


def _schemas(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for key in ("parameters", "inputSchema", "input_schema", "outputSchema", "response"):
            if isinstance(node.get(key), dict):
                yield node[key]
        for value in node.values():
            yield from _schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def corpus_schemas(source: Path, per_file: int = 300) -> list[Any]:
    out: list[Any] = []
    for name in ("bfcl_functions.jsonl", "mcp_tools.jsonl", "mcp_tools_docker_arguments_format.jsonl"):
        with (source / name).open(encoding="utf-8") as lines:
            for line in itertools.islice(lines, per_file):
                out.extend(_schemas(json.loads(line)))
    return out


def errors(validator: Draft202012Validator, schema: Any) -> set[tuple[tuple[str, ...], str]]:
    """The distinct (path, message) pairs: the official metaschema repeats a wrong `type` once per vocabulary."""
    return {(tuple(map(str, e.absolute_path)), e.message) for e in validator.iter_errors(schema)}


HANDMADE: list[Any] = [
    {"type": "object", "properties": {"a": {"type": "strin", "minLength": -1}}, "required": "a"},
    {"type": "object", "$defs": {"x": {"items": {"enum": "no"}}}, "allOf": [{"not": 3}], "if": [], "$id": "#frag"},
    {"type": "object", "patternProperties": {"^a": {"maximum": "5"}}, "dependentRequired": {"a": [1]}},
    {"type": "object", "unevaluatedProperties": {"const": 1, "uniqueItems": "yes"}, "prefixItems": {}},
    {"type": "object", "definitions": {"d": {"format": 5}}, "dependencies": {"a": 3}, "$anchor": "1bad"},
    True,
    False,
    [],
]


@pytest.mark.parametrize("source", CORPUS_SOURCES)
def test_flat_metaschema_agrees_with_the_official_one(source: Path) -> None:
    schemas = HANDMADE + corpus_schemas(source)
    assert len(schemas) > (150 if source == CORPUS_SAMPLE else 500)
    disagreements = [s for s in schemas if errors(FLAT, s) != errors(OFFICIAL, s)]
    assert disagreements == []
    assert sum(1 for s in schemas if errors(OFFICIAL, s)) > 50  # the sample has plenty of invalid schemas


def test_flat_metaschema_is_itself_valid() -> None:
    Draft202012Validator.check_schema(flat_metaschema())
    assert jsonschema.validators.validator_for(flat_metaschema()) is Draft202012Validator
