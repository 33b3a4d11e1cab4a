"""`toolgen replay`: recorded calls judged against the contracts on disk.

Records are written in the shape `TraceRecord.to_json()` gives (one JSON object a line); the catalog
then changes in each of the ways that break a caller, and replay must name exactly those calls.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from toolgen.cli import main

SEARCH = """\
name = "search_notes"
version = "{version}"
description = "Search the notes for a text and return the matching note names."
permissions = ["read"]

[input_schema]
type = "object"
additionalProperties = false
required = {required}
properties.query = {{ type = "string", description = "Text to find.", maxLength = 100 }}
properties.mode = {{ type = "string", enum = {modes}, description = "How to match." }}
properties.limit = {{ type = "integer", description = "At most this many results." }}
properties.token = {{ type = "string", description = "Access token.", "x-sensitive" = true, maxLength = {token} }}

[output_schema]
type = "object"
additionalProperties = false
required = ["names"]
properties.names = {{ type = "array", items = {{ type = "string" }}, maxItems = {max_items} }}

[[errors]]
code = "{error}"
description = "The notes index is being rebuilt."
retryable = true
"""

DELETE = """\
name = "delete_note"
version = "1.0.0"
description = "Delete one note by its name from the notes folder."
permissions = ["write"]

[input_schema]
type = "object"
additionalProperties = false
required = ["name"]
properties.name = { type = "string", description = "The note." }
"""


def contracts(
    root: Path,
    *,
    version: str = "1.0.0",
    required: str = '["query"]',
    modes: str = '["exact", "fuzzy"]',
    max_items: int = 10,
    error: str = "REINDEXING",
    delete: bool = True,
    token: int = 64,
) -> None:
    folder = root / "contracts"
    folder.mkdir(exist_ok=True)
    text = SEARCH.format(version=version, required=required, modes=modes, max_items=max_items, error=error, token=token)
    (folder / "search_notes.toml").write_text(text)
    target = folder / "delete_note.toml"
    if delete:
        target.write_text(DELETE)
    elif target.exists():
        target.unlink()


def record(tool: str, input: dict[str, Any], code: str = "OK", output: Any = None, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "tool": tool,
        "version": "1.0.0",
        "digest": None,
        "input": input,
        "permission": "granted",
        "missing_permissions": [],
        "duration_ms": 1.0,
        "code": code,
        "retryable": False,
        "traceback": None,
        **extra,
    }
    if output is not None:
        data["output"] = output
    return data


CALLS = [
    record("search_notes", {"query": "a", "mode": "fuzzy"}, output={"names": ["x"] * 6}),
    record("search_notes", {"query": "b", "mode": "exact", "limit": None}),
    record("search_notes", {"query": "c"}, code="REINDEXING"),
    record("delete_note", {"name": "old"}),
    record("search_notes", {"mode": 3}, code="INVALID_INPUT"),
]


def write_traces(root: Path, records: list[dict[str, Any]], extra_lines: tuple[str, ...] = ()) -> Path:
    path = root / "traces.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + "".join(line + "\n" for line in extra_lines))
    return path


def replay(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["-C", str(root), "replay", str(root / "traces.jsonl"), *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


def findings(root: Path) -> list[tuple[str, int]]:
    code, out = replay(root, "--format", "json")
    assert code in (0, 1)
    return sorted((f["code"], f["line"]) for f in json.loads(out)["findings"])


def test_the_unchanged_catalog_passes_every_recorded_call(tmp_path: Path) -> None:
    contracts(tmp_path)
    write_traces(tmp_path, CALLS)
    code, out = replay(tmp_path)
    assert code == 0, out
    assert "5 recorded calls: 0 would now be refused" in out
    assert "search_notes: 4 calls (1.0.0), 0 refused" in out


def test_compatible_changes_pass(tmp_path: Path) -> None:
    contracts(tmp_path, version="1.1.0", modes='["exact", "fuzzy", "regex"]', max_items=20)
    write_traces(tmp_path, CALLS)
    assert replay(tmp_path)[0] == 0


def test_a_new_required_property_refuses_the_calls_without_it(tmp_path: Path) -> None:
    contracts(tmp_path, version="2.0.0", required='["query", "mode"]')
    write_traces(tmp_path, CALLS)
    # line 2 has mode; line 3 (no mode) recorded an error code but the input was accepted then
    assert findings(tmp_path) == [("TG531", 3)]
    code, out = replay(tmp_path)
    assert code == 1
    assert "recorded at version 1.0.0, now 2.0.0" in out and "`required`" in out


def test_a_narrowed_enum(tmp_path: Path) -> None:
    contracts(tmp_path, version="2.0.0", modes='["exact"]')
    write_traces(tmp_path, CALLS)
    assert findings(tmp_path) == [("TG531", 1)]


def test_a_removed_tool(tmp_path: Path) -> None:
    contracts(tmp_path, delete=False)
    write_traces(tmp_path, CALLS)
    assert findings(tmp_path) == [("TG530", 4)]


def test_a_tightened_output_and_an_undeclared_error(tmp_path: Path) -> None:
    contracts(tmp_path, version="2.0.0", max_items=5, error="REBUILDING")
    write_traces(tmp_path, CALLS)
    assert findings(tmp_path) == [("TG532", 1), ("TG533", 3)]


def test_a_redacted_value_is_unknown_never_refused(tmp_path: Path) -> None:
    contracts(tmp_path, token=8)
    calls = [
        record("search_notes", {"query": "x", "token": "[REDACTED]"}),
        record("search_notes", {"query": "q" * 200 + "... (500 characters)"}),
    ]
    write_traces(tmp_path, calls)
    code, out = replay(tmp_path, "--format", "json")
    document = json.loads(out)
    assert code == 0
    # maxLength 8 fails on the marker "[REDACTED]", maxLength 100 on the shortened query: both unknown
    assert document["uncertain_checks"] == 2
    assert sorted((f["code"], f["pointer"]) for f in document["findings"]) == [("TG534", "/query"), ("TG534", "/token")]
    assert document["tools"]["search_notes"]["uncertain"] == 2


def test_bad_lines_are_named_and_the_rest_is_judged(tmp_path: Path) -> None:
    contracts(tmp_path, delete=False)
    write_traces(
        tmp_path,
        [record("delete_note", {"name": "x"})],
        ('{"tool": "search_notes"', "[1, 2]", json.dumps(record("search_notes", {"query": "a"}, package="other"))),
    )
    assert findings(tmp_path) == [("TG530", 1), ("TG539", 2), ("TG539", 3), ("TG539", 4)]


def test_markdown_report_has_a_row_per_tool(tmp_path: Path) -> None:
    contracts(tmp_path, delete=False)
    write_traces(tmp_path, CALLS)
    code, out = replay(tmp_path, "--format", "markdown")
    assert code == 1
    assert "| `delete_note` | 1 | 1.0.0 | 1 | 0 |" in out
    assert "| `search_notes` | 4 | 1.0.0 | 0 | 0 |" in out


def test_formats_are_judged_as_the_registry_judges_them(tmp_path: Path) -> None:
    contracts(tmp_path)
    text = (tmp_path / "contracts" / "search_notes.toml").read_text()
    text = text.replace('description = "Text to find.", maxLength = 100', 'description = "A day.", format = "date"')
    (tmp_path / "contracts" / "search_notes.toml").write_text(text)
    write_traces(tmp_path, [record("search_notes", {"query": "2026-12-01"}), record("search_notes", {"query": "soon"})])
    assert findings(tmp_path) == [("TG531", 2)]


def test_a_value_the_contract_now_marks_sensitive_is_never_printed(tmp_path: Path) -> None:
    """Recorded before `token` was marked `x-sensitive`, the raw value is in the trace; replay masks it."""
    contracts(tmp_path, token=8)
    calls = [
        record("search_notes", {"query": "a", "token": ["zqxSecretValue1"]}),
        record("search_notes", {"query": "b", "token": "zqxSecretValue2"}),
    ]
    write_traces(tmp_path, calls)
    for fmt in ("text", "json", "markdown"):
        code, out = replay(tmp_path, "--format", fmt)
        assert code == 1
        assert "zqxSecret" not in out, out
    document = json.loads(replay(tmp_path, "--format", "json")[1])
    messages = {f["pointer"] + " " + f["message"].split(": ", 1)[1] for f in document["findings"]}
    assert messages == {
        "/token the recorded input is refused now at /token by `type`: "
        "the value fails `type` (it is or holds sensitive data, not shown)",
        "/token the recorded input is refused now at /token by `maxLength`: "
        "the value fails `maxLength` (it is or holds sensitive data, not shown)",
    }


def test_calls_refused_when_recorded_are_skipped_counted_and_said(tmp_path: Path) -> None:
    """A call recorded as UNKNOWN_TOOL (the tool never existed) is judged as a recorded INVALID_INPUT is."""
    contracts(tmp_path, delete=False)
    calls = [
        record("translate_word", {"word": "x"}, code="UNKNOWN_TOOL"),
        record("search_notes", {"mode": 3}, code="INVALID_INPUT"),
        record("delete_note", {"name": "x"}, code="INVALID_INPUT"),
        record("search_notes", {"query": "a"}),
    ]
    write_traces(tmp_path, calls)
    code, out = replay(tmp_path)
    assert code == 0, out
    assert "no longer exists" not in out
    assert "4 recorded calls: 0 would now be refused; 3 skipped (refused when recorded: INVALID_INPUT or" in out
    assert "translate_word: 1 call (1.0.0), 0 refused, 0 uncertain, 1 skipped" in out
    document = json.loads(replay(tmp_path, "--format", "json")[1])
    assert document["findings"] == [] and document["skipped"] == 3
    assert document["tools"]["search_notes"]["skipped"] == 1
    markdown = replay(tmp_path, "--format", "markdown")[1]
    assert "| tool | calls | versions seen | refused | uncertain | skipped |" in markdown
    assert "| `translate_word` | 1 | 1.0.0 | 0 | 0 | 1 |" in markdown
