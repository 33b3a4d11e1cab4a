"""The `timeout_ms` contract key: how long one call of the tool may run (TG240).

A positive integer of milliseconds, at most `MAX_TIMEOUT_MS` (one day: a larger value is almost
always seconds or microseconds written in the wrong unit, and asyncio's timers cannot hold every
integer TOML can). The generated registry answers `Err("TIMEOUT", retryable=True)` when a call runs
longer; `Registry(default_timeout_s=...)` covers tools without the key.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolgen.validate.report import Reporter, type_name

MAX_TIMEOUT_MS = 86_400_000
"""One day, in milliseconds: the largest `timeout_ms` a contract may declare."""


def check_timeout(data: Mapping[str, object], report: Reporter) -> None:
    """TG240 when `timeout_ms` is present and is not an integer from 1 to `MAX_TIMEOUT_MS`."""
    if "timeout_ms" not in data:
        return
    value = data["timeout_ms"]
    fix = "; write it like timeout_ms = 30000 (thirty seconds), without quotes"
    if isinstance(value, bool) or not isinstance(value, int):
        kind = type_name(value)
        report("TG240", "/timeout_ms", f"`timeout_ms` must be a whole number of milliseconds, not {kind}{fix}")
    elif not 1 <= value <= MAX_TIMEOUT_MS:
        report("TG240", "/timeout_ms", f"`timeout_ms` is {value}; it must be from 1 to {MAX_TIMEOUT_MS} (one day){fix}")
