"""`Kept`: a generated file the build cache holds, read from its entry only when the writer asks.

`Building.files` (`executor`) makes one for an item the record knows (`Store.record`): its digest is known, so
the writer compares it with the file on disk without reading the entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from toolgen.incremental.cache import RECORD, LostEntry
from toolgen.incremental.sealing import unseal
from toolgen.render import Artifact


@dataclass(frozen=True, slots=True)
class Kept:
    """A generated file this build did not render: the record knows its digest; its text is read
    from its cache entry only when asked for."""

    HELD: ClassVar[bool] = True
    LAZY: ClassVar[bool] = True
    """Its bytes are read only when asked for (`Files.readable` reads them while the writer plans)."""
    path: str
    digest: str
    entry: str
    """The entry's file (the `Building.files` entry whose value makes this file)."""
    secret: bytes = field(repr=False)
    """The cache key the entry is sealed under (`cache.Store.secret`)."""

    @property
    def text(self) -> str:
        """The file's text, from its entry (as the target rendered it)."""
        return self._read()[0]

    def data(self) -> bytes:
        """The file's bytes, from its entry, checked against the recorded digest."""
        return self._read()[1]

    def _read(self) -> tuple[str, bytes]:
        """The text and bytes the entry makes; `LostEntry` (the record deleted) when they are not
        the ones recorded."""
        try:
            with open(self.entry, "rb") as stream:
                text = unseal(self.entry.rpartition("/")[2], stream.read(), self.secret)
            value = json.loads(text) if text is not None else None
        except (OSError, ValueError):
            value = None
        raw = value.get("text") if isinstance(value, dict) else None
        data = Artifact(self.path, raw).data() if isinstance(raw, str) else b""
        if not isinstance(raw, str) or f"sha256:{hashlib.sha256(data).hexdigest()}" != self.digest:
            self._drop_record()
            raise LostEntry(f"the build cache does not hold {self.path} as its record says")
        return raw, data

    def _drop_record(self) -> None:
        """Delete the record that promised this file (the next run reads every entry again)."""
        with contextlib.suppress(OSError):
            (Path(self.entry).parent.parent.parent / RECORD).unlink()

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """The bytes in one piece (a page or a module)."""
        yield self.data()
