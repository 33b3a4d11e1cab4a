"""How the build holds the files it made until the writer runs (`Output`): as they are, or packed.

A target hands over plain `Artifact(path, text)` values. The writer wants each file's bytes, in
pieces, and the digest of those bytes (`Output`). `held` gives it: an `Artifact` as its bytes (`Loose`,
encoded and digested once), or compressed (`Packed`) when there are enough texts to weigh (`packs`); a
file the build cache kept unread (`toolgen.incremental.kept.Kept`) is one already: each form says
so with the class mark `HELD`, and one that reads its bytes only when asked says `LAZY`.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, cast

from toolgen.render import Artifact, File
from toolgen.thresholds import DEFAULT, Thresholds


def packs(files: Sequence[File], contracts: int, thresholds: Thresholds = DEFAULT) -> bool:
    """Whether a target's `files` are held packed, in a build of `contracts` contracts: always from
    `pack_from` contracts (at 10,000 the plain texts would be most of the build's peak memory), else
    when the target rendered `pack_many` files (a cold build of 1,000 contracts holds 2,000 pages and
    modules, about 23 MB of text, a third of its peak memory; a build after one contract changed
    renders a few files beside the ones its cache kept unread)."""
    return packs_made(sum(isinstance(f, Artifact) for f in files), contracts, thresholds)


def packs_made(made: int, contracts: int, thresholds: Thresholds = DEFAULT) -> bool:
    """`packs` for a target that made `made` files (the build layer asks before they exist)."""
    return contracts >= thresholds.pack_from or made >= thresholds.pack_many


class Output(Protocol):
    """A file of the build as the writer reads it."""

    @property
    def path(self) -> str:
        """Relative to the output folder, POSIX."""

    @property
    def digest(self) -> str:
        """`sha256:<hex>` of `data()` ("" when the text cannot be encoded)."""

    @property
    def text(self) -> str:
        """The text of the file."""

    def data(self) -> bytes:
        """The bytes written to disk: UTF-8, LF line endings, a trailing newline."""

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """`data()` in pieces of at most about `size` bytes."""


@dataclass(frozen=True, slots=True)
class Loose:
    """An artifact held as its bytes, encoded once, with their digest: the writer, the digest and
    the trip back from a forked process all take bytes, and a text of megabytes (a provider file,
    catalog.json) was encoded again by each."""

    HELD: ClassVar[bool] = True
    LAZY: ClassVar[bool] = False
    path: str
    body: bytes | str = field(repr=False)
    """The bytes (`Artifact.data`); the text itself only when it cannot be encoded (`data()` raises then)."""
    digest: str = field(repr=False)
    """`sha256:<hex>` of the bytes ("" when the text cannot be encoded)."""
    newline_added: bool = field(default=False, repr=False)
    """Whether the bytes end in a newline the text did not (`text` gives the text as rendered)."""

    @classmethod
    def of(cls, artifact: Artifact) -> Loose:
        """`artifact` and its digest ("" when its text is not valid Unicode: writing it fails)."""
        try:
            data = artifact.data()
        except UnicodeEncodeError:
            return cls(artifact.path, artifact.text, "")
        digest = f"sha256:{hashlib.sha256(data).hexdigest()}"
        return cls(artifact.path, data, digest, not artifact.text.endswith("\n"))

    @property
    def text(self) -> str:
        """The artifact's text, as the target rendered it."""
        if isinstance(self.body, str):
            return self.body
        text = self.body.decode("utf-8")
        return text[:-1] if self.newline_added else text

    def data(self) -> bytes:
        """`Artifact.data`."""
        if isinstance(self.body, str):
            return Artifact(self.path, self.body).data()  # raises: the text cannot be encoded
        return self.body

    def chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """The bytes in one piece."""
        yield self.data()


def held(file: File, *, pack: bool = False) -> Output:
    """`file` as the build holds it: an Output already (packed, kept) as it is, else an Artifact
    `Loose` or, with `pack`, `Packed`."""
    if isinstance(file, Artifact):
        return Packed.of(file) if pack else Loose.of(file)
    # the forms by their mark, not by the Output protocol: a runtime protocol check asks each
    # attribute, and a lazy file's `text` would read the very entry it exists to leave unread
    if not getattr(type(file), "HELD", False):
        raise TypeError(f"not a file of the build: {file!r}")
    return cast("Output", file)


@dataclass(frozen=True, slots=True)
class Packed:
    """A generated file as a large build holds it until the writer runs: its UTF-8 bytes,
    zlib-compressed (level 1), and their digest. At 10,000 contracts the plain texts alone were a
    third of a build's peak memory. `data()`, `chunks()` and `text` give the bytes and the text back;
    the writer never holds all of them at once."""

    HELD: ClassVar[bool] = True
    LAZY: ClassVar[bool] = False
    path: str
    body: bytes | str = field(repr=False)
    """The compressed UTF-8 bytes; the text itself only when it cannot be encoded (`data()` then raises)."""
    digest: str = field(repr=False)
    """`sha256:<hex>` of `data()`, taken as the text was compressed ("" when it cannot be encoded):
    the writer compares an unchanged file by it without unpacking the text."""

    @classmethod
    def of(cls, artifact: Artifact) -> Packed:
        """The artifact, packed."""
        return cls.of_pieces(artifact.path, (artifact.text,))

    @classmethod
    def of_pieces(cls, path: str, pieces: Iterable[str]) -> Packed:
        """The file at `path` whose text is `pieces` joined, packed as they come: the text is never
        held whole."""
        body, digest = _packed(iter(pieces))
        return cls(path, body, digest)

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
