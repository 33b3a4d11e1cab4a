"""Writing: compare rendered artifacts with the output folder, then apply or report the difference.

The writer is the only code that touches `generated/`. It keeps a manifest of the files toolgen owns
(`.toolgen-manifest.json`, each with the digest of its bytes) and overwrites or deletes a file only
when its bytes are exactly what the manifest says toolgen wrote there: a file changed by hand (TG132)
or never written by toolgen (TG133) stops the build before anything is written, unless `--force`.
Nothing is read, written or deleted through a symlink, and a path that is a folder or a special file
where a file goes stops the build too (TG134). Changed files are staged and moved into place under a
journal (`journal.py`), so an interrupted build is completed by the next one; unchanged files are
not touched (their mtimes are kept). `check` is the same comparison with nothing applied.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolgen import __version__
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.render import File
from toolgen.writer import files as _files
from toolgen.writer import journal, safepaths
from toolgen.writer.errors import WriteError
from toolgen.writer.outputs import Output, held
from toolgen.writer.safepaths import MISSING, REGULAR, Probe, file_digest, stat_or_none
from toolgen.writer.shortdiff import LazyDiffs, short_diff

MANIFEST = journal.MANIFEST
"""The manifest file in the output folder."""

_short_diff = short_diff
"""The short diff `check` prints (its old name here)."""

file_stat = safepaths.file_stat
"""What changes whenever a file is written (`safepaths.file_stat`)."""

Stat = safepaths.Stat

Files = _files.Files
"""Path -> bytes of every file of a build (`toolgen.writer.files`)."""


def manifest_text(files: Files) -> bytes:
    """The manifest for this set of files: every owned path with the digest of its bytes.

    The text `json.dumps(document, indent=2)` writes, made by json's C encoder: with an indent
    json encodes in pure Python, and a manifest of 2,000 files is written every build. Its file
    list is flat, so its separators are the indented ones (a JSON string holds no raw newline)."""
    head = {
        "generated_by": f"toolgen {__version__}",
        "note": "files toolgen owns in this folder; toolgen deletes only these",
    }
    listed = {path: files.digest(path) for path in sorted(files)}
    top = json.dumps(head, separators=(",\n  ", ": "))[1:-1]
    body = json.dumps(listed, separators=(",\n    ", ": "))
    shown = "{\n    " + body[1:-1] + "\n  }" if listed else "{}"
    return f'{{\n  {top},\n  "files": {shown}\n}}\n'.encode()


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
    """A relative POSIX path inside the folder, none of whose parts is toolgen's own (`.toolgen-*`)."""
    parts = path.split("/")
    return bool(path) and all(p not in ("", ".", "..") and not p.startswith(".toolgen-") for p in parts)


@dataclass(frozen=True, slots=True)
class Plan:
    """What a build would do to the output folder, and what would stop it."""

    output_dir: Path
    files: Files
    write: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()
    """Files to overwrite that the manifest does not list (TG133)."""
    edited: tuple[str, ...] = ()
    """Owned files to overwrite or delete whose bytes are not the manifest's (TG132)."""
    blocked: Mapping[str, str] = field(default_factory=dict)
    """Path -> why it cannot be written (a symlink, a folder or a special file on the way; TG134)."""
    before: Mapping[str, str | None] = field(default_factory=dict)
    """Digest of what each path to write or remove holds now (None: absent)."""
    label: str = ""
    """The output folder as the user names it (in diagnostics)."""
    diffs: Mapping[str, str] = field(default_factory=dict)
    verified: Mapping[str, Stat] = field(default_factory=dict)
    """`file_stat` of each unchanged file, taken around the byte-for-byte comparison that found it
    unchanged (and equal before and after it)."""

    @property
    def up_to_date(self) -> bool:
        """True when the folder already holds exactly these files."""
        return not self.write and not self.remove and not self.blocked

    def shown(self, path: str) -> str:
        """`path` as the user sees it: under the output folder's name."""
        return f"{self.label}/{path}" if self.label and path else path or self.label

    def drift(self) -> Iterator[str]:
        """What `check` lists: each missing, stale (with a short diff), orphaned or blocked file."""
        for path in self.write:
            yield f"{self.shown(path)}: {'missing' if path in self.missing else 'stale'}\n"
            if path in self.diffs:
                yield self.diffs[path]
        for path in self.remove:
            yield f"{self.shown(path)}: orphaned (its contract or target is gone)\n"
        for path in self.blocked:
            yield f"{self.shown(path)}: cannot be written (TG134)\n"

    def refusals(self, *, force: bool = False) -> list[Diagnostic]:
        """Why the plan may not be applied: TG134 always, TG132 and TG133 unless `force`."""
        found = [
            _refusal("TG134", self.shown(p), f"{why}; move it away and build again") for p, why in self.blocked.items()
        ]
        if not force:
            found += [_refusal("TG132", self.shown(p), _edited_message(p in self.remove)) for p in self.edited]
            found += [_refusal("TG133", self.shown(p), _FOREIGN) for p in self.foreign]
        return sorted(found, key=Diagnostic.sort_key)


_FOREIGN = (
    f"exists in the output folder but was not generated by toolgen (it is not in {MANIFEST}); "
    "move it away, or pass --force to overwrite it"
)


def _edited_message(deleted: bool) -> str:
    what = "delete it (its contract or target is gone)" if deleted else "overwrite it"
    return (
        f"edited by hand since toolgen wrote it (its bytes are not the ones in {MANIFEST}), and the build "
        f"would {what}; move the file elsewhere to keep the edit, or pass --force to discard it"
    )


def _refusal(code: str, file: str, message: str) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, file)


def plan(
    artifacts: Iterable[File],
    output_dir: Path,
    *,
    label: str = "",
    trusted: Mapping[str, tuple[Stat, str]] | None = None,
) -> Plan:
    """Compare the artifacts (plus the manifest) with what is on disk, without following a symlink.

    `trusted` holds the stat and the digest of files known to hold those bytes (`fastpath.trusted`:
    the last build verified them, and none has been written since): such a file whose artifact has
    that digest and whose stat has not moved is unchanged without being read."""
    files = Files(_by_path(artifacts))
    files.add(MANIFEST, manifest_text(files))
    owned = read_manifest(output_dir)
    probe = Probe(output_dir)
    sort = _Sorting(trusted=trusted or {})
    for path in sorted(files):
        sort.place(path, files, owned, probe)
    for path in sorted(p for p in owned if p not in files):
        sort.orphan(path, owned, probe)
    files.readable(sort.write)
    return Plan(
        output_dir=output_dir,
        files=files,
        write=tuple(sort.write),
        unchanged=tuple(sort.unchanged),
        remove=tuple(sort.remove),
        missing=tuple(sort.missing),
        foreign=tuple(sort.foreign),
        edited=tuple(sort.edited),
        blocked=sort.blocked,
        before=sort.before,
        label=label,
        diffs=LazyDiffs(sort.changed, files, output_dir),
        verified=sort.verified,
    )


def _by_path(artifacts: Iterable[File]) -> dict[str, Output]:
    """The files as outputs (`outputs.held`) by path; WriteError for a path outside the folder,
    twice, or equal but for case."""
    by_path: dict[str, Output] = {}
    folded: dict[str, str] = {}
    for made in artifacts:
        artifact = held(made)
        path = artifact.path
        if not _safe_relpath(path):
            raise WriteError(f"refusing to write outside the output folder: {path!r}")
        if path in by_path:
            raise WriteError(f"two targets produce the same file {path!r}")
        by_path[path] = artifact
        parts = path.split("/")
        for end in range(1, len(parts) + 1):
            prefix = "/".join(parts[:end])
            other = folded.setdefault(prefix.casefold(), prefix)
            if other != prefix:
                raise WriteError(
                    f"{other} and {prefix} differ only in case: on macOS and Windows one overwrites the other"
                )
    return by_path


@dataclass
class _Sorting:
    """The lists `plan` fills, path by path."""

    write: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    blocked: dict[str, str] = field(default_factory=dict)
    before: dict[str, str | None] = field(default_factory=dict)
    verified: dict[str, Stat] = field(default_factory=dict)
    trusted: Mapping[str, tuple[Stat, str]] = field(default_factory=dict)

    def place(self, path: str, files: Files, owned: Mapping[str, str], probe: Probe) -> None:
        """Sort one file of the build: unchanged, missing, to overwrite (and whether it may be), or blocked."""
        holds = self._held(path, probe)
        if holds is not None:  # the bytes on disk are known by their stat: compared without a read
            if holds == files.digest(path):
                self.unchanged.append(path)
                self.verified[path] = self.trusted[path][0]
            else:
                self._changed(path, holds, owned)
            return
        state, where = probe.state(path)
        target = probe.root / path
        if state == MISSING:
            self.write.append(path)
            self.missing.append(path)
            self.before[path] = None
            return
        if state != REGULAR:
            self.blocked.setdefault(where, state)
            return
        before = stat_or_none(target)
        if files.same_on_disk(path, target):
            self.unchanged.append(path)
            if before is not None and stat_or_none(target) == before:
                self.verified[path] = before
            return
        self._changed(path, file_digest(target), owned)

    def _changed(self, path: str, digest: str, owned: Mapping[str, str]) -> None:
        """`path` holds other bytes (of `digest`) than the build made: written, if it may be."""
        self.write.append(path)
        self.changed.append(path)
        self.before[path] = digest
        if path != MANIFEST and path not in owned:
            self.foreign.append(path)
        elif path != MANIFEST and owned[path] != digest:
            self.edited.append(path)

    def _held(self, path: str, probe: Probe) -> str | None:
        """The digest of what a trusted file (`plan`) holds, when it is reached through real folders
        and has the stat the trust was given for; None when it must be read to be known."""
        known = self.trusted.get(path)
        if known is None or path == MANIFEST or probe.folder(path.rpartition("/")[0]) is not None:
            return None
        # a plain string path: a plan stats every file of the build, and pathlib's joins cost more
        return known[1] if stat_or_none(f"{probe.root}/{path}") == known[0] else None

    def orphan(self, path: str, owned: Mapping[str, str], probe: Probe) -> None:
        """A file the manifest lists and the build no longer makes: removed only if it is a regular
        file reached through real folders; an edited one is named (a folder or a link is left alone)."""
        if probe.state(path)[0] != REGULAR:
            return
        self.remove.append(path)
        self.before[path] = digest = file_digest(probe.root / path)
        if digest != owned[path]:
            self.edited.append(path)


def apply(change: Plan, *, force: bool = False) -> None:
    """Make the output folder match the plan: stage changed files, journal the moves and deletes, apply.

    Raises WriteError, with nothing written, when the plan has a refusal (`Plan.refusals`)."""
    problems = change.refusals(force=force)
    if problems:
        raise WriteError(problems)
    if change.up_to_date:
        return
    removes = {p: d for p in change.remove if (d := change.before.get(p)) is not None}
    journal.commit(change.output_dir, change.files, change.write, removes, change.before)


def update(
    artifacts: Iterable[File],
    output_dir: Path,
    *,
    force: bool = False,
    label: str = "",
    trusted: Mapping[str, tuple[Stat, str]] | None = None,
) -> tuple[Plan, list[str]]:
    """A build's write phase: with the output folder locked, complete what an interrupted build left,
    plan, and apply (`trusted`: as `plan` takes it; ignored after a recovery). The plan, and notes
    on what was recovered."""
    notes: list[str] = []
    try:
        with journal.locked(output_dir):
            notes = journal.recover(output_dir) if output_dir.is_dir() else []
            try:  # a refusal after the recovery still tells what the recovery did
                change = plan(artifacts, output_dir, label=label, trusted=None if notes else trusted)
                apply(change, force=force)
            except WriteError as exc:
                exc.notes = notes
                raise
    except journal.JournalError as exc:
        raise WriteError([_refusal("TG135", label or output_dir.as_posix(), str(exc))]) from exc
    except OSError as exc:
        where = label or output_dir.as_posix()
        failed = WriteError(f"{where}: the update failed ({exc}); the next build completes or undoes it")
        failed.notes = notes
        raise failed from exc
    return change, notes


def interrupted(output_dir: Path, label: str = "") -> list[Diagnostic]:
    """What interrupted builds left in the output folder, as `check` reports it: TG135 for a journal
    (the folder is half updated), a TG135 warning for a staging folder alone (nothing was changed)."""
    found: list[Diagnostic] = []
    where = label or output_dir.as_posix()
    for name in journal.leftovers(output_dir):
        if name == journal.JOURNAL:
            message = (
                f"a build was interrupted while it moved files into place (it left {name}), so the "
                "folder is part old and part new; run `toolgen build` to complete it"
            )
            found.append(_refusal("TG135", where, message))
        else:
            message = f"{name} was left by a build interrupted before it changed anything; the next build removes it"
            found.append(Diagnostic("TG135", Severity.WARNING, message, where))
    return found
