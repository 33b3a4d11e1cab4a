"""The no-change fast path: prove the output is current without loading, validating or rendering anything.

`input_key(settings)` digests every input of a build: each contract file's path and bytes, the
resolved settings, every template that could be used, and `cache.environment()` (toolgen's version
and source digest, the pinned dependencies). After a successful build (or a `check` that found the
output current) `record()` stores that key in `.toolgen-cache/state.json` with the build's
diagnostics and the digest of the manifest it wrote. `lookup()` answers "nothing changed" only when
the key is equal, the manifest on disk is the one recorded, and every output file still has the
size, modification time (ns) and inode recorded just after the build, when its bytes were checked
(writing or replacing a file changes them, as make and git rely on); anything else (a missing or
edited file, a new contract, a template, a version) falls through to a full build. It imports
nothing heavy, so a no-change run stays cheap.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolgen.build import cache
from toolgen.build.write import MANIFEST, Files, file_stat
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic
from toolgen.templating import templates_digest

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
    stats: Mapping[str, tuple[int, int, int]]
    """(size, mtime in ns, inode) of every output file (manifest included) just after the build."""


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def input_key(settings: Settings) -> str | None:
    """The digest of every input of a build, or None when the contracts cannot be listed plainly."""
    paths = contract_files(settings.contracts_dir)
    if paths is None:
        return None
    digest = hashlib.sha256()
    for text in (cache.environment(), settings.fingerprint(), templates_digest(settings.templates_dir)):
        digest.update(text.encode("utf-8") + b"\0")
    for rel, path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def contract_files(folder: Path) -> list[tuple[str, Path]] | None:
    """Every file `load.discover` would read (same filters), sorted; None on anything unusual.

    A cheap re-implementation (no path resolution): a symlink loop, an unreadable folder or a
    missing contracts folder gives None, and the build then takes the full path that reports it.
    """
    from toolgen.load import CONTRACT_SUFFIXES

    if not folder.is_dir():
        return None
    found: list[tuple[str, Path]] = []
    seen: set[tuple[int, int]] = set()
    failed: list[OSError] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True, onerror=failed.append):
        here = Path(dirpath)
        info = here.stat()
        if (info.st_dev, info.st_ino) in seen:
            return None
        seen.add((info.st_dev, info.st_ino))
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        prefix = here.relative_to(folder).as_posix()
        for name in filenames:
            if not name.startswith(".") and name.endswith(CONTRACT_SUFFIXES):
                found.append((name if prefix == "." else f"{prefix}/{name}", here / name))
    return None if failed else sorted(found)


def _state_path(settings: Settings) -> Path:
    return settings.root / cache.CACHE_DIR / STATE


def _read_state(settings: Settings) -> State | None:
    try:
        data = json.loads(_state_path(settings).read_text(encoding="utf-8"))
        return State(
            key=str(data["key"]),
            manifest=str(data["manifest"]),
            contracts=int(data["contracts"]),
            files=int(data["files"]),
            diagnostics=tuple(Diagnostic.from_json(d) for d in data["diagnostics"]),
            stats={str(rel): (int(a), int(b), int(c)) for rel, (a, b, c) in data["stats"].items()},
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def lookup(settings: Settings, key: str | None) -> State | None:
    """The recorded state when nothing changed since it was recorded and the output is intact; else None."""
    if key is None:
        return None
    state = _read_state(settings)
    if state is None or state.key != key:
        return None
    out = settings.output_dir
    try:
        if _sha((out / MANIFEST).read_bytes()) != state.manifest:
            return None
        for rel, recorded in state.stats.items():
            if file_stat(out / rel) != recorded:
                return None
    except OSError:
        return None
    return state


def record(
    settings: Settings,
    key: str | None,
    diagnostics: Sequence[Diagnostic],
    contracts: int,
    files: Files,
    *,
    verified: Mapping[str, tuple[int, int, int]] | None = None,
) -> None:
    """Remember a successful build whose output folder now holds exactly `files` (manifest included).

    `verified` holds the stat of files the plan just compared byte for byte and left alone; one
    whose stat has not moved since is not read again."""
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
        stats: dict[str, tuple[int, int, int]] = {}
        checked = verified or {}
        for rel in sorted(files):
            target = settings.output_dir / rel
            stats[rel] = file_stat(target)
            if checked.get(rel) == stats[rel]:
                continue
            if not files.same_on_disk(rel, target) or file_stat(target) != stats[rel]:
                return
    except OSError:
        return
    document["stats"] = stats
    path = _state_path(settings)
    with contextlib.suppress(OSError):
        cache.Store(path.parent).ensure_root()
        handle, temp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            json.dump(document, stream, ensure_ascii=False)
        os.replace(temp, path)


def forget(settings: Settings) -> None:
    """Drop the record (a failed or partial build)."""
    with contextlib.suppress(OSError):
        _state_path(settings).unlink()
