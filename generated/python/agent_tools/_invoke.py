# The toolgen runtime's _invoke.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""How the registry runs one implementation: sync or async, with or without a time limit.

Part of the runtime: `Registry.call` runs an implementation with `run`, `Registry.acall` with
`arun`; both get the validated input model and give back a `Ran`: what the implementation
returned (checked against the contract afterwards), or the runtime's own `Err` with the note for
the trace.

- `arun`: an async implementation (an `async def`, or anything whose call returns an awaitable)
  is awaited; a sync one runs in a worker thread (`asyncio.to_thread`, with the caller's context
  variables), so the event loop is never blocked. Past the time limit the task is cancelled (the
  implementation sees `CancelledError` at its next `await`) and the call is `TIMEOUT`. A sync
  implementation cannot be stopped from outside: its thread runs on to its end, and what it
  returns then is dropped.
- `run`: a sync implementation runs in the calling thread when there is no time limit. With one it
  runs in a daemon thread the caller waits for; past the limit the call is `TIMEOUT` and that
  thread, too, runs on to its end (it does not keep the interpreter from exiting). An async
  implementation runs to completion in its own event loop (`asyncio.run`) when no loop is running
  in the calling thread; inside a running loop the call is `INTERNAL`, with a message that says to
  use `acall` (blocking the loop to wait for it would stall every other task).
- The time limit is the contract's `timeout_ms`, else the registry's `default_timeout_s`, else none.
  It covers the whole call: reading and validating the arguments, then the implementation, which
  gets what is left (`spent`). A call whose validation used up the limit is `TIMEOUT` and its
  implementation is never called. Validation runs in the caller's thread and is not interrupted:
  its patterns run on RE2 (`_patterns`), in time linear in the text, so it takes time in proportion
  to the arguments. A pattern RE2 refuses runs on Python's `re`, which backtracks and holds the
  interpreter lock while it matches, so no thread or time limit could stop it: `toolgen validate`
  warns (TG221) when such a pattern nests quantifiers.
  A `TIMEOUT` has the contract's `retryable` for the code (true unless the contract declares
  otherwise). An exception the implementation raises, `TimeoutError`, `SystemExit` and `GeneratorExit`
  included, is `INTERNAL`; `KeyboardInterrupt` propagates (after `Registry` has traced the call).
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._results import Err

INTERNAL_MESSAGE = "The tool failed unexpectedly; the details are in the trace."
"""The only message an `INTERNAL` error shows the model."""


@dataclass(frozen=True, slots=True)
class Ran:
    """What running an implementation gave: its result, or the runtime's `Err` and a note."""

    result: Any
    note: str | None = None
    """Set when `result` is the runtime's own answer (timeout, exception), with what the trace should say."""


def time_limit(timeout_ms: int | None, default_s: float | None) -> float | None:
    """Seconds a call may run: the contract's `timeout_ms`, else the registry's default, else None."""
    return timeout_ms / 1000.0 if timeout_ms is not None else default_s


def validation_timed_out(contract: Any, limit: float) -> Ran:
    """The `TIMEOUT` of a call whose validation used up its time limit."""
    return _timed_out(
        contract,
        limit,
        "validating its arguments used up the time limit; the implementation was not called",
    )


def is_async(implementation: Callable[..., Any]) -> bool:
    """True for an `async def` (also behind `functools.partial`) or an object with an async `__call__`."""
    if inspect.iscoroutinefunction(implementation):
        return True
    call = getattr(implementation, "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(call)


def _crashed() -> Ran:
    return Ran(Err("INTERNAL", INTERNAL_MESSAGE, False), traceback.format_exc())


def _timed_out(contract: Any, limit: float, after: str) -> Ran:
    message = f"Tool {contract.name!r} did not finish within {limit:g} s; it may succeed if called again."
    note = f"{contract.name} exceeded its time limit of {limit:g} s; {after}"
    return Ran(contract.error("TIMEOUT", message), note)


def run(
    implementation: Callable[..., Any],
    model: Any,
    contract: Any,
    limit: float | None,
    *,
    tool_context: Any = None,
    spent: float = 0.0,
) -> Ran:
    """Run `implementation(model)` for `Registry.call` (see the module docstring).

    With a `tool_context` the call is `implementation(model, tool_context)`, and a timeout sets
    its `cancellation`. `spent` is the part of `limit` the call has used already (validating): the
    implementation gets the rest.
    """
    if limit is not None and spent >= limit:
        return validation_timed_out(contract, limit)
    if tool_context is not None:
        implementation = _with_context(implementation, tool_context)
    if is_async(implementation):
        return _run_async_here(implementation, model, contract, limit, spent)
    if limit is None:
        return _blocking(implementation, model)
    box: list[Ran] = []
    context = contextvars.copy_context()
    worker = threading.Thread(
        target=lambda: box.append(context.run(_blocking, implementation, model)),
        name=f"toolgen-{contract.name}",
        daemon=True,
    )
    worker.start()
    worker.join(limit - spent)
    if worker.is_alive() or not box:
        _cancel(tool_context)
        return _timed_out(
            contract,
            limit,
            "its thread was left running and its result will be dropped",
        )
    return box[0]


def _blocking(implementation: Callable[[Any], Any], model: Any) -> Ran:
    """A sync call; a result that is awaitable (a coroutine returned by a plain function) is run too."""
    try:
        result = implementation(model)
        if inspect.isawaitable(result):
            result = asyncio.run(_awaited(result))
        return Ran(result)
    except (
        Exception,
        SystemExit,
        GeneratorExit,
    ):  # an implementation cannot end the caller's program
        return _crashed()


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _run_async_here(
    implementation: Callable[[Any], Any],
    model: Any,
    contract: Any,
    limit: float | None,
    spent: float,
) -> Ran:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(arun(implementation, model, contract, limit, spent=spent))
    message = (
        f"Tool {contract.name!r} has an async implementation and an event loop is running in this thread: "
        "call it with `await registry.acall(...)`."
    )
    note = f"{contract.name}: Registry.call on an async implementation inside a running event loop; use acall"
    return Ran(Err("INTERNAL", message, False), note)


async def arun(
    implementation: Callable[..., Any],
    model: Any,
    contract: Any,
    limit: float | None,
    *,
    tool_context: Any = None,
    spent: float = 0.0,
) -> Ran:
    """Run `implementation(model)` for `Registry.acall` (see the module docstring and `run`)."""
    if limit is not None and spent >= limit:
        return validation_timed_out(contract, limit)
    if tool_context is not None:
        implementation = _with_context(implementation, tool_context)
    try:
        async with asyncio.timeout(None if limit is None else limit - spent) as scope:
            return Ran(await _result(implementation, model))
    except TimeoutError:
        if scope.expired():
            _cancel(tool_context)
            after = (
                "the task was cancelled"
                if is_async(implementation)
                else "its thread was left running"
            )
            return _timed_out(contract, limit or 0.0, after)
        return _crashed()
    except (Exception, SystemExit, GeneratorExit):
        return _crashed()


def _with_context(implementation: Callable[..., Any], context: Any) -> Any:
    """`implementation` with `context` as its second argument, async if it is."""
    if is_async(implementation):

        async def called_async(model: Any) -> Any:
            return await implementation(model, context)

        return called_async

    def called(model: Any) -> Any:
        return implementation(model, context)

    return called


def _cancel(context: Any) -> None:
    if context is not None:
        context.cancellation.set()


async def _result(implementation: Callable[[Any], Any], model: Any) -> Any:
    if is_async(implementation):
        result = await implementation(model)
    else:
        result = await asyncio.to_thread(implementation, model)
    if inspect.isawaitable(result):
        result = await result
    return result


__all__ = [
    "INTERNAL_MESSAGE",
    "Ran",
    "arun",
    "is_async",
    "run",
    "time_limit",
    "validation_timed_out",
]
