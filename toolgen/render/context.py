"""What a target is given besides the catalog and the settings: how to run its work, what others made.

A target is plain: it declares its units of work and what each depends on (`toolgen.render.units`)
and which of its work may run apart (`Executor.map`, `map_batches`), and the executor decides how.
`PLAIN` makes everything here, in order, keeping nothing: library use and tests get the same bytes
as a build. The incremental layer (`toolgen.incremental`) brings the executor that remembers, forks
and tracks; no target imports it.

What one target needs from another is passed here too: the providers' declarations and notes,
shown in the docs (`Declarations`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from toolgen.render.artifact import Artifact, File
from toolgen.render.units import Files, Table, Units, Values, as_text

T = TypeVar("T")
R = TypeVar("R")

Notes = Mapping[str, tuple[str, ...]]
"""Per tool name, what a reader should know about its provider declarations."""


class Executor(Protocol):
    """How a target's declared units of work run (`toolgen.render.units`): made here, read back from
    an earlier build, or spread over processes. The target never knows which."""

    def __hash__(self) -> int:
        """Executors are hashable."""

    @property
    def incremental(self) -> bool:
        """Whether units may be read back from an earlier build (a target may then split its work
        per tool, where one pass over the catalog is cheaper when everything is made)."""

    @property
    def jobs(self) -> int:
        """How many processes work may be spread over (1: everything runs here)."""

    def run(self, units: Values[T, R], items: Sequence[T]) -> list[R]:
        """Each item's unit value, in order: `units.make` over the items whose unit is not known."""

    def files(self, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
        """Each item's file (at `units.path_of(item)`) and its extra value, in order."""

    def table(self, units: Table[T, R], items: Sequence[T]) -> list[R]:
        """Each item's small value, in order, kept together under `units.shared`."""

    def keep(self, units: Units[T], items: Sequence[T]) -> None:
        """The units of `items` stay known for later builds although this one did not need them
        (what making a file the executor left unread would have used: its next change needs them)."""

    def pending(self, units: Units[T], items: Sequence[T]) -> int:
        """How many of `items`' units `run` would make now (all of them when nothing is known):
        a target chooses by it between spreading its whole work and making a few units here."""

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`[fn(x) for x in items]`, in input order."""

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`fn` over consecutive batches of at most `size` items, one result per item, in order;
        `during` runs here while the batches are made (before them, when nothing runs apart)."""


class Plain:
    """The executor that makes every unit here, in order, and keeps nothing."""

    incremental = False
    jobs = 1

    def run(self, units: Values[T, R], items: Sequence[T]) -> list[R]:
        """`units.make(items)`."""
        return list(units.make(items))

    def files(self, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
        """Each item's file, made."""
        made = units.make(items)
        return [
            (Artifact(units.path_of(i), text), units.decode_extra(x)) for i, (text, x) in zip(items, made, strict=True)
        ]

    def table(self, units: Table[T, R], items: Sequence[T]) -> list[R]:
        """`units.make(items)`."""
        return list(units.make(items))

    def keep(self, units: Units[T], items: Sequence[T]) -> None:
        """Nothing to keep."""

    def pending(self, units: Units[T], items: Sequence[T]) -> int:
        """All of them: nothing is known."""
        return len(items)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`[fn(x) for x in items]`."""
        return [fn(item) for item in items]

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`fn` over each batch in turn, after `during`."""
        if during is not None:
            during()
        step = max(1, size)
        return [result for start in range(0, len(items), step) for result in fn(items[start : start + step])]


PLAIN = Plain()
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


__all__ = ["PLAIN", "PLAIN_CONTEXT", "Declarations", "Executor", "Notes", "Plain", "RenderContext", "as_text"]
