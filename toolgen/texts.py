"""Plain-text helpers shared by the stages: a provider projection and the importer cut descriptions alike.

Imports nothing of toolgen, so any layer may use it (tests/build/test_import_rules.py)."""

from __future__ import annotations


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at the last paragraph, sentence or word end that fits."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    for mark in ("\n\n", ". ", ".\n", "; ", "\n", " "):
        cut = head.rfind(mark)
        if cut > limit // 2:
            return head[: cut + (1 if mark.startswith(".") else 0)].rstrip()
    return head.rstrip()
