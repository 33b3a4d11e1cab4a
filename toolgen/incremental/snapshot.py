"""The last build's loaded contracts, read back in one piece.

`loadcache` keeps one entry per contract file; reading 1,000 of them back (an open, a seal and a
JSON decode each, then the file's own text parsed into frozen data and made into its contract
again) was most of a one-contract build. Beside them the cache keeps one snapshot: for each
contract file the last builds loaded, its `loadcache` key (its path, format and text, toolgen's
own source, the Python version), its own checks and the contract made from it. A file whose text
still gives that key is taken from the snapshot as its contract (`Known`): not parsed, checked nor
made again. Anything else is loaded as before.

The snapshot is two sealed files in the layout folder: the whole (`BASE`) and what changed since it
was written (`OVERLAY`, read over it). A build that changed a few contracts rewrites only the
overlay; past `Thresholds.snapshot_overlay` changed files it writes the whole again and empties
the overlay. Both are written only after a catalog was made, so they hold only contracts that
passed validation.

This is the cache's one value that is not JSON: a pickle, as the frozen contracts are, because
decoding JSON and making the contracts again is what it saves. It is sealed under the user's cache
key like every entry (`cache.Store.write_sealed_stream`), so no one without the key can write one,
and read by an unpickler that builds only the classes of a contract (`_ALLOWED`): even a sealed
snapshot cannot name a function to call. One that does not read back as a mapping of path to
`Known`, or was written by another toolgen or Python, is no snapshot.
"""

from __future__ import annotations

import contextlib
import io
import pickle
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic
from toolgen.incremental import cache, sealing

BASE = "contracts"
"""The sealed file of the whole snapshot in the layout folder (and the name it is sealed under)."""
OVERLAY = "contracts-changed"
"""The sealed file of the files changed since `BASE` was written."""

Checked = tuple[list[Diagnostic], dict[str, str]]
"""What `validate.check_document` gives: the file's own problems and its valid rule overrides."""


@dataclass(frozen=True, slots=True)
class Known:
    """One contract file as the last build loaded it."""

    key: str
    """The file's `loadcache` key: its path, format and text (with toolgen's source and Python's version)."""
    checked: Checked
    contract: Contract


Apart = Callable[[Callable[[], None]], None]
"""Runs a write and returns once it is done: here, or in a forked process (`loadcache`)."""


def _here(write: Callable[[], None]) -> None:
    write()


@dataclass
class Snapshot:
    """The snapshot as read at the start of a build: the whole, and the overlay read over it."""

    base: dict[str, Known] = field(default_factory=dict)
    overlay: dict[str, Known] = field(default_factory=dict)

    def get(self, rel: str) -> Known | None:
        """What the snapshot holds for the contract file `rel` (its path under the project)."""
        found = self.overlay.get(rel)
        return found if found is not None else self.base.get(rel)

    def save(self, store: cache.Store, now: Mapping[str, Known], overlay_max: int, apart: Apart = _here) -> None:
        """Leave `now` (every contract file this build loaded) for the next build: nothing when it
        holds nothing new, the overlay when few files changed, else the whole and an empty overlay.
        This snapshot then holds what was written (what the next build of this process reads:
        `resident.Resident`).

        The whole is written by `apart` (the build forks for it): pickling 10,000 contracts makes
        a memo of every object and a copy of every frozen mapping's items, which a process's heap
        keeps after they are freed and every process forked from it later inherits."""
        changed = {rel: known for rel, known in now.items() if self.get(rel) is not known}
        if not changed or store.read_only:
            return
        overlay = {**self.overlay, **changed}
        if self.base and len(overlay) <= overlay_max:
            _write(store, OVERLAY, overlay)
            self.overlay = overlay
            return
        apart(lambda: _write(store, BASE, now))
        _write(store, OVERLAY, {})
        self.base, self.overlay = dict(now), {}


def read(store: cache.Store) -> Snapshot:
    """The snapshot in `store` (empty parts where a file is missing, not intact or not a snapshot)."""
    return Snapshot(_read(store, BASE), _read(store, OVERLAY))


def _version() -> bytes:
    """The first line of a snapshot: what its pickle depends on beyond its own bytes (toolgen's
    source and version, the pinned versions, Python's version)."""
    return cache.key_of("contract-snapshot", (sys.version,)).encode()


def _write(store: cache.Store, name: str, known: Mapping[str, Known]) -> None:
    """Write one part, pickled straight into its sealed file (10,000 contracts are about 12 MB:
    never held whole)."""

    def fill(stream: sealing.Sealing) -> None:
        stream.write(_version() + b"\n")
        _Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(known)

    with contextlib.suppress(RecursionError, pickle.PicklingError):  # nested deeper than pickle writes: none
        store.write_sealed_stream(name, fill)


def _read(store: cache.Store, name: str) -> dict[str, Known]:
    data = store.read_sealed_bytes(name)
    version = _version()
    if data is None or data[: len(version) + 1] != version + b"\n":
        return {}
    try:
        value = _Unpickler(io.BytesIO(data[len(version) + 1 :])).load()
    except Exception:  # a snapshot that does not read back, for any reason, is none
        return {}
    if not isinstance(value, dict) or not all(_is_known(rel, item) for rel, item in value.items()):
        return {}
    return value


def _is_known(rel: object, item: object) -> bool:
    if not isinstance(rel, str) or type(item) is not Known:
        return False
    return type(item.contract) is Contract and item.contract.source == rel


def _proxy(items: dict[str, Any]) -> Mapping[str, Any]:
    """A frozen mapping (`frozen.freeze`) as pickle makes it again."""
    return MappingProxyType(items)


def _reduce_proxy(value: Mapping[str, Any]) -> tuple[Any, tuple[dict[str, Any]]]:
    return _proxy, (dict(value),)


class _Pickler(pickle.Pickler):
    """A pickler that writes a frozen mapping as the `_proxy` of its items (pickle has no way of its own)."""

    dispatch_table = {MappingProxyType: _reduce_proxy}  # noqa: RUF012 - pickle's own name, never changed


_ALLOWED = frozenset(
    {
        ("toolgen.catalog", "Contract"),
        ("toolgen.catalog", "ErrorSpec"),
        ("toolgen.catalog", "Example"),
        ("toolgen.catalog", "ExampleError"),
        ("toolgen.diagnostics", "Diagnostic"),
        ("toolgen.diagnostics", "Severity"),
        (__name__, "Known"),
        (__name__, "_proxy"),
    }
)
"""Everything a snapshot may name: a contract's classes, a diagnostic's, and the frozen mapping."""


class _Unpickler(pickle.Unpickler):
    """An unpickler that builds only what a snapshot holds (`_ALLOWED`)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"a snapshot names {module}.{name}, which it may not")
        return super().find_class(module, name)
