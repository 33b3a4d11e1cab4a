"""Soundness of `toolgen diff` against an instance oracle (issue 30).

Pairs are the corpus sample's schemas mutated by every kind of edit in `benchmarks.compat_edits`,
each judged in both roles, in both modes: the default mode against the oracle under the documented
assumptions, `--assume strict` against the raw oracle. A "compatible" or "no change" verdict for
which the oracle finds a witness (boundary values, then hypothesis-jsonschema draws, validated by
jsonschema) fails, printing the pair and the witness. The default tier checks one pair of each
kind; `-m slow` checks many. Deterministic in CI (the `ci` hypothesis profile derandomizes).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from benchmarks import compat_edits, compat_oracle
from tests.conftest import CORPUS_SAMPLE
from toolgen.compat import Assume, Bump, Direction, diff_schema

Case = tuple[compat_edits.Pair, str, str]
"""A pair, a role (input/output) and an assumption (declared/strict)."""


@functools.cache
def _pairs(per_file: int, per_kind: int) -> tuple[compat_edits.Pair, ...]:
    taken: dict[str, int] = {}
    out = []
    for pair in compat_edits.make_pairs(compat_edits.sample_schemas(CORPUS_SAMPLE, per_file)):
        if taken.get(pair.kind, 0) < per_kind:
            taken[pair.kind] = taken.get(pair.kind, 0) + 1
            out.append(pair)
    return tuple(out)


def _compatible(pair: compat_edits.Pair, role: str, assume: str) -> bool:
    direction = Direction.INPUT if role == "input" else Direction.OUTPUT
    changes = diff_schema(direction, pair.old, pair.new, "/s", "/s", assume=Assume(assume))
    return max((c.bump for c in changes), default=Bump.NONE) < Bump.MAJOR


def _cases(per_file: int, per_kind: int) -> list[Case]:
    return [(p, role, assume) for p in _pairs(per_file, per_kind) for role in ("input", "output")
            for assume in ("declared", "strict")]  # fmt: skip


def _report(case: Case, value: Any) -> str:
    pair, role, assume = case
    return (f"{pair.kind} ({pair.source}), {role} role, --assume {assume}: toolgen says compatible, but "
            f"{json.dumps(value)} breaks it\nold: {json.dumps(pair.old)}\nnew: {json.dumps(pair.new)}")  # fmt: skip


def _unsound(cases: list[Case], draws: int) -> list[str]:
    found = []
    for case in cases:
        pair, role, assume = case
        if not _compatible(pair, role, assume):
            continue
        source, target = compat_oracle.sides(pair.old, pair.new, role, assume)
        extra = compat_oracle.draws(source, draws) if draws else []
        hit, value = compat_oracle.witness(source, target, extra)
        if hit:
            found.append(_report(case, value))
    return found


def test_every_kind_of_edit_is_generated() -> None:
    assert {p.kind for p in _pairs(2, 1)} == set(compat_edits.EDITS)


def test_no_compatible_verdict_has_a_boundary_witness() -> None:
    problems = _unsound(_cases(2, 1), draws=0)
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
def test_no_compatible_verdict_has_a_witness_on_many_pairs() -> None:
    problems = _unsound(_cases(20, 5), draws=2)
    assert not problems, "\n\n".join(problems)


_SLOW_DRAWS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


@settings(max_examples=12, deadline=None, suppress_health_check=_SLOW_DRAWS)
@given(case=st.sampled_from(_cases(2, 1)), data=st.data())
def test_no_compatible_verdict_has_a_drawn_witness(case: Case, data: st.DataObject) -> None:
    pair, role, assume = case
    if not _compatible(pair, role, assume):
        return
    source, target = compat_oracle.sides(pair.old, pair.new, role, assume)
    value = data.draw(from_schema(source))
    valid = Draft202012Validator(target, format_checker=Draft202012Validator.FORMAT_CHECKER).is_valid(value)
    assert valid, _report(case, value)


# The oracle is not vacuous: it finds the witnesses of the two defects and of plain breaks.

SHARED = {"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/$defs/s"}},
          "$defs": {"s": {"type": "string"}}}  # fmt: skip
MAP = {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}


@pytest.mark.parametrize(
    ("old", "new", "role", "assume"),
    [
        (SHARED, {**SHARED, "properties": {**SHARED["properties"], "b": {"$ref": "#/$defs/s", "maxLength": 3}}},
         "input", "declared"),
        (MAP, {"type": "object", "properties": {"labels": {**MAP["properties"]["labels"],
                                                            "properties": {"priority": {"type": "integer"}}}}},
         "output", "declared"),
        ({"type": "object", "properties": {"a": {"type": "string"}}},
         {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}, "input", "strict"),
        ({"type": "object", "properties": {"p": {"type": "string", "pattern": "^[a-z0-9]+$"}}},
         {"type": "object", "properties": {"p": {"type": "string", "pattern": "^[a-z]+$"}}}, "input", "declared"),
    ],
    ids=["ref-sibling", "map-declared", "strict-open-added", "pattern-narrowed"],
)  # fmt: skip
def test_the_oracle_finds_known_witnesses(old: Any, new: Any, role: str, assume: str) -> None:
    hit, value = compat_oracle.witness(*compat_oracle.sides(old, new, role, assume))
    assert hit, value


def test_the_declared_oracle_has_no_witness_for_what_the_assumptions_allow() -> None:
    old = {"type": "object", "properties": {"a": {"type": "string"}}}
    new = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert compat_oracle.witness(*compat_oracle.sides(old, new, "input", "declared")) == (False, None)
    closed = {**old, "additionalProperties": False}
    assert (
        compat_oracle.witness(
            *compat_oracle.sides(closed, {**new, "additionalProperties": False}, "output", "declared")
        )[0]
        is False
    )
    assert compat_oracle.witness(
        *compat_oracle.sides(closed, {**new, "additionalProperties": False}, "output", "strict")
    )[0]
