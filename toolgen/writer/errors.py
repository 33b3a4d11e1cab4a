"""Why the output folder was not written: the one exception the writer raises for it.

Its own module, which imports only the diagnostics: the command line catches it without loading the
writer (a no-change build never does)."""

from __future__ import annotations

from collections.abc import Sequence

from toolgen.diagnostics import Diagnostic, format_text


class WriteError(Exception):
    """The output folder cannot be updated safely; nothing was written.

    `diagnostics` holds the coded refusals (TG132 to TG135), when the reason is one of them."""

    def __init__(self, problem: str | Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = () if isinstance(problem, str) else tuple(problem)
        self.notes: list[str] = []
        """What the build completed before it stopped (an interrupted build's update, `update`)."""
        super().__init__(problem if isinstance(problem, str) else "\n".join(map(format_text, self.diagnostics)))
