"""TG221: a `pattern` that could keep the generated registry busy for minutes.

The generated registry matches `pattern` and `patternProperties` on RE2, whose time grows linearly
with the text (`toolgen/runtime/_patterns.py`); a pattern RE2 cannot read (a backreference, a
lookaround, a repetition past 1000) falls back to Python's backtracking `re`. Such a pattern with a
quantifier inside a quantified group (`^(a+)+$` with a lookahead added, `(\\w+\\s?)*\\1`) can take
exponential time on a short text a model writes, so it is reported; a pattern RE2 reads, or one
without nested quantifiers, is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from re import _parser as sre_parse  # type: ignore[attr-defined,unused-ignore]  # the parser `re` itself uses
from typing import Any

from toolgen.positions import join
from toolgen.runtime._patterns import linear
from toolgen.validate.report import Reporter

_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})


def check_patterns(here: str, node: Mapping[str, object], report: Reporter) -> None:
    """TG221 for the `pattern` and each `patternProperties` key of one schema object."""
    found: list[tuple[str, str]] = []
    pattern = node.get("pattern")
    if isinstance(pattern, str):
        found.append((join(here, "pattern"), pattern))
    keyed = node.get("patternProperties")
    if isinstance(keyed, Mapping):
        found.extend((join(here, "patternProperties", key), key) for key in keyed if isinstance(key, str))
    for where, pattern in found:
        if linear(pattern) is None and nested_quantifier(pattern):
            report(
                "TG221",
                where,
                f"pattern {pattern!r} repeats a group that itself repeats, and RE2 cannot run it, so the "
                "registry matches it with Python's backtracking `re`: a short text can take minutes; "
                "drop the backreference or lookaround (RE2 runs in linear time) or the nested quantifier",
            )


def nested_quantifier(pattern: str) -> bool:
    """True when a repeated part of `pattern` holds another unbounded or large repeat (`(a+)+`, `(a*b?)*`)."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        return False  # `re` cannot read it either: the registry refuses to match it, it never hangs
    return _nested(list(parsed), inside=False)


def _nested(items: Iterable[Any], inside: bool) -> bool:
    for op, arg in items:
        name = str(op)
        if name in _REPEATS:
            _low, high, body = arg
            many = high is sre_parse.MAXREPEAT or high > 1
            if many and inside:
                return True
            if _nested(list(body), inside or many):
                return True
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            if _nested(list(arg[-1]), inside):
                return True
        elif name == "BRANCH":
            if any(_nested(list(branch), inside) for branch in arg[1]):
                return True
        elif name in ("ASSERT", "ASSERT_NOT") and _nested(list(arg[1]), inside):
            return True
    return False
