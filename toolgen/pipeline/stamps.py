"""What `toolgen watch` sees of its inputs at one look, and which of them changed between two looks.

A file's stat (modification time, size, inode, status change time) says it changed in all but one
case: a rewrite of the same size within the same tick of the file system's clock, such as a
formatter that rewrites a file on save a few milliseconds after the editor wrote it. The no-change
shortcut trusts a stat only once the file's status has not changed for `fastpath.SETTLED_NS`; a
look does the same. A file whose status changed that recently is read, and its stamp holds the
digest of its bytes; so is, once more, a file whose stamp at the look before held one and whose
stat is still the same (a build may run longer than the settling time between two looks). Two
stamps of a file are the same when their stats are, and, when the earlier was taken before the
file had settled, their digests too.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.config import Settings
from toolgen.incremental.fastpath import SETTLED_NS

CONFIG_FILES = ("toolgen.toml", "pyproject.toml")
"""The files at the project root the settings may come from (`config.load_settings`)."""

Stat = tuple[int, int, int, int]
"""A file's modification time (ns), size, inode and status change time (ns): a file replaced by a
rename, as editors save, has a new inode even within one tick of the clock."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """What one look saw of a file: its stat, and the digest of its bytes when it was read."""

    stat: Stat
    digest: str = ""
    """The sha256 of the file's bytes; "" when its stat vouched for them (or it could not be read)."""
    unsettled: bool = False
    """Whether its status had changed within `SETTLED_NS` of the look: then the next look compares
    its bytes, not only its stat."""

    def same(self, later: Stamp) -> bool:
        """Whether the file is unchanged from this look to a `later` one."""
        return self.stat == later.stat and (not self.unsettled or self.digest == later.digest)


Stamps = dict[str, Stamp]
"""Every input file looked at, by its path."""


@dataclass
class _Look:
    earlier: Stamps
    settled_before: int
    found: Stamps = field(default_factory=dict)
    folders: set[str] = field(default_factory=set)

    def stamp(self, path: str, info: os.stat_result) -> None:
        stat = (info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns)
        unsettled = info.st_ctime_ns >= self.settled_before
        last = self.earlier.get(path)
        if unsettled or (last is not None and last.unsettled and last.stat == stat):
            self.found[path] = Stamp(stat, _digest(path), unsettled)
        else:
            self.found[path] = Stamp(stat)

    def walk(self, folder: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:  # no such folder yet, or one that cannot be read: the build says so
            return
        self.folders.add(folder)
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    self.walk(entry.path)
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            self.stamp(entry.path, info)


def inputs(
    root: Path,
    settings: Settings | None,
    folders: set[str] | None = None,
    earlier: Stamps | None = None,
    *,
    settled_before: int | None = None,
) -> Stamps:
    """The stamp of every input a build of the project at `root` reads (only the configuration
    files while there are no valid `settings`); `folders` gets every folder walked. `earlier`: the
    look before, whose unsettled stamps this look compares by their bytes; `settled_before` (ns):
    a file whose status changed since is read (default: `SETTLED_NS` before now)."""
    limit = time.time_ns() - SETTLED_NS if settled_before is None else settled_before
    look = _Look(earlier or {}, limit)
    for name in CONFIG_FILES:
        path = os.path.join(root, name)
        try:
            look.stamp(path, os.stat(path, follow_symlinks=False))
        except OSError:  # not there (any more): its absence is what the next look compares
            continue
    if settings is not None:
        for folder in (settings.contracts_dir, settings.templates_dir):
            if folder is not None:
                look.walk(str(folder))
    if folders is not None:
        folders.update(look.folders)
    return look.found


def changed(before: Stamps, after: Stamps, root: Path) -> tuple[str, ...]:
    """The paths (relative to `root`) added, removed or changed between two looks, sorted."""
    paths = set()
    for path in before.keys() | after.keys():
        first, then = before.get(path), after.get(path)
        if first is None or then is None or not first.same(then):
            paths.add(path)
    return tuple(sorted(os.path.relpath(p, root) for p in paths))


def _digest(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:  # gone or unreadable since its stat: the next look sees what it became
        return ""
