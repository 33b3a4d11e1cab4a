"""The installed version of a distribution, read cheaply (a command starts in a fraction of a second).

`importlib.metadata.version` imports the email parser and reads the metadata file; the name of the
`.dist-info` folder on `sys.path` says the same. The build cache keys every entry on these versions
(`toolgen.incremental.cache.PINNED`); the Python target's header names them.

Both lookups are kept per process (`lru_cache`): the installed distributions do not change under a
running build, and a process that installs or removes one (the tests) calls `forget`.
"""

from __future__ import annotations

import functools
import os
import re
import sys


@functools.lru_cache(maxsize=16)
def installed_version(name: str) -> str:
    """The installed version, read from the `.dist-info` folder name (fast), else from its metadata."""
    prefix = re.sub(r"[-_.]+", "_", name).lower() + "-"
    for entry in sys.path:
        for child in _listing(entry):
            if child.lower().startswith(prefix) and child.endswith(".dist-info"):
                return child[len(prefix) : -len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "missing"


@functools.lru_cache(maxsize=64)
def _listing(folder: str) -> tuple[str, ...]:
    try:
        return tuple(sorted(os.listdir(folder or ".")))
    except OSError:
        return ()


def forget() -> None:
    """Forget what was read (tests install and remove distributions under a running process)."""
    installed_version.cache_clear()
    _listing.cache_clear()
