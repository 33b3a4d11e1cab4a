"""The executor a build hands its targets (`toolgen.render.context.Executor`): cached and forked.

`memo_many` and `memo_files` read and write the open cache session (`toolgen.incremental.memo`;
without a session it just computes), `map` and `map_batches` fork workers (`parallel`). A batch made
in a forked worker reads and writes the worker's copy of the cache store, which dies with it: what
the worker used comes back with its results and is added to this process's store, so counting and
pruning see it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from toolgen.incremental import cache, memo, parallel
from toolgen.render import File

T = TypeVar("T")
R = TypeVar("R")


class Building:
    """The executor of `toolgen build` and `check`: the cache session open now, and `workers`."""

    def __init__(self, workers: parallel.Workers) -> None:
        self.workers = workers

    @property
    def caching(self) -> bool:
        """True while a cache session is open."""
        return cache.active() is not None

    @property
    def jobs(self) -> int:
        """The worker processes work may be spread over (1 inside a worker)."""
        return self.workers.jobs

    def memo_many(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
        raw: bool = False,
    ) -> list[R]:
        """`memo.memo_many`."""
        return memo.memo_many(
            namespace, items, parts_of=parts_of, compute_many=compute_many, encode=encode, decode=decode, raw=raw
        )

    def memo_table(
        self,
        namespace: str,
        shared: Iterable[str],
        items: Sequence[T],
        *,
        item_key: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[R]],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
    ) -> list[R]:
        """`memo.memo_table`."""
        return memo.memo_table(
            namespace, shared, items, item_key=item_key, compute_many=compute_many, encode=encode, decode=decode
        )

    def keep(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> None:
        """`memo.keep`."""
        memo.keep(namespace, items, parts_of=parts_of)

    def unknown(self, namespace: str, items: Sequence[T], *, parts_of: Callable[[T], Iterable[str]]) -> int:
        """`memo.unknown`."""
        return memo.unknown(namespace, items, parts_of=parts_of)

    def memo_files(
        self,
        namespace: str,
        items: Sequence[T],
        *,
        parts_of: Callable[[T], Iterable[str]],
        path_of: Callable[[T], str],
        compute_many: Callable[[Sequence[T]], Sequence[tuple[str, Any]]],
        decode_extra: Callable[[Any], Any] = lambda extra: extra,
    ) -> list[tuple[File, Any]]:
        """`memo.memo_files`."""
        return memo.memo_files(
            namespace, items, parts_of=parts_of, path_of=path_of, compute_many=compute_many, decode_extra=decode_extra
        )

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
            cache.absorb(usage)
            results.extend(value)
        return results

    def _tracked_batch(
        self, fn: Callable[[Sequence[T]], list[R]], batch: Sequence[T]
    ) -> list[tuple[list[R], cache.Usage | None]]:
        """`fn(batch)` as one result with its cache usage (map_batches wants one result per item:
        the first item carries the batch, the others nothing)."""
        value, usage = cache.tracked(lambda: fn(batch), in_worker=self.workers.in_worker)
        return [(value, usage), *(([], None) for _ in batch[1:])]

    def __hash__(self) -> int:
        return id(self)
