"""Plain-text helpers shared by the stages: a provider projection and the importer cut descriptions alike.

Imports nothing of toolgen, so any layer may use it (tests/house/test_import_rules.py)."""

from __future__ import annotations

import re


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


_BLOCK = re.compile(r"^\s{0,3}([-*+]\s|\d{1,9}[.)]\s|#{1,6}(\s|$)|>|\||(\*\s*){3,}$|(-\s*){3,}$|(_\s*){3,}$|<)")
"""A line that starts a block of its own in CommonMark: a list item, a heading, a quote, a table row,
a thematic break or HTML. Such a line is never joined to the one before it."""
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def paragraphs(text: str) -> str:
    """`text` with each paragraph on one line, as CommonMark renders it.

    A single line break inside a paragraph (or a list item) is a soft break, which CommonMark shows
    as a space: the two lines are joined with one space. Blank lines, list items, headings, quotes,
    table rows, fenced and indented code, and hard breaks (two trailing spaces or a backslash) stay
    as written. Both the provider declarations and the docs page show descriptions through this.
    """
    out: list[str] = []
    fence: str | None = None
    joinable = False  # whether the last line is paragraph text a soft break may continue
    code = False  # whether the last line is indented code
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None or opened:
            if fence is None and opened:
                fence = opened.group(1)[0] * 3
            elif fence is not None and line.strip().startswith(fence):
                fence = None
            out.append(line)
            joinable = False
            continue
        blank = not line.strip()
        indented = line.startswith(("    ", "\t"))
        code = indented and not joinable and (code or not out or not out[-1].strip())
        hard = bool(out) and (out[-1].endswith("  ") or out[-1].endswith("\\"))
        if code:
            out.append(line)
            joinable = False
            continue
        if joinable and not blank and not hard and not _BLOCK.match(line):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
            continue
        out.append(line)
        joinable = not blank and not re.match(r"^\s{0,3}(#|\||>)", line)
    return "\n".join(out)
