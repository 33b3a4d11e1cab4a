"""The write phase as a journaled transaction, so a build killed at any moment is completed by the next.

A build stages every changed file in `<output>/.toolgen-staging-<random>/`, then writes the journal
`<output>/.toolgen-journal.json` (atomically: staged, then moved into place) listing every move, every
delete with the digest of the file it may delete, and whether a new manifest follows. Only then does
it move the files into place, delete orphans, move the manifest in last, and remove the journal and
the staging folder. A journal on disk therefore means a build stopped after it began to change the
output: `check` reports it (TG135) and the next build replays it (`recover`) before anything else. A
replay moves a staged file only where the output still holds what it held when the journal was
written, and deletes a file only when its bytes are the ones recorded, so an edit made since is kept
(and then named by the next plan). A staging folder without a journal is what a build killed before
its first move leaves; the next build removes it. `locked` keeps two builds from writing at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from toolgen.frozen import as_object
from toolgen.writer.safepaths import holds, reachable

JOURNAL = ".toolgen-journal.json"
STAGING_PREFIX = ".toolgen-staging-"
MANIFEST = ".toolgen-manifest.json"

_STAGING_RE = re.compile(r"^\.toolgen-staging-[A-Za-z0-9_]+$")


class JournalError(Exception):
    """The output folder is being written by another build, or holds a journal that cannot be read."""


class Staged(Protocol):
    """What `commit` needs of the build's files: each file's bytes in pieces."""

    def chunks(self, path: str) -> Iterator[bytes]:
        """The bytes of `path` in pieces."""
        ...


@dataclass(frozen=True, slots=True)
class Record:
    """A journal: the staging folder, every move (with what its target held before, None if it was
    absent), every delete (with the digest of the file it may delete), and whether a manifest is staged."""

    staging: str
    moves: Mapping[str, str | None]
    removes: Mapping[str, str]
    manifest: bool

    def as_json(self) -> dict[str, object]:
        """The journal's JSON document."""
        return {
            "staging": self.staging,
            "moves": dict(self.moves),
            "removes": dict(self.removes),
            "manifest": self.manifest,
        }


def commit(
    out: Path, files: Staged, moves: Sequence[str], removes: Mapping[str, str], before: Mapping[str, str | None]
) -> None:
    """Stage `moves` (the manifest among them, if it changes), journal them, and apply the journal."""
    out.mkdir(parents=True, exist_ok=True)
    import tempfile  # here: a no-change run, which only lists `leftovers`, never stages

    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    journaled = False
    try:
        for path in moves:
            _stage(staging, path, files)
        targets = {p: before.get(p) for p in moves if p != MANIFEST}
        record = Record(staging.name, targets, dict(removes), MANIFEST in moves)
        temp = staging / JOURNAL
        temp.write_text(json.dumps(record.as_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(temp, out / JOURNAL)
        journaled = True
        replay(out, record, careful=False)
    finally:
        if not journaled:
            _remove_tree(staging)


def _stage(staging: Path, path: str, files: Staged) -> None:
    target = staging / path
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as stream:
        for piece in files.chunks(path):
            stream.write(piece)


def _remove_tree(folder: Path) -> None:
    """`shutil.rmtree`, errors ignored (shutil is imported here: a no-change run never needs it)."""
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def replay(out: Path, record: Record, *, careful: bool) -> None:
    """Move what is still staged into place, delete the recorded orphans, install the manifest, and
    remove the journal and the staging folder. `careful` (a recovery) moves a file only where the
    output still holds what it held before, through real folders only."""
    staging = out / record.staging
    for path, prior in record.moves.items():
        source = staging / path
        if not source.is_file() or (careful and not (reachable(out, path) and holds(out, path, prior))):
            continue
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, out / path)
    for path, digest in record.removes.items():
        if holds(out, path, digest):
            (out / path).unlink()
            _prune_empty_parents(out / path, out)
    if record.manifest and (staging / MANIFEST).is_file():
        os.replace(staging / MANIFEST, out / MANIFEST)
    (out / JOURNAL).unlink(missing_ok=True)
    _remove_tree(staging)


def _prune_empty_parents(path: Path, root: Path) -> None:
    parent = path.parent
    while parent != root and root in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def read(out: Path) -> Record | None:
    """The journal in `out`, None when there is none; JournalError when it is not one toolgen wrote."""
    try:
        text = (out / JOURNAL).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalError(f"{JOURNAL} cannot be read: {exc}") from exc
    try:
        return _record(json.loads(text))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise JournalError(f"{JOURNAL} is not a journal toolgen wrote ({exc})") from exc


def _record(data: object) -> Record:
    fields = as_object(data)
    staging, manifest = str(fields["staging"]), fields["manifest"]
    if not _STAGING_RE.match(staging) or not isinstance(manifest, bool):
        raise ValueError("bad staging folder or manifest flag")
    given = as_object(fields["moves"]), as_object(fields["removes"])
    moves = {p: d for p, d in given[0].items() if _safe(p) and (d is None or isinstance(d, str))}
    if len(moves) != len(given[0]):
        raise ValueError("bad move")
    removes = {p: d for p, d in given[1].items() if _safe(p) and isinstance(d, str)}
    if len(removes) != len(given[1]):
        raise ValueError("bad delete")
    return Record(staging, moves, removes, manifest)


def _safe(path: object) -> bool:
    parts = path.split("/") if isinstance(path, str) else [""]
    return all(p not in ("", ".", "..") and not p.startswith(".toolgen-") for p in parts)


def leftovers(out: Path) -> list[str]:
    """The journal and the staging folders in `out` (names, sorted): what interrupted builds left."""
    try:
        with os.scandir(out) as entries:
            return sorted(e.name for e in entries if e.name == JOURNAL or e.name.startswith(STAGING_PREFIX))
    except OSError:
        return []


def recover(out: Path) -> list[str]:
    """Complete the build a journal in `out` records and remove leftover staging folders (the caller
    holds `locked(out)`); what was done, as sentences for the user."""
    notes: list[str] = []
    record = read(out)
    if record is not None:
        replay(out, record, careful=True)
        notes.append("completed the update of the output folder that an interrupted build had begun")
    for name in leftovers(out):
        if name.startswith(STAGING_PREFIX) and (out / name).is_dir() and not (out / name).is_symlink():
            _remove_tree(out / name)
            notes.append(f"removed {name}, left by an interrupted build")
    return notes


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder (POSIX `flock`); JournalError if another build has it.

    The lock dies with its process, even one killed with SIGKILL, so whatever a locked build finds
    left in the folder is a dead build's. Where `fcntl` is missing (Windows) nothing is locked."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        handle = os.open(out, os.O_RDONLY)
    except FileNotFoundError:
        yield
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise JournalError("another toolgen build is writing this output folder; wait for it to finish") from exc
        yield
    finally:
        os.close(handle)
