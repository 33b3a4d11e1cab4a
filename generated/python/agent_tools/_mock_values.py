# The toolgen runtime's _mock_values.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The candidate strings and numbers the synthesizer (`_mock_synth`) tries for a schema.

Part of the mocks: `_mock_synth` re-exports `FORMATS`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from ._mock_pattern import from_pattern

FORMATS: Mapping[str, str] = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri": "https://example.com/",
    "iri-reference": "https://example.com/",
    "uri-template": "https://example.com/{id}",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "json-pointer": "/example",
    "relative-json-pointer": "0",
    "regex": "^example$",
}
"""A fixed valid value for each format of JSON Schema draft 2020-12."""


def strings(schema: Mapping[str, Any], name: str) -> Iterator[str]:
    low = int(schema.get("minLength", 0))
    high = schema.get("maxLength")
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in FORMATS:
        yield FORMATS[fmt]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        for extra in (0, 1, 2, 4, 8, low):
            text = from_pattern(pattern, extra)
            if text is not None:
                yield text
    for base in (name or "value", "value", "a"):
        text = base + "x" * max(0, low - len(base))
        yield text[:high] if isinstance(high, int) else text


def numbers(schema: Mapping[str, Any], integer: bool) -> Iterator[int | float]:
    low, high = bounds(schema, integer)
    step = schema.get("multipleOf")
    wanted: list[float] = [1, 0, 2, 10, 1.5]
    if low is not None:
        wanted += [low, *(low + d for d in (1, 0.5, 10))]
    if high is not None:
        wanted += [high, high - 1, high - 0.5]
    if low is not None and high is not None:
        wanted.append((low + high) / 2)
    for want in wanted:
        value = want
        if isinstance(step, (int, float)) and step > 0:
            value = round(math.ceil(want / step) * step, 10)
        if integer:
            if value != math.floor(value):
                continue
            yield int(value)
        else:
            yield (
                int(value)
                if float(value).is_integer() and abs(value) < 2**53
                else float(value)
            )


def bounds(
    schema: Mapping[str, Any], integer: bool
) -> tuple[float | None, float | None]:
    nudge = 1 if integer else 0.5
    low: float | None = None
    high: float | None = None
    if isinstance(schema.get("minimum"), (int, float)):
        low = schema["minimum"]
    if isinstance(schema.get("exclusiveMinimum"), (int, float)):
        low = max(
            low if low is not None else -math.inf,
            math.floor(schema["exclusiveMinimum"]) + nudge,
        )
    if isinstance(schema.get("maximum"), (int, float)):
        high = schema["maximum"]
    if isinstance(schema.get("exclusiveMaximum"), (int, float)):
        high = min(
            high if high is not None else math.inf,
            math.ceil(schema["exclusiveMaximum"]) - nudge,
        )
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
    return low, high


__all__ = ["FORMATS", "bounds", "numbers", "strings"]
