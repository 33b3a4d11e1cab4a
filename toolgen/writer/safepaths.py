"""What a path in the output folder is, found without following a symlink.

The writer reads, overwrites or deletes a path only when every folder on the way to it is a real
folder (not a symlink, not a file) and the path itself is a regular file or absent. These helpers
answer that with `lstat`, remember each folder's answer for a build, and digest a file's bytes.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

MISSING = "missing"
"""The state of a path (or a folder on its way) that does not exist."""

REGULAR = "regular"
"""The state of a regular file."""


class Probe:
    """Answers `state(rel)` for paths under one output folder, checking each folder once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._folders: dict[str, str | None] = {"": _folder_state(root, "")}

    def folder(self, rel: str) -> str | None:
        """None for a real folder; MISSING; or why the folder `rel` ("" is the root) cannot hold files."""
        if rel not in self._folders:
            parent = rel.rpartition("/")[0]
            above = self.folder(parent)
            self._folders[rel] = above if above is not None else _folder_state(self.root, rel)
        return self._folders[rel]

    def state(self, rel: str) -> tuple[str, str]:
        """(state, where): REGULAR or MISSING with `rel`, or a reason with the path it is about."""
        parent = rel.rpartition("/")[0]
        above = self.folder(parent)
        if above == MISSING:
            return MISSING, rel
        if above is not None:
            return above, self.blocker(parent)
        return _file_state(self.root / rel), rel

    def blocker(self, rel: str) -> str:
        """The first folder on the way to `rel` (itself included) that is not a real folder."""
        parts = rel.split("/") if rel else []
        for end in range(len(parts) + 1):
            here = "/".join(parts[:end])
            if self._folders.get(here) not in (None, MISSING):
                return here
        return rel


_SYMLINK = "is a symlink, and toolgen never writes, deletes or reads through one"


def _lstat_state(path: Path, wanted: int, other: dict[int, str], otherwise: str) -> str | None:
    """None when `path` is of the `wanted` file type; MISSING; else why it cannot be used (no link followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return MISSING
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    kind = stat.S_IFMT(mode)
    if kind == wanted:
        return None
    return _SYMLINK if kind == stat.S_IFLNK else other.get(kind, otherwise)


def _folder_state(root: Path, rel: str) -> str | None:
    return _lstat_state(root / rel if rel else root, stat.S_IFDIR, {}, "is a file where toolgen needs a folder")


def _file_state(path: Path) -> str:
    special = "is a special file (a FIFO, socket or device) where toolgen writes a file"
    found = _lstat_state(path, stat.S_IFREG, {stat.S_IFDIR: "is a folder where toolgen writes a file"}, special)
    return REGULAR if found is None else found


def file_digest(path: Path) -> str:
    """`sha256:<hex>` of a file's bytes, read in pieces."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for piece in iter(lambda: stream.read(1 << 20), b""):
            digest.update(piece)
    return f"sha256:{digest.hexdigest()}"


def holds(root: Path, rel: str, digest: str | None) -> bool:
    """Whether `rel` under `root`, reached through real folders only, is absent (digest None) or a
    regular file with exactly these bytes."""
    state, _ = Probe(root).state(rel)
    if digest is None:
        return state == MISSING
    if state != REGULAR:
        return False
    try:
        return file_digest(root / rel) == digest
    except OSError:
        return False


def reachable(root: Path, rel: str) -> bool:
    """Whether every folder on the way to `rel` is a real folder or absent (so it can be made)."""
    probe = Probe(root)
    above = probe.folder(rel.rpartition("/")[0])
    return above in (None, MISSING)


Stat = tuple[int, int, int, int]
"""What `file_stat` gives: size, modification time (ns), inode, status change time (ns)."""


def file_stat(path: str | Path) -> Stat:
    """What changes whenever a file is written or replaced: size, modification time (ns), inode
    (of the path itself: a symlink put in a file's place has its own) and the status change time,
    which every write moves and no program can set back (`touch` and `cp -p` restore the mtime)."""
    info = os.lstat(path)
    return (info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)


def stat_or_none(path: str | Path) -> Stat | None:
    """`file_stat`, or None when the path cannot be read."""
    try:
        return file_stat(path)
    except OSError:
        return None
