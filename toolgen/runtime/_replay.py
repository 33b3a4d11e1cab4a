# The toolgen runtime's _replay.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Recorded calls re-run through a registry: `replay(records, registry)`.

The records are what a tracer received (`TraceRecord` objects) or their data (`to_dict()`: one
object a line of a `JsonlTracer` file, parsed). Each call is made again, through the registry given:
real implementations, or `mock_registry()`, so validation, policy and tracing run as in production.
A call whose recorded input holds a redacted value (`[REDACTED]`) or a string the tracer shortened
cannot be re-made faithfully: it is skipped and counted, never run with the marker as a value.
`toolgen replay` judges the same files against the contracts without running anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._results import Err
from ._runtime import Registry, TraceRecord
from ._schemas import REDACTED

SHORTENED = re.compile(r"\.\.\. \(\d+ characters\)\Z", re.DOTALL)
"""The tail a tracer gives a shortened string."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """One recorded call made again: its recorded and new result codes, and the new output's verdict."""

    tool: str
    recorded_code: str
    new_code: str | None
    output_valid: bool | None
    """True when the new result is `Ok` (its output passed the output schema), False when the registry
    refused the implementation's output (INTERNAL with an output-schema failure), None otherwise."""
    skipped: str | None = None
    """Why the call was not made again (a redacted or shortened input), or None."""

    @property
    def changed(self) -> bool:
        """True when the call was made again and its result code differs from the recorded one."""
        return self.skipped is None and self.new_code != self.recorded_code


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """Every recorded call, in order, with what changed and what was skipped."""

    calls: tuple[Replayed, ...]

    @property
    def changed(self) -> tuple[Replayed, ...]:
        return tuple(c for c in self.calls if c.changed)

    @property
    def skipped(self) -> int:
        return sum(1 for c in self.calls if c.skipped is not None)


def _fields(record: TraceRecord | Mapping[str, Any]) -> tuple[str, Any, str]:
    if isinstance(record, TraceRecord):
        return record.tool, record.input, record.code
    return str(record["tool"]), record.get("input"), str(record["code"])


def _unknown(value: Any) -> bool:
    if isinstance(value, str):
        return value == REDACTED or SHORTENED.search(value) is not None
    if isinstance(value, Mapping):
        return any(_unknown(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_unknown(v) for v in value)
    return False


def _again(registry: Registry, tool: str, arguments: Any) -> tuple[str, bool | None]:
    """Make the call again; a tracer is chained for the call to tell an output failure apart."""
    seen: list[TraceRecord] = []
    previous = registry.tracer

    def tracer(record: TraceRecord) -> None:
        seen.append(record)
        if previous is not None:
            previous(record)

    registry.tracer = tracer
    try:
        result = registry.call(
            tool, arguments if isinstance(arguments, Mapping) else {}
        )
    finally:
        registry.tracer = previous
    if not isinstance(result, Err):
        return "OK", True
    note = seen[-1].traceback if seen else None
    output_failed = (
        result.code == "INTERNAL"
        and note is not None
        and "fails its output schema" in note
    )
    return result.code, False if output_failed else None


def replay(
    records: Iterable[TraceRecord | Mapping[str, Any]], registry: Registry
) -> ReplayReport:
    """Re-run every recorded call through `registry`; calls with redacted or shortened input are skipped."""
    calls: list[Replayed] = []
    for record in records:
        tool, arguments, code = _fields(record)
        if arguments is None or _unknown(arguments):
            why = (
                "the recorded input holds a redacted or shortened value"
                if arguments is not None
                else "no input"
            )
            calls.append(Replayed(tool, code, None, None, why))
            continue
        new_code, output_valid = _again(registry, tool, arguments)
        calls.append(Replayed(tool, code, new_code, output_valid))
    return ReplayReport(tuple(calls))


__all__ = ["ReplayReport", "Replayed", "replay"]
