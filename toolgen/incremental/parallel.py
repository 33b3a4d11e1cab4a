"""Fan per-contract work out over the machine's cores, with results in input order.

`Workers(jobs).map(fn, items)` runs `fn` over `items` in forked worker processes when there are
enough items and more than one job (Linux `fork`: the workers inherit `fn` and `items`, so neither
is pickled; only results travel back). Anywhere else, or with one job, it is a plain loop. The
result is the same list either way, so output never depends on the number of workers.

Nothing is kept in the module: what a worker must run is in the closure it is forked with, and a
forked worker marks its own copy of the `Workers` (one job, `in_worker`), so work it starts runs in
it (a worker has no workers of its own).
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from toolgen.incremental.stackroom import roomy
from toolgen.thresholds import DEFAULT

T = TypeVar("T")
R = TypeVar("R")


def _can_fork() -> bool:
    return sys.platform.startswith("linux")


class Workers:
    """The worker processes of one build: at most `jobs` at a time; none inside a worker."""

    def __init__(self, jobs: int, fork_min: int = DEFAULT.fork_min) -> None:
        self.jobs = max(1, jobs)
        self.fork_min = max(2, fork_min)
        """Below this many items a map runs here (`Thresholds.fork_min`)."""
        self.in_worker = False

    def enter_worker(self, parent: int) -> None:
        """Run in a forked child of `parent`, on its own copy: whatever it starts runs in it. Ctrl-C
        is the parent's to answer (it ends its workers), and SIGTERM ends a worker plainly, whatever
        handler the parent set (`toolgen watch`, `mock-server`): no worker prints a traceback. A
        worker whose parent ended, even killed outright, ends too (`_die_with`)."""
        self.jobs = 1
        self.in_worker = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _die_with(parent)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`[fn(x) for x in items]`, computed by forked workers when that pays off."""
        return self.map_batches(functools.partial(_each, fn), items, len(items))

    def map_batches(
        self,
        fn: Callable[[Sequence[T]], list[R]],
        items: Sequence[T],
        size: int,
        during: Callable[[], object] | None = None,
    ) -> list[R]:
        """`fn` over consecutive batches of at most `size` items (fewer when that keeps every core busy),
        computed by forked workers when there are at least `fork_min` items; the results in input order.

        For work with a large fixed cost per call, such as one datamodel-code-generator run over many
        schemas. `fn` must return one result per item of its batch. `during`, when given, runs in this
        process while the workers work (or before the loop, without workers).
        """
        workers = min(self.jobs, len(items) // (self.fork_min // 2))
        alone = workers < 2 or len(items) < self.fork_min or not _can_fork()
        if not alone:
            size = min(size, -(-len(items) // (workers * 4)))  # about four batches a worker
        size = max(1, size)
        batches = [items[start : start + size] for start in range(0, len(items), size)]
        if alone:
            if during is not None:
                during()
            return [result for batch in batches for result in fn(batch)]
        parts = self._forked(workers, lambda index: fn(batches[index]), len(batches), during)
        return [result for part in parts for result in part]

    def _forked(
        self, workers: int, run: Callable[[int], Any], count: int, during: Callable[[], object] | None
    ) -> list[Any]:
        """`[run(i) for i in range(count)]` by `workers` forked processes taking the next index as
        they finish one; the first exception raised in a worker is raised here."""
        import multiprocessing  # here: a build that forks no pool (one contract changed) never loads it

        context = multiprocessing.get_context("fork")
        tasks, results = context.SimpleQueue(), context.SimpleQueue()
        for index in [*range(count), *([-1] * workers)]:
            tasks.put(index)
        parent = os.getpid()

        def work() -> None:
            self.enter_worker(parent)
            while (index := tasks.get()) >= 0:
                try:
                    value = (index, True, roomy(functools.partial(run, index)))
                except BaseException as exc:  # handed to the parent, which raises it
                    value = (index, False, exc)
                _hand_back(results, value)

        processes = [context.Process(target=work, daemon=True) for _ in range(workers)]
        for process in processes:
            process.start()
        finished = False
        try:
            if during is not None:
                during()
            found = _collected(results, count)
            finished = True
            return found
        finally:
            for process in processes:
                if not finished:
                    process.terminate()
                process.join()

    def background(self, fn: Callable[[], R]) -> Background:
        """`fn()` run in a forked process while this one goes on (see `Background`)."""
        return Background(self, fn)


PR_SET_PDEATHSIG = 1
"""Linux's `prctl` option: the signal this process gets when the thread that forked it ends."""


def _die_with(parent: int) -> None:
    """In a forked process: be killed when `parent` ends (Linux), instead of waiting forever on a
    pipe the other workers still hold open: a build or `toolgen watch` killed outright (SIGKILL,
    the out-of-memory killer) leaves no worker behind. The parent joins or waits for every worker
    before the call that forked it returns, so only its death fires this."""
    if not _can_fork():
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before that took effect
        os._exit(1)


def _hand_back(results: Any, value: tuple[Any, ...]) -> None:
    """Send a result (or an exception) to the parent; one that cannot be pickled goes as its text."""
    try:
        results.put(value)
    except Exception as exc:  # pickling failed: the parent must still hear of it, or it would wait
        results.put((*value[:-2], False, RuntimeError(f"a worker's result could not be sent: {exc!r}")))


def _collected(results: Any, count: int) -> list[Any]:
    found: dict[int, Any] = {}
    while len(found) < count:
        index, ok, value = results.get()
        if not ok:
            raise value
        found[index] = value
    return [found[i] for i in range(count)]


def _each(fn: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [fn(item) for item in batch]


class Background:
    """`fn()` run in a forked process while this one goes on; `result()` waits for it.

    Where forking or an in-memory file is not available, or with one job, `fn` runs when `result()`
    is called. The result comes back in an anonymous in-memory file (`os.memfd_create`, Linux), not
    through a pipe: the providers' and docs' files of 1,000 contracts are 10 MB, and a pipe passes
    them 64 KB at a time, waiting on the reader each time. The process is a plain `os.fork`, which
    ends with `os._exit` once the result is written (multiprocessing's start and import were a
    fiftieth of a one-contract build); `stop` ends one whose result is no longer wanted.
    """

    def __init__(self, workers: Workers, fn: Callable[[], Any]) -> None:
        self._fn = fn
        self._workers = workers
        self._spool: int | None = None
        self._pid: int | None = None
        if workers.jobs < 2 or not _can_fork() or not hasattr(os, "memfd_create"):
            return
        self._spool = os.memfd_create("toolgen-result", os.MFD_CLOEXEC)
        for stream in (sys.stdout, sys.stderr):  # what is buffered here must not be written twice
            stream.flush()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the forked process: its coverage is not collected
            self._child(self._spool, parent)
        self._pid = pid

    def _child(self, fd: int, parent: int) -> NoReturn:  # pragma: no cover - runs in the forked process
        """In the forked process: the result written, the process ends, running nothing of the
        parent's (no exit handlers, no buffers flushed twice)."""
        code = 70
        try:
            self._run(fd, parent)
            code = 0
        finally:
            os._exit(code)

    def _run(self, fd: int, parent: int) -> None:
        """In the forked process: run `fn` and write its value (or its exception) to the spool `fd`."""
        self._workers.enter_worker(parent)
        try:
            value: tuple[Any, ...] = (True, roomy(self._fn))
        except BaseException as exc:  # handed to the parent, which raises it
            value = (False, exc)
        with os.fdopen(os.dup(fd), "wb") as spool:
            try:
                pickle.dump(value, spool, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # pickling failed: the parent must still hear of it
                spool.seek(0)
                spool.truncate()
                pickle.dump((False, RuntimeError(f"a worker's result could not be sent: {exc!r}")), spool)

    def result(self) -> Any:
        """What `fn()` returned (its exception, if it raised)."""
        if self._pid is None or self._spool is None:
            return self._fn()
        code = self._wait()
        with os.fdopen(self._spool, "rb") as spool:
            self._spool = None
            spool.seek(0)  # the forked process moved the offset both share
            try:
                ok, value = pickle.load(spool)
            except (EOFError, pickle.UnpicklingError):  # it died before it wrote all (killed, out of memory)
                ok, value = False, RuntimeError(f"a worker ended with code {code} and no result")
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """End the forked process, if it still runs, and forget its result (after this process
        failed: nobody will ask for it)."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._wait()
        if self._spool is not None:
            os.close(self._spool)
            self._spool = None

    def _wait(self) -> int:
        """Wait for the forked process to end; its exit code (minus the signal that ended it)."""
        pid, self._pid = self._pid, None
        if pid is None:
            return 0
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
