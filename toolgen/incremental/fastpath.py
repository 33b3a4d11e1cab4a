"""The no-change fast path: prove the output is current without loading, validating or rendering anything.

`probe(settings, seen)` digests every input of a build: each contract file's path and bytes (the
digest the record holds for a contract whose stat has not moved since a build read it: `Seen`), the
resolved settings, every template that could be used, and `cache.toolgen_fingerprint()` (toolgen's
version and source digest, the pinned dependencies). After a successful build (or a `check` that found the
output current) `record()` stores a key in `.toolgen-cache/state.json` with the build's diagnostics
and the digest of the manifest it wrote; that key is made from the bytes the build itself read
(`loaded_key`: each contract's digest as loaded, and the templates only if they did not change
during the build), so a file changed and put back meanwhile never makes it vouch for the wrong
text. `lookup()` answers "nothing changed" only when the key is equal, the record's seal is intact
(an HMAC under the cache key, `cachekey`: a record sealed by anyone without it is no record),
no interrupted build left anything in the output folder, every output file still has the size,
modification time (ns), inode and status change time recorded just after the build, when its
bytes were checked (writing or replacing a file changes them, as make and git rely on; a file
changed in the record's own timestamp granule is read again), and the manifest on disk is the one
recorded; anything else falls through to a full build. `trusted()` hands the writer the same
knowledge when a build must run. The contract files are the loader's own listing
(`discovery.contract_files`: one discovery, the same filters), and a listing with a problem is left
to the full build that reports it. It imports nothing heavy, so a no-change run stays cheap.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolgen.config import CACHE_DIR, Settings
from toolgen.diagnostics import Diagnostic
from toolgen.discovery import contract_files
from toolgen.incremental import cache, sealing
from toolgen.load import read_contract_bytes
from toolgen.templating import templates_digest
from toolgen.writer.journal import MANIFEST, leftovers
from toolgen.writer.safepaths import Stat, file_digest, file_stat

if TYPE_CHECKING:  # the writer's holdings (and the render layer they name) stay unloaded on the shortcut
    from toolgen.writer.files import Files

STATE = "state.json"
"""The fast-path record inside the cache folder."""


@dataclass(frozen=True, slots=True)
class State:
    """What the last successful build recorded."""

    key: str
    manifest: str
    contracts: int
    files: int
    diagnostics: tuple[Diagnostic, ...]
    stats: Mapping[str, Stat]
    """`write.file_stat` of every output file (manifest included) just after the build."""
    written: int = 0
    """The modification time (ns) of the record itself: a file whose status changed at that time
    or later may have been written again in the same timestamp granule (`trusted`)."""
    seen: Mapping[str, tuple[Stat, str]] = field(default_factory=dict)
    """Each contract the build read (path under the contracts folder): its stat when read and the
    sha256 of the bytes read (`Seen`)."""


Seen = Mapping[str, tuple[Stat, str]]
"""Contract path (under the contracts folder) -> (its `contract_stat` just before it was read, the
sha256 of the bytes read), for files whose status had not changed for `SETTLED_NS` before the
probe began: the next probe takes the digest of a file whose stat is still this one without
reading it, as git trusts its index. A write moves the status change time, which no program can
set back; a write in the same timestamp granule as that stat came before the probe and was read."""

SETTLED_NS = 2_000_000_000
"""How long before a probe a contract's status must have last changed for its stat to vouch for its
bytes later: wider than any file system's timestamp granule (FAT's is 2 s), so a write after the
probe read the file always gives it another status change time."""


def contract_stat(path: Path) -> Stat:
    """Size, modification time (ns), inode and status change time of a contract file, through a
    link (a contract may be a link inside the project: what it names is what is read)."""
    info = os.stat(path)
    return (info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Inputs:
    """The inputs of a build as they are on disk now: `key` digests them all (None when the
    contracts cannot be listed or read plainly); `base` and `templates` are its parts without the
    contracts, for `loaded_key`."""

    key: str | None
    base: str
    templates: str
    contents: dict[Path, bytes] = field(default_factory=dict, repr=False, compare=False)
    """The bytes of every contract file read, by path: the build that follows loads these (`reader`)
    instead of reading each file again. A file the probe did not read (its stat vouched for it) is
    read by the build, whose `loaded_key` then names what it read."""
    seen: dict[str, tuple[Stat, str]] = field(default_factory=dict, repr=False, compare=False)
    """`Seen` of this probe: the settled contracts' stat and digest, for the record."""
    listing: list[tuple[str, Path]] | None = field(default=None, repr=False, compare=False)
    """The contracts folder as this probe listed it (`discovery.contract_files`, which found no
    problem): the build that follows loads these files instead of listing the folder again."""

    def reader(self) -> Callable[[Path], bytes]:
        """`load.read_contract_bytes` for the build after this probe: each file's bytes as the probe
        read them, handed over once (then dropped), else read now."""

        def read(path: Path) -> bytes:
            data = self.contents.pop(path, None)
            return data if data is not None else read_contract_bytes(path)

        return read


def probe(settings: Settings, seen: Seen | None = None, *, settled_before: int | None = None) -> Inputs:
    """Digest every input of a build: each contract's bytes (read with a size bound, or the recorded
    digest of one whose stat is still the one `seen` recorded), the settings, the templates and
    toolgen itself. `Inputs.seen` holds the contracts whose status last changed before
    `settled_before` (ns; default: `SETTLED_NS` before now)."""
    settled = time.time_ns() - SETTLED_NS if settled_before is None else settled_before
    templates = templates_digest(settings.templates_dir)
    base = hashlib.sha256()
    for text in (cache.toolgen_fingerprint(), settings.fingerprint(), templates):
        base.update(text.encode("utf-8") + b"\0")
    found = Inputs(None, base.hexdigest(), templates)
    paths, problems = contract_files(settings.contracts_dir, settings)
    if problems:  # the full build reports them
        return found
    known = seen or {}
    inputs: list[tuple[str, str]] = []
    contents: dict[Path, bytes] = {}
    fresh: dict[str, tuple[Stat, str]] = {}
    for rel, path in paths:
        try:
            info = contract_stat(path)
            recorded = known.get(rel)
            if recorded is not None and recorded[0] == info:
                sha = recorded[1]
            else:
                contents[path] = read_contract_bytes(path)
                sha = hashlib.sha256(contents[path]).hexdigest()
        except OSError:
            return found
        inputs.append((rel, sha))
        if info[3] < settled:
            fresh[rel] = (info, sha)
    return Inputs(_key(found.base, inputs), found.base, templates, contents, fresh, paths)


def input_key(settings: Settings) -> str | None:
    """The digest of every input of a build as on disk now (`probe(settings).key`)."""
    return probe(settings).key


def loaded_key(settings: Settings, before: Inputs, inputs: Sequence[tuple[str, str]]) -> str | None:
    """The key of the build that read `inputs` (each contract's path under the contracts folder and
    the sha256 of the bytes it read), probed as `before`; None when a template changed meanwhile."""
    if templates_digest(settings.templates_dir) != before.templates:
        return None
    return _key(before.base, inputs)


def _key(base: str, inputs: Sequence[tuple[str, str]]) -> str:
    digest = hashlib.sha256(base.encode("ascii") + b"\0")
    for rel, sha in sorted(inputs):
        digest.update(rel.encode("utf-8") + b"\0" + bytes.fromhex(sha))
    return digest.hexdigest()


def _state_path(settings: Settings) -> Path:
    return settings.root / CACHE_DIR / STATE


def recorded(settings: Settings, secret: bytes) -> State | None:
    """What the last successful build recorded, when its seal holds under `secret` (the cache key)."""
    if not cache.usable(settings.root):
        return None
    try:
        path = _state_path(settings)
        written = os.lstat(path).st_mtime_ns
        text = sealing.unseal(STATE, path.read_bytes(), secret)
        data = json.loads(text or "null")
        return State(
            key=str(data["key"]),
            manifest=str(data["manifest"]),
            contracts=int(data["contracts"]),
            files=int(data["files"]),
            diagnostics=tuple(Diagnostic.from_json(d) for d in data["diagnostics"]),
            stats={str(rel): (int(a), int(b), int(c), int(d)) for rel, (a, b, c, d) in data["stats"].items()},
            written=written,
            seen={str(rel): _seen(entry) for rel, entry in data["seen"].items()},
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _seen(entry: tuple[int, int, int, int, str]) -> tuple[Stat, str]:
    """One recorded `Seen` entry ([size, mtime, inode, ctime, sha256], as JSON) as (stat, digest)."""
    size, mtime, inode, ctime, sha = entry
    return (int(size), int(mtime), int(inode), int(ctime)), str(sha)


Trusted = Mapping[str, tuple[Stat, str]]
"""Output path -> (its stat, the digest of its bytes) for files the writer need not read (`trusted`)."""


def trusted(settings: Settings, secret: bytes) -> dict[str, tuple[Stat, str]]:
    """The output files a build need not read to know what they hold, with their stat and digest:
    those the last recorded build verified byte for byte, as git trusts its index. The digests are
    read from the manifest that build recorded (its bytes checked against the record), and only
    files whose status changed before the record was written are listed ("racy" ones, changed in
    its own timestamp granule, are read again). A file written since has another status change
    time, which no program can set back, whatever it does to size and mtime; the writer compares
    the stat (`write.plan`). Nothing is trusted after an interrupted build. `secret`: the cache key."""
    state = recorded(settings, secret)
    out = settings.output_dir
    if state is None or leftovers(out):
        return {}
    digests = _recorded_digests(out, state)
    return {
        rel: (stat, digests[rel])
        for rel, stat in state.stats.items()
        if rel in digests and rel != MANIFEST and stat[3] < state.written
    }


def _recorded_digests(out: Path, state: State) -> dict[str, str]:
    """Path -> digest from the manifest on disk when it holds the bytes the record names, else {}."""
    try:
        data = (out / MANIFEST).read_bytes()
        if _sha(data) != state.manifest:
            return {}
        files = json.loads(data)["files"]
        return {str(rel): str(digest) for rel, digest in files.items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def lookup(settings: Settings, key: str | None, secret: bytes) -> State | None:
    """The recorded state when nothing changed since it was recorded and the output is intact; else None.
    `secret`: the cache key the record is sealed under."""
    return current(settings, key, recorded(settings, secret))


def current(settings: Settings, key: str | None, state: State | None) -> State | None:
    """`state` when it was recorded for the inputs `key` digests and the output is intact; else None.

    A file changed in the record's own timestamp granule ("racy") is read again and must hold the
    bytes the recorded manifest names."""
    if key is None:
        return None
    out = settings.output_dir
    if state is None or state.key != key or MANIFEST not in state.stats or leftovers(out):
        return None
    try:
        racy = []
        folder = os.fspath(out) + os.sep  # plain strings: a Path per file costs more than its stat
        for rel, recorded in state.stats.items():
            if file_stat(folder + rel) != recorded:
                return None
            if recorded[3] >= state.written and rel != MANIFEST:
                racy.append(rel)
        if racy:  # the manifest is parsed only when a file must be read again
            digests = _recorded_digests(out, state)
            intact = bool(digests) and all(digests.get(rel) == file_digest(out / rel) for rel in racy)
        else:
            intact = _sha((out / MANIFEST).read_bytes()) == state.manifest
    except OSError:
        return None
    return state if intact else None


def record(
    settings: Settings,
    key: str | None,
    diagnostics: Sequence[Diagnostic],
    contracts: int,
    files: Files,
    *,
    secret: bytes,
    verified: Mapping[str, Stat] | None = None,
    seen: Seen | None = None,
) -> None:
    """Remember a successful build whose output folder now holds exactly `files` (manifest included).

    `verified` holds the stat of files the plan just compared byte for byte and left alone: that
    stat is recorded as it is, unread and not taken again (a file changed since has another, which
    `lookup` and the writer's trust compare, so it is read then). `seen`: the contracts whose stat
    vouches for the digest the build loaded (`Inputs.seen`, only those the build loaded with that
    digest). Sealed under `secret`, the cache key."""
    if key is None or MANIFEST not in files:
        return
    document = {
        "key": key,
        "manifest": _sha(files[MANIFEST]),
        "contracts": contracts,
        "files": len(files),
        "diagnostics": [d.as_json() for d in diagnostics],
    }
    try:
        # what is on disk now must be what the build wrote, byte for byte, before its stat is trusted
        stats: dict[str, Stat] = {}
        checked = verified or {}
        for rel in sorted(files):
            if rel in checked:  # compared byte for byte at this stat: any change since moves it
                stats[rel] = checked[rel]
                continue
            target = settings.output_dir / rel
            stats[rel] = file_stat(target)
            if not files.same_on_disk(rel, target) or file_stat(target) != stats[rel]:
                return
    except OSError:
        return
    document["stats"] = stats
    document["seen"] = _seen_json(seen or {})
    _write_state(settings, document, secret)


def refresh(settings: Settings, state: State, seen: Seen, secret: bytes) -> None:
    """Add to the record `state` the contracts that settled since it was written (`seen`: those of
    the probe that found nothing changed), so later probes need not read them. The record keeps its
    time (`State.written`, set back on the new file): which output files count as racy stays put."""
    if seen.items() <= state.seen.items():
        return
    document = {
        "key": state.key,
        "manifest": state.manifest,
        "contracts": state.contracts,
        "files": state.files,
        "diagnostics": [d.as_json() for d in state.diagnostics],
        "stats": {rel: list(stat) for rel, stat in state.stats.items()},
        "seen": _seen_json(seen),
    }
    _write_state(settings, document, secret, mtime=state.written)


def _seen_json(seen: Seen) -> dict[str, list[int | str]]:
    return {rel: [*info, sha] for rel, (info, sha) in sorted(seen.items())}


def _write_state(settings: Settings, document: Mapping[str, object], secret: bytes, mtime: int | None = None) -> None:
    """Replace the record with `document`, sealed under `secret`; with `mtime`, the new file keeps
    that modification time (or, when it cannot, there is no record)."""
    path = _state_path(settings)
    if not cache.usable(settings.root):
        return
    with contextlib.suppress(OSError):
        cache.Store(path.parent, secret).ensure_root()
        import tempfile  # only to write the record: the shortcut that answers writes nothing

        handle, temp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(sealing.seal(STATE, json.dumps(document, ensure_ascii=False), secret))
        os.replace(temp, path)
        if mtime is not None:
            try:
                os.utime(path, ns=(mtime, mtime))
            except OSError:
                forget(settings)


def forget(settings: Settings) -> None:
    """Drop the record (a failed or partial build)."""
    with contextlib.suppress(OSError):
        _state_path(settings).unlink()
