"""`markdown.escape_inline` finds what it escapes with a regex; it must escape exactly what a walk
over every character of the text did (kept here as the reference)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.render import markdown

_ALWAYS = frozenset("\\`*[]|~")
_ENTITY = re.compile(r"&(?=#?\w+;)")
_ORDERED = re.compile(r"^(\d+)([.)])")


def _reference(text: str, *, line_start: bool = True) -> str:
    chars = []
    for index, ch in enumerate(text):
        inside = 0 < index < len(text) - 1 and text[index - 1].isalnum() and text[index + 1].isalnum()
        opens = index + 1 >= len(text) or re.match(r"[A-Za-z/!?]", text[index + 1]) is not None
        if ch in _ALWAYS or (ch == "_" and not inside) or (ch == "<" and opens):
            chars.append("\\" + ch)
        else:
            chars.append(ch)
    out = _ENTITY.sub("\\&", "".join(chars))
    if not line_start:
        return out
    if out[:1] in frozenset("#>-+="):
        out = "\\" + out
    return _ORDERED.sub(r"\1\\\2", out)


MARKUP = st.text(alphabet=st.sampled_from(list("ab1_<>&;#`*[]|~\\-+=. /!?é")), max_size=30)


@given(MARKUP, st.booleans())
def test_it_escapes_what_a_walk_over_each_character_escaped(text: str, line_start: bool) -> None:
    assert markdown.escape_inline(text, line_start=line_start) == _reference(text, line_start=line_start)


@given(st.text(max_size=60), st.booleans())
def test_any_text_too(text: str, line_start: bool) -> None:
    assert markdown.escape_inline(text, line_start=line_start) == _reference(text, line_start=line_start)


def test_names_stay_readable_and_markup_stays_text() -> None:
    assert markdown.escape_inline("read_file", line_start=False) == "read_file"
    assert markdown.escape_inline("_x_ <b> a<=b &amp;") == "\\_x\\_ \\<b> a<=b \\&amp;"


WORDS = st.lists(
    st.text(alphabet=st.sampled_from(list("ab1_<>&;#`*[]|~\\-+=.)/!?é")), min_size=1, max_size=12), max_size=40
)


def _rendered(text: str) -> str:
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(text)
    return " ".join(html.split())


@settings(deadline=None)
@given(WORDS, st.booleans())
def test_breaking_long_lines_never_changes_what_renders(words: list[str], item: bool) -> None:
    """`wrap_page` breaks a long line only where the rest cannot open a block or end a code span:
    the page renders the same, soft breaks read as spaces."""
    line = ("- " if item else "") + markdown.block(" ".join(words) + " " + "word " * 30).replace("\n", " ")
    wrapped = markdown.wrap_page(line, width=40)
    if not line.lstrip("- ").startswith(("<", "`")):  # one that starts like HTML or a fence is left alone
        assert len(wrapped.split("\n")) > 1  # the plain words at the end can always be broken
    assert _rendered(wrapped).replace("\n", " ") == _rendered(line)


@settings(deadline=None)
@given(WORDS)
def test_one_sentence_a_line_renders_the_authors_paragraph(words: list[str]) -> None:
    text = ". ".join(" ".join(words[i : i + 3]).capitalize() for i in range(0, len(words), 3))
    assert _rendered(markdown.block(text)) == _rendered(markdown.block(text).replace("\n", " "))
