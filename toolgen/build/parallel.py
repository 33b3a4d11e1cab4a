"""Fan per-contract work out over the machine's cores, with results in input order.

`pmap(fn, items)` runs `fn` over `items` in forked worker processes when there are enough items and
more than one core (Linux `fork`: the workers inherit `fn` and `items`, so neither is pickled; only
results travel back). Anywhere else, or with `TOOLGEN_JOBS=1`, it is a plain loop. The result is the
same list either way, so output never depends on the number of workers.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 24
"""Below this many items forking costs more than it saves."""

_WORK: list[tuple[Callable[[Any], Any], Sequence[Any]]] = []
"""The job the forked workers inherit (set only while a pool runs)."""


_IN_WORKER: list[bool] = []
"""Set in a forked worker: its own work runs in it (a pool's workers cannot have workers)."""


def in_worker() -> bool:
    """Whether this process is a worker forked by `pmap`, `pmap_batches` or `Background`."""
    return bool(_IN_WORKER)


def jobs() -> int:
    """Worker processes to use: `TOOLGEN_JOBS`, else the cores this process may run on (1 in a worker)."""
    if _IN_WORKER:
        return 1
    wanted = os.environ.get("TOOLGEN_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _run(bounds: tuple[int, int]) -> list[Any]:
    _IN_WORKER[:] = [True]
    fn, items = _WORK[0]
    return [fn(items[i]) for i in range(*bounds)]


def pmap(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`[fn(x) for x in items]`, computed by forked workers when that pays off."""
    return pmap_batches(functools.partial(_each, fn), items, len(items))


def _each(fn: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [fn(item) for item in batch]


def pmap_batches(
    fn: Callable[[Sequence[T]], list[R]],
    items: Sequence[T],
    size: int,
    during: Callable[[], object] | None = None,
) -> list[R]:
    """`fn` over consecutive batches of at most `size` items (fewer when that keeps every core busy),
    computed by forked workers when there are at least `MIN_ITEMS` items; the results in input order.

    For work with a large fixed cost per call, such as one datamodel-code-generator run over many
    schemas. `fn` must return one result per item of its batch. `during`, when given, runs in this
    process while the workers work (or before the loop, without workers).
    """
    workers = min(jobs(), len(items) // (MIN_ITEMS // 2))
    alone = workers < 2 or len(items) < MIN_ITEMS or not sys.platform.startswith("linux")
    if not alone:
        size = min(size, -(-len(items) // (workers * 4)))  # about four batches a worker
    size = max(1, size)
    batches = [items[start : start + size] for start in range(0, len(items), size)]
    if alone:
        if during is not None:
            during()
        return [result for batch in batches for result in fn(batch)]
    _WORK.append((fn, batches))
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            pending = pool.map_async(_run, [(i, i + 1) for i in range(len(batches))], chunksize=1)
            if during is not None:
                during()
            parts = pending.get()
    finally:
        _WORK.clear()
    return [result for part in parts for batch_result in part for result in batch_result]


_BACKGROUND: list[Callable[[], Any]] = []
"""The job a background process inherits (set only while it is being started)."""


def _run_background() -> Any:
    _IN_WORKER[:] = [True]
    return _BACKGROUND[0]()


class Background:
    """`fn()` run in a forked process while this one goes on; `result()` waits for it.

    Where forking is not available, or with one core, `fn` runs when `result()` is called.
    """

    def __init__(self, fn: Callable[[], R]) -> None:
        self._fn: Callable[[], Any] = fn
        self._pool: Any = None
        self._pending: Any = None
        if jobs() < 2 or not sys.platform.startswith("linux"):
            return
        _BACKGROUND.append(fn)
        try:
            self._pool = multiprocessing.get_context("fork").Pool(1)
            self._pending = self._pool.apply_async(_run_background)
        finally:
            _BACKGROUND.clear()

    def result(self) -> Any:
        """What `fn()` returned (its exception, if it raised)."""
        if self._pool is None:
            return self._fn()
        try:
            return self._pending.get()
        finally:
            self._pool.close()
            self._pool.join()
