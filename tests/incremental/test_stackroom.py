"""Deep work under `stackroom.roomy` does not map fresh memory each time its call depth crosses the
end of one of CPython's frame-stack chunks: measured as minor page faults, which each new chunk's
first touch of its pages causes (four per 16 KiB chunk)."""

from __future__ import annotations

import resource
import sys

from toolgen.incremental.parallel import Workers
from toolgen.incremental.stackroom import roomy

DEPTH = 400
"""Frames of `_down` a cycle goes down: about 45 KiB of frames, more than a 16 KiB chunk holds."""

CYCLES = 3000


def _down(depth: int) -> int:
    return 0 if depth == 0 else _down(depth - 1) + 1


def _faults_over_cycles(_: object = None) -> int:
    """Minor page faults of this process while it goes `DEPTH` frames down and back `CYCLES` times."""
    _down(DEPTH)  # anything first used (the code's caches) is used once before measuring
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(CYCLES):
        _down(DEPTH)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def test_deep_calls_under_roomy_fault_no_fresh_pages_per_cycle() -> None:
    assert sys.getrecursionlimit() > DEPTH + 100
    assert roomy(_faults_over_cycles) < CYCLES // 10


def test_the_same_calls_outside_roomy_map_chunks_each_cycle_on_this_interpreter() -> None:
    """What `roomy` is for: CPython 3.11 maps and unmaps a chunk per crossing (later versions may
    keep a spare chunk; then there is nothing to save, and this test says so)."""
    plain = _faults_over_cycles()
    roomier = roomy(_faults_over_cycles)
    if sys.version_info[:2] == (3, 11):
        assert plain >= CYCLES * 4
    assert roomier <= plain


def test_a_forked_worker_runs_its_work_with_room() -> None:
    faults = Workers(2, fork_min=2).map(_faults_over_cycles, [None, None])
    assert all(count < CYCLES // 10 for count in faults), faults
