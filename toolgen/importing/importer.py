"""Import: tool declarations in a provider's format become one contract per tool.

Reads a JSON file (an array of declarations, OpenAI chat or responses shape, an MCP `tools/list`
result, a Gemini `functionDeclarations` list) or JSON Lines of any of these, and plans one contract
per tool; `write_plan` writes them (TOML by default, JSON on request or when TOML cannot hold a value
such as null). Decisions:
- permissions cannot be inferred: they come from `--permissions`, else are proposed from MCP
  annotations (`readOnlyHint` → read, `openWorldHint` → network, not read-only or destructive →
  write, the spec's defaults for the hints not given) or are the most cautious set (all four); both
  get the tag `permissions:unconfirmed`, which validation reports as TG212 until a human removes it;
- a missing description becomes a placeholder that TG201 flags; a long one is kept whole (only the
  OpenAI projection shortens it, TG304); the version starts at 1.0.0;
- a repair that changes what the tool accepts tags the contract `schema:unconfirmed` (TG450);
- a declaration without an input schema takes no arguments (a note says so); one whose schema sits
  where its shape does not read is refused (TG451), never imported with an empty schema;
- MCP `annotations.idempotentHint` becomes `idempotent`, `title` the title (none is made up); the
  annotations as given, `execution`, `icons`, `_meta` and a name that is not snake_case (`mcp_name`)
  go into `providers` (`importing.mcpkeep`), so the tool is declared and served as it was;
  Anthropic `input_examples` become examples; Gemini and MCP output schemas become `output_schema`;
- a problem never raises: it is a diagnostic naming the source file, JSONL line and record pointer.
Writing (TOML or JSON, `--force`) is `importing.write`; what `--update` keeps is `importing.update`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.catalog import PERMISSIONS, normalize_text
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.importing.mcpkeep import WIRE_NAME, mcp_providers, whitespace_note
from toolgen.importing.repair import NOTE, Repair, repair_schema, snake_case
from toolgen.importing.shapes import SHAPES, Parts, Shape, SourceRecord, find_records, lost_schema
from toolgen.importing.update import PLACEHOLDER, read_contract, updated
from toolgen.positions import join
from toolgen.validate.lint import CHANGED_TAG, MAX_DESCRIPTION, UNCONFIRMED_TAG

"""The description of a tool whose source has none: short enough that TG201 flags it for review."""

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Options:
    """What `toolgen import` was asked to do."""

    source: str
    repair: bool = False
    fmt: str | None = None
    """`toml` or `json`; None: TOML for a new contract, the existing file's format for one rewritten."""
    force: bool = False
    permissions: tuple[str, ...] | None = None
    update: bool = False


@dataclass(frozen=True, slots=True)
class Planned:
    """One tool ready to write: where it came from, its contract document and every repair made."""

    record: SourceRecord
    original_name: str
    document: dict[str, object]
    path: Path
    fmt: str
    repairs: tuple[Repair, ...]
    notes: tuple[str, ...] = ()
    existing: Path | None = None
    """The contract file of the same name that `--force` or `--update` rewrites, if any."""
    changed: tuple[str, ...] | None = None
    """With `--update` over an existing contract: the source keys that changed (the document is merged)."""


@dataclass
class ImportPlan:
    """Everything an import would do: tools to write and diagnostics for the records it rejects."""

    planned: list[Planned] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    records: int = 0


def _diag(record: SourceRecord | None, file: str, code: str, message: str, pointer: str = "") -> Diagnostic:
    line = record.line if record else None
    where = (record.pointer if record else "") + pointer
    return Diagnostic(code, Severity.ERROR, message, file, where, line)


def existing_contracts(settings: Settings) -> dict[str, Path]:
    """Contract files already in the contracts folder, by name (file stem)."""
    if not settings.contracts_dir.is_dir():
        return {}
    found: dict[str, Path] = {}
    for path in sorted(settings.contracts_dir.rglob("*")):
        if path.suffix in (".toml", ".json") and path.is_file() and not path.name.startswith("."):
            found.setdefault(path.stem, path)
    return found


def _name(raw: object, notes: list[Repair], served: bool = False) -> str | None:
    if not isinstance(raw, str) or not raw.strip():
        return None
    if _NAME_RE.match(raw) and len(raw) <= 64:
        return raw
    fixed = snake_case(raw) or "tool"
    if served and WIRE_NAME.match(raw):  # MCP: the contract keeps the name it is served under
        message = f"name {raw!r} is not snake_case: the contract is {fixed!r}, served over MCP as {raw!r} (mcp_name)"
        notes.append(Repair("/name", message, NOTE))
        return fixed
    notes.append(Repair("/name", f"name {raw!r} is not snake_case (at most 64 characters); now {fixed!r}"))
    return fixed


def _unique(name: str, taken: set[str]) -> str:
    index = 2
    while True:
        suffix = f"_{index}"
        candidate = name[: 64 - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        index += 1


def _proposed(hints: Mapping[str, bool]) -> list[str]:
    """Permissions proposed from MCP annotations; a hint not given takes the MCP spec's default."""
    read_only = hints.get("readOnlyHint", False)
    found = {"read"}
    if not read_only:  # destructiveHint means something only when the tool is not read-only
        found.add("write")
    if hints.get("openWorldHint", True):
        found.add("network")
    return sorted(found)


def _permissions(options: Options, parts: Parts, notes: list[str]) -> dict[str, object]:
    if options.permissions is not None:
        return {"permissions": sorted(set(options.permissions))}
    if parts.hints:
        proposed = _proposed(dict(parts.hints))
        given = ", ".join(f"{k}={str(v).lower()}" for k, v in parts.hints)
        notes.append(
            f"permissions proposed from the MCP annotations ({given}; hints not given take the MCP defaults): "
            f"{', '.join(proposed)} (TG212)"
        )
        return {"permissions": proposed, "tags": [UNCONFIRMED_TAG]}
    return {"permissions": list(PERMISSIONS), "tags": [UNCONFIRMED_TAG]}


def _description(raw: object, notes: list[str]) -> str:
    if not isinstance(raw, str) or not raw.strip():
        notes.append("the source has no description: a placeholder was written (TG201); describe the tool")
        return PLACEHOLDER
    text = normalize_text(raw)
    if len(text) > MAX_DESCRIPTION:
        notes.append(
            f"the description has {len(text)} characters, kept whole; the OpenAI files carry it shortened to "
            f"{MAX_DESCRIPTION} (TG304): move details into property descriptions"
        )
    return text


def _input(parts: Parts, decl: dict[str, object], repairs: list[Repair], notes: list[str]) -> dict[str, object]:
    if parts.problem:
        raise _Reject("TG451", "", parts.problem)
    if parts.input_schema is None:
        lost = lost_schema(decl, parts.input_pointer.lstrip("/"))
        if lost:
            raise _Reject("TG451", "", f"{lost}, which this format does not read; import it with the right --from")
        notes.append("the source declares no input schema: the tool takes no arguments")
    schema = _schema(parts.input_schema, parts.input_pointer, repairs, optional=False)
    assert schema is not None
    return schema


def _schema(raw: object, where: str, repairs: list[Repair], optional: bool) -> dict[str, object] | None:
    if raw is None:
        return None if optional else {"type": "object", "properties": {}}
    if not isinstance(raw, dict):
        if optional:
            repairs.append(Repair.changed(where, "the output schema is not an object; left out"))
            return None
        raise _Reject("TG114", where, "the input schema is not an object")
    schema = repair_schema(json.loads(json.dumps(raw)), where, repairs)
    if schema.get("type") != "object":
        if optional:
            message = f"the output schema's root type is {schema.get('type')!r}, not object; left out"
            repairs.append(Repair.changed(where, message))
            return None
        raise _Reject(
            "TG115", join(where, "type"), f"the input schema's root type is {schema.get('type')!r}, not object"
        )
    return schema


class _Reject(Exception):
    def __init__(self, code: str, pointer: str, message: str) -> None:
        super().__init__(message)
        self.code, self.pointer, self.message = code, pointer, message


def _examples(raw: object, schema: dict[str, object], repairs: list[Repair]) -> list[dict[str, object]]:
    from jsonschema import Draft202012Validator

    from toolgen.validate.schemacheck import REGISTRY

    if not isinstance(raw, list):
        return []
    validator = Draft202012Validator(schema, registry=REGISTRY)  # never fetches a remote $ref
    kept: list[dict[str, object]] = []
    for index, example in enumerate(raw):
        try:
            valid = isinstance(example, dict) and not any(validator.iter_errors(example))
        except Exception:  # a broken pattern or reference in the source schema
            valid = False
        if valid:
            kept.append({"input": example})
        else:
            repairs.append(Repair(f"/input_examples/{index}", "example does not match the input schema; left out"))
    return kept


def _document(
    decl: dict[str, object], shape: Shape, name: str, options: Options, repairs: list[Repair]
) -> tuple[dict[str, object], list[str]]:
    notes: list[str] = []
    parts = shape.parts(decl)
    document: dict[str, object] = {"name": name, "version": "1.0.0"}
    if isinstance(parts.title, str) and parts.title.strip():
        document["title"] = parts.title.strip()
    document["description"] = _description(decl.get("description"), notes)
    whitespace_note(decl, notes)
    document.update(_permissions(options, parts, notes))
    if parts.idempotent is not None:
        document["idempotent"] = parts.idempotent
    repairs.extend(parts.repairs)
    document["input_schema"] = input_schema = _input(parts, decl, repairs, notes)
    output = _schema(parts.output_schema, parts.output_pointer, repairs, optional=True)
    if output is not None:
        document["output_schema"] = output
    examples = _examples(parts.examples, input_schema, repairs)
    if examples:
        document["examples"] = examples
    if shape.name == "mcp":
        renamed = any(r.pointer == "/name" and r.kind == NOTE for r in repairs)
        kept = mcp_providers(decl, str(decl["name"]) if renamed else None, notes)
        if kept:
            document["providers"] = kept
    if any(r.changes for r in repairs):
        tags = document.get("tags")
        document["tags"] = [*(tags if isinstance(tags, list) else ()), CHANGED_TAG]
        notes.append(f"a repair changes what the tool accepts: tagged {CHANGED_TAG!r} (TG450); check it")
    return document, notes


@dataclass
class _Session:
    """The state of one import: what is asked, what exists and which names are taken."""

    shape: Shape
    settings: Settings
    options: Options
    existing: Mapping[str, Path]
    plan: ImportPlan
    taken: dict[str, SourceRecord] = field(default_factory=dict)

    def add(self, record: SourceRecord) -> None:
        """Plan one record, or report why it cannot be imported."""
        self.plan.records += 1
        source = self.options.source
        try:
            planned = self._plan(record)
        except _Reject as exc:
            self.plan.diagnostics.append(_diag(record, source, exc.code, f"{record.label}: {exc.message}", exc.pointer))
            return
        except RecursionError:
            self.plan.diagnostics.append(_diag(record, source, "TG127", f"{record.label}: nested too deeply to import"))
            return
        if planned is not None:
            self.taken[str(planned.document["name"])] = record
            self.plan.planned.append(planned)

    def _plan(self, record: SourceRecord) -> Planned | None:
        options = self.options
        decl = record.data
        mismatch = self.shape.mismatch(decl)
        if mismatch or not isinstance(decl, dict):  # a record that is no object always mismatches
            raise _Reject("TG106", "", mismatch)
        raw_name = decl.get("name")
        repairs: list[Repair] = []
        name = _name(raw_name, repairs, served=self.shape.name == "mcp")
        if name is None:
            raise _Reject("TG105", "/name", "the declaration has no name (a non-empty string)")
        if name in self.taken and (options.repair or all(r.kind == NOTE for r in repairs)):
            if not options.repair:
                first = self.taken[name].label
                raise _Reject(
                    "TG109", "/name", f"the name {name!r} is already used by {first}; --repair would rename it"
                )
            fixed = _unique(name, set(self.taken) | set(self.existing))
            repairs.append(Repair("/name", f"the name {name!r} is already taken in this import; now {fixed!r}"))
            name = fixed
        document, notes = _document(decl, self.shape, name, options, repairs)
        needed = [r for r in repairs if r.kind != NOTE]
        if needed and not options.repair:
            for repair in needed:
                code = "TG107" if repair.pointer == "/name" else "TG116"
                message = f"{record.label}: {repair.message.split(';')[0]}; --repair would fix it"
                self.plan.diagnostics.append(_diag(record, options.source, code, message, repair.pointer))
            return None
        path, fmt, existing = _target(name, self.settings, options, self.existing)
        changed = None
        if options.update and existing is not None:
            document, changed = _merge(existing, document, self.settings)
        return Planned(record, str(raw_name), document, path, fmt, tuple(repairs), tuple(notes), existing, changed)


def plan_import(text: str, shape_name: str, settings: Settings, options: Options) -> ImportPlan:
    """Plan the import of a whole source file: one contract per declaration, or a diagnostic."""
    session = _Session(SHAPES[shape_name], settings, options, existing_contracts(settings), ImportPlan())
    records, problems = find_records(text, options.source)
    session.plan.diagnostics.extend(problems)
    for record in records:
        session.add(record)
    return session.plan


def _target(
    name: str, settings: Settings, options: Options, existing: Mapping[str, Path]
) -> tuple[Path, str, Path | None]:
    """Where the contract goes, in which format, and the existing file it replaces (if any)."""
    if name in existing:
        path = existing[name]
        if not (options.force or options.update):
            raise _Reject(
                "TG109",
                "/name",
                f"a contract named {name!r} already exists ({settings.rel(path)}); pass --update to rewrite what "
                "changed, or --force to overwrite it",
            )
        fmt = options.fmt or path.suffix[1:]
        return path.with_suffix(f".{fmt}"), fmt, path
    fmt = options.fmt or "toml"
    return settings.contracts_dir / f"{name}.{fmt}", fmt, None


def _merge(path: Path, document: dict[str, object], settings: Settings) -> tuple[dict[str, object], tuple[str, ...]]:
    """`--update`: the existing contract with the source's keys, and which of them changed."""
    old = read_contract(path)
    if old is None:
        message = f"--update cannot read the existing contract {settings.rel(path)}; fix it, or pass --force"
        raise _Reject("TG109", "/name", message)
    merged, changed = updated(old, document)
    return merged, tuple(changed)


def plan_file(path: Path, shape_name: str, settings: Settings, options: Options) -> ImportPlan:
    """Read one source file and plan its contracts (a file that cannot be read is a TG101)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return ImportPlan(diagnostics=[_diag(None, options.source, "TG101", f"cannot read the file: {exc}")])
    return plan_import(text, shape_name, settings, options)


__all__ = [
    "PLACEHOLDER",
    "ImportPlan",
    "Options",
    "Planned",
    "existing_contracts",
    "plan_file",
    "plan_import",
]
