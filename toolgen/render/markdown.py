"""Markdown safety: escaping contract text so it stays text, whatever it contains.

The docs target never pastes contract text into Markdown raw. Inline text has every ASCII punctuation
mark that CommonMark or GFM could read as syntax backslash-escaped, so a pipe cannot split a table
cell, `<b>` is shown rather than executed and a backtick cannot open a code span or a fence. Table
cells also fold newlines into spaces. Code spans and fences are sized from the longest backtick run
in their content, so the content cannot close them early.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from typing import Any

from toolgen.frozen import thaw

_TAG_START = re.compile(r"[A-Za-z/!?]")
_LINE_START = frozenset("#>-+=")
_BACKTICKS = re.compile(r"`+")
_WHITESPACE = re.compile(r"\s+")
_LINE_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_ORDERED = re.compile(r"^(\d+)([.)])")
_ENTITY = re.compile(r"&(?=#?\w+;)")


def escape_inline(text: str, *, line_start: bool = True) -> str:
    """Backslash-escape what Markdown could read as syntax in one line of text (no newlines expected).

    Always: backslash, backtick, `*`, brackets, pipe, tilde; `<` where it could open a tag or an
    autolink (`<=` stays as it is); `_` unless it sits inside a word
    (`read_file` stays readable); `&` before something that looks like an entity; and, when `text`
    starts a line (`line_start`), a block marker (`#`, `>`, `-`, `+`, `=`, `1.`) at its start.
    """
    out = _ENTITY.sub("\\&", _MARKS.sub(_escaped, text))
    if not line_start:
        return out
    if out[:1] in _LINE_START:
        out = "\\" + out
    return _ORDERED.sub(r"\1\\\2", out)


_MARKS = re.compile(r"[\\`*\[\]|~_<]")
"""Every character `escape_inline` may escape: found by the regex engine, so a text is not walked
a character at a time in Python (the docs index escapes every tool's name and summary)."""


def _escaped(match: re.Match[str]) -> str:
    """One character `_MARKS` found, escaped unless it is a `_` inside a word or a `<` that opens nothing."""
    ch, text, index = match.group(), match.string, match.start()
    if (ch == "_" and _inside_word(text, index)) or (ch == "<" and not _opens(text, index)):
        return ch
    return "\\" + ch


def _opens(text: str, index: int) -> bool:
    """Whether the `<` at `index` could open HTML or an autolink (a letter, `/`, `!` or `?` follows)."""
    return index + 1 >= len(text) or _TAG_START.match(text, index + 1) is not None


def _inside_word(text: str, index: int) -> bool:
    return 0 < index < len(text) - 1 and text[index - 1].isalnum() and text[index + 1].isalnum()


def cell(text: str) -> str:
    """Text for a table cell: one line, escaped, never empty (an empty cell reads as a mistake)."""
    folded = _WHITESPACE.sub(" ", text).strip()
    return escape_inline(folded, line_start=False) if folded else " "


def heading(text: str) -> str:
    """Text for an ATX heading: one line, escaped, and a trailing `#` kept (not read as a closing sequence)."""
    out = cell(text)
    body = out[:-1]
    escaped = out.endswith("#") and (len(body) - len(body.rstrip("\\"))) % 2 == 1
    return body + "\\#" if out.endswith("#") and not escaped else out


Links = Mapping[str, str]
"""Tool name -> the page it links to (`read_file` -> `read_file.md`)."""


def prose(text: str, *, in_table: bool = True, fold: bool = True, links: Links | None = None) -> str:
    """One line of author prose: its code spans become safe code spans, the rest is escaped.

    Code spans follow CommonMark: a run of one or two backticks opens a span that the next run of the
    same length closes (so ``` ``a`b`` ``` holds a backtick). Each span's content goes through `code()`,
    so it cannot run into the text around it. A run without a closer, and a run of three or more (a
    fence in the author's mind, even when a table cell folds it into one line), is escaped text.
    Whitespace is folded to one line unless `fold` is False (then `text` must hold no newline).
    A name in `links`, as a whole code span or a whole word, becomes a link to its page.
    """
    folded = _WHITESPACE.sub(" ", text).strip() if fold else text
    if not folded:
        return " "
    return _inline(folded, in_table, longest_run=2, links=links or {})


def toolgen_text(text: str, *, in_table: bool = False) -> str:
    """One line of toolgen-written text (a provider note, a diff finding) whose `code()` spans stay code."""
    return _inline(_WHITESPACE.sub(" ", text).strip() or " ", in_table, longest_run=None, links={})


def _inline(text: str, in_table: bool, longest_run: int | None, links: Links) -> str:
    out: list[str] = []
    for index, (is_code, part) in enumerate(_spans(text, longest_run)):
        if is_code:
            shown = code(part, in_table=in_table)
            out.append(f"[{shown}]({links[part]})" if part in links else shown)
        else:
            out.append(_linked(part, links, line_start=index == 0 and not in_table))
    return "".join(out)


def _linked(text: str, links: Links, *, line_start: bool) -> str:
    """Escaped text in which each whole-word tool name of `links` is a link to its page."""
    if not links:
        return escape_inline(text, line_start=line_start)
    names = "|".join(re.escape(n) for n in sorted(links, key=lambda n: (-len(n), n)))
    out: list[str] = []
    start = 0
    for found in re.finditer(rf"(?<![\w./-])(?:{names})(?![\w-]|\.\w)", text):
        out.append(escape_inline(text[start : found.start()], line_start=line_start and start == 0))
        out.append(f"[{escape_inline(found.group(), line_start=False)}]({links[found.group()]})")
        start = found.end()
    out.append(escape_inline(text[start:], line_start=line_start and start == 0))
    return "".join(out)


def _spans(text: str, longest_run: int | None) -> list[tuple[bool, str]]:
    """`text` cut into (is code, piece), pairing backtick runs of equal length as CommonMark does.

    Runs longer than `longest_run` (when given) never open or close a span.
    """
    runs = list(_BACKTICKS.finditer(text))
    by_length: dict[int, list[int]] = {}
    for index, run in enumerate(runs):
        if longest_run is None or len(run.group()) <= longest_run:
            by_length.setdefault(len(run.group()), []).append(index)
    pieces: list[tuple[bool, str]] = []
    start = index = 0
    while index < len(runs):
        same = by_length.get(len(runs[index].group()), [])
        later = bisect.bisect_right(same, index)
        if later == len(same):
            index += 1
            continue
        closer = same[later]
        content = text[runs[index].end() : runs[closer].start()]
        if not content.strip():
            index += 1
            continue
        if content.startswith(" ") and content.endswith(" "):
            content = content[1:-1]
        pieces += [(False, text[start : runs[index].start()]), (True, content)]
        start, index = runs[closer].end(), closer + 1
    pieces.append((False, text[start:]))
    return [(is_code, piece) for is_code, piece in pieces if piece]


def block(text: str, links: Links | None = None) -> str:
    """Multi-line text as Markdown paragraphs: the author's paragraphs, one sentence a line, no syntax.

    Blank lines separate paragraphs. Inside one, single line breaks are joined (as CommonMark renders
    them: a TOML description wrapped at 100 columns reads as the paragraph it is) except before a
    line that starts like a list item, and each sentence starts a line of its own, so a changed word
    changes one line of the page. Each line is escaped as the start of a line, with its indentation
    dropped, so no line can open a block (a heading, a list, a fence, a code block, a setext
    underline) or end with a forced break.
    """
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    rendered = []
    for paragraph in paragraphs:
        lines = [s for line in _joined(paragraph) for s in _sentences(line)]
        rendered.append("\n".join(prose(line, in_table=False, fold=False, links=links) for line in lines))
    return "\n\n".join(rendered)


_ITEM = re.compile(r"^([-+*]|\d{1,9}[.)])\s")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z`(\"])")


def _joined(paragraph: str) -> list[str]:
    """The paragraph's lines, stripped, each joined to the one before unless it starts like a list item."""
    out: list[str] = []
    for line in (raw.strip() for raw in paragraph.split("\n")):
        if line and out and not _ITEM.match(line):
            out[-1] += " " + line
        elif line:
            out.append(line)
    return out


def _sentences(line: str) -> list[str]:
    """`line` cut after each sentence (`.`, `?`, `!` before a capital, a backtick, a parenthesis or a
    quote), never inside a code span."""
    inside = _code_ranges(line)
    out: list[str] = []
    start = 0
    for found in _SENTENCE_END.finditer(line):
        if not any(a <= found.start() < b for a, b in inside):
            out.append(line[start : found.start()])
            start = found.end()
    out.append(line[start:])
    return [s for s in out if s]


def _code_ranges(line: str) -> list[tuple[int, int]]:
    """Where `_spans` finds code spans in `line`: (start of the opening run, end of the closing run)."""
    ranges: list[tuple[int, int]] = []
    at = 0
    for is_code, piece in _spans(line, 2):
        if not is_code:
            at += len(piece)
            continue
        run = _BACKTICKS.match(line, at)
        body = at + (len(run.group()) if run is not None else 1)
        padded = line[body : body + 1] == " " and line.startswith(" " + piece + " ", body)
        end = body + len(piece) + (2 if padded else 0) + (body - at)
        ranges.append((at, end))
        at = end
    return ranges


_RISKY_START = re.compile(r"[#>\-+*=|<\[]|```|~~~|\d{1,9}[.)]")
"""What a line must not start with when it continues a paragraph: it could open a block."""


def wrap_page(text: str, width: int = 100) -> str:
    """Lines of prose and list items longer than `width` broken at spaces outside code spans, where
    the rest cannot start a block; fenced code, tables, headings and HTML are left as they are."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        mark = re.match(r"(`{3,}|~{3,})", line)
        if fence:
            fence = (
                ""
                if mark and line.strip() == fence[0] * len(line.strip()) and len(line.strip()) >= len(fence)
                else fence
            )
            out.append(line)
        elif mark:
            fence = mark.group(1)
            out.append(line)
        elif len(line) <= width or line.startswith(("|", "#", "<")):
            out.append(line)
        else:
            out.extend(_wrapped(line, width, "  " if line.startswith("- ") else ""))
    return "\n".join(out)


def _breaks(line: str) -> list[int]:
    """The spaces of `line` outside code spans and escapes where the line may be broken."""
    found: list[int] = []
    index, ticks = 0, ""
    while index < len(line):
        ch = line[index]
        if ch == "\\" and not ticks:
            index += 2
            continue
        if ch == "`":
            run = re.match(r"`+", line[index:])
            assert run is not None
            if not ticks or run.group() == ticks:  # a span opens, or closes with a run of its own length
                ticks = "" if ticks else run.group()
            index += len(run.group())
            continue
        if ch == " " and not ticks and index > 0 and not _RISKY_START.match(line, index + 1):
            found.append(index)
        index += 1
    return found


def _wrapped(line: str, width: int, indent: str) -> list[str]:
    out: list[str] = []
    while len(line) > width:
        spaces = [i for i in _breaks(line) if line[i + 1 : i + 2] not in (" ", "")]
        before = [i for i in spaces if i <= width]
        at = before[-1] if before else next((i for i in spaces if i > width), None)
        if at is None or not line[:at].strip() or (out and not line[len(indent) : at].strip()):
            break
        out.append(line[:at])
        line = indent + line[at + 1 :]
    out.append(line)
    return out


def code(text: str, *, in_table: bool = True) -> str:
    """An inline code span holding `text` on one line (pipes escaped for a table cell by default).

    Only ASCII whitespace is folded: other characters (U+2028 in a JSON string) stay as they are.
    """
    folded = _LINE_SPACE.sub(" ", text).strip(" ") or " "
    longest = max((len(m) for m in _BACKTICKS.findall(folded)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if longest else ""
    body = folded.replace("|", "\\|") if in_table else folded
    return f"{ticks}{pad}{body}{pad}{ticks}"


def fence(text: str) -> str:
    """The backtick fence for a code block holding `text`: longer than any backtick run in it."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def json_text(value: Any) -> str:
    """Pretty JSON of a (possibly frozen) value, for code blocks."""
    return json.dumps(thaw(value), indent=2, ensure_ascii=False)


def json_inline(value: Any) -> str:
    """Compact JSON of a (possibly frozen) value, for code spans."""
    return json.dumps(thaw(value), ensure_ascii=False, separators=(", ", ": "))


def html_text(text: str) -> str:
    """One line of text inside an HTML element (a `<summary>`): `&`, `<`, `>` and quotes as entities."""
    folded = _WHITESPACE.sub(" ", text).strip()
    return folded.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def comment(text: str) -> str:
    """An HTML comment holding `text`; `--` is broken up so the text cannot end the comment."""
    return "<!-- " + text.replace("--", "- -").replace(">", "&gt;") + " -->"
