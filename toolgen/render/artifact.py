"""`Artifact`: one generated file, as a target hands it to the build."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, init=False)
class Artifact:
    """One generated file: its path relative to the output folder (POSIX) and its text.

    The text is held as its UTF-8 bytes, zlib-compressed (level 1): a build keeps every file until
    the writer runs, and at 10,000 contracts the plain bytes alone were a third of its peak memory.
    `data()` and `text` give the bytes and the text back; the writer never holds all of them at once.
    """

    path: str
    body: bytes | str = field(repr=False)
    """The compressed UTF-8 bytes; the text itself only when it cannot be encoded (`data()` then raises)."""
    digest: str = field(repr=False)
    """`sha256:<hex>` of `data()`, taken as the text was compressed ("" when it cannot be encoded):
    the writer compares an unchanged file by it without unpacking the text."""

    def __init__(self, path: str, text: str) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "body", None)
        _pack_into(self, iter((text,)))

    @classmethod
    def streamed(cls, path: str, pieces: Iterable[str]) -> Artifact:
        """The artifact whose text is `"".join(pieces)`, compressed piece by piece: the whole text of
        a large file (catalog.json, a provider file) is never held at once."""
        artifact = cls.__new__(cls)
        object.__setattr__(artifact, "path", path)
        _pack_into(artifact, iter(pieces))
        return artifact

    @property
    def text(self) -> str:
        """The text of the file, as the target rendered it."""
        return self.body if isinstance(self.body, str) else zlib.decompress(self.body).decode("utf-8")

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """`data()` in pieces of at most about `size` bytes, never all of it at once."""
        body = self.body
        if isinstance(body, str):
            yield self.data()
            return
        unpacker = zlib.decompressobj()
        last = b""
        pending = body
        while pending:
            piece = unpacker.decompress(pending, size)
            pending = unpacker.unconsumed_tail
            if piece:
                last = piece
                yield piece
        rest = unpacker.flush()
        if rest:
            last = rest
            yield rest
        if not last.endswith(b"\n"):
            yield b"\n"

    def data(self) -> bytes:
        """The bytes written to disk: UTF-8, LF line endings, a trailing newline."""
        body = self.body
        if isinstance(body, str):
            return (body if body.endswith("\n") else body + "\n").encode("utf-8")
        raw = zlib.decompress(body)
        return raw if raw.endswith(b"\n") else raw + b"\n"


def _pack_into(artifact: Artifact, pieces: Iterator[str]) -> None:
    """Set the artifact's `body` and `digest` from its pieces."""
    body, digest = _packed(pieces)
    object.__setattr__(artifact, "body", body)
    object.__setattr__(artifact, "digest", digest)


def _packed(pieces: Iterator[str]) -> tuple[bytes | str, str]:
    """The pieces' UTF-8 bytes compressed as they come, and the digest of the file's bytes (a
    newline added when the text does not end in one, as `data()` does); the joined text itself and
    no digest when it is not valid Unicode (it fails when written, where the target's text would
    have failed anyway)."""
    packer = zlib.compressobj(1)
    digest = hashlib.sha256()
    chunks: list[bytes] = []
    last = b""
    for piece in pieces:
        try:
            data = piece.encode("utf-8")
        except UnicodeEncodeError:
            done = zlib.decompress(b"".join(chunks) + packer.flush()).decode("utf-8")
            return done + piece + "".join(pieces), ""
        if data:
            last = data
            digest.update(data)
            chunks.append(packer.compress(data))
    chunks.append(packer.flush())
    if not last.endswith(b"\n"):
        digest.update(b"\n")
    return b"".join(chunks), f"sha256:{digest.hexdigest()}"
