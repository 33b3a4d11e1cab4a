"""The reporter a validation pass writes into: code, pointer and message in, located diagnostics out.

Shared by the validation modules (`validate`, `schemacheck`, `lint`) so each rule only says what is
wrong, where (an RFC 6901 pointer) and how to fix it; the file, position and default severity are
filled in here.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field

from toolgen import rules
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.positions import Locate

MAX_MESSAGE = 500
"""Longer messages (a huge value quoted by jsonschema) are cut to this many characters."""


@dataclass
class Reporter:
    """Collects the diagnostics of one contract file."""

    file: str
    locate: Locate
    found: list[Diagnostic] = field(default_factory=list)

    def __call__(self, code: str, pointer: str, message: str, at: tuple[int, int] | None = None) -> None:
        """Report rule `code` at `pointer` with `message` (what is wrong and how to fix it).

        `at` overrides the (line, column) found from the pointer.
        """
        rule = rules.get(code)
        severity = rule.severity if rule is not None else Severity.ERROR
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        line, column = at or self.locate(pointer)
        self.found.append(Diagnostic(code, severity, message, self.file, pointer, line, column))

    def codes(self) -> set[str]:
        """The codes reported so far."""
        return {d.code for d in self.found}


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """`; did you mean 'x'?` for the closest choice, or an empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""


def type_name(value: object) -> str:
    """The JSON/TOML name of a Python value's type, for messages."""
    for kind, name in _TYPE_NAMES:
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__


_TYPE_NAMES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "a boolean"),
    ((int, float), "a number"),
    (str, "a string"),
    (list, "an array"),
    (dict, "a table/object"),
)
