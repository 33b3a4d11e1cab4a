"""Waiting for a change under some folders: Linux's inotify where there is one, else a plain wait.

`toolgen watch` compares the stat of every input after each wait (`watch.inputs`); this module only
decides when to look. With inotify (through ctypes: no dependency) a wait ends as soon as a file is
written and closed, moved, created or deleted in a watched folder, and an idle watch costs nothing;
a look after every interval (1,000 stats take about 7 ms) is then only a safety net. Without it
(another platform, no more inotify watches, a C library without it) every wait lasts the interval
and each look decides.

A file is waited for when it is closed after writing (`IN_CLOSE_WRITE`), not at each write: an
editor's save is seen once, whole, not half-written.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Iterable
from typing import Any

IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_ONLYDIR = 0x01000000

MASK = IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
"""What ends a wait: a file written and closed, moved in or out, created or deleted, its mode
changed (a link re-pointed), or a watched folder itself removed or moved."""


class Waiter:
    """Waits for a change in the folders it watches (`watch`), at most a timeout (`wait`)."""

    def __init__(self) -> None:
        self._fd: int | None = None
        self._libc: Any = None
        if sys.platform.startswith("linux"):
            import ctypes  # here: `toolgen build` imports this module with the command line

            with contextlib.suppress(OSError, AttributeError):
                libc = ctypes.CDLL(None, use_errno=True)  # the C library's symbols, as parallel's prctl
                fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
                if fd >= 0:
                    self._fd, self._libc = fd, libc

    @property
    def notified(self) -> bool:
        """True while inotify watches every folder asked for (a wait ends at a change)."""
        return self._fd is not None

    def watch(self, folders: Iterable[str]) -> None:
        """Watch these folders (again: one removed and made anew is a new folder to the system; a
        folder watched already costs one call). A folder that cannot be watched while it exists
        (the system's limit of watches reached) ends the notifications: every wait then lasts its
        timeout."""
        if self._fd is None or self._libc is None:
            return
        for folder in sorted(set(folders)):
            added = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), MASK | IN_ONLYDIR)
            if added < 0 and os.path.isdir(folder):
                self.close()
                return

    def wait(self, timeout: float) -> bool:
        """Wait until a change (True) or `timeout` seconds (False); without inotify, always the timeout."""
        if self._fd is None:
            select.select([], [], [], timeout)
            return False
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return False
        with contextlib.suppress(BlockingIOError):
            while os.read(self._fd, 65536):  # drained: the stats say what changed
                pass
        return True

    def close(self) -> None:
        """Stop watching (waits then last their timeout)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
