"""What matching patterns on RE2 costs against Python's `re`, and what it saves.

    .venv/bin/python -m benchmarks.bench_patterns [--rounds 7] [--number 20000]

The generated registry matches `pattern` and `patternProperties` with `toolgen/runtime/_patterns.py`
(RE2, google-re2), where jsonschema alone would use `re`. Three measures, each the median of
`--rounds` rounds on this machine:

- per match: `Patterns().search(pattern, text)` (RE2, compiled once, as a validator keeps it) over
  `re.search` (Python's own cache), for patterns from the repo's contracts and the agent corpora;
- per validation: a jsonschema validation of an object with three patterned strings, the registry's
  validator (`_schemas.validator`) over plain `Draft202012Validator`;
- the ReDoS case `^(a+)+$` against `"a" * n + "!"`: RE2's time, and `re`'s for small n (it doubles
  with each character; n = 30 took minutes).
"""

from __future__ import annotations

import argparse
import functools
import re
import statistics
import time
from collections.abc import Callable

import jsonschema

from toolgen.runtime._patterns import Patterns
from toolgen.runtime._schemas import validator

CASES: tuple[tuple[str, str], ...] = (
    (r"^[A-Za-z0-9-]+$", "Content-Type"),
    (r"^[A-Za-z_][A-Za-z0-9_]*$", "PYTHONPATH"),
    (r"^\d{4}-\d{2}-\d{2}$", "2026-12-02"),
    (r"^[\w\s.,'-]{0,500}$", "A plain sentence, with commas and dashes - like this one." * 4),
    (r"^https?://", "https://example.com/a/b?c=d"),
    (r"[a-z]+@[a-z]+\.[a-z]{2,}", "write to someone@example.org today"),
)


def _time(work: Callable[[], object], number: int) -> float:
    started = time.perf_counter()
    for _ in range(number):
        work()
    return (time.perf_counter() - started) / number


def _median(rounds: int, work: Callable[[], object], number: int) -> float:
    return statistics.median(_time(work, number) for _ in range(rounds))


def per_match(rounds: int, number: int) -> None:
    patterns = Patterns()
    print("| pattern | text chars | re (us) | RE2 (us) | RE2 / re |\n|---|---|---|---|---|")
    for pattern, text in CASES:
        fast = _median(rounds, functools.partial(patterns.search, pattern, text), number)
        slow = _median(rounds, functools.partial(re.search, pattern, text), number)
        print(f"| `{pattern}` | {len(text)} | {slow * 1e6:.2f} | {fast * 1e6:.2f} | {fast / slow:.2f} |")


def per_validation(rounds: int, number: int) -> None:
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "pattern": pattern} for i, (pattern, _) in enumerate(CASES[:3])},
        "patternProperties": {"^x-": {"type": "string"}},
    }
    value = {f"p{i}": text for i, (_, text) in enumerate(CASES[:3])} | {"x-a": "b"}
    ours, plain = validator(schema), jsonschema.Draft202012Validator(schema)
    fast = _median(rounds, lambda: ours.is_valid(value), number // 4)
    slow = _median(rounds, lambda: plain.is_valid(value), number // 4)
    print(f"\nper validation: jsonschema alone {slow * 1e6:.1f} us, with RE2 {fast * 1e6:.1f} us", end="")
    print(f", ratio {fast / slow:.2f}")


def redos() -> None:
    patterns = Patterns()
    print("\n| n | re (s) | RE2 (s) |\n|---|---|---|")
    for n in (16, 18, 20, 22, 30, 1000):
        text = "a" * n + "!"
        fast = _time(functools.partial(patterns.search, r"^(a+)+$", text), 10)
        slow = _time(functools.partial(re.search, r"^(a+)+$", text), 1) if n <= 22 else None
        shown = f"{slow:.3f}" if slow is not None else "not run (minutes)"
        print(f"| {n} | {shown} | {fast:.6f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    options = parser.parse_args()
    per_match(options.rounds, options.number)
    per_validation(options.rounds, options.number)
    redos()


if __name__ == "__main__":
    main()
