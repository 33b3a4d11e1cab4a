"""`toolgen diff` on ~4,400 real tool schemas (the shared corpora; their licence-clean sample by default): no
crash, no false change.

For every input schema in the MCP, Docker-registry and BFCL corpora: comparing it with itself and
with a copy whose properties moved into `$defs` finds nothing; comparing it with the next schema in
the file finishes and yields only known rules with pointers under the compared schema.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORPUS_SAMPLE, CORPUS_SOURCES, corpus_file
from toolgen.compat import DECISIONS, Direction, diff_schema
from toolgen.compat.schema import SchemaDiff

FILES = ("mcp_tools.jsonl", "mcp_tools_docker_arguments_format.jsonl", "bfcl_functions.jsonl")


def _from_arguments(arguments: Any) -> dict[str, Any] | None:
    """The Docker registry's `[{name, type, desc}]` argument lists, as an object schema."""
    if not isinstance(arguments, list):
        return None
    props = {a["name"]: {"type": a.get("type", "string"), "description": a.get("desc", "")} for a in arguments}
    return {"type": "object", "properties": props}


def _schemas(source: Path, name: str) -> list[dict[str, Any]]:
    out = []
    for line in corpus_file(source, name).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        schema = record.get("inputSchema") or record.get("parameters") or _from_arguments(record.get("arguments"))
        if isinstance(schema, dict):
            out.append(schema)
    return out


def _to_defs(schema: dict[str, Any]) -> dict[str, Any]:
    moved = copy.deepcopy(schema)
    props = moved.get("properties")
    if isinstance(props, dict):
        defs = moved.setdefault("$defs", {})
        if isinstance(defs, dict):
            for name in list(props):
                defs[f"moved_{name}"] = props[name]
                props[name] = {"$ref": f"#/$defs/moved_{name.replace('~', '~0').replace('/', '~1')}"}
    return moved


@pytest.mark.parametrize("source", CORPUS_SOURCES)
@pytest.mark.parametrize("name", FILES)
def test_real_schemas(source: Path, name: str) -> None:
    schemas = _schemas(source, name)
    assert len(schemas) > (20 if source == CORPUS_SAMPLE else 300)
    for schema in schemas:
        walk = SchemaDiff(Direction.INPUT, schema, copy.deepcopy(schema), "/i", "/i")  # no shortcut: a full walk
        assert walk.run() == []
        assert diff_schema(Direction.OUTPUT, schema, _to_defs(schema), "/o", "/o") == [], schema
    for old, new in itertools.pairwise(schemas):
        for change in diff_schema(Direction.INPUT, old, new, "/input_schema", "/input_schema"):
            assert change.rule in DECISIONS
            assert (change.base_pointer or "").startswith("/input_schema")
            assert (change.head_pointer or "").startswith("/input_schema")
