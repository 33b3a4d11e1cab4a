"""What loading remembers per contract file: its parsed data (TOML only) and its contract digest.

Keyed on the file's format and text (and, as every cache key, toolgen's own source and the pinned
versions), one entry per file holds what loading it always gives: the digest of the contract made
from it (`Contract.compute_digest`, a canonical JSON dump of the whole contract) and, for a TOML
file, the parsed data as JSON, which reads back several times faster than tomllib parses (a JSON
file's own text is already that). 999 unchanged files of 1,000 are then read and decoded, not
parsed by tomllib nor digested again. Data that JSON cannot hold exactly (TOML dates, `nan`) is
never stored: such a file is parsed every time. An entry is stored only for a contract that passed
validation, since only those get a digest.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from toolgen.build import cache
from toolgen.load import RawDocument, parse_text

NAMESPACE = "contract"


@dataclass
class Remembered:
    """The entries of one build's contract files, read as they are parsed (`parse`)."""

    store: cache.Store
    _found: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Entry key -> its decoded value, for the files read so far."""

    def parse(self, text: str, fmt: str) -> Any:
        """`load.parse_text(text, fmt)`, the TOML data read back from the entry when there is one."""
        entry = self._entry(text, fmt)
        if fmt == "toml" and entry is not None and "data" in entry:
            return entry["data"]
        return parse_text(text, fmt)

    def digest(self, document: RawDocument) -> str | None:
        """The contract digest remembered for this document's text, if any."""
        entry = self._found.get(_key(document.text, document.format))
        value = entry.get("digest") if entry is not None else None
        return value if isinstance(value, str) and value.startswith("sha256:") else None

    def keep(self, document: RawDocument, digest: str) -> None:
        """Store the entry of a document whose contract was made (and digested) without one."""
        key = _key(document.text, document.format)
        if key in self._found and "digest" in self._found[key]:
            return
        value: dict[str, Any] = {"digest": digest}
        if document.format == "toml" and _exact_json(document.data):
            value["data"] = document.data
        self.store.put(NAMESPACE, key, json.dumps(value, ensure_ascii=False, separators=(",", ":")))

    def _entry(self, text: str, fmt: str) -> dict[str, Any] | None:
        key = _key(text, fmt)
        found = self.store.get(NAMESPACE, key)
        if found is None:
            return None
        try:
            value = json.loads(found)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            self.store.hits -= 1
            self.store.miss(NAMESPACE)
            return None
        self._found[key] = value
        return value


def _key(text: str, fmt: str) -> str:
    # the Python version too: tomllib and json come with it
    return cache.key_of(NAMESPACE, (sys.version, fmt, text))


def _exact_json(data: Any) -> bool:
    """Whether `data` reads back from JSON exactly equal (no dates, no nan)."""
    try:
        return bool(json.loads(json.dumps(data, ensure_ascii=False, allow_nan=False)) == data)
    except (TypeError, ValueError):
        return False
