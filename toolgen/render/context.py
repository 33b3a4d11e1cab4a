"""What a target is given besides the catalog and the settings: how to run its work, what others made.

A target is plain: it says which of its computations may be remembered (`Executor.memo_many`, with
the parts of the key that decide each entry) and which may run apart (`Executor.map`,
`map_batches`), and the executor decides how. `PLAIN` runs everything here, in order, remembering
nothing: library use and tests get the same bytes as a build. The incremental layer (`toolgen.incremental`)
brings the executor that caches, forks and tracks; no target imports it.

What one target needs from another is passed here too: the providers' declarations and notes,
shown in the docs (`Declarations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from toolgen.render.artifact import Artifact, File

T = TypeVar("T")
R = TypeVar("R")

Notes = Mapping[str, tuple[str, ...]]
"""Per tool name, what a reader should know about its provider declarations."""


class Executor(Protocol):
    """How a target's work runs: remembered between builds, spread over processes, or neither."""

    def __hash__(self) -> int:
        """Executors are hashable: a memo of a pure function may take one as an argument."""

    @property
    def caching(self) -> bool:
        """Whether `memo_many` remembers results (a target may then split its work per tool)."""

    @property
    def jobs(self) -> int:
        """How many processes work may be spread over (1: everything runs here)."""

    def memo_many(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
        raw: bool = False,
    ) -> list[R]:
        """`compute_many(items)`; an item whose key (`namespace` and `parts_of(item)`) was computed
        before may be read back instead (`encode` makes a value JSON data, `decode` reverses it).
        With `raw`, `encode` makes a text, kept as it is, and `decode` gets that text back: a long
        text costs more to decode from a JSON string than everything else of reading it."""

    def memo_files(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        path_of: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[tuple[str, Any]]],
        decode_extra: Callable[[Any], Any] = ...,
    ) -> list[tuple[File, Any]]:
        """Per item the file at `path_of(item)` whose text `compute_many` gives, with the JSON-able
        `extra` value that came with it; an item whose key (`namespace`, `parts_of(item)`) was
        computed before may be neither computed nor read (the build layer knows its file's digest,
        and `decode_extra` reads the extra it kept)."""

    def memo_table(
        self,
        namespace: str,
        shared: Iterable[str],
        items: Sequence[T],
        *,
        item_key: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
    ) -> list[R]:
        """`compute_many(items)`; the values of items whose `item_key` was computed before under the
        same `namespace` and `shared` may be read back instead, all of them from one place (a small
        value per tool; `shared` and an item's key must decide its value)."""

    def keep(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> None:
        """Keep the entries of `items` for later builds without reading them (what a computation
        `memo_files` left unread would have read: the next change to it may need them)."""

    def unknown(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> int:
        """How many of `items` `memo_many` would compute now (all of them when nothing is remembered):
        a target chooses by it between spreading its whole work and computing a few items here."""

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
    """The executor that runs everything here, in order, and remembers nothing."""

    caching = False
    jobs = 1

    def memo_many(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
        raw: bool = False,
    ) -> list[R]:
        """`compute_many(items)`."""
        return list(compute_many(items))

    def memo_files(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        path_of: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[tuple[str, Any]]],
        decode_extra: Callable[[Any], Any] = lambda extra: extra,
    ) -> list[tuple[File, Any]]:
        """Each item's file, computed."""
        made = compute_many(items)
        return [(Artifact(path_of(i), text), decode_extra(x)) for i, (text, x) in zip(items, made, strict=True)]

    def memo_table(
        self,
        namespace: str,
        shared: Iterable[str],
        items: Sequence[T],
        *,
        item_key: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
    ) -> list[R]:
        """`compute_many(items)`."""
        return list(compute_many(items))

    def keep(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> None:
        """Nothing to keep."""

    def unknown(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> int:
        """All of them: nothing is remembered."""
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


def as_text(data: Any) -> str:
    """A remembered value that must be text: the `decode` of every text-valued `memo_many`."""
    if not isinstance(data, str):
        raise TypeError("cached value is not text")
    return data
