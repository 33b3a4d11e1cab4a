"""Sealing: how every file of the build cache carries proof that toolgen wrote it with the user's key.

A sealed file is a header line, then its body: the header names the layout (`FORMAT`) and the key
the file is stored under, and holds an HMAC-SHA256, under the cache key (`cachekey`), of both and
the body. A file whose header does not match its key and its body (edited, truncated, swapped with
another, copied from elsewhere, sealed by anyone without the key) is not what toolgen stored.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import BinaryIO

FORMAT = "v2"
"""Layout version of the folder; a new layout lives beside the old one, which is then pruned."""

_MAGIC = "toolgen-cache"


def seal(key: str, text: str, secret: bytes) -> bytes:
    """The bytes stored for `text` under `key`: a header line with the layout, the key and the
    HMAC-SHA256 under `secret` (the cache key) of both and the text, then the text (UTF-8)."""
    body = text.encode("utf-8")
    return _header(key, body, secret) + b"\n" + body


def unseal(key: str, data: bytes, secret: bytes) -> str | None:
    """The text `seal(key, text, secret)` stored, or None when `data` is anything else."""
    body = unseal_bytes(key, data, secret)
    try:
        return str(body, "utf-8") if body is not None else None
    except UnicodeDecodeError:
        return None


def unseal_bytes(key: str, data: bytes, secret: bytes) -> memoryview | None:
    """The bytes sealed under `key` in `data` (a header line, then the bytes; a view of `data`, not
    a copy), None when the header does not match them under `secret`."""
    newline = data.find(b"\n")
    if newline < 0:
        return None
    body = memoryview(data)[newline + 1 :]
    if not hmac.compare_digest(data[:newline], _header(key, body, secret)):
        return None
    return body


def _header(key: str, body: bytes | memoryview, secret: bytes) -> bytes:
    start = _start(key, secret)
    return _header_line(start, hmac.digest(secret, start + b"\n" + body, "sha256"))


def _start(key: str, secret: bytes) -> bytes:
    """The header's start: the layout and the key (ValueError for an empty cache key)."""
    if not secret:
        raise ValueError("the cache key is empty")
    return f"{_MAGIC} {FORMAT} {key}".encode()


def _header_line(start: bytes, mac: bytes) -> bytes:
    return start + b" hmac-sha256:" + mac.hex().encode()


class Sealing:
    """A binary stream that passes what is written to it on, adding it to the seal being made
    (`Store.write_sealed_stream`)."""

    def __init__(self, out: BinaryIO, mac: hmac.HMAC) -> None:
        self._out = out
        self._mac = mac

    def write(self, data: bytes) -> int:
        """Write `data` on, and seal it."""
        self._mac.update(data)
        return self._out.write(data)


def seal_stream(out: BinaryIO, key: str, secret: bytes, fill: Callable[[Sealing], object]) -> None:
    """Write into `out` the sealed file of `key` whose body is what `fill` writes into the stream it
    is handed: sealed as it is written (a header of the final length first, then overwritten), so a
    large body is never held whole. `out` must be seekable."""
    start = _start(key, secret)
    mac = hmac.new(secret, start + b"\n", "sha256")
    out.write(_header_line(start, bytes(mac.digest_size)) + b"\n")
    fill(Sealing(out, mac))
    out.seek(0)
    out.write(_header_line(start, mac.digest()))
