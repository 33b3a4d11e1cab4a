"""The one place that memoizes: the targets' declared units (`toolgen.render.units`) in a cache store.

Every function takes the build's `Store` (the cache session, passed explicitly) and a declaration.
`run` reads each item's entry back (keyed on the declaration's kind and `depends_on`, plus toolgen's
own source and the pinned versions, `cache.key_of`), or makes the items it does not find in one
batch. `table` keeps a small value per item in one entry for all of them.

`files` is for units whose value is a generated file (a tool's docs page, its Python
module). Besides the entries, the store keeps one sealed record (`Store.record`) of what the last build
made from each of those entries: the digest of the file's bytes and a small `extra` value (the
diagnostics that came with it). An item whose key the record knows is not computed and its entry
is not even read: it becomes a `Kept` artifact, which has the file's digest and reads its text
from the entry only if someone asks for it (the writer does only when the file on disk is not the
one it trusts, `fastpath.trusted`). With one contract edited in a catalog of a thousand, this is
what leaves the 999 other pages and modules unread. The key holds everything that shapes the value,
so the digest the record gives is the digest of the value the entry holds; a `Kept` whose entry is
gone or does not give those bytes deletes the record and raises `cache.LostEntry`; the command
then runs once more, reading every entry (a corrupt one is a miss), never writing a wrong file.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from toolgen.incremental.cache import LostEntry, Store, key_of
from toolgen.incremental.kept import Kept
from toolgen.render import Artifact, File
from toolgen.render.units import Files, Table, Units, Values
from toolgen.writer.outputs import Loose

T = TypeVar("T")
R = TypeVar("R")

DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError)
"""What a `decode` raises for an entry of the wrong shape: a miss. Anything else is a bug."""

RAW = "raw\n"
"""How a `raw` entry's text begins: an entry of JSON data (or anything else) is then no raw text."""


def _raw(text: str) -> str:
    """The text a `raw` entry holds; ValueError for an entry that is not one."""
    if not text.startswith(RAW):
        raise ValueError("the cached value is not a raw text")
    return text[len(RAW) :]


def pending(store: Store, units: Units[T], items: Sequence[T]) -> int:
    """How many of `items` have no entry in `store`.

    Only whether each entry's file exists is looked at: an entry that is there but does not unseal
    is still made by `run`, so a wrong guess costs time, never bytes."""
    kind = units.kind
    return sum(not store.has(kind, key_of(kind, units.depends_on(item))) for item in items)


def keep(store: Store, units: Units[T], items: Sequence[T]) -> None:
    """Count the entries of `items` as used by this build (pruning keeps them), without reading them."""
    kind = units.kind
    store.used.update(f"{kind}/{k[:2]}/{k}" for k in (key_of(kind, units.depends_on(i)) for i in items))


def run(store: Store, units: Values[T, R], items: Sequence[T]) -> list[R]:
    """`units.make(items)`, making only the items whose values are not in `store` (in one batch).

    An entry holds `units.encode(value)` as JSON text, or with `raw` the text `encode` made as it is
    (the entry is sealed either way, and a `decode` that refuses what it reads makes it a miss)."""
    keyed = [(item, key_of(units.kind, units.depends_on(item))) for item in items]
    return _memo_keyed(store, units.kind, keyed, units.make, units.encode, units.decode, raw=units.raw)


def _memo_keyed(  # noqa: PLR0917
    store: Store,
    namespace: str,
    keyed: Sequence[tuple[T, str]],
    compute_many: Callable[[Sequence[T]], Sequence[R]],
    encode: Callable[[R], Any],
    decode: Callable[[Any], R],
    *,
    raw: bool = False,
) -> list[R]:
    """`run` over (item, key) pairs."""
    found: dict[int, R] = {}
    for index, (_, key) in enumerate(keyed):
        text = store.get(namespace, key)
        if text is None:
            continue
        try:
            found[index] = decode(_raw(text) if raw else json.loads(text))
        except DECODE_ERRORS:
            store.hits -= 1
            store.miss(namespace)
    missing = [i for i in range(len(keyed)) if i not in found]
    for index, value in zip(missing, compute_many([keyed[i][0] for i in missing]), strict=True):
        encoded = encode(value)
        text = RAW + encoded if raw else json.dumps(encoded, ensure_ascii=False, separators=(",", ":"))
        store.put(namespace, keyed[index][1], text)
        found[index] = value
    return [found[i] for i in range(len(keyed))]


def table(store: Store, units: Table[T, R], items: Sequence[T]) -> list[R]:
    """`units.make(items)`, from one entry keyed on `units.shared` that holds each item's value by
    `item_key(item)`: the items it lacks are made (in one batch) and the entry is written again
    holding exactly these items' values.

    For a small value per tool that a build needs of every tool: one entry is one read, where an
    entry per tool was a thousand. `shared` and an item's key must decide its value (a contract's
    digest does, for what is computed from the contract alone). A value `decode` refuses is
    computed again; an entry that is not a JSON object of values is a miss."""
    namespace, decode, encode = units.kind, units.decode, units.encode
    key = key_of(namespace, units.shared)
    table = _table(store, namespace, key)
    ids = [units.item_key(item) for item in items]
    found: dict[int, R] = {}
    for index, name in enumerate(ids):
        if name in table:
            with contextlib.suppress(*DECODE_ERRORS):
                found[index] = decode(table[name])
    missing = [i for i in range(len(items)) if i not in found]
    for index, value in zip(missing, units.make([items[i] for i in missing]), strict=True):
        store.miss(namespace)
        found[index] = value
    if missing or len(table) != len(set(ids)):  # the entry holds exactly the items of this build
        encoded = {name: encode(found[index]) for index, name in enumerate(ids)}
        store.put(namespace, key, json.dumps(encoded, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
    return [found[i] for i in range(len(items))]


def _table(store: Store, namespace: str, key: str) -> dict[str, Any]:
    """The values of a `memo_table` entry by item key; empty when it is missing or not one."""
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


def files(store: Store, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
    """Per item its file (`path_of(item)`, the text `make` gives) and `decode_extra` of the JSON
    `extra` that came with it; an item the record knows is a `Kept` file, neither made nor read. An
    extra `decode_extra` refuses (`DECODE_ERRORS`), in the record or in an entry, is no record of
    it: the record and the entries are sealed, but a forged one must not crash."""
    namespace, path_of, decode_extra = units.kind, units.path_of, units.decode_extra
    record = store.record()
    keys = [key_of(namespace, units.depends_on(item)) for item in items]
    out: dict[int, tuple[File, Any]] = {}
    for index, key in enumerate(keys):
        known = record.get(key)
        if known is None or not store.has(namespace, key):
            continue
        try:
            extra = decode_extra(known[1])
        except DECODE_ERRORS:
            continue
        store.used.add(f"{namespace}/{key[:2]}/{key}")
        store.hits += 1
        store.made[key] = known
        out[index] = (Kept(path_of(items[index]), known[0], store.entry_file(namespace, key), store.secret), extra)
    todo = [i for i in range(len(items)) if i not in out]
    keyed = [(items[i], keys[i]) for i in todo]
    decode = lambda data: _decode_file(data, decode_extra)  # noqa: E731
    made = _memo_keyed(store, namespace, keyed, units.make, _encode_file, decode)
    for index, (text, raw) in zip(todo, made, strict=True):
        artifact = Artifact(path_of(items[index]), text)
        store.made[keys[index]] = [Loose.of(artifact).digest, raw]  # "" (never kept) for invalid Unicode
        out[index] = (artifact, decode_extra(raw))
    return [out[i] for i in range(len(items))]


def _encode_file(value: tuple[str, Any]) -> dict[str, Any]:
    return {"text": value[0], "extra": value[1]}


def _decode_file(data: Any, decode_extra: Callable[[Any], Any]) -> tuple[str, Any]:
    """A file entry's text and its extra as JSON, checked by `decode_extra` (its error: a miss)."""
    if not isinstance(data, dict) or not isinstance(data.get("text"), str) or "extra" not in data:
        raise TypeError("cached value is not a file")
    decode_extra(data["extra"])
    return data["text"], data["extra"]


__all__ = ["Kept", "LostEntry", "files", "keep", "pending", "run", "table"]
