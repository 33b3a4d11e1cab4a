"""Room on CPython's frame stack, so deep work does not map and unmap memory at every call.

CPython 3.11 keeps Python frames in a chain of 16 KiB chunks. When a call needs more room than the
current chunk has, it maps a new chunk; when that call returns, the chunk is unmapped at once. Work
whose call depth keeps crossing a chunk's end (datamodel-code-generator's parser, black, the
literal layout) pays an `mmap`, an `munmap` and four fresh zeroed pages each time: 270,000 of each
in the two python workers of a cold build of 1,000 contracts, a quarter of its system time.

`roomy(fn)` calls `fn()` from a frame whose declared value stack is so large that CPython
gives it a chunk of its own of 1 MiB, with about half of it left over: every frame under it fits
in that rest, so the chain never grows or shrinks while `fn` runs. The declared stack is never
written, so its pages are never touched. Interpreters that manage frames otherwise just see a
function with a generous stack bound.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TypeVar, cast

R = TypeVar("R")

ROOM_SLOTS = (1 << 16) + 64
"""The value-stack slots the calling frame declares: 512 KiB and a little more, so CPython rounds its
chunk up to 1 MiB (chunks are powers of two) and about 500 KiB, thousands of frames, remain."""


def _call(fn: Callable[[], R]) -> R:
    return fn()


_ROOMY = types.FunctionType(_call.__code__.replace(co_stacksize=ROOM_SLOTS), _call.__globals__, "roomy")
"""`_call` with the large declared stack (made once, when the module is imported)."""


def roomy(fn: Callable[[], R]) -> R:
    """`fn()`, called from a frame that gives every frame under it room in one stack chunk."""
    return cast(R, _ROOMY(fn))
