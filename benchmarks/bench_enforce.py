"""What `Registry(enforce=True)` costs: per call, and per audit event outside a call.

    .venv/bin/python benchmarks/bench_enforce.py [--rounds 7] [--calls 20000] [--events 200000]

Builds the repo's own generated package (`generated/python`, as committed) and runs short child
processes that time a loop. A and B alternate round by round on the same machine, and the ratios are
the median of the per-round ratios, so a shared, noisy machine moves both sides alike:

- per call: `registry.call("read_file", ...)` with a trivial implementation, enforce=True over
  enforce=False (the implementation itself makes no audited operation, so this is the guard's cost);
- per event inside a call: an implementation that opens /dev/null 10 times, enforce=True over False;
- per event outside a call: `open(os.devnull).close()` in a process where the hook is installed
  (`import agent_tools._enforce`) over one where it is not (nothing enforced runs in either).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "generated" / "python"

CALLS = """
import os, sys, time
from agent_tools import Ok, Policy, Registry
from agent_tools.read_file import ReadFileInput
enforce, count, opens = sys.argv[1] == "1", int(sys.argv[2]), int(sys.argv[3])
def read(args):
    for _ in range(opens):
        open(os.devnull).close()
    return Ok(None)
registry = Registry(policy=Policy(allow={"read"}), enforce=enforce)
registry.register("read_file", read)
arguments = {"path": "a.txt"}
started = time.perf_counter()
for _ in range(count):
    registry.call("read_file", arguments)
print((time.perf_counter() - started) / count)
"""

EVENTS = """
import os, sys, time
if sys.argv[1] == "1":
    import agent_tools._enforce
count = int(sys.argv[2])
started = time.perf_counter()
for _ in range(count):
    open(os.devnull).close()
print((time.perf_counter() - started) / count)
"""


def timed(script: str, *args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(PACKAGE)}
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, check=True)
    return float(done.stdout)


def pairs(rounds: int, a: tuple[str, ...], b: tuple[str, ...], script: str) -> tuple[float, float, float]:
    """Median seconds of A and B per unit, and the median of the per-round ratios A/B (alternating)."""
    times_a, times_b, ratios = [], [], []
    for _ in range(rounds):
        first, second = timed(script, *a), timed(script, *b)
        times_a.append(first)
        times_b.append(second)
        ratios.append(first / second)
    return statistics.median(times_a), statistics.median(times_b), statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--events", type=int, default=200000)
    args = parser.parse_args()
    calls, events = str(args.calls), str(args.events)
    rows = [
        ("per call, no audited operation", pairs(args.rounds, ("1", calls, "0"), ("0", calls, "0"), CALLS)),
        ("per call with 10 opens", pairs(args.rounds, ("1", calls, "10"), ("0", calls, "10"), CALLS)),
        ("per event outside a call", pairs(args.rounds, ("1", events), ("0", events), EVENTS)),
    ]
    print(f"{'figure':<34} {'enforced':>12} {'plain':>12} {'extra':>10} {'ratio':>7}")
    for label, (enforced, plain, ratio) in rows:
        extra = (enforced - plain) * 1e6
        print(f"{label:<34} {enforced * 1e6:>10.2f}us {plain * 1e6:>10.2f}us {extra:>8.2f}us {ratio:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
