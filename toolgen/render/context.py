"""What a target is given besides the catalog and the settings: how to run its work, what others made.

A target is plain: it declares its units of work and what each depends on (`toolgen.render.units`)
and which of its work may run apart (`Executor.map`, `map_batches`), and the executor decides how.
`Executor` is the one interface and its plain behaviour: `PLAIN` makes everything here, in order,
keeping nothing, so library use and tests get the same bytes as a build. The incremental layer
(`toolgen.incremental`) hands a build its subclass that remembers, forks and tracks; no target
imports it.

What one target needs from another is passed here too: the providers' declarations and notes,
shown in the docs (`Declarations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from toolgen.render.artifact import Artifact, File
from toolgen.render.units import Either, Files, Table, Values, as_text

T = TypeVar("T")
R = TypeVar("R")

Notes = Mapping[str, tuple[str, ...]]
"""Per tool name, what a reader should know about its provider declarations."""


class Executor:
    """How a target's declared units of work run (`toolgen.render.units`): this class makes every
    unit here, in order, and keeps nothing. The incremental layer hands a build a subclass that
    reads units back from an earlier build, leaves files unread and spreads work over processes
    (`toolgen.incremental.executor.Building`); the target never knows which it has, and both give
    the same bytes."""

    @property
    def jobs(self) -> int:
        """How many processes work may be spread over (here 1: everything runs here)."""
        return 1

    def run(self, units: Values[T, R], items: Sequence[T]) -> list[R]:
        """Each item's unit value, in order: `units.make(items)`."""
        return list(units.make(items))

    def files(self, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
        """Each item's file (at `units.path_of(item)`) and its extra value, in order: made."""
        made = units.make(items)
        return [
            (Artifact(units.path_of(i), text), units.decode_extra(x)) for i, (text, x) in zip(items, made, strict=True)
        ]

    def table(self, units: Table[T, R], items: Sequence[T]) -> list[R]:
        """Each item's small value, in order: `units.make(items)`."""
        return list(units.make(items))

    def joined(self, path: str, pieces: Iterable[str]) -> File:
        """The file at `path` whose text is `pieces` joined, for a target that writes one large file
        a piece at a time: here an `Artifact` of the joined text (a large build holds it packed as the
        pieces come, never joined)."""
        return Artifact(path, "".join(pieces))

    def either(self, ways: Either[R]) -> R:
        """One of two ways to the same result: `ways.whole()` here, where no unit is remembered."""
        return ways.whole()

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`[fn(x) for x in items]`, in input order."""
        return [fn(item) for item in items]

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`fn` over consecutive batches of at most `size` items, one result per item, in order;
        `during` runs here while the batches are made (here: before them)."""
        if during is not None:
            during()
        step = max(1, size)
        return [result for start in range(0, len(items), step) for result in fn(items[start : start + step])]


PLAIN = Executor()
"""The shared plain executor (it holds no state)."""


@dataclass(frozen=True, slots=True)
class Declarations:
    """What the docs show of the providers: per tool, each file's declaration of it, and the notes.

    `tools[name]` holds `(file, text)` pairs in `FILES` order, each text the declaration the file
    holds for that tool as `json.dumps(indent=2, ensure_ascii=False)` writes it (a tool a provider
    leaves out has no pair for it).
    """

    tools: Mapping[str, tuple[tuple[str, str], ...]]
    notes: Mapping[str, tuple[str, ...]]
    identity: Mapping[str, str] | None = None
    """Per tool, a text that decides its declarations and notes (what the providers' build cache
    keys the tool's part on), when there is one: a docs page is then keyed on it rather than on
    10 kB of declaration texts."""


@dataclass(frozen=True, slots=True)
class RenderContext:
    """Given to every target of one build: its executor, and the providers' declarations once known."""

    executor: Executor = PLAIN
    declarations: Declarations | None = None
    """The providers target's declarations and notes for this catalog and settings (handed over when
    it ran before the docs in the same build); None: the docs target computes them."""


PLAIN_CONTEXT = RenderContext()
"""The context of a target called on its own (library use, tests)."""


__all__ = ["PLAIN", "PLAIN_CONTEXT", "Declarations", "Executor", "Notes", "RenderContext", "as_text"]
