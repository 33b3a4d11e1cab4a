# The toolgen runtime's _retry.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Retries that follow `retryable`: `RetryPolicy` (opt-in: `Registry(retry=RetryPolicy(...))`).

Part of the runtime: `_runtime` (and the package) re-export `RetryPolicy`.

Only the implementation is run again, never validation or the policy: after an attempt that ends
in an `Err` whose `retryable` is true (the contract decides: `TIMEOUT`, `UNAVAILABLE`,
`RATE_LIMITED` and declared retryable codes), the registry waits `delay(attempt)` and tries again,
up to `attempts` in all. Backoff grows from `base_s` by `multiplier` up to `max_backoff_s`; the
jitter takes a random share of up to `jitter` of it off (`jitter=1.0` is "full jitter"). A retry
is not started when its wait would end past the total `budget_s` (counted from the first attempt)
or past the call's deadline (`deadline=` of the call, a `time.monotonic()` instant); each attempt's
time limit is cut to what is left of both. The last attempt's result is the call's. Every attempt
is in the trace record (`attempts`: code, retryable, duration, the wait that followed). `clock`,
`sleep`, `asleep` and `random` are injectable for tests.
"""

from __future__ import annotations

import asyncio
import random as _random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ._results import Err


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many attempts a retryable failure gets, how long to wait between them, and the budget."""

    attempts: int = 3
    base_s: float = 0.1
    multiplier: float = 2.0
    max_backoff_s: float = 5.0
    jitter: float = 1.0
    budget_s: float | None = None
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    asleep: Callable[[float], Awaitable[None]] = field(
        default=asyncio.sleep, repr=False
    )
    random: Callable[[], float] = field(default=_random.random, repr=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError("jitter must be between 0 and 1")
        if self.budget_s is not None and self.budget_s <= 0:
            raise ValueError("budget_s must be positive")

    def delay(self, attempt: int) -> float:
        """Seconds to wait after attempt number `attempt` (1 for the first) failed."""
        backoff = min(
            self.max_backoff_s, self.base_s * self.multiplier ** (attempt - 1)
        )
        return backoff * (1.0 - self.jitter * self.random())


class Attempts:
    """One call's attempts under a `RetryPolicy` (or a single attempt without one)."""

    def __init__(self, policy: RetryPolicy | None, deadline: float | None) -> None:
        self.policy = policy
        clock = policy.clock if policy is not None else time.monotonic
        self._clock = clock
        started = clock()
        budget = policy.budget_s if policy is not None else None
        ends = [
            t
            for t in (deadline, started + budget if budget is not None else None)
            if t is not None
        ]
        self.ends: float | None = min(ends) if ends else None
        self.record: list[dict[str, Any]] = []
        self._began = started

    def limit(self, limit: float | None) -> float | None:
        """The time limit of the next attempt: the tool's, cut to what is left of the budget."""
        if self.ends is None:
            return limit
        left = max(0.0, self.ends - self._clock())
        return left if limit is None else min(limit, left)

    def begin(self) -> None:
        """Mark the start of an attempt."""
        self._began = self._clock()

    def wait(self, result: Any) -> float | None:
        """Seconds to wait before the next attempt after `result`, or None: no retry."""
        number = len(self.record) + 1
        entry: dict[str, Any] = {
            "attempt": number,
            "code": result.code if isinstance(result, Err) else "OK",
            "retryable": bool(getattr(result, "retryable", False)),
            "duration_ms": (self._clock() - self._began) * 1000.0,
        }
        self.record.append(entry)
        policy = self.policy
        if (
            policy is None
            or not isinstance(result, Err)
            or not result.retryable
            or number >= policy.attempts
        ):
            return None
        pause = policy.delay(number)
        if self.ends is not None and self._clock() + pause >= self.ends:
            entry["stopped"] = "budget"
            return None
        entry["wait_s"] = pause
        return pause


__all__ = ["Attempts", "RetryPolicy"]
