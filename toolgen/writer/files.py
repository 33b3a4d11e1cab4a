"""`Files`: path -> bytes of every file a build makes, each read from its artifact only when asked."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from toolgen.writer.outputs import Output


class Files(Mapping[str, bytes]):
    """Path -> bytes of every file of a build, each made from its output when it is read.

    A packed output holds its bytes compressed: then this never holds more than one file's plain
    bytes, and `chunks`, `digest` and `same_on_disk` not even that for a large one.
    """

    def __init__(self, artifacts: Mapping[str, Output]) -> None:
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

    def readable(self, paths: Iterable[str]) -> None:
        """Read now each of `paths` that the build cache kept unread (an output marked
        `LAZY`, `incremental.kept.Kept`), so one whose entry
        is lost stops the build while it plans (`cache.LostEntry`), never halfway through staging."""
        for path in paths:
            made = self._artifacts.get(path)
            if made is not None and getattr(type(made), "LAZY", False):
                made.data()

    def chunks(self, path: str) -> Iterator[bytes]:
        """The bytes of `path` in pieces."""
        if path in self._extra:
            yield self._extra[path]
        else:
            yield from self._artifacts[path].chunks()

    def digest(self, path: str) -> str:
        """`sha256:<hex>` of `path`: the artifact's own (taken as it was packed), else read in pieces."""
        made = self._artifacts.get(path)
        if made is not None and made.digest:
            return made.digest
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
