# The toolgen runtime's _context.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The per-call context an implementation may ask for: `ToolContext`, `Reporter`, `LogLevel`.

Part of the runtime: `_runtime` (and the package) re-export the public names here.

An implementation that takes a second positional parameter (without a default) is called with the
validated input and a `ToolContext`; one that takes only the input is called as before. The context carries:

- `call_id` (the caller's, else a fresh one), `tool`, `version` (the contract's), `trace_id`
  (the caller's, or the OpenTelemetry trace when spans are on, else None);
- `deadline` (a `time.monotonic()` instant, None without a time limit) and `time_left()`;
- `cancelled` / `cancellation` (a `threading.Event`): set when the call passed its time limit, so
  a sync implementation left running in its thread can stop early;
- `deps`: what the registry was made with (`Registry(deps=...)`), or what the call passed
  (`registry.call(..., deps=...)`); typed by `Registry[Deps]` and `ToolContext[Deps]`;
- `progress(done, total=None, message=None)` and `log(level, message)`: every sensitive value of
  the call's input is replaced by `REDACTED` in a message before it goes anywhere. Each goes to the
  package's logger (`logging.getLogger(<package>)`: progress at DEBUG, a log at its level), to the
  trace record (`TraceRecord.events`), and to the call's `Reporter` when one is given (the MCP
  server's sends `notifications/progress` and `notifications/message`). A reporter that raises is
  ignored: reporting never changes a call's result.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Mapping
from typing import Any, Generic, Literal, Protocol

from typing_extensions import TypeVar

from ._redact import NO_SECRETS, Secrets

DepsT = TypeVar("DepsT", default=None)

LogLevel = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
"""The levels of `ToolContext.log`: MCP's (the syslog severities)."""

_LEVELS: Mapping[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}

PACKAGE = __name__.rsplit(".", 1)[0]
"""The package whose logger the context writes to."""


class Reporter(Protocol):
    """Where a call's progress and log messages go besides the logger and the trace."""

    def progress(
        self,
        context: ToolContext[Any],
        done: float,
        total: float | None,
        message: str | None,
    ) -> None:
        """A progress report (message already redacted)."""

    def log(self, context: ToolContext[Any], level: LogLevel, message: str) -> None:
        """A log message (already redacted)."""


class ToolContext(Generic[DepsT]):
    """What one call knows about itself; given to an implementation that declares it."""

    __slots__ = (
        "_events",
        "_reporter",
        "_secrets",
        "call_id",
        "cancellation",
        "deadline",
        "deps",
        "tool",
        "trace_id",
        "version",
    )

    def __init__(
        self,
        tool: str,
        version: str,
        deps: DepsT,
        *,
        call_id: str | None = None,
        deadline: float | None = None,
        trace_id: str | None = None,
        reporter: Reporter | None = None,
        secrets: Secrets = NO_SECRETS,
    ) -> None:
        self.tool = tool
        self.version = version
        self.deps = deps
        self.call_id = call_id if call_id is not None else f"call_{uuid.uuid4().hex}"
        self.deadline = deadline
        self.trace_id = trace_id
        self.cancellation = threading.Event()
        self._reporter = reporter
        self._secrets = secrets
        self._events: list[dict[str, Any]] = []

    def time_left(self) -> float | None:
        """Seconds until the deadline (0.0 once past it), None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    @property
    def cancelled(self) -> bool:
        """True once the call was given up (its time limit passed)."""
        return self.cancellation.is_set()

    @property
    def events(self) -> tuple[Mapping[str, Any], ...]:
        """The progress and log events of the call so far (redacted), for the trace."""
        return tuple(dict(e) for e in self._events)

    def progress(
        self, done: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Report progress: `done` of `total` (None: unknown), with an optional message."""
        text = self._secrets.scrub(message) if message is not None else None
        event: dict[str, Any] = {"kind": "progress", "done": done, "total": total}
        if text is not None:
            event["message"] = text
        self._events.append(event)
        logging.getLogger(PACKAGE).debug(
            "%s %s: progress %s/%s %s", self.tool, self.call_id, done, total, text or ""
        )
        if self._reporter is not None:
            with contextlib.suppress(Exception):  # reporting never changes the call
                self._reporter.progress(self, done, total, text)

    def log(self, level: LogLevel, message: str) -> None:
        """Send a log message about the call (to the client, under MCP)."""
        if level not in _LEVELS:
            raise ValueError(f"unknown log level {level!r}; known: {sorted(_LEVELS)}")
        text = self._secrets.scrub(str(message))
        self._events.append({"kind": "log", "level": level, "message": text})
        logging.getLogger(PACKAGE).log(
            _LEVELS[level], "%s %s: %s", self.tool, self.call_id, text
        )
        if self._reporter is not None:
            with contextlib.suppress(Exception):  # reporting never changes the call
                self._reporter.log(self, level, text)

    def __repr__(self) -> str:
        return f"ToolContext(tool={self.tool!r}, call_id={self.call_id!r})"


def wants_context(implementation: Any) -> bool:
    """True when `implementation` takes a second positional parameter without a default.

    That parameter is the context; `lambda model, name=name: ...` gets the input alone.
    """
    import inspect

    try:
        signature = inspect.signature(implementation)
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        and p.default is p.empty
    ]
    return len(positional) >= 2


__all__ = ["DepsT", "LogLevel", "Reporter", "ToolContext", "wants_context"]
