"""The one-line summaries `toolgen build` and `check` print: the command line's, and the quick
answer's (`toolgen.quick`), which prints them before the command line is even loaded."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 file`, `2 files`; `many` for nouns that do not just take an s."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def built_line(
    contracts: int,
    out: str,
    *,
    unchanged: int,
    written: Sequence[str] = (),
    removed: Sequence[str] = (),
    seconds: float,
    fast: bool = False,
) -> str:
    """The summary of a successful build."""
    line = f"{plural(contracts, 'contract')}: "
    if not written and not removed:
        line += f"nothing changed, {plural(unchanged, 'file')} in {out}/ up to date"
    else:
        line += f"{plural(len(written), 'file')} written, {unchanged} unchanged, {len(removed)} removed in {out}/"
    return line + (f" (no input changed since the last build; {seconds:.2f}s)" if fast else f" ({seconds:.2f}s)")


def current_line(out: str, files: int, *, fast: bool) -> str:
    """The summary of a check that found the output current (`fast`: by the no-change shortcut)."""
    return f"{out}/ is up to date ({plural(files, 'file')}{'; no input changed since the last build' if fast else ''})"
