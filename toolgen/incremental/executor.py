"""The executor a build hands its targets (`toolgen.render.context.Executor`): remembering and forking.

It runs the targets' declared units (`toolgen.render.units`) through `memo` in the build's cache
store, the session given to it (`store`; None: no cache, and every unit is made, as the plain
executor makes it), and forks work over `workers` (`parallel`). A batch made in a forked worker reads
and writes the worker's copy of the store, which dies with it: what the worker used comes back with
its results and is added to this process's store, so counting and pruning see it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from toolgen.incremental import cache, memo, parallel
from toolgen.render import File
from toolgen.render.context import PLAIN
from toolgen.render.units import Files, Table, Units, Values

T = TypeVar("T")
R = TypeVar("R")


class Building:
    """The executor of `toolgen build` and `check`: the cache `store` of this build, and `workers`."""

    def __init__(self, workers: parallel.Workers, store: cache.Store | None = None) -> None:
        self.workers = workers
        self.store = store

    @property
    def incremental(self) -> bool:
        """True with a cache store."""
        return self.store is not None

    @property
    def jobs(self) -> int:
        """The worker processes work may be spread over (1 inside a worker)."""
        return self.workers.jobs

    def run(self, units: Values[T, R], items: Sequence[T]) -> list[R]:
        """`memo.run`."""
        return PLAIN.run(units, items) if self.store is None else memo.run(self.store, units, items)

    def files(self, units: Files[T], items: Sequence[T]) -> list[tuple[File, Any]]:
        """`memo.files`."""
        return PLAIN.files(units, items) if self.store is None else memo.files(self.store, units, items)

    def table(self, units: Table[T, R], items: Sequence[T]) -> list[R]:
        """`memo.table`."""
        return PLAIN.table(units, items) if self.store is None else memo.table(self.store, units, items)

    def keep(self, units: Units[T], items: Sequence[T]) -> None:
        """`memo.keep`."""
        if self.store is not None:
            memo.keep(self.store, units, items)

    def pending(self, units: Units[T], items: Sequence[T]) -> int:
        """`memo.pending`."""
        return len(items) if self.store is None else memo.pending(self.store, units, items)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`Workers.map`."""
        return self.workers.map(fn, items)

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`Workers.map_batches`, each batch's cache use brought back from its worker."""
        made = self.workers.map_batches(functools.partial(self._tracked_batch, fn), items, size, during)
        results: list[R] = []
        for value, usage in made:
            cache.absorb(self.store, usage)
            results.extend(value)
        return results

    def _tracked_batch(
        self, fn: Callable[[Sequence[T]], list[R]], batch: Sequence[T]
    ) -> list[tuple[list[R], cache.Usage | None]]:
        """`fn(batch)` as one result with its cache usage (map_batches wants one result per item:
        the first item carries the batch, the others nothing)."""
        value, usage = cache.tracked(self.store, lambda: fn(batch), in_worker=self.workers.in_worker)
        return [(value, usage), *(([], None) for _ in batch[1:])]

    def __hash__(self) -> int:
        return id(self)
