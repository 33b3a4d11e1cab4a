"""`toolgen replay`: would the calls the agents really made still pass the contracts on disk?

Input is a trace file written by the generated package's `JsonlTracer` (one `TraceRecord.to_json()`
per line). Each recorded call is judged against the current catalog, never by running anything
(a call the registry refused when it was recorded, `INVALID_INPUT` or `UNKNOWN_TOOL`, is skipped
and counted: there is nothing it did then that a change could break):

- the tool no longer exists (TG530);
- the recorded input is refused by the current input schema (TG531, one finding per failing path
  with the keyword that refuses it), where the call was accepted when it was recorded;
- a recorded successful output (`record_output=True`) is refused by the current output schema (TG532);
- a recorded error code is no longer declared and is not a standard one (TG533).

A redacted value (`[REDACTED]`) or a string the tracer shortened is unknown: a check that fails only
at or below such a value is counted as uncertain (TG534, info), never as a refusal. A line that is not
a JSON object of the expected shape, or a record of another package, is a TG539 error at its line;
the rest of the file is still judged. Nulls of optional properties are dropped before validating, as
the registry does for what strict provider declarations invite. A value the current contract marks
`x-sensitive` is never printed (the trace may hold it raw, recorded before it was marked): a finding
about it names the keyword only, and it is scrubbed from every other message, as the registry does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolgen import positions
from toolgen.catalog import STANDARD_ERRORS, Catalog, Contract
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.frozen import thaw
from toolgen.runtime._redact import Secrets, find_secrets
from toolgen.runtime._schemas import describe
from toolgen.validate.schemacheck import REGISTRY

REDACTED = "[REDACTED]"
SHORTENED = re.compile(r"\.\.\. \(\d+ characters\)\Z", re.DOTALL)
NOT_ACCEPTED = frozenset({"INVALID_INPUT", "UNKNOWN_TOOL"})
"""Recorded codes of calls the registry refused then: nothing to compare."""
MAX_LINE = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Recorded:
    """One recorded call: the line it is on and what replay needs of it."""

    line: int
    tool: str
    version: str | None
    input: Any
    code: str
    output: Any = None
    has_output: bool = False


@dataclass(slots=True)
class ToolSummary:
    """Per tool: calls, versions seen, refused and uncertain ones."""

    calls: int = 0
    versions: set[str] = field(default_factory=set)
    refused: int = 0
    uncertain: int = 0
    skipped: int = 0
    """Calls refused when recorded (`NOT_ACCEPTED`), not judged."""

    def as_json(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "versions": sorted(self.versions),
            "refused": self.refused,
            "uncertain": self.uncertain,
            "skipped": self.skipped,
        }


@dataclass(slots=True)
class Replay:
    """The judgment of a trace file."""

    findings: list[Diagnostic] = field(default_factory=list)
    tools: dict[str, ToolSummary] = field(default_factory=dict)
    calls: int = 0
    uncertain_checks: int = 0

    @property
    def refused(self) -> int:
        return sum(t.refused for t in self.tools.values())

    @property
    def skipped(self) -> int:
        return sum(t.skipped for t in self.tools.values())


def read_records(path: Path, shown: str, package: str | None) -> Iterator[Recorded | Diagnostic]:
    """The records of a trace file, and a TG539 diagnostic for every line that is not one."""
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            if len(raw) > MAX_LINE:
                yield _bad(shown, number, f"the line is longer than {MAX_LINE // 1024 // 1024} MiB")
                continue
            yield _record(raw, shown, number, package)


def _bad(shown: str, number: int, why: str) -> Diagnostic:
    message = f"line {number} is not a trace record: {why}; the other lines are still judged"
    return Diagnostic("TG539", Severity.ERROR, message, shown, "", number, 1)


def _record(raw: bytes, shown: str, number: int, package: str | None) -> Recorded | Diagnostic:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return _bad(shown, number, f"not JSON ({exc})")
    if not isinstance(data, dict):
        return _bad(shown, number, "not a JSON object")
    tool, code, version = data.get("tool"), data.get("code"), data.get("version")
    if not isinstance(tool, str) or not isinstance(code, str) or "input" not in data:
        return _bad(shown, number, "a record needs the keys tool (text), code (text) and input")
    if version is not None and not isinstance(version, str):
        return _bad(shown, number, "version must be text")
    recorded_package = data.get("package")
    if package is not None and recorded_package is not None and recorded_package != package:
        return _bad(shown, number, f"it was recorded by package {recorded_package!r}, not {package!r}")
    return Recorded(number, tool, version, data["input"], code, data.get("output"), "output" in data)


def unknown_paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths of redacted or shortened values: what the trace does not show."""
    if value == REDACTED or (isinstance(value, str) and SHORTENED.search(value)):
        yield at
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from unknown_paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unknown_paths(item, (*at, index))


def drop_optional_nulls(value: Any, schema: Any) -> Any:
    """`null` of an optional property whose schema does not allow null, dropped (as the registry does)."""
    if not isinstance(value, dict) or not isinstance(schema, Mapping):
        return value
    properties = schema.get("properties", {})
    required = set(schema.get("required", ()))
    out: dict[str, Any] = {}
    for key, item in value.items():
        sub = properties.get(key) if isinstance(properties, Mapping) else None
        if item is None and key not in required and not _allows_null(sub):
            continue
        out[key] = drop_optional_nulls(item, sub)
    return out


def _allows_null(schema: Any) -> bool:
    """True when the schema says null explicitly (a type list, enum, const or a branch of anyOf/oneOf)."""
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list | tuple) and "null" in kind):
        return True
    if None in (schema.get("enum") or ()) or ("const" in schema and schema["const"] is None):
        return True
    return any(_allows_null(branch) for key in ("anyOf", "oneOf") for branch in schema.get(key) or ())


def _failures(schema: Any, value: Any) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """(instance path, keyword, message) of every error of `value` against `schema`; no message shows
    a value the schema marks `x-sensitive` (the runtime's own wording, `describe`)."""
    plain = thaw(schema)
    validator = Draft202012Validator(plain, registry=REGISTRY, format_checker=Draft202012Validator.FORMAT_CHECKER)
    secrets: Secrets | None = None
    for error in validator.iter_errors(value):
        secrets = secrets or find_secrets(value, plain)
        message = describe(error, secrets)
        message = message if len(message) <= 300 else message[:300] + "..."
        yield tuple(error.absolute_path), str(error.validator), message


def judge(record: Recorded, contract: Contract | None, shown: str, result: Replay) -> None:
    """Add the findings of one recorded call to `result`."""
    summary = result.tools.setdefault(record.tool, ToolSummary())
    summary.calls += 1
    if record.version:
        summary.versions.add(record.version)
    result.calls += 1
    if record.code in NOT_ACCEPTED:
        summary.skipped += 1
        return
    if contract is None:
        message = f"call of tool {record.tool!r} (line {record.line}): the tool no longer exists"
        _refuse(result, summary, Diagnostic("TG530", Severity.ERROR, message, shown, "", record.line, 1))
        return
    found = [*_input_findings(record, contract, shown, result), *_result_findings(record, contract, shown, result)]
    if any(d.is_error for d in found):
        summary.refused += 1
    elif any(d.code == "TG534" for d in found):
        summary.uncertain += 1
    result.findings.extend(found)


def _refuse(result: Replay, summary: ToolSummary, finding: Diagnostic) -> None:
    summary.refused += 1
    result.findings.append(finding)


def _version_note(record: Recorded, contract: Contract) -> str:
    if record.version and record.version != contract.version:
        return f" (recorded at version {record.version}, now {contract.version})"
    return ""


def _input_findings(record: Recorded, contract: Contract, shown: str, result: Replay) -> Iterator[Diagnostic]:
    value = drop_optional_nulls(record.input, contract.input_schema)
    yield from _checked(record, contract, shown, result, ("input", contract.input_schema, value))


def _result_findings(record: Recorded, contract: Contract, shown: str, result: Replay) -> Iterator[Diagnostic]:
    where = f"call of {record.tool!r} (line {record.line}){_version_note(record, contract)}"
    if record.code != "OK" and record.code not in contract.all_error_codes and record.code not in STANDARD_ERRORS:
        message = f"{where}: the recorded error code {record.code!r} is no longer declared"
        yield Diagnostic("TG533", Severity.ERROR, message, shown, "", record.line, 1)
    if record.code == "OK" and record.has_output and contract.output_schema is not None:
        yield from _checked(record, contract, shown, result, ("output", contract.output_schema, record.output))


def _checked(
    record: Recorded, contract: Contract, shown: str, result: Replay, what: tuple[str, Any, Any]
) -> Iterator[Diagnostic]:
    """Findings of one value against one schema: refusals, and checks an unknown value made uncertain."""
    kind, schema, value = what
    unknown = list(unknown_paths(value))
    where = f"call of {record.tool!r} (line {record.line}){_version_note(record, contract)}"
    code = "TG531" if kind == "input" else "TG532"
    for path, keyword, message in sorted(_failures(schema, value), key=lambda f: (positions.join("", *f[0]), f[1])):
        at = positions.join("", *path)
        if any(path[: len(u)] == u for u in unknown):
            result.uncertain_checks += 1
            text = f"{where}: the {kind} check at {at or '/'} ({keyword}) depends on a redacted or shortened value"
            yield Diagnostic("TG534", Severity.INFO, text, shown, at, record.line, 1)
            continue
        text = f"{where}: the recorded {kind} is refused now at {at or '/'} by `{keyword}`: {message}"
        yield Diagnostic(code, Severity.ERROR, text, shown, at, record.line, 1)


def replay(path: Path, shown: str, catalog: Catalog, package: str | None = None) -> Replay:
    """Judge every record of a trace file against the catalog."""
    result = Replay()
    for item in read_records(path, shown, package):
        if isinstance(item, Diagnostic):
            result.findings.append(item)
        else:
            judge(item, catalog.get(item.tool), shown, result)
    return result
