"""Issue 30: the two defects that let breaking changes through, and the two false alarms.

Each repro is the issue's own pair; each assertion fails on the code before the fix.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.compat import Assume, Bump, Direction, diff_schema

IN, OUT = Direction.INPUT, Direction.OUTPUT


def needed(direction: Direction, base: Any, head: Any, **options: Any) -> Bump:
    """The bump the changes between two schemas need in `direction`."""
    changes = diff_schema(direction, base, head, "/s", "/s", **options)
    return max((c.bump for c in changes), default=Bump.NONE)


def rules(direction: Direction, base: Any, head: Any) -> list[str]:
    """The rules reported, in order."""
    return [c.rule for c in diff_schema(direction, base, head, "/s", "/s")]


# 1. A constraint beside a `$ref` is compared even when another property uses the same definition.

SHARED = {
    "type": "object",
    "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/$defs/s"}},
    "$defs": {"s": {"type": "string"}},
}


@pytest.mark.parametrize("tightened", ["a", "b"])
def test_a_sibling_constraint_beside_a_shared_ref_is_compared(tightened: str) -> None:
    head = {**SHARED, "properties": {**SHARED["properties"], tightened: {"$ref": "#/$defs/s", "maxLength": 3}}}
    changes = diff_schema(IN, SHARED, head, "/s", "/s")
    assert [c.rule for c in changes] == ["TG432"]
    assert changes[0].message == f"`{tightened}`: maxLength added"
    assert needed(IN, SHARED, head) is Bump.MAJOR


def test_the_same_sibling_constraint_on_both_uses_is_found_once_per_use() -> None:
    tight = {"$ref": "#/$defs/s", "maxLength": 3}
    head = {**SHARED, "properties": {"a": tight, "b": tight}}
    assert rules(IN, SHARED, head) == ["TG432", "TG432"]


# 2. A property newly declared inside a map is compared with the map's value schema.

MAP = {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}
DECLARED = {
    "type": "object",
    "properties": {
        "labels": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "properties": {"priority": {"type": "integer"}},
        }
    },
}


@pytest.mark.parametrize("direction", [IN, OUT])
def test_a_property_declared_inside_a_map_is_compared_with_the_value_schema(direction: Direction) -> None:
    changes = diff_schema(direction, MAP, DECLARED, "/s", "/s")
    assert "TG427" in [c.rule for c in changes]  # string -> integer, for the key `priority`
    assert max(c.bump for c in changes) is Bump.MAJOR


def test_a_property_declared_inside_a_map_within_the_value_schema_is_compatible_on_input() -> None:
    narrower = {"type": "object", "additionalProperties": {"type": "string"}, "properties": {"p": {"type": "string"}}}
    wider = {"type": "object", "additionalProperties": {"type": "string", "maxLength": 2}, "properties": {"p": {}}}
    assert needed(IN, {"type": "object", "additionalProperties": {"type": "string"}}, narrower) <= Bump.MINOR
    assert needed(OUT, {"type": "object", "additionalProperties": {"type": "string"}}, narrower) <= Bump.MINOR
    assert needed(IN, {**wider, "properties": {}}, wider) <= Bump.MINOR
    assert needed(OUT, {**wider, "properties": {}}, wider) is Bump.MAJOR


# 3. `type: [T, "null"]` and `anyOf: [{type: T}, {type: "null"}]` are one schema.

LIST = {"type": ["string", "null"], "maxLength": 5, "description": "A name."}
SPELLED = {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "description": "A name."}


@pytest.mark.parametrize("direction", [IN, OUT])
@pytest.mark.parametrize(("base", "head"), [(LIST, SPELLED), (SPELLED, LIST)])
def test_type_list_and_any_of_spelling_are_no_change(direction: Direction, base: Any, head: Any) -> None:
    assert diff_schema(direction, base, head, "/s", "/s") == []


def test_a_respelling_that_also_widens_is_still_a_widening() -> None:
    head = {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}, {"type": "integer"}]}
    assert rules(IN, {"type": ["string", "null"], "maxLength": 5}, head) == ["TG425"]
    assert needed(OUT, {"type": ["string", "null"], "maxLength": 5}, head) is Bump.MAJOR


# 4. Wrapping an input schema in anyOf/oneOf with the old schema as a branch widens it.

S = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


@pytest.mark.parametrize(
    "head",
    [
        {"anyOf": [S, {"type": "string"}]},
        {"anyOf": [{"type": "array", "items": S}, S]},
        {"oneOf": [S, {"type": "null"}]},
    ],
)
def test_wrapping_an_input_schema_with_the_old_schema_as_a_branch_widens(head: Any) -> None:
    found = rules(IN, S, head)
    assert "TG437" not in found
    assert needed(IN, S, head) is Bump.MINOR
    assert needed(OUT, S, head) is Bump.MAJOR  # the output may now hold the new branch
    assert needed(IN, head, S) is Bump.MAJOR  # and unwrapping narrows the input


def test_an_output_wrap_that_keeps_the_same_values_is_compatible() -> None:
    head = {"anyOf": [S, {**S, "properties": {"path": {"type": "string", "maxLength": 9}}}]}
    assert needed(OUT, S, head) <= Bump.PATCH
    assert needed(IN, S, head) <= Bump.PATCH


def test_a_one_of_wrap_whose_branches_overlap_is_not_a_widening() -> None:
    # `{}` accepts null too: null now matches both branches, and oneOf refuses it.
    assert needed(IN, {}, {"oneOf": [{}, {"type": "null"}]}) is Bump.MAJOR
    assert (
        needed(IN, {"type": "string"}, {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 2}]})
        is Bump.MAJOR
    )


# Spellings of one value set are no change (docs/compatibility.md, "Meaning, not spelling").

STR = {"type": "string", "maxLength": 5}


@pytest.mark.parametrize("direction", [IN, OUT])
@pytest.mark.parametrize(
    ("base", "head"),
    [
        (STR, {"anyOf": [STR]}),
        (STR, {"oneOf": [STR], "description": "A name."}),
        (STR, {"allOf": [{"type": "string"}, {"maxLength": 5}]}),
        ({"type": "string", "enum": ["a"]}, {"type": "string", "const": "a"}),
        ({**STR, "$defs": {"s": STR}}, {"$ref": "#/$defs/t", "$defs": {"t": STR}}),
        ({"type": "integer"}, {"allOf": [{"$ref": "#/$defs/n"}], "$defs": {"n": {"type": "integer"}}}),
    ],
    ids=["any-of-one", "one-of-one", "all-of-merges", "const-enum", "ref-equal", "all-of-ref"],
)
def test_respellings_are_no_change(direction: Direction, base: Any, head: Any) -> None:
    assert needed(direction, base, head) <= Bump.PATCH
    assert needed(direction, head, base) <= Bump.PATCH


def test_an_all_of_that_splits_properties_from_additional_properties_is_not_merged() -> None:
    # `additionalProperties` in its own branch does not see the other branch's `properties`.
    split = {"allOf": [{"properties": {"a": {}}}, {"additionalProperties": False}]}
    assert needed(IN, {"properties": {"a": {}}, "additionalProperties": False}, split) is Bump.MAJOR


def test_an_enum_beside_a_type_change_is_judged_by_the_values_it_lets_through() -> None:
    old = {"type": "string", "enum": ["a", "b"]}
    assert needed(OUT, old, {**old, "type": ["string", "null"]}) <= Bump.PATCH
    assert needed(OUT, old, {**old, "enum": ["a", "b", None], "type": ["string", "null"]}) is Bump.MAJOR


# Deliberately stricter than the instance oracle (docs/compatibility.md, "How sound it is").

OPEN = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}


def test_deliberate_a_removed_input_property_is_major_though_the_open_schema_still_accepts_it() -> None:
    head = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert rules(IN, OPEN, head) == ["TG422"]
    assert needed(IN, OPEN, head) is Bump.MAJOR


def test_deliberate_closing_an_input_object_is_major_in_both_modes() -> None:
    closed = {**OPEN, "additionalProperties": False}
    assert needed(IN, OPEN, closed) is Bump.MAJOR
    assert needed(IN, OPEN, closed, assume=Assume.STRICT) is Bump.MAJOR


def test_deliberate_a_pattern_change_is_major_even_when_it_loosens() -> None:
    old, new = {"type": "string", "pattern": "^[a-z]+$"}, {"type": "string", "pattern": "^[a-z0-9]+$"}
    assert rules(IN, old, new) == ["TG433"]
    assert needed(IN, old, new) is Bump.MAJOR and needed(OUT, new, old) is Bump.MAJOR
