"""Units of work, declared by the targets: what each unit is made from, never how it is kept.

A target states, once per kind of work, its units (one per tool, per group of tools, per text) and
what each depends on (`depends_on`: the texts that decide its value, such as a contract's file and
digest, the settings' fingerprint, a template digest), and how a batch of them is made. It hands the
declaration and the items to its executor (`context.Executor.run`, `files`, `table`), which decides
whether a unit is made now, read back from an earlier build, or left unread: that is the
incremental layer's business (`toolgen.incremental`, which adds toolgen's own source and the pinned
versions to every key). The plain executor makes every unit, so a target's bytes never depend on it.

Two more things are declared, never asked: which other units a unit is made again from when its
inputs next change (`remade_from`: the layer keeps those for the next build whenever it does not
make this one), and, for work that pays to split into units only when units can be remembered, both
ways to its result (`Either`: the executor takes one).

A unit's value must be a function of what it depends on: the byte-identity tests (a cold build
against a warm one, tests/incremental/) hold every declaration to that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


Unit = tuple["Values[Any, Any]", Any]
"""One unit of a declaration: the declaration (its `make` may be `never`) and the item it is of."""


def same(value: Any) -> Any:
    """A value kept as it is (the default encoding: JSON data already)."""
    return value


def as_text(data: Any) -> str:
    """A value that must be text (the decoding of every text-valued unit)."""
    if not isinstance(data, str):
        raise TypeError("cached value is not text")
    return data


def no_units(*of: object) -> tuple[Unit, ...]:
    """No other units (the default `remade_from`)."""
    return ()


def never(todo: Sequence[object]) -> list[Any]:
    """The `make` of a declaration whose units are only named (in a `remade_from`), never made here."""
    raise AssertionError("units named only to be kept are never made")


@dataclass(frozen=True, slots=True)
class Values(Generic[T, R]):
    """Units whose results are values, one per item: `make` makes a batch of them.

    `encode` turns a value into JSON data (with `raw`, into a text kept as it is: a long text costs
    more to decode from a JSON string than everything else of reading it) and `decode` reverses it,
    raising `TypeError`/`ValueError` for data of the wrong shape. `remade_from(item)`: the other
    units the item's value is made from when its inputs next change (a run of tools: each tool's
    part), kept for the next build whenever this one did not make it."""

    kind: str
    depends_on: Callable[[T], Iterable[str]]
    make: Callable[[Sequence[T]], Sequence[R]]
    encode: Callable[[R], Any] = same
    decode: Callable[[Any], R] = same
    raw: bool = False
    remade_from: Callable[[T], Iterable[Unit]] = no_units
    resident: bool = False
    """True when nothing changes a value once it is made (a text, a frozen object): a process that
    builds the project again may then keep the values in memory between its builds."""


@dataclass(frozen=True, slots=True)
class Files(Generic[T]):
    """Units whose results are generated files, one per item: `make` gives each file's text and a
    small JSON-able `extra` value (its diagnostics); `decode_extra` checks an extra read back.
    `remade_from(item, extra)` (the extra decoded): the other units the item's file is made from
    when its inputs next change (a tool module: its models, black's pass over it), kept for the
    next build whenever this one did not make the file.

    The incremental layer may hand back a file it neither made nor read (it knows its digest)."""

    kind: str
    depends_on: Callable[[T], Iterable[str]]
    path_of: Callable[[T], str]
    make: Callable[[Sequence[T]], Sequence[tuple[str, Any]]]
    decode_extra: Callable[[Any], Any] = same
    remade_from: Callable[[T, Any], Iterable[Unit]] = no_units


@dataclass(frozen=True, slots=True)
class Table(Generic[T, R]):
    """Small values, one per item, that every build needs of every tool: kept together under
    `shared` (which, with an item's `item_key`, must decide its value)."""

    kind: str
    shared: tuple[str, ...]
    item_key: Callable[[T], str]
    make: Callable[[Sequence[T]], Sequence[R]]
    encode: Callable[[R], Any] = same
    decode: Callable[[Any], R] = same
    resident: bool = False
    """As `Values.resident`: the decoded values may be kept in memory between builds."""


@dataclass(frozen=True, slots=True)
class Either(Generic[R]):
    """Two ways to the same result, for work that pays to split into declared units only when
    units can be remembered: `whole`, one pass that keeps nothing (and may hold less at once), and
    `by_units`, the same work through declared units. The executor takes one (`Executor.either`);
    the byte-identity tests hold both."""

    whole: Callable[[], R]
    by_units: Callable[[], R]


def batch(make: Callable[[T], R]) -> Callable[[Sequence[T]], list[R]]:
    """`make` over a batch: a unit made one item at a time."""

    def made(todo: Sequence[T]) -> list[R]:
        return [make(item) for item in todo]

    return made
