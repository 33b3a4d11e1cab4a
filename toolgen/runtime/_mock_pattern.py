# The toolgen runtime's _mock_pattern.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Strings that match a regular expression, for the mocks' output synthesizer (`_mock_synth`).

Needs only the standard library. `from_pattern(pattern, extra)` walks the parsed expression and
takes, at each step, the simplest thing that matches: a literal, the first character of a class,
the first branch, and each repeat its minimum count (plus `extra` when it is unbounded). The result
is checked with `re.search`; `None` means no string was found this way.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as c
    import sre_parse

MAX_REPEAT = 1000
"""The most times one repeat is expanded."""

_SKIPPED = (c.AT, c.ASSERT, c.ASSERT_NOT)
_REPEATS = tuple(
    op
    for op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None))
    if op is not None
)


class _Unsupported(ValueError):
    """A part of the expression this walker does not expand."""


def from_pattern(pattern: str, extra: int = 0) -> str | None:
    """A string that `re.search(pattern, ...)` accepts, or None when none is found this way."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    try:
        text = _Walker(extra).walk(parsed.data)
    except (_Unsupported, TypeError, ValueError, IndexError, RecursionError):
        return None
    return text if re.search(pattern, text) else None


class _Walker:
    """Expands a parsed expression into one matching string."""

    def __init__(self, extra: int) -> None:
        self.extra = extra
        self.groups: dict[int, str] = {}

    def walk(self, items: Sequence[tuple[Any, Any]]) -> str:
        """The string for a sequence of parsed items."""
        return "".join(self.item(op, av) for op, av in items)

    def item(self, op: Any, av: Any) -> str:  # noqa: PLR0911 (one return per opcode)
        """The string for one parsed item."""
        if op is c.LITERAL:
            return chr(av)
        if op is c.NOT_LITERAL:
            return "a" if av != ord("a") else "b"
        if op is c.ANY:
            return "a"
        if op is c.IN:
            return _in_class(av)
        if op in _REPEATS:
            return self.repeat(*av)
        if op is c.SUBPATTERN:
            text = self.walk(av[-1])
            if av[0] is not None:
                self.groups[av[0]] = text
            return text
        if op is c.BRANCH:
            return self.walk(av[1][0])
        if op is c.GROUPREF:
            return self.groups.get(av, "")
        if op is c.CATEGORY:
            return _category(av)
        if op in _SKIPPED:
            return ""
        raise _Unsupported(f"unsupported regular expression part {op}")

    def repeat(self, low: int, high: int, sub: Sequence[tuple[Any, Any]]) -> str:
        """A repeat taken its minimum count, plus `extra` times when it has no maximum."""
        unbounded = high == c.MAXREPEAT
        times = min(low + self.extra if unbounded else low, MAX_REPEAT)
        return "".join(self.walk(sub) for _ in range(times))


def _in_class(items: Sequence[tuple[Any, Any]]) -> str:
    if items and items[0][0] is c.NEGATE:
        return _outside(items[1:])
    for op, av in items:
        if op is c.LITERAL:
            return chr(av)
        if op is c.RANGE:
            return chr(av[0])
        if op is c.CATEGORY:
            return _category(av)
    return "a"


def _outside(items: Sequence[tuple[Any, Any]]) -> str:
    excluded: set[int] = set()
    for op, av in items:
        if op is c.LITERAL:
            excluded.add(av)
        elif op is c.RANGE:
            excluded.update(range(av[0], av[1] + 1))
    for code in (
        *range(ord("a"), ord("z") + 1),
        *range(ord("0"), ord("9") + 1),
        ord("_"),
        ord("~"),
    ):
        if code not in excluded:
            return chr(code)
    return "\u00e9"


def _category(av: Any) -> str:
    table = {
        c.CATEGORY_DIGIT: "0",
        c.CATEGORY_NOT_DIGIT: "a",
        c.CATEGORY_SPACE: " ",
        c.CATEGORY_NOT_SPACE: "a",
        c.CATEGORY_WORD: "a",
        c.CATEGORY_NOT_WORD: "-",
    }
    return table.get(av, "a")


__all__ = ["MAX_REPEAT", "from_pattern"]
