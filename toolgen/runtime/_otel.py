# The toolgen runtime's _otel.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""OpenTelemetry spans of the registry's calls: `Spans` (`Registry(spans=Spans())`).

Part of the runtime: `_runtime` (and the package) re-export `Spans`. `opentelemetry-api` is
imported when a `Spans` is made, never otherwise; the package does not depend on it.

Each call is one span named `execute_tool {tool}` (kind INTERNAL), following the OpenTelemetry
GenAI semantic conventions v1.38.0 (`gen_ai.*`, development status):

- `gen_ai.operation.name` = `execute_tool`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
  `gen_ai.tool.description`, `gen_ai.tool.type` = `function`;
- on a failure `error.type` (the error code) and the span status ERROR with the code as its
  description (never the message, which may quote input);
- toolgen's own: `toolgen.contract.version`, `toolgen.contract.digest`, `toolgen.permission`
  (`granted`, `denied`, `unchecked`), `toolgen.result.code` (`OK` or the code),
  `toolgen.result.retryable`, `toolgen.approval.by` / `toolgen.approval.granted` for a call that
  asked, `toolgen.attempts` with a `RetryPolicy`;
- `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` (JSON text) only with
  `Spans(record_arguments=True)` / `record_results=True`, redacted as the trace is: every
  `x-sensitive` value (and any copy of one in another text) is `[REDACTED]`.

The span is current while the implementation runs (spans it starts are its children), and its
trace id is the `ToolContext.trace_id` unless the call gave one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._redact import NO_SECRETS, Secrets
from ._results import Err
from ._schemas import REDACTED, redact

SEMCONV_VERSION = "1.38.0"
"""The OpenTelemetry semantic conventions version the span follows."""


class Spans:
    """Makes the `execute_tool` spans of a registry's calls (see the module docstring)."""

    def __init__(
        self,
        tracer_provider: Any = None,
        *,
        record_arguments: bool = False,
        record_results: bool = False,
    ) -> None:
        from opentelemetry import trace  # type: ignore[import-not-found,unused-ignore]

        self._trace = trace
        self.tracer = trace.get_tracer(
            __name__.rsplit(".", 1)[0],
            schema_url=f"https://opentelemetry.io/schemas/{SEMCONV_VERSION}",
            tracer_provider=tracer_provider,
        )
        self.record_arguments = record_arguments
        self.record_results = record_results


class Span:
    """One call's span, or nothing (`spans` None): what the registry tells it as the call goes."""

    def __init__(self, spans: Spans | None, span: Any) -> None:
        self._spans = spans
        self._span = span

    @property
    def trace_id(self) -> str | None:
        """The span's trace id (32 hex digits), None without spans."""
        if self._span is None:
            return None
        context = self._span.get_span_context()
        return f"{context.trace_id:032x}" if context.is_valid else None

    def close(
        self, contract: Any, parsed: Any, outcome: Any, secrets: Secrets = NO_SECRETS
    ) -> None:
        """Set what the call ended with (the registry calls it once, after redaction)."""
        if self._span is None or self._spans is None:
            return
        result = outcome.result
        set_attribute = self._span.set_attribute
        set_attribute("toolgen.permission", outcome.permission)
        code = result.code if isinstance(result, Err) else "OK"
        set_attribute("toolgen.result.code", code)
        set_attribute(
            "toolgen.result.retryable", bool(getattr(result, "retryable", False))
        )
        extra = outcome.extra
        approval = extra.get("approval")
        if approval is not None:
            set_attribute("toolgen.approval.by", approval["by"])
            set_attribute("toolgen.approval.granted", approval["granted"])
        if extra.get("attempts"):
            set_attribute("toolgen.attempts", len(extra["attempts"]))
        if isinstance(result, Err):
            set_attribute("error.type", code)
            self._span.set_status(
                self._spans._trace.Status(self._spans._trace.StatusCode.ERROR, code)
            )
        if self._spans.record_arguments and not isinstance(parsed, Err):
            shown = (
                redact(parsed, contract.input_schema)
                if contract is not None
                else REDACTED
            )
            set_attribute(
                "gen_ai.tool.call.arguments", _text(secrets.scrub_data(shown))
            )
        if self._spans.record_results:
            payload = result.payload()
            if (
                not isinstance(result, Err)
                and contract is not None
                and contract.output_schema is not None
            ):
                payload = redact(payload, contract.output_schema)
            set_attribute("gen_ai.tool.call.result", _text(secrets.scrub_data(payload)))


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


@contextmanager
def span(
    spans: Spans | None, name: str, contract: Any, call_id: str | None
) -> Iterator[Span]:
    """The call's span, current while the call runs; a `Span` of nothing without `spans`."""
    if spans is None:
        yield Span(None, None)
        return
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        "gen_ai.tool.call.id": call_id,
        "gen_ai.tool.type": "function",
    }
    if contract is not None:
        attributes["gen_ai.tool.description"] = contract.description
        attributes["toolgen.contract.version"] = contract.version
        attributes["toolgen.contract.digest"] = contract.digest
    kind = spans._trace.SpanKind.INTERNAL
    with spans.tracer.start_as_current_span(
        f"execute_tool {name}",
        kind=kind,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as current:
        yield Span(spans, current)


__all__ = ["SEMCONV_VERSION", "Span", "Spans", "span"]
