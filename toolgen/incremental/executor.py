"""The executor of a build (`Building`): the one place that memoizes, forks and tracks.

`Building` is `toolgen.render.context.Executor` with the build's cache store (the session, passed
explicitly; None: no cache, and every unit is made as the plain executor makes it) and its
`workers` (`parallel`). It runs the targets' declared units (`toolgen.render.units`): `run` reads
each item's entry back (keyed on the declaration's kind and `depends_on`, plus toolgen's own source
and the pinned versions, `cache.key_of`), or makes the items it does not find in one batch. `table`
keeps a small value per item in one entry for all of them. A unit it does not make keeps the units
its declaration says it is made again from (`remade_from`), so pruning leaves them for the next
change. Of two ways to a result (`units.Either`) it takes the one by units when it has a store.

`files` is for units whose value is a generated file (a tool's docs page, its Python module).
Besides the entries, the store keeps one sealed record (`Store.record`) of what the last build made
from each of those entries: the digest of the file's bytes and a small `extra` value (the
diagnostics that came with it). An item whose key the record knows is not computed and its entry is
not even read: it becomes a `Kept` artifact, which has the file's digest and reads its text from the
entry only if someone asks for it (the writer does only when the file on disk is not the one it
trusts, `fastpath.trusted`). With one contract edited in a catalog of a thousand, this is what
leaves the 999 other pages and modules unread. The key holds everything that shapes the value, so
the digest the record gives is the digest of the value the entry holds; a `Kept` whose entry is
gone or does not give those bytes deletes the record and raises `cache.LostEntry`; the command then
runs once more, reading every entry (a corrupt one is a miss), never writing a wrong file.

A batch made in a forked worker reads and writes the worker's copy of the store, which dies with
it: what the worker used comes back with its results and is added to this process's store
(`map_batches`), so counting and pruning see it.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from toolgen.incremental import cache, parallel
from toolgen.incremental.cache import Store, entry_name, key_of
from toolgen.incremental.kept import Kept
from toolgen.incremental.resident import Resident
from toolgen.render import Artifact, File
from toolgen.render.context import Executor
from toolgen.render.units import Either, Files, Table, Unit, Values
from toolgen.thresholds import DEFAULT, Thresholds
from toolgen.writer.outputs import Loose, Packed, held, packs_made

T = TypeVar("T")
R = TypeVar("R")

DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError)
"""What a `decode` raises for an entry of the wrong shape: a miss. Anything else is a bug."""

RAW = "raw\n"
"""How a `raw` entry's text begins: an entry of JSON data (or anything else) is then no raw text."""


class Building(Executor):
    """The executor of `toolgen build`, `check` and `validate`: the cache `store` of this build (None:
    none), and `workers`."""

    def __init__(
        self,
        workers: parallel.Workers,
        store: Store | None = None,
        *,
        thresholds: Thresholds = DEFAULT,
        contracts: int = 0,
        resident: Resident | None = None,
    ) -> None:
        self.workers = workers
        self.store = store
        self.thresholds = thresholds
        """`render_chunk`, `pack_from` and `pack_many`: how `files` makes and holds what it makes."""
        self.contracts = contracts
        """The catalog's size (`pack_from` packs every file of a build this large)."""
        self.resident = resident
        """What this process keeps between its builds: the values of the units declared `resident`
        are taken from there when it holds them, and left there (`resident.Resident`)."""

    @property
    def renders_here(self) -> bool:
        """True for a warmed project's build (`resident.Resident.here`): every target renders in
        this process, where the resident values are."""
        return self.resident is not None and self.resident.here and self.store is not None

    def _memory(self, declared: bool) -> dict[str, Any] | None:
        """Where the values of units declared `resident` are kept between builds of a warmed project
        (None for a unit not declared so, and for a build in a process that builds once: holding a
        cold build's values to its end made the 10,000-contract build peak 30 MB higher)."""
        if not declared or not self.renders_here or self.resident is None:
            return None
        return self.resident.values

    @property
    def jobs(self) -> int:
        """The worker processes work may be spread over (1 inside a worker)."""
        return self.workers.jobs

    def run(self, units: Values[T, R], items: Sequence[T]) -> list[R]:
        """`units.make(items)`, making only the items whose values are not in the store (in one batch).

        An entry holds `units.encode(value)` as JSON text, or with `raw` the text `encode` made as it is
        (the entry is sealed either way, and a `decode` that refuses what it reads makes it a miss)."""
        store = self.store
        if store is None:
            return super().run(units, items)
        keyed = [(item, key_of(units.kind, units.depends_on(item))) for item in items]
        memory = self._memory(units.resident)
        found, made = _keyed(
            store, units.kind, keyed, units.make, units.encode, units.decode, raw=units.raw, memory=memory
        )
        _keep(store, (unit for i, item in enumerate(items) if i not in made for unit in units.remade_from(item)))
        return found

    def files(self, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
        """Per item its file (`path_of(item)`, the text `make` gives) and `decode_extra` of the JSON
        `extra` that came with it; an item the record knows is a `Kept` file, neither made nor read. An
        extra `decode_extra` refuses (`DECODE_ERRORS`), in the record or in an entry, is no record of
        it: the record and the entries are sealed, but a forged one must not crash.

        The files to make are made `render_chunk` at a time and, when the build holds its files packed
        (`writer.outputs.packs`: `pack_from` contracts, or `pack_many` files made here), each chunk's
        are packed as they come: only one chunk's plain texts are held at once (10,000 docs pages are
        about 100 MB of plain text; a target returned all of them plain before)."""
        store = self.store
        if store is None:
            return self._chunked(items, lambda chunk: super(Building, self).files(units, chunk), len(items))
        namespace, path_of, decode_extra = units.kind, units.path_of, units.decode_extra
        keys = [key_of(namespace, units.depends_on(item)) for item in items]
        out = _kept_files(store, units, items, keys)
        todo = [i for i in range(len(items)) if i not in out]
        decode = lambda data: _decode_file(data, decode_extra)  # noqa: E731
        made: set[int] = set()

        def chunk_of(chunk: Sequence[int]) -> list[tuple[File, Any]]:
            keyed = [(items[i], keys[i]) for i in chunk]
            found, fresh = _keyed(store, namespace, keyed, units.make, _encode_file, decode)
            made.update(chunk[m] for m in fresh)
            return [(Artifact(path_of(items[i]), text), raw) for i, (text, raw) in zip(chunk, found, strict=True)]

        for index, (file, raw) in zip(todo, self._chunked(todo, chunk_of, len(todo)), strict=True):
            store.made[keys[index]] = [_digest(file), raw]  # "" (never kept) for invalid Unicode
            out[index] = (file, decode_extra(raw))
        _keep(
            store,
            (unit for i in range(len(items)) if i not in made for unit in units.remade_from(items[i], out[i][1])),
        )
        return [out[i] for i in range(len(items))]

    def joined(self, path: str, pieces: Iterable[str]) -> File:
        """The file of `pieces` joined; packed as the pieces come when the build packs a file made
        (`outputs.packs_made`: from `pack_from` contracts): the five provider files of 10,000
        contracts are about 90 MB of text, which the forked process held joined, all five at once,
        beside the cached runs they were joined from (and catalog.json another 34 MB, here)."""
        if packs_made(1, self.contracts, self.thresholds):
            return Packed.of_pieces(path, pieces)
        return super().joined(path, pieces)

    def _chunked(
        self, items: Sequence[T], make: Callable[[Sequence[T]], list[tuple[File, R]]], count: int
    ) -> list[tuple[File, R]]:
        """`make` over consecutive chunks of `render_chunk` items, each chunk's made files (`Artifact`)
        held packed as it comes when the build packs `count` files made (`outputs.packs_made`)."""
        pack = packs_made(count, self.contracts, self.thresholds)
        step = max(1, self.thresholds.render_chunk)
        done: list[tuple[File, R]] = []
        for start in range(0, len(items), step):
            made = make(items[start : start + step])
            done.extend((held(f, pack=True) if pack and isinstance(f, Artifact) else f, x) for f, x in made)
        return done

    def table(self, units: Table[T, R], items: Sequence[T]) -> list[R]:
        """`units.make(items)`, from one entry keyed on `units.shared` that holds each item's value by
        `item_key(item)`: the items it lacks are made (in one batch) and the entry is written again
        holding exactly these items' values.

        For a small value per tool that a build needs of every tool: one entry is one read, where an
        entry per tool was a thousand. `shared` and an item's key must decide its value (a contract's
        digest does, for what is computed from the contract alone). A value `decode` refuses is
        computed again; an entry that is not a JSON object of values is a miss."""
        store = self.store
        if store is None:
            return super().table(units, items)
        namespace, encode = units.kind, units.encode
        key = key_of(namespace, units.shared)
        memory, name = self._memory(units.resident), entry_name(namespace, key)
        ids = [units.item_key(item) for item in items]
        known = memory.get(name) if memory is not None else None
        if known is not None:
            store.use(namespace, key)
            store.hits += 1
        table: dict[str, Any] = known if known is not None else _decoded_table(store, namespace, key, units.decode)
        found = {index: table[item] for index, item in enumerate(ids) if item in table}
        missing = [i for i in range(len(items)) if i not in found]
        for index, value in zip(missing, units.make([items[i] for i in missing]), strict=True):
            store.miss(namespace)
            found[index] = value
        if missing or len(table) != len(set(ids)):  # the entry holds exactly the items of this build
            encoded = {item: encode(found[index]) for index, item in enumerate(ids)}
            store.put(namespace, key, json.dumps(encoded, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
        if memory is not None:
            memory[name] = {item: found[index] for index, item in enumerate(ids)}
        return [found[i] for i in range(len(items))]

    def either(self, ways: Either[R]) -> R:
        """`ways.by_units()` with a cache store (its units are remembered), else `ways.whole()`."""
        return ways.by_units() if self.store is not None else ways.whole()

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`Workers.map`."""
        return self.workers.map(fn, items)

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`Workers.map_batches`, each batch's cache use brought back from its worker."""
        made = self.workers.map_batches(functools.partial(self._tracked_batch, fn), items, size, during)
        results: list[R] = []
        for value, usage in made:
            cache.absorb(self.store, usage)
            results.extend(value)
        return results

    def _tracked_batch(
        self, fn: Callable[[Sequence[T]], list[R]], batch: Sequence[T]
    ) -> list[tuple[list[R], cache.Usage | None]]:
        """`fn(batch)` as one result with its cache usage (map_batches wants one result per item:
        the first item carries the batch, the others nothing)."""
        value, usage = cache.tracked(self.store, lambda: fn(batch), in_worker=self.workers.in_worker)
        return [(value, usage), *(([], None) for _ in batch[1:])]


def _keep(store: Store, units: Iterable[Unit]) -> None:
    """Count the entries of these units as used by this build (pruning keeps them), without reading them."""
    for declared, item in units:
        store.use(declared.kind, key_of(declared.kind, declared.depends_on(item)))


def _digest(file: File) -> str:
    """The digest of a made file's bytes: a held one knows it, an `Artifact` is encoded for it."""
    return Loose.of(file).digest if isinstance(file, Artifact) else held(file).digest


def _raw(text: str) -> str:
    """The text a `raw` entry holds; ValueError for an entry that is not one."""
    if not text.startswith(RAW):
        raise ValueError("the cached value is not a raw text")
    return text[len(RAW) :]


def _keyed(  # noqa: PLR0917
    store: Store,
    namespace: str,
    keyed: Sequence[tuple[T, str]],
    compute_many: Callable[[Sequence[T]], Sequence[R]],
    encode: Callable[[R], Any],
    decode: Callable[[Any], R],
    *,
    raw: bool = False,
    memory: dict[str, Any] | None = None,
) -> tuple[list[R], set[int]]:
    """`run` over (item, key) pairs: the values, and the positions of those made now. With a
    `memory` (`resident.Resident.values`), a value found there is a hit that reads nothing, and
    every value read or made is left there."""
    found: dict[int, R] = {}
    for index, (_, key) in enumerate(keyed):
        if memory is not None and (name := entry_name(namespace, key)) in memory:
            store.use(namespace, key)
            store.hits += 1
            found[index] = memory[name]
            continue
        text = store.get(namespace, key)
        if text is None:
            continue
        try:
            found[index] = decode(_raw(text) if raw else json.loads(text))
        except DECODE_ERRORS:
            store.hits -= 1
            store.miss(namespace)
            continue
        if memory is not None:
            memory[entry_name(namespace, key)] = found[index]
    missing = [i for i in range(len(keyed)) if i not in found]
    for index, value in zip(missing, compute_many([keyed[i][0] for i in missing]), strict=True):
        encoded = encode(value)
        text = RAW + encoded if raw else json.dumps(encoded, ensure_ascii=False, separators=(",", ":"))
        store.put(namespace, keyed[index][1], text)
        found[index] = value
        if memory is not None:
            memory[entry_name(namespace, keyed[index][1])] = value
    return [found[i] for i in range(len(keyed))], set(missing)


def _kept_files(store: Store, units: Files[T], items: Sequence[T], keys: Sequence[str]) -> dict[int, tuple[File, Any]]:
    """The items the record knows, by position: each a `Kept` file and its extra, neither made nor read."""
    namespace, record = units.kind, store.record()
    out: dict[int, tuple[File, Any]] = {}
    for index, key in enumerate(keys):
        known = record.get(key)
        if known is None or not store.has(namespace, key):
            continue
        try:
            extra = units.decode_extra(known[1])
        except DECODE_ERRORS:
            continue
        store.use(namespace, key)
        store.hits += 1
        store.made[key] = known
        path = units.path_of(items[index])
        out[index] = (Kept(path, known[0], store.entry_file(namespace, key), store.secret), extra)
    return out


def _table(store: Store, namespace: str, key: str) -> dict[str, Any]:
    """The values of a `table` entry by item key; empty when it is missing or not one."""
    text = store.get(namespace, key)
    try:
        table = json.loads(text) if text is not None else {}
    except (ValueError, RecursionError):
        table = None
    if not isinstance(table, dict):
        store.hits -= 1
        store.miss(namespace)
        return {}
    return table


def _decoded_table(store: Store, namespace: str, key: str, decode: Callable[[Any], R]) -> dict[str, R]:
    """A `table` entry's values decoded, by item key (one `decode` refuses is left out: made again)."""
    values: dict[str, R] = {}
    for item, data in _table(store, namespace, key).items():
        with contextlib.suppress(*DECODE_ERRORS):
            values[item] = decode(data)
    return values


def _encode_file(value: tuple[str, Any]) -> dict[str, Any]:
    return {"text": value[0], "extra": value[1]}


def _decode_file(data: Any, decode_extra: Callable[[Any], Any]) -> tuple[str, Any]:
    """A file entry's text and its extra as JSON, checked by `decode_extra` (its error: a miss)."""
    if not isinstance(data, dict) or not isinstance(data.get("text"), str) or "extra" not in data:
        raise TypeError("cached value is not a file")
    decode_extra(data["extra"])
    return data["text"], data["extra"]


__all__ = ["RAW", "Building"]
