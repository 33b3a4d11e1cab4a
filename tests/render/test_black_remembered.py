"""The suite's memory of black (tests/conftest.py): the answers of black itself, each text formatted once."""

from __future__ import annotations

import os
from typing import Any

import black
import pytest

from tests.conftest import _remembered
from toolgen.render.python_format import fixed_mode


@pytest.mark.skipif(os.environ.get("TOOLGEN_TEST_BLACK") == "fresh", reason="TOOLGEN_TEST_BLACK=fresh turns it off")
def test_black_is_remembered_in_this_process() -> None:
    assert getattr(black.format_str, "__wrapped__", None) is not None
    assert getattr(black._format_str_once, "__wrapped__", None) is not None


def test_a_text_is_formatted_once_per_mode_and_the_answer_is_blacks() -> None:
    calls: list[tuple[str, Any]] = []
    fresh = getattr(black.format_str, "__wrapped__", black.format_str)

    def counted(src_contents: str, *, mode: Any, lines: Any = ()) -> str:
        calls.append((src_contents, lines))
        return str(fresh(src_contents, mode=mode, lines=lines))

    remembered = _remembered(counted)
    text = "x = ( 1, )\ndef f( a ):\n  return a\n"
    first = remembered(text, mode=fixed_mode())
    assert first == fresh(text, mode=fixed_mode()) and first != text
    assert remembered(text, mode=fixed_mode()) == first
    assert len(calls) == 1
    narrow = black.Mode(line_length=20)
    assert remembered(text, mode=narrow) == fresh(text, mode=narrow)
    assert len(calls) == 2
    remembered(text, mode=fixed_mode(), lines=[(1, 1)])
    remembered(text, mode=fixed_mode(), lines=[(1, 1)])
    assert len(calls) == 4, "a line range is passed through, never answered from memory"
