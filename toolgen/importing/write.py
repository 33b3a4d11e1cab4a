"""Writing what `toolgen import` planned: contract files, `--force`, `--update`, and the report.

Decisions:
- a contract carries the editor-schema line `toolgen new` writes (a taplo `#:schema` comment in
  TOML, a `$schema` key in JSON) pointing at `<output>/contract.schema.json`, relative to the file;
- TOML unless `--format json`; a document TOML cannot hold (null, integers beyond 64 bits) is
  written as JSON, with a note;
- `--force` rewrites an existing contract whole; with an explicit `--format` of the other kind the
  file is replaced by one with the other suffix, and the report says so;
- `--update` rewrites only the keys taken from the source (`SOURCE_KEYS`) that differ, keeping the
  rest of the existing contract (permissions, tags, version, errors: what a person decides) and a
  description a person wrote where the source has none; an unchanged contract is not written;
  the report names the keys that changed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from toolgen.config import Settings
from toolgen.formatschema import SCHEMA_FILE
from toolgen.importing import tomlemit
from toolgen.importing.importer import ImportPlan, Options, Planned, plan_file
from toolgen.importing.update import SOURCE_KEYS, read_contract, updated

Written = tuple[Planned, Path, str]


def render_document(document: Mapping[str, object], fmt: str, schema_path: str | None = None) -> tuple[str, str]:
    """The contract text and its format; TOML falls back to JSON when TOML cannot hold a value."""
    body = {k: v for k, v in document.items() if k != "$schema"}
    if fmt == "toml":
        try:
            text = tomlemit.dumps(body)
        except tomlemit.TomlEmitError:
            pass
        else:
            return (f"#:schema {schema_path}\n" if schema_path else "") + text, "toml"
    head = {"$schema": schema_path} if schema_path else {}
    return json.dumps({**head, **body}, indent=2, ensure_ascii=False) + "\n", "json"


def _schema_path(settings: Settings, path: Path) -> str:
    return Path(os.path.relpath(settings.output_dir / SCHEMA_FILE, path.parent)).as_posix()


def _one(item: Planned, settings: Settings) -> Written:
    """Write one planned contract (not when `--update` finds nothing to change)."""
    notes: list[str] = []
    if item.changed is not None:
        if not item.changed and item.existing == item.path:
            return item, item.path, "unchanged (--update): not written"
        what = f"{', '.join(item.changed)} changed" if item.changed else "nothing changed but the format"
        notes.append(f"updated (--update): {what}; bump `version` if callers notice")
    text, fmt = render_document(item.document, item.fmt, _schema_path(settings, item.path))
    path = item.path if fmt == item.fmt else item.path.with_suffix(f".{fmt}")
    if fmt != item.fmt:
        notes.append("written as JSON: TOML has no null and only 64-bit integers")
    replaced = [p for p in {item.existing, item.path} if p is not None and p != path and p.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    for old_path in sorted(replaced):
        old_path.unlink()
        notes.append(f"{settings.rel(old_path)} was replaced by {settings.rel(path)}")
    return item, path, "; ".join(notes)


def write_plan(plan: ImportPlan, settings: Settings) -> Iterator[Written]:
    """Write every planned contract; yield (planned, path written, note) for each."""
    for item in plan.planned:
        yield _one(item, settings)


def report_lines(written: Sequence[Written], settings: Settings) -> Iterator[str]:
    """The per-tool report: what was written from which record, and every repair."""
    for item, path, note in written:
        yield f"{item.record.label} -> {settings.rel(path)}"
        for repair in item.repairs:
            word = "note" if repair.kind == "note" else "repaired"
            yield f"  {word} {repair.pointer or '/'}: {repair.message}"
        for text in (*item.notes, note):
            if text:
                yield f"  note: {text}"


def import_file(path: Path, shape_name: str, settings: Settings, options: Options) -> tuple[ImportPlan, list[str]]:
    """Read, plan and write one source file; returns the plan and the report lines."""
    plan = plan_file(path, shape_name, settings, options)
    written = list(write_plan(plan, settings))
    return plan, list(report_lines(written, settings))


__all__ = ["SOURCE_KEYS", "import_file", "read_contract", "render_document", "report_lines", "updated", "write_plan"]
