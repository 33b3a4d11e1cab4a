# The toolgen runtime's _tracefile.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Trace records and a tracer that keeps them: `TraceRecord`, `JsonlTracer`, `trace_record`.

Part of the runtime: `_runtime` (and the package) re-export every public name here.

- `TraceRecord`: one per call, given to the registry's `tracer`: tool, version, digest, `input`
  (the arguments with every `x-sensitive` value replaced by `REDACTED` at any depth, long strings
  shortened unless the tracer asks for the full input), `permission` (`"granted"`, `"denied"` or
  `"unchecked"`), `missing_permissions`, `duration_ms`, `code` (`"OK"` or the error code),
  `retryable`, `traceback`, `undeclared_reads` (`Registry(enforce=True)`); `full_input` (True
  when `input` was kept without shortening) and `output` (the result's payload, redacted the same
  way, only for a tracer that records outputs), `call_id`, `events` (what the implementation
  reported through its `ToolContext`), `approval` (who decided an "ask", and why) and `attempts`
  (with a `RetryPolicy`). A sensitive value of the call is also scrubbed from
  every other text of `input` and `output` (a secret pasted into a plain field).
  `to_dict()` gives the record as plain JSON data (with `record` = `TRACE_FORMAT` and the `package`
  it came from) and `to_json()` the same as one line of JSON text; `TraceRecord.from_dict(data)`
  and `TraceRecord.from_json(text)` read one back and raise `ValueError` naming the first key that
  does not fit.
- `JsonlTracer(path, full_input=False, record_output=False)`: a tracer that appends one record
  per line to `path` (UTF-8 JSON Lines, flushed after every record). Safe to share between threads
  and tasks: a lock serializes the writes, each line is written whole. `full_input=True` keeps long
  strings whole (sensitive values are still redacted); `record_output=True` adds each call's
  output (redacted with the output schema) or error payload. Both are off by default: the file
  then grows by a few hundred bytes per call whatever the tools return; with them on, a line is as
  large as the call's input and output. The file is what `toolgen replay` reads.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ._redact import NO_SECRETS, Secrets
from ._results import Err, ToolResult, thaw
from ._schemas import REDACTED, redact

TRACE_FORMAT = 1
"""The `record` number every line of a trace file carries; it changes when the shape does."""

PACKAGE = __name__.rsplit(".", 1)[0]
"""The generated package these records come from (the `package` key of `to_dict`)."""

_PERMISSION = ("granted", "denied", "unchecked")


@dataclass(frozen=True, slots=True)
class TraceRecord:
    """One call, as the tracer sees it. Sensitive input values are already redacted."""

    tool: str
    version: str | None
    digest: str | None
    input: Any
    permission: Literal["granted", "denied", "unchecked"]
    missing_permissions: tuple[str, ...]
    duration_ms: float
    code: str
    retryable: bool
    traceback: str | None = None
    undeclared_reads: tuple[str, ...] = ()
    """With `Registry(enforce=True)`: files the call read although the tool does not declare `read`."""
    full_input: bool = False
    output: Any = None
    call_id: str | None = None
    """The call's id (`ToolContext.call_id`); None for a call that did not reach its implementation."""
    events: tuple[Mapping[str, Any], ...] = ()
    """What the implementation reported through its `ToolContext` (progress, logs), redacted."""
    approval: Mapping[str, Any] | None = None
    """For a call the policy asked an approval for: `granted`, `reason` and `by` (who decided)."""
    attempts: tuple[Mapping[str, Any], ...] = ()
    """With a `RetryPolicy`: each attempt's number, code, retryable, duration and the wait after it."""

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data, with `record` and `package` first; `output` only when recorded."""
        data = asdict(self)
        data["missing_permissions"] = list(self.missing_permissions)
        data["undeclared_reads"] = list(self.undeclared_reads)
        if self.output is None:
            del data["output"]
        # each only when there is something, as before the keys existed
        for key in ("call_id", "events", "approval", "attempts"):
            if not data[key]:
                del data[key]
        for key in ("events", "attempts"):
            if getattr(self, key):
                data[key] = [dict(e) for e in getattr(self, key)]
        if self.approval is not None:
            data["approval"] = dict(self.approval)
        return {"record": TRACE_FORMAT, "package": PACKAGE, **data}

    def to_json(self) -> str:
        """The record as one line of compact JSON text (what `JsonlTracer` writes, without the newline)."""
        return json.dumps(
            self.to_dict(), ensure_ascii=False, separators=(",", ":"), default=str
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> TraceRecord:
        """Read a record back from its JSON text (`to_json`); `ValueError` when it does not fit."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise TypeError(
                "from_json takes JSON text; use TraceRecord.from_dict for parsed data"
            )
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TraceRecord:
        """Read a record back from `to_dict` data; `ValueError` when it does not fit."""
        found = thaw(data)
        if not isinstance(found, dict):
            raise ValueError("a trace record must be a JSON object")
        if found.pop("record", TRACE_FORMAT) != TRACE_FORMAT:
            raise ValueError(
                f"`record` must be {TRACE_FORMAT}: the record is of another trace format"
            )
        found.pop("package", None)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(found) - known)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} in a trace record")
        _check_shape(found)
        found["missing_permissions"] = tuple(found["missing_permissions"])
        found["undeclared_reads"] = tuple(found.get("undeclared_reads", ()))
        found["events"] = tuple(found.get("events", ()))
        found["attempts"] = tuple(found.get("attempts", ()))
        return cls(**found)


_REQUIRED: Mapping[str, tuple[type, ...]] = {
    "tool": (str,),
    "permission": (str,),
    "missing_permissions": (list, tuple),
    "duration_ms": (int, float),
    "code": (str,),
    "retryable": (bool,),
}


def _check_shape(found: Mapping[str, Any]) -> None:
    for key, types in _REQUIRED.items():
        if key not in found:
            raise ValueError(f"a trace record needs the key {key!r}")
        if not isinstance(found[key], types):
            raise ValueError(f"`{key}` of a trace record has the wrong type")
    if found["permission"] not in _PERMISSION:
        raise ValueError(f"`permission` must be one of {', '.join(_PERMISSION)}")
    for key in ("version", "digest", "traceback"):
        if found.get(key) is not None and not isinstance(found[key], str):
            raise ValueError(f"`{key}` of a trace record must be a string or null")


def trace_record(  # noqa: PLR0917 (the registry's one internal call)
    tracer: Any,
    name: str,
    contract: Any,
    parsed: dict[str, Any] | Err,
    result: ToolResult[Any],
    meta: tuple[str, tuple[str, ...], str | None, float, tuple[str, ...]],
    secrets: Secrets = NO_SECRETS,
    extra: Mapping[str, Any] | None = None,
) -> TraceRecord:
    """The record of one call for `tracer` (its `full_input` / `record_output` say what to keep).

    `meta` is (permission, missing permissions, traceback, duration in ms, undeclared reads). The
    call's `secrets` (input and output) are scrubbed from every text of the record's input and output,
    so a sensitive value pasted into a plain field is replaced there too. `extra` holds the other
    fields of the record the call knows (`call_id`, `events`).
    """
    full = bool(getattr(tracer, "full_input", False))
    summary: Any = None
    if not isinstance(parsed, Err):
        try:
            summary = redact(parsed, contract.input_schema) if contract else REDACTED
            summary = secrets.scrub_data(summary) if full else secrets.summary(summary)
        except RecursionError:
            summary = REDACTED
    permission, missing, trace, duration, reads = meta
    return TraceRecord(
        tool=name,
        version=contract.version if contract else None,
        digest=contract.digest if contract else None,
        input=summary,
        permission=permission,  # type: ignore[arg-type]
        missing_permissions=missing,
        duration_ms=duration,
        code=result.code if isinstance(result, Err) else "OK",
        retryable=result.retryable if isinstance(result, Err) else False,
        traceback=trace,
        undeclared_reads=reads,
        full_input=full and summary is not None,
        output=(
            secrets.scrub_data(_output(result, contract))
            if getattr(tracer, "record_output", False)
            else None
        ),
        **(extra or {}),
    )


def _output(result: ToolResult[Any], contract: Any) -> Any:
    payload = result.payload()
    if isinstance(result, Err) or contract is None or contract.output_schema is None:
        return payload
    try:
        return redact(payload, contract.output_schema)
    except RecursionError:
        return REDACTED


class JsonlTracer:
    """Appends each `TraceRecord` to a JSON Lines file, one whole line per record (thread-safe)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        full_input: bool = False,
        record_output: bool = False,
    ) -> None:
        self.path = os.fspath(path)
        self.full_input = full_input
        self.record_output = record_output
        self._lock = threading.Lock()

    def __call__(self, record: TraceRecord) -> None:
        line = record.to_json() + "\n"
        with self._lock, open(self.path, "a", encoding="utf-8") as stream:
            stream.write(line)
            stream.flush()

    def __repr__(self) -> str:
        return f"JsonlTracer({self.path!r}, full_input={self.full_input}, record_output={self.record_output})"


class TraceFailures:
    """The records a registry's tracer lost: counted, and the first loss logged (thread-safe).

    A tracer that raises (a `JsonlTracer` whose folder does not exist, a collector that is down)
    never changes a call's result; each lost record is counted, and the first is reported as a
    warning on the package's logger (`logging.getLogger("<package>")`), once per registry.
    """

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def lost(self, tracer: Any, exc: Exception) -> None:
        """Count one lost record; log the first."""
        with self._lock:
            self.count += 1
            first = self.count == 1
        if first:
            logging.getLogger(PACKAGE).warning(
                "the tracer %r failed (%s: %s): its trace records are lost; "
                "Registry.trace_failures counts them, and this registry says so only once",
                tracer,
                type(exc).__name__,
                exc,
                exc_info=exc,
            )


def read_trace(path: str | os.PathLike[str]) -> list[TraceRecord]:
    """Every record of a trace file, in order; `ValueError` naming the line of the first bad one."""
    records: list[TraceRecord] = []
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                records.append(TraceRecord.from_json(line))
            except ValueError as exc:
                raise ValueError(f"{os.fspath(path)}:{number}: {exc}") from None
    return records


def deliver(tracer: Any, failures: TraceFailures, call: tuple[Any, ...]) -> None:
    """Give `tracer` the record of one call; a tracer that raises loses it, counted in `failures`.

    `call` is (name, contract, parsed arguments, the registry's outcome, `perf_counter` at the
    start). A broken tracer never changes what the model sees: the call's result is already made.
    """
    if tracer is None:
        return
    name, contract, parsed, outcome, started = call
    duration = (time.perf_counter() - started) * 1000.0
    meta = (
        outcome.permission,
        outcome.missing,
        outcome.traceback,
        duration,
        outcome.reads,
    )
    try:
        tracer(
            trace_record(
                tracer,
                name,
                contract,
                parsed,
                outcome.result,
                meta,
                outcome.secrets,
                outcome.extra,
            )
        )
    except Exception as exc:
        failures.lost(tracer, exc)


__all__ = [
    "TRACE_FORMAT",
    "JsonlTracer",
    "TraceFailures",
    "TraceRecord",
    "deliver",
    "read_trace",
    "trace_record",
]
