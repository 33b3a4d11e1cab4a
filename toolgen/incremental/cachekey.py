"""The key that authenticates the build cache: kept outside the project, so no one else can write an entry.

Every entry and sealed record of `.toolgen-cache/` carries an HMAC-SHA256 under this key
(`sealing.seal`); an entry sealed under another key, or with a plain digest anyone can recompute, is
a miss. The key is, in this order:

- the environment variable `TOOLGEN_CACHE_KEY` (at least `MIN_LENGTH` characters): for a cache
  shared on purpose, such as a CI cache restored between jobs, where every job sets the same secret;
- else the user's key file, `$XDG_CONFIG_HOME/toolgen/cache-key` (`~/.config/toolgen/cache-key`
  when XDG_CONFIG_HOME is unset or not absolute), made on first use: 32 random bytes as hex, mode
  0600, written to a temporary file and linked into place, so two builds that start together both
  read the one that won. A key file others may read or write, or not owned by the user, is not used.

When there is no usable key (`Key.secret` is None, `Key.problem` says why), a build runs without
the cache: never a failure, only slower.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ENV = "TOOLGEN_CACHE_KEY"
"""The environment variable that gives the key (a CI cache shared on purpose)."""

MIN_LENGTH = 32
"""The shortest key `ENV` may hold, in characters."""

FILE = Path("toolgen") / "cache-key"
"""The key file, under the user's configuration folder."""


@dataclass(frozen=True, slots=True)
class Key:
    """The cache key, or why there is none."""

    secret: bytes | None
    source: str
    """Where it comes from: `ENV` or the key file's path."""
    problem: str | None = None
    """Why there is no key (the build then runs without the cache)."""


class _Unusable(Exception):
    """A key file that exists and must not be used (the message says why)."""


def key_file(environ: Mapping[str, str] | None = None) -> Path:
    """Where the user's key file is: under XDG_CONFIG_HOME, else ~/.config."""
    env = os.environ if environ is None else environ
    config = env.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(config):
        home = env.get("HOME") or str(Path.home())
        config = os.path.join(home, ".config")
    return Path(config) / FILE


def load(environ: Mapping[str, str] | None = None) -> Key:
    """The key: from `ENV` when set, else the user's key file (made when missing)."""
    env = os.environ if environ is None else environ
    value = env.get(ENV)
    if value:
        if len(value) < MIN_LENGTH:
            return Key(None, ENV, f"{ENV} is shorter than {MIN_LENGTH} characters")
        return Key(value.encode("utf-8"), ENV)
    path = key_file(env)
    try:
        secret = _read(path)
        if secret is None:
            secret = _create(path)
    except _Unusable as exc:
        return Key(None, str(path), f"the key file {path} {exc}")
    except OSError as exc:
        return Key(None, str(path), f"cannot read or create the key file {path}: {exc.strerror or exc}")
    return Key(secret, str(path))


def _read(path: Path) -> bytes | None:
    """The key in `path`, None when there is no such file."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _Unusable("is not a regular file")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise _Unusable("belongs to another user")
        if info.st_mode & 0o077:
            raise _Unusable("may be read or written by others; make it private: chmod 600")
        text = stream.read(4096).strip()
    if len(text) < MIN_LENGTH:
        raise _Unusable(f"holds fewer than {MIN_LENGTH} characters; delete it and toolgen makes a new one")
    return text


def _create(path: Path) -> bytes:
    """Make the key file (0600) atomically; when another process made it first, read that one."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    import tempfile  # only to make a key: reading one (every build) does without

    handle, temp = tempfile.mkstemp(prefix=".cache-key-", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(32).hex().encode("ascii") + b"\n")
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(FileExistsError):  # another build made it meanwhile: theirs is the key
            os.link(temp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    secret = _read(path)
    if secret is None:
        raise OSError(f"{path} vanished as it was made")
    return secret
