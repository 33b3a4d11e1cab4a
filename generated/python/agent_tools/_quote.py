# The toolgen runtime's _quote.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""How much of a value a text may quote: `shorten`, `quote`, `bound` and their limits.

Part of the runtime: `_redact` re-exports every name here.
"""

from __future__ import annotations

from typing import Any

MAX_TRACE_STRING = 200
"""Strings longer than this are shortened in a trace's input summary."""

MAX_QUOTE = 200
"""At most this many characters of a value are quoted in an error message or detail."""

MAX_MESSAGE = 1000
"""An error message or detail longer than this is cut, saying how long it was."""


def shorten(value: Any) -> Any:
    """JSON data with every string longer than `MAX_TRACE_STRING` shortened, saying its length."""
    if isinstance(value, str) and len(value) > MAX_TRACE_STRING:
        return value[:MAX_TRACE_STRING] + f"... ({len(value)} characters)"
    if isinstance(value, dict):
        return {k: shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shorten(v) for v in value]
    return value


def quote(value: Any) -> str:
    """`repr(value)`, cut to `MAX_QUOTE` characters with its length said when it is longer."""
    text = repr(value)
    return (
        text
        if len(text) <= MAX_QUOTE
        else f"{text[:MAX_QUOTE]}... ({len(text)} characters)"
    )


def bound(text: str) -> str:
    """`text`, cut to `MAX_MESSAGE` characters with its length said when it is longer."""
    return (
        text
        if len(text) <= MAX_MESSAGE
        else f"{text[:MAX_MESSAGE]}... ({len(text)} characters)"
    )


__all__ = ["MAX_MESSAGE", "MAX_QUOTE", "MAX_TRACE_STRING", "bound", "quote", "shorten"]
