"""Pruning the build cache after a build: the entries it did not use go.

Listing every entry of a cache of 1,000 contracts (about 6,000 files in 1,700 folders) cost a
one-contract build more than the rest of its bookkeeping. So a build deletes by name what the last
build used and it did not, from the sealed list each build leaves (`USED`); every `FULL_PRUNE` builds,
and whenever that list is missing or not intact, it lists the whole folder instead, which also takes
away what no list names: folders of older layouts, what a killed build or a `check` wrote.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator

from toolgen.incremental.cache import Store
from toolgen.thresholds import DEFAULT

USED = "used"
"""The list of the entries the last build used, in the layout folder (and the key it is sealed under)."""

FULL_PRUNE = DEFAULT.full_prune
"""Every this many builds, pruning lists the whole folder (`Thresholds.full_prune`, unless `prune` is given another)."""

_ENTRY = re.compile(r"[a-z0-9_-]+/[0-9a-f]{2}/[0-9a-f]{64}")
"""An entry's place in the layout folder, `namespace/xx/key`: a list naming anything else (a path
out of the folder, the file record) is no list, and the whole folder is listed instead."""


def prune(
    store: Store, last_list: tuple[frozenset[str] | None, int] | None = None, *, full_prune: int = FULL_PRUNE
) -> int:
    """Delete the entries this build did not use (every `FULL_PRUNE` builds, anything else in the
    folder too), then leave the list of the ones it used; returns how many went. `last_list`: what
    `last_used` gave, when the caller read it already (while the build rendered)."""
    if not store.root.is_dir():
        return 0
    last, builds = last_list if last_list is not None else last_used(store)
    if last is None or builds + 1 >= full_prune:
        removed, builds = _prune_all(store), 0
    else:
        removed, builds = _unlink(store, sorted(last - store.used)), builds + 1
    if not store.read_only:
        text = json.dumps({"builds": builds, "used": sorted(store.used)}, separators=(",", ":"))
        store.write_sealed(USED, text)
    return removed


def last_used(store: Store) -> tuple[frozenset[str] | None, int]:
    """The entries the last build used (None when its list is missing or not intact), and how many
    builds have pruned by the list since one listed the folder."""
    document = store.read_sealed(USED)
    if not isinstance(document, dict):
        return None, 0
    used, builds = document.get("used"), document.get("builds")
    if not isinstance(used, list) or not all(isinstance(r, str) and _ENTRY.fullmatch(r) for r in used):
        return None, 0
    return frozenset(used), builds if type(builds) is int and builds >= 0 else FULL_PRUNE


def _prune_all(store: Store) -> int:
    """Every entry this build did not use, and every folder of another layout."""
    for child in store.root.iterdir():
        if child.is_dir() and child != store.folder:
            shutil.rmtree(child, ignore_errors=True)
    return _unlink(store, [rel for rel in _entries(str(store.folder)) if rel not in store.used])


def _unlink(store: Store, entries: Iterable[str]) -> int:
    removed = 0
    for rel in entries:
        with contextlib.suppress(OSError):
            os.unlink(f"{store.folder}/{rel}")
            removed += 1
    return removed


def _entries(folder: str) -> Iterator[str]:
    """`namespace/xx/key` of every file two folders below `folder` (os.scandir: a build lists thousands)."""
    for level in _scan(folder, dirs=True):
        for bucket in _scan(level.path, dirs=True):
            for entry in _scan(bucket.path, dirs=False):
                yield f"{level.name}/{bucket.name}/{entry.name}"


def _scan(path: str, *, dirs: bool) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as found:
            return [e for e in found if e.is_dir(follow_symlinks=False) == dirs]
    except OSError:
        return []
