"""Golden files for `toolgen import --repair`: the contracts it writes and its per-tool report.

Reviewed as diffs; regenerate with `.venv/bin/pytest --update-golden`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import GOLDEN, assert_golden
from toolgen.cli import main

SOURCE = [
    {
        "name": "Files.searchText",
        "description": 'Search files for a "pattern".\n\nReturns matches with\tline numbers; 日本語 too.',
        "parameters": {
            "type": "dict",
            "properties": {
                "pattern": {"type": "String", "description": "Regular expression."},
                "max_results": {"type": "int", "default": "10", "description": "Cap.", "optional": True},
                "paths": {"type": "tuple", "items": {"type": "str"}, "description": "Where to look."},
                "mode": {"type": "string", "enum": ["fast", "full"], "default": "fast"},
                "filter": {
                    "anyOf": [{"type": "float"}, {"type": "dict", "properties": {"glob": {"type": "any"}}}],
                    "description": "A score or a glob filter.",
                },
            },
            "required": ["pattern", "max_results", "ghost"],
        },
    },
    {
        "name": "fetch-url",
        "inputSchema": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"url": {"type": "string", "format": "uri"}, "raw": {"type": "boolean", "default": "no"}},
            "required": ["url"],
            "additionalProperties": False,
        },
        "annotations": {"title": "Fetch a URL", "readOnlyHint": True, "idempotentHint": True},
    },
    {
        "name": "files_search_text",
        "description": "A second tool whose name collides with the first one's repaired name.",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
    },
    {
        "name": "Docker Search",
        "description": "Search with Docker's registry format of arguments.",
        "arguments": [{"name": "q", "type": "string", "desc": "Query"}, {"name": "n", "type": "any", "desc": "N"}],
    },
]
FILES = {"openai": [SOURCE[0], SOURCE[2]], "mcp": [SOURCE[1], SOURCE[3]]}


def test_import_golden(tmp_path: Path, update_golden: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "contracts").mkdir()
    report: list[str] = []
    for shape, records in FILES.items():
        source = tmp_path / f"{shape}.jsonl"
        source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        result = CliRunner().invoke(main, ["import", source.name, "--from", shape, "--repair"])
        assert result.exit_code == 0, result.output
        report.append(result.stdout)
    assert_golden(GOLDEN / "import" / "report.txt", "".join(report), update_golden)
    written = sorted((tmp_path / "contracts").iterdir())
    assert [p.name for p in written] == [
        "docker_search.toml",
        "fetch_url.toml",
        "files_search_text.toml",
        "files_search_text_2.toml",
    ]
    for path in written:
        assert_golden(GOLDEN / "import" / path.name, path.read_text(encoding="utf-8"), update_golden)
