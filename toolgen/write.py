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
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolgen import __version__
from toolgen.render import Artifact

MANIFEST = ".toolgen-manifest.json"


class WriteError(Exception):
    """The output folder cannot be updated safely; nothing was written."""


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def manifest_text(files: Mapping[str, bytes]) -> bytes:
    """The manifest for this set of files: every owned path with the digest of its bytes."""
    document = {
        "generated_by": f"toolgen {__version__}",
        "note": "files toolgen owns in this folder; toolgen deletes only these",
        "files": {path: _digest(files[path]) for path in sorted(files)},
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
    files: Mapping[str, bytes]
    write: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()
    diffs: Mapping[str, str] = field(default_factory=dict)

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
    lines = list(difflib.unified_diff(old_lines, new_lines, f"{path} (on disk)", f"{path} (expected)", n=1))
    more = len(lines) - limit
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:limit])
    return shown + (f"... ({more} more diff lines)\n" if more > 0 else "")


def plan(artifacts: Iterable[Artifact], output_dir: Path) -> Plan:
    """Compare the artifacts (plus the manifest) with what is on disk."""
    files: dict[str, bytes] = {}
    for artifact in artifacts:
        if not _safe_relpath(artifact.path) or artifact.path == MANIFEST:
            raise WriteError(f"refusing to write outside the output folder: {artifact.path!r}")
        if artifact.path in files:
            raise WriteError(f"two targets produce the same file {artifact.path!r}")
        files[artifact.path] = artifact.data()
    owned = read_manifest(output_dir)
    files[MANIFEST] = manifest_text(files)
    write: list[str] = []
    unchanged: list[str] = []
    missing: list[str] = []
    foreign: list[str] = []
    diffs: dict[str, str] = {}
    for path in sorted(files):
        current = _read(output_dir / path)
        if current == files[path]:
            unchanged.append(path)
            continue
        write.append(path)
        if current is None:
            missing.append(path)
            continue
        diffs[path] = _short_diff(path, current, files[path])
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
        diffs=diffs,
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
            target.write_bytes(change.files[path])
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
