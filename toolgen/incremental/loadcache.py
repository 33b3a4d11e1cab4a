"""What loading remembers per contract file: its own checks, its contract digest, its TOML data.

Keyed on the file's path, format and text (and, as every cache key, toolgen's own source and the
pinned versions, plus the Python version, whose tomllib and json parse it), one entry per file
holds what loading it always gives: the result of its own checks (`validate.check_document`, which
reads nothing but the document), the digest of the contract made from it
(`Contract.compute_digest`, a canonical JSON dump of the whole contract) once it passed
validation, and, for a TOML file, the parsed data as JSON, which reads back several times faster
than tomllib parses (a JSON file's own text is already that). 999 unchanged files of 1,000 are
then read and decoded, not parsed by tomllib, checked nor digested again, with one entry read per
file. Data that JSON cannot hold exactly (TOML dates, `nan`) is never stored: such a file is parsed
every time. An entry that does not decode to values of the right shapes is a miss. An entry is
written once per build, after validation (with the digest when the catalog was made); one written
while another contract had an error lacks the digest, which a later build adds under the same key
(the only entry that is ever completed: what it held stays as it was).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic
from toolgen.frozen import freeze
from toolgen.incremental import cache, resident, snapshot
from toolgen.incremental.parallel import Workers
from toolgen.load import RawDocument, parse_frozen, parse_text
from toolgen.thresholds import DEFAULT

NAMESPACE = "contract"

Checked: TypeAlias = snapshot.Checked


@dataclass
class Remembered:
    """The entries of one build's contract files, read as they are parsed (`parse`), and the
    snapshot of the last build's loaded contracts (`snapshot`), read before them."""

    store: cache.Store
    overlay_max: int = DEFAULT.snapshot_overlay
    """`Thresholds.snapshot_overlay`: how many changed files the snapshot's overlay takes."""
    workers: Workers | None = None
    """The build's workers: the whole snapshot is written in a process forked from them (none: here)."""
    kept: resident.Resident | None = None
    """The snapshot as this process's last build left it (`resident.Resident`): read from there, not
    from the cache, and left there again."""
    _found: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Entry key -> its decoded value, for the files read so far."""
    _pending: set[str] = field(default_factory=set)
    """Keys whose checks were made by this build and are not stored yet."""
    _keys: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """(path, format, text) -> entry key: each file's key is asked for four times a build, and each
    time would hash its whole text again."""
    _checks: dict[str, Checked] = field(default_factory=dict)
    """Entry key -> the file's own checks, as read back or made by this build (what the snapshot keeps)."""
    _snapshot: snapshot.Snapshot | None = None
    """The last build's loaded contracts, read at the first `parse`."""

    def parse(self, rel: str, text: str, fmt: str) -> Any:
        """`load.parse_text(text, fmt)`, or what the build cache already knows of the file.

        A file the snapshot holds with this text is given as the `Contract` made from it: it is
        not parsed, checked nor made again. A file whose entry says it passed (its checks read
        back, the digest of the contract made from it) is given frozen (`load.parse_frozen`): it is
        never checked again, only made into its contract, which then needs no copy of it
        (`contract_from_document(frozen=True)`). A TOML file's data is read back from its entry."""
        known = self._known(rel, text, fmt)
        if known is not None:
            return known.contract
        entry = self._entry(rel, text, fmt)
        passed = entry is not None and _passed(entry)
        if fmt == "toml" and entry is not None and "data" in entry:
            return freeze(entry["data"]) if passed else entry["data"]
        return parse_frozen(text, fmt) if passed else parse_text(text, fmt)

    def checked(self, document: RawDocument) -> Checked | None:
        """The document's own checks remembered for its text, if any."""
        key = self._key(document)
        if key in self._checks:
            return self._checks[key]
        entry = self._found.get(key)
        try:
            found = _decode_checked(entry["checked"]) if entry is not None else None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        if found is not None:
            self._checks[key] = found
        return found

    def digest(self, document: RawDocument) -> str | None:
        """The contract digest remembered for this document's text, if any."""
        entry = self._found.get(self._key(document))
        value = entry.get("digest") if entry is not None else None
        return value if isinstance(value, str) and value.startswith("sha256:") else None

    def note(self, document: RawDocument, checked: Checked) -> None:
        """Remember the checks just made for a document; `keep` stores them once its digest is known."""
        key = self._key(document)
        self._found[key] = {"checked": _encode_checked(checked)}
        self._checks[key] = checked
        self._pending.add(key)

    def keep(self, document: RawDocument, digest: str | None) -> None:
        """Store the entry of a document whose checks were just made or whose digest is new (None:
        its contract was not made, since the catalog has errors); nothing when it is stored as it is."""
        key = self._key(document)
        value = self._found.get(key)
        if value is None or (key not in self._pending and (digest is None or value.get("digest") == digest)):
            return
        self._pending.discard(key)
        value = {"checked": value["checked"], **({"digest": digest} if digest is not None else {})}
        if document.format == "toml" and _exact_json(document.data):
            value["data"] = document.data
        self._found[key] = value
        self.store.put(NAMESPACE, key, json.dumps(value, ensure_ascii=False, separators=(",", ":")))

    def save_snapshot(self, documents: Sequence[RawDocument], contracts: Sequence[Contract]) -> None:
        """Leave the snapshot of this build's loaded contracts (`documents`, each made into the
        contract at its place in `contracts`) for the next build; only once the catalog is made."""
        last = self._snapshot if self._snapshot is not None else snapshot.Snapshot()
        now: dict[str, snapshot.Known] = {}
        for document, contract in zip(documents, contracts, strict=True):
            key = self._key(document)
            known = last.get(document.rel)
            if known is None or known.key != key:  # its checks were read back or made (`validate_all`)
                known = snapshot.Known(key, self._checks[key], contract)
            now[document.rel] = known
        last.save(self.store, now, self.overlay_max, self._apart)
        if self.kept is not None:
            self.kept.snapshot = last

    def _apart(self, write: Callable[[], None]) -> None:
        """Run `write` in a forked process and wait for it (here without workers that fork). A
        process that failed (killed, out of memory) leaves no snapshot: the next build loads as
        this one did, never fails for it."""
        if self.workers is None:
            write()
            return
        with contextlib.suppress(RuntimeError, OSError, MemoryError):
            self.workers.background(write).result()

    def _known(self, rel: str, text: str, fmt: str) -> snapshot.Known | None:
        """What the snapshot holds for the file, when it holds it with this text (a hit; its entry is
        kept by pruning, though not read)."""
        if self._snapshot is None:
            held = self.kept.snapshot if self.kept is not None else None
            self._snapshot = held if held is not None else snapshot.read(self.store)
        known = self._snapshot.get(rel)
        if known is None or known.key != self._key_of(rel, text, fmt):
            return None
        self.store.use(NAMESPACE, known.key)
        self.store.hits += 1
        self._checks[known.key] = known.checked
        return known

    def _key(self, document: RawDocument) -> str:
        return self._key_of(document.rel, document.text, document.format)

    def _key_of(self, rel: str, text: str, fmt: str) -> str:
        known = self._keys.get((rel, fmt, text))
        if known is None:
            known = self._keys[(rel, fmt, text)] = _key(rel, text, fmt)
        return known

    def _entry(self, rel: str, text: str, fmt: str) -> dict[str, Any] | None:
        key = self._key_of(rel, text, fmt)
        found = self.store.get(NAMESPACE, key)
        if found is None:
            return None
        try:
            value = json.loads(found)
        except (ValueError, RecursionError):  # a forged entry nested too deep is a miss too
            value = None
        if not isinstance(value, dict) or "checked" not in value:
            self.store.hits -= 1
            self.store.miss(NAMESPACE)
            return None
        self._found[key] = value
        return value


def _passed(entry: dict[str, Any]) -> bool:
    """Whether an entry holds checks that read back and the digest of the contract made after them."""
    digest = entry.get("digest")
    if not isinstance(digest, str) or not digest.startswith("sha256:"):
        return False
    try:
        _decode_checked(entry["checked"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


def _key(rel: str, text: str, fmt: str) -> str:
    return cache.key_of(NAMESPACE, (sys.version, rel, fmt, text))


def _encode_checked(value: Checked) -> dict[str, Any]:
    return {"found": [d.as_json() for d in value[0]], "overrides": value[1]}


def _decode_checked(data: Any) -> Checked:
    overrides = {str(k): str(v) for k, v in data["overrides"].items()}
    return [Diagnostic.from_json(d) for d in data["found"]], overrides


def _exact_json(data: Any) -> bool:
    """Whether `data` reads back from JSON exactly equal (no dates, no nan, not nested past what
    json's recursion can write: such a contract is refused by validation and never stored)."""
    try:
        return bool(json.loads(json.dumps(data, ensure_ascii=False, allow_nan=False)) == data)
    except (TypeError, ValueError, RecursionError):
        return False
