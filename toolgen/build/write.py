"""Writing: compare rendered artifacts with the output folder, then apply or report the difference.

The writer is the only code that touches `generated/`. It keeps a manifest of the files toolgen owns
(`.toolgen-manifest.json`), so it deletes only files it generated and refuses to overwrite a file it
did not. A build stages every changed file in a temporary folder and moves them into place only
after all of them were written; unchanged files are not touched (their mtimes are kept). `check` is
the same comparison with nothing applied.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolgen import __version__
from toolgen.render import Artifact

MANIFEST = ".toolgen-manifest.json"


class WriteError(Exception):
    """The output folder cannot be updated safely; nothing was written."""


def manifest_text(files: Files) -> bytes:
    """The manifest for this set of files: every owned path with the digest of its bytes."""
    document = {
        "generated_by": f"toolgen {__version__}",
        "note": "files toolgen owns in this folder; toolgen deletes only these",
        "files": {path: files.digest(path) for path in sorted(files)},
    }
    return (json.dumps(document, indent=2) + "\n").encode("utf-8")


def read_manifest(output_dir: Path) -> dict[str, str]:
    """Owned paths and digests from the manifest on disk (empty when there is none or it is unreadable)."""
    try:
        document = json.loads((output_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict):
        return {}
    return {str(k): str(v) for k, v in files.items() if _safe_relpath(str(k))}


def _safe_relpath(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)


@dataclass(frozen=True, slots=True)
class Plan:
    """What a build would do to the output folder."""

    output_dir: Path
    files: Files
    write: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()
    diffs: Mapping[str, str] = field(default_factory=dict)
    verified: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    """`file_stat` of each unchanged file, taken around the byte-for-byte comparison that found it
    unchanged (and equal before and after it)."""

    @property
    def up_to_date(self) -> bool:
        """True when the folder already holds exactly these files."""
        return not self.write and not self.remove


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def _short_diff(path: str, old: bytes, new: bytes, limit: int = 20) -> str:
    try:
        old_lines = old.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return "(binary content differs)\n"
    new_lines = new.decode("utf-8").splitlines(keepends=True)
    # difflib is quadratic in the lines it is given: give it only the span between the common
    # head and tail (plus one line of context), then put the true line numbers back in the hunks.
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < min(len(old_lines), len(new_lines)) - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    skip = max(head - 1, 0)
    old_span, new_span = (
        old_lines[skip : len(old_lines) - max(tail - 1, 0)],
        new_lines[skip : len(new_lines) - max(tail - 1, 0)],
    )
    lines = list(difflib.unified_diff(old_span, new_span, f"{path} (on disk)", f"{path} (expected)", n=1))
    lines = [_shift_hunk(line, skip) for line in lines]
    more = len(lines) - limit
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:limit])
    return shown + (f"... ({more} more diff lines)\n" if more > 0 else "")


_HUNK_RE = re.compile(r"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")


def _shift_hunk(line: str, offset: int) -> str:
    """A hunk header with its line numbers moved down by `offset` (other lines unchanged)."""
    match = _HUNK_RE.match(line) if offset and line.startswith("@@") else None
    if match is None:
        return line
    old_start, old_len, new_start, new_len = match.groups()
    shifted = f"@@ -{_moved(old_start, old_len, offset)}{old_len} +{_moved(new_start, new_len, offset)}{new_len} @@"
    return shifted + line[match.end() :]


def _moved(start: str, length: str, offset: int) -> int:
    # an empty range (",0") names the line before it; it moves all the same
    return int(start) + offset if int(start) or length != ",0" else offset


class LazyDiffs(Mapping[str, str]):
    """Short diffs by path, computed only when read: a build never pays for them, `check` does.

    Neither side is held meanwhile: the old bytes are read from the output folder again, the new
    ones made from the files of the plan.
    """

    def __init__(self, paths: Iterable[str], files: Mapping[str, bytes], output_dir: Path) -> None:
        self._paths = list(paths)
        self._files = files
        self._output_dir = output_dir
        self._done: dict[str, str] = {}

    def __getitem__(self, path: str) -> str:
        if path not in self._done:
            if path not in self._paths:
                raise KeyError(path)
            old = _read(self._output_dir / path) or b""
            self._done[path] = _short_diff(path, old, self._files[path])
        return self._done[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


class Files(Mapping[str, bytes]):
    """Path -> bytes of every file of a build, each made from its artifact when it is read.

    The artifacts hold their bytes compressed; this never holds more than one file's plain bytes,
    and `chunks`, `digest` and `same_on_disk` not even that for a large one.
    """

    def __init__(self, artifacts: Mapping[str, Artifact]) -> None:
        self._artifacts = dict(artifacts)
        self._extra: dict[str, bytes] = {}

    def add(self, path: str, data: bytes) -> None:
        """Add a file given as bytes (the manifest; never the path of an artifact)."""
        self._extra[path] = data

    def __getitem__(self, path: str) -> bytes:
        if path in self._extra:
            return self._extra[path]
        return self._artifacts[path].data()

    def __contains__(self, path: object) -> bool:
        return path in self._extra or path in self._artifacts

    def __iter__(self) -> Iterator[str]:
        yield from self._artifacts
        yield from self._extra

    def __len__(self) -> int:
        return len(self._artifacts) + len(self._extra)

    def chunks(self, path: str) -> Iterator[bytes]:
        """The bytes of `path` in pieces."""
        if path in self._extra:
            yield self._extra[path]
        else:
            yield from self._artifacts[path].chunks()

    def digest(self, path: str) -> str:
        """`sha256:<hex>` of `path`, read in pieces."""
        digest = hashlib.sha256()
        for piece in self.chunks(path):
            digest.update(piece)
        return f"sha256:{digest.hexdigest()}"

    def same_on_disk(self, path: str, target: Path) -> bool:
        """Whether `target` holds exactly the bytes of `path` (compared piece by piece)."""
        try:
            with target.open("rb") as stream:
                for piece in self.chunks(path):
                    if stream.read(len(piece)) != piece:
                        return False
                return stream.read(1) == b""
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return False


def file_stat(path: Path) -> tuple[int, int, int]:
    """What changes whenever a file is written or replaced: size, modification time (ns), inode."""
    info = path.stat()
    return (info.st_size, info.st_mtime_ns, info.st_ino)


def _stat_or_none(path: Path) -> tuple[int, int, int] | None:
    try:
        return file_stat(path)
    except OSError:
        return None


def plan(artifacts: Iterable[Artifact], output_dir: Path) -> Plan:
    """Compare the artifacts (plus the manifest) with what is on disk."""
    by_path: dict[str, Artifact] = {}
    for artifact in artifacts:
        if not _safe_relpath(artifact.path) or artifact.path == MANIFEST:
            raise WriteError(f"refusing to write outside the output folder: {artifact.path!r}")
        if artifact.path in by_path:
            raise WriteError(f"two targets produce the same file {artifact.path!r}")
        by_path[artifact.path] = artifact
    owned = read_manifest(output_dir)
    files = Files(by_path)
    files.add(MANIFEST, manifest_text(files))
    write: list[str] = []
    unchanged: list[str] = []
    missing: list[str] = []
    foreign: list[str] = []
    changed: list[str] = []
    verified: dict[str, tuple[int, int, int]] = {}
    for path in sorted(files):
        target = output_dir / path
        before = _stat_or_none(target)
        if before is not None and files.same_on_disk(path, target):
            unchanged.append(path)
            if _stat_or_none(target) == before:
                verified[path] = before
            continue
        write.append(path)
        if not target.is_file():
            missing.append(path)
            continue
        changed.append(path)
        if path not in owned and path != MANIFEST:
            foreign.append(path)
    remove = [p for p in sorted(owned) if p not in files and (output_dir / p).is_file()]
    return Plan(
        output_dir=output_dir,
        files=files,
        write=tuple(write),
        unchanged=tuple(unchanged),
        remove=tuple(remove),
        missing=tuple(missing),
        foreign=tuple(foreign),
        diffs=LazyDiffs(changed, files, output_dir),
        verified=verified,
    )


def apply(change: Plan, *, force: bool = False) -> None:
    """Make the output folder match the plan: stage changed files, move them in, then delete orphans.

    Raises WriteError, with nothing written, when a file to overwrite was not generated by toolgen
    (unless `force`).
    """
    if change.foreign and not force:
        names = ", ".join(change.foreign)
        raise WriteError(
            f"{names}: exists in the output folder but was not generated by toolgen "
            f"(it is not in {MANIFEST}); move it away, or pass --force to overwrite it"
        )
    if change.up_to_date:
        return
    out = change.output_dir
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".toolgen-staging-", dir=out))
    try:
        for path in change.write:
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as stream:
                for piece in change.files.chunks(path):
                    stream.write(piece)
        for path in change.write:
            if path == MANIFEST:
                continue
            destination = out / path
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / path, destination)
        for path in change.remove:
            (out / path).unlink(missing_ok=True)
            _prune_empty_parents(out / path, out)
        if MANIFEST in change.write:
            os.replace(staging / MANIFEST, out / MANIFEST)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _prune_empty_parents(path: Path, root: Path) -> None:
    parent = path.parent
    while parent != root and root in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent
