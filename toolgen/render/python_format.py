"""Black for the python target: only over the imports and models of a tool module, in one pass.

A tool module lays out everything after its models itself (error codes, schema and example
literals, contract record, protocol) between a `# fmt: off` line and a closing `# fmt: on` line;
black keeps that region verbatim, yet still tokenizes and parses it on both of its passes.
`format_source` swaps the region for a one-line placeholder, runs one black pass over the rest
(`one_pass`), and puts the region back where the placeholder came out: the same bytes as black over
the whole file (tests hold them equal over the golden, hostile, repo and synthetic catalogs and the
models of every corpus tool) for about a third of the work. It takes that shortcut only when the
region is plainly toolgen's layout (markers at the start of a line, once each, no trailing blanks,
only one-line triple-quoted strings, ending at the top level) and the placeholder comes back intact;
anything else gets black's full treatment.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import black

FMT_OFF = "# fmt: off\n"
"""The line that opens the verbatim region (at the start of a line)."""

FMT_ON = "# fmt: on\n"
"""The line that closes it."""

PLACEHOLDER = "_toolgen_verbatim_region_ = None\n"
"""What black sees instead of the region: one short statement, as the region holds statements."""

MARKED = FMT_OFF + PLACEHOLDER + FMT_ON
"""The region as black sees it, markers included."""


class InvalidSource(ValueError):
    """Black could not parse a text (its `InvalidInput`, raised again under toolgen's name so that no
    caller imports black to catch it)."""


def fixed_mode() -> black.Mode:
    """The fixed black mode of every generated Python file: a project's own black configuration is
    never read. Black is imported here, on first use, not with the target: a build that formats
    nothing (or only after its other targets went to a forked process) never waits for its import."""
    import black
    from black.mode import TargetVersion

    return black.Mode(
        target_versions={TargetVersion.PY311},
        line_length=88,
        string_normalization=True,
        is_pyi=False,
        magic_trailing_comma=True,
        preview=False,
    )


def full(source: str, mode: black.Mode) -> str:
    """Black over the whole text, as `black` itself formats a file (the reference the shortcut must equal)."""
    import black
    from black.parsing import InvalidInput

    try:
        return black.format_str(source, mode=mode)
    except InvalidInput as exc:
        raise InvalidSource(str(exc)) from exc


def one_pass(source: str, mode: black.Mode) -> str:
    """Black's first pass only. `black.format_str` makes a second pass whenever the first changed the
    text, to settle code whose first result black would still change (optional parentheses meeting
    trailing commas it added); on model code the first result is final, so the second pass only
    doubles the cost (tests hold the two equal over every tool of the corpora)."""
    import black
    from black.parsing import InvalidInput

    try:
        return black._format_str_once(source, mode=mode)  # black is pinned exactly
    except InvalidInput as exc:
        raise InvalidSource(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class Split:
    """A text as `format_source` has black see it: the head black keeps, the body it formats and,
    when the body's verbatim region may be swapped out, the one text black's single pass formats."""

    prefix: str
    """The head as black leaves it, with the blank lines black puts after it ("" when there is none)."""
    body: str
    """What black formats: the rest of the text."""
    shown: str | None = None
    """The body with its verbatim region as a placeholder (None: black formats the whole body)."""
    region: str = ""
    """The region's text, put back where the placeholder comes out."""


def split(source: str) -> Split:
    """`source` cut as `format_source` cuts it."""
    head = _head(source)
    prefix, body = "", source
    if head is not None:
        # black keeps the head as it is, then puts two blank lines before a class and one before any
        # other first statement (one line after imports: stable since black 25.1)
        body = source[head:]
        gap = 2 if body.startswith(("class ", "def ", "@")) else 1
        prefix = source[:head].rstrip("\n") + "\n" * (gap + 1)
    region = _region(body)
    if region is None:
        return Split(prefix, body)
    start, end = region
    shown = body[: start - len(FMT_OFF)] + MARKED + body[end + len(FMT_ON) :]
    return Split(prefix, body, shown, body[start:end])


def put_back(cut: Split, formatted: str, mode: black.Mode | None = None) -> str:
    """The formatted text from black's one pass over `cut.shown` (`formatted`): the region back in
    the placeholder's place, or black over the whole body (in `mode`, else `fixed_mode()`) when
    the placeholder did not come out exactly once at the start of a line."""
    at = formatted.find(MARKED)
    if at < 0 or (at > 0 and formatted[at - 1] != "\n") or formatted.find(MARKED, at + 1) >= 0:
        return cut.prefix + full(cut.body, mode or fixed_mode())
    return cut.prefix + formatted[: at + len(FMT_OFF)] + cut.region + formatted[at + len(FMT_OFF) + len(PLACEHOLDER) :]


def format_source(source: str, mode: black.Mode) -> str:
    """`source` formatted by black in `mode`, byte-identical to `full(source, mode)`."""
    cut = split(source)
    if cut.shown is None:
        return cut.prefix + full(cut.body, mode)
    return put_back(cut, one_pass(cut.shown, mode), mode)


_COMMENT = re.compile(r"# [^\t\r\f\v]*[^\s]")
_DOCSTRING = re.compile(r'"""[^"\\\t\r\f\v]*[^"\\\s]"""')
_IMPORT = re.compile(r"import [\w.]+|from \.*[\w.]* import (\w+( as \w+)?(, \w+)*|\()")
_IMPORTED = re.compile(r"    \w+( as \w+)?,")


def _head(source: str) -> int | None:
    """Where the first statement after a head black keeps as it is starts; None when the source
    does not start with such a head.

    The head is what toolgen writes above a tool's models: `# ` comment lines, a one-line docstring
    and one blank line after it, then import lines (`from m import (` exploded one name a line),
    at most two blank lines in a row, every line within black's line length.
    """
    lines = source.split("\n")
    at = _after_docstring(lines)
    end = _first_statement_after_imports(lines, at) if at is not None else None
    return None if end is None else sum(len(text) + 1 for text in lines[:end])


def _after_docstring(lines: list[str]) -> int | None:
    at = 0
    while at < len(lines) and _COMMENT.fullmatch(lines[at]):
        if lines[at].startswith(("# fmt:", "# yapf:")):
            return None  # a directive to black
        at += 1
    if at + 2 >= len(lines) or not _DOCSTRING.fullmatch(lines[at]) or lines[at + 1] or not lines[at + 2]:
        return None  # black wants exactly one blank line after a module docstring
    return at + 2


def _first_statement_after_imports(lines: list[str], at: int) -> int | None:
    imports = blanks = 0
    while at < len(lines):
        line = lines[at]
        if line[:1].isalpha() and not line.startswith(("from ", "import ")) and imports and blanks:
            return at
        if line:
            if not _IMPORT.fullmatch(line) or len(line) > 88:
                return None
            if line.endswith("("):
                at += 1
                while at < len(lines) and _IMPORTED.fullmatch(lines[at]):
                    at += 1
                if at >= len(lines) or lines[at] != ")":
                    return None
            imports += 1
            blanks = 0
        elif blanks == 2:
            return None
        else:
            blanks += 1
        at += 1
    return None


def _region(source: str) -> tuple[int, int] | None:
    """Start and end offsets of the one verbatim region's body, or None when the shortcut is not safe."""
    opened = _line_at(source, FMT_OFF)
    closed = _line_at(source, FMT_ON)
    if opened is None or closed is None or closed < opened:
        return None
    start = opened + len(FMT_OFF)
    body = source[start:closed]
    if not body or PLACEHOLDER in source or not _plain(body) or not _outside_strings(source[:opened]):
        return None
    return start, closed


def _line_at(source: str, line: str) -> int | None:
    """The offset of the one occurrence of `line` as a whole line, else None (absent or repeated)."""
    hits = [i for i in _find_all(source, line) if i == 0 or source[i - 1] == "\n"]
    return hits[0] if len(hits) == 1 and source.count(line.strip()) == 1 else None


def _find_all(source: str, text: str) -> list[int]:
    found: list[int] = []
    at = source.find(text)
    while at >= 0:
        found.append(at)
        at = source.find(text, at + 1)
    return found


def _plain(body: str) -> bool:
    """Region text black copies as it is: top-level statements (a class body indented under its
    header), no trailing blanks, only one-line triple-quoted strings, no backslash continuations."""
    if "'''" in body or "\\\n" in body or "\t" in body or "\r" in body or "\f" in body:
        return False
    lines = body.split("\n")
    if lines[-1] != "" or len(lines) < 2 or not lines[0][:1].isidentifier() or lines[-2][:1] in ("", " "):
        return False
    return all(line == line.rstrip() and line.count('"""') % 2 == 0 for line in lines[:-1])


def _outside_strings(before: str) -> bool:
    """The text before the region closes every triple-quoted string it opens (so the markers are code)."""
    return before.count('"""') % 2 == 0 and before.count("'''") % 2 == 0


def format_masked(source: str, varying: str, formatted: Callable[[str], str]) -> str:
    """`formatted(source)` (black, remembered per text), where the one occurrence of `varying` (the
    catalog digest in the header comment of `__init__.py`, new whenever any contract changes) is
    swapped for a mark of the same length before black sees it, and put back after: black copies
    the text of a comment line as it is, so the bytes are the same, and the formatted text is
    remembered across builds that change no tool name. Anything else (no digest, twice, not on a
    comment line of its own, the mark not coming back exactly once) formats the text itself."""
    mark = "Z" * len(varying)
    if not varying or source.count(varying) != 1 or mark in source or not _on_comment_line(source, varying):
        return formatted(source)
    done = formatted(source.replace(varying, mark))
    if done.count(mark) != 1:
        return formatted(source)
    return done.replace(mark, varying)


def _on_comment_line(source: str, text: str) -> bool:
    """Whether `text` (no whitespace in it) sits on a line that is a `#` comment from its start."""
    at = source.index(text)
    line = source[source.rfind("\n", 0, at) + 1 : at]
    return line.lstrip(" ").startswith("#") and not any(ch.isspace() for ch in text)


__all__ = ["FMT_OFF", "FMT_ON", "PLACEHOLDER", "format_masked", "format_source", "full", "one_pass"]
