"""The keyword comparisons whose verdict `toolgen diff` gates on, stated: `const` with `enum` as one set
of values, decimal steps of `multipleOf`, and the subtree of a changed type that still overlaps. Written
against the surviving mutants of `benchmarks/mutation.py compat-schema` (`toolgen/compat/keywords.py`).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.compat.test_compat_schema_stated import brief, diff, obj
from toolgen.compat import ABSENT, Bump

X = "/input_schema/properties/x"


def x(schema: dict[str, Any]) -> dict[str, Any]:
    return obj({"x": schema})


def test_const_inside_its_enum_allows_just_the_const() -> None:
    """`{"const": "a", "enum": ["a", "b"]}` allows "a" only: dropping the enum changes nothing."""
    assert diff(x({"const": "a", "enum": ["a", "b"]}), x({"const": "a"})) == []
    assert diff(x({"const": "a"}), x({"const": "a", "enum": ["a", "b"]})) == []


def test_const_outside_its_enum_allows_nothing() -> None:
    """`{"const": "c", "enum": ["a"]}` accepts no value: dropping the enum lets "c" in (a value added)."""
    assert brief(diff(x({"const": "c", "enum": ["a"]}), x({"const": "c"}))) == [
        ("TG428", Bump.MINOR, '`x`: const values added: "c"', f"{X}/const", f"{X}/const"),
    ]


def test_a_decimal_step_is_compared_as_written() -> None:
    """0.1 -> 0.3 is a multiple of the old step (tightened), although 0.3 / 0.1 is not 3 in binary floats."""
    assert brief(diff(x({"type": "number", "multipleOf": 0.1}), x({"type": "number", "multipleOf": 0.3}))) == [
        ("TG432", Bump.MAJOR, "`x`: multipleOf tightened (a multiple of the old step)",
         f"{X}/multipleOf", f"{X}/multipleOf"),
    ]  # fmt: skip
    assert (
        diff(x({"type": "number", "multipleOf": 0.3}), x({"type": "number", "multipleOf": 0.1}))[0].rule == "TG431"
    )  # loosened


def test_a_changed_type_that_still_overlaps_is_compared_below() -> None:
    """Either side's types may hold the shared one (integer is in number): the new minimum is reported."""
    for old, new in ((["integer", "string"], ["number", "boolean"]), (["number", "string"], ["integer", "boolean"])):
        assert brief(diff(x({"type": old}), x({"type": new, "minimum": 1}))) == [
            ("TG427", Bump.MAJOR, "`x`: type changed", f"{X}/type", f"{X}/type"),
            ("TG432", Bump.MAJOR, "`x`: minimum added", X, f"{X}/minimum"),
        ]


def test_a_changed_type_without_overlap_is_not_compared_below() -> None:
    assert brief(diff(x({"type": "string"}), x({"type": "integer", "minimum": 1}))) == [
        ("TG427", Bump.MAJOR, "`x`: type changed", f"{X}/type", f"{X}/type"),
    ]


INT, NUM, STR, ARR = {"type": "integer"}, {"type": "number"}, {"type": "string"}, {"type": "array"}


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (INT, {**INT, "maximum": 5}, ("TG432", "maximum added", ABSENT, 5, f"{X}/maximum")),
        ({**INT, "maximum": 5}, INT, ("TG431", "maximum removed", 5, ABSENT, X)),
        ({**INT, "maximum": 5}, {**INT, "maximum": "6"},
         ("TG441", "maximum changed to a value toolgen cannot compare", 5, "6", f"{X}/maximum")),
        ({**INT, "maximum": 5}, {**INT, "maximum": 6}, ("TG431", "maximum loosened", 5, 6, f"{X}/maximum")),
        ({**INT, "minimum": 5}, {**INT, "minimum": 6}, ("TG432", "minimum tightened", 5, 6, f"{X}/minimum")),
        (NUM, {**NUM, "multipleOf": 2}, ("TG432", "multipleOf added", ABSENT, 2, f"{X}/multipleOf")),
        ({**NUM, "multipleOf": 2}, NUM, ("TG431", "multipleOf removed", 2, ABSENT, X)),
        ({**NUM, "multipleOf": 4}, {**NUM, "multipleOf": 2},
         ("TG431", "multipleOf loosened (the new step divides the old)", 4, 2, f"{X}/multipleOf")),
        (STR, {**STR, "enum": ["a", "b"]},
         ("TG429", "enum added: only these values are allowed", ABSENT, ["a", "b"], f"{X}/enum")),
        ({**STR, "enum": ["a"]}, STR, ("TG428", "enum removed", ["a"], ABSENT, X)),
        ({**STR, "const": "a"}, STR, ("TG428", "const removed", ["a"], ABSENT, X)),
        ({**STR, "enum": ["a", "b"]}, {**STR, "const": "a"},
         ("TG429", 'const values removed: "b"', ["a", "b"], ["a"], f"{X}/const")),
        ({**STR, "const": "a"}, {**STR, "enum": ["b"]},
         ("TG430", 'enum values added: "b"; enum values removed: "a"', ["a"], ["b"], f"{X}/enum")),
        ({**STR, "enum": ["a", "b"]}, {**STR, "enum": ["c", "d"]},
         ("TG430", 'enum values added: "c", "d"; enum values removed: "a", "b"', ["a", "b"], ["c", "d"], f"{X}/enum")),
        (STR, INT, ("TG427", "type changed", "string", "integer", f"{X}/type")),
        (STR, {**STR, "pattern": "^a"}, ("TG432", "pattern added", ABSENT, "^a", f"{X}/pattern")),
        ({**STR, "pattern": "^a"}, {**STR, "pattern": "^b"}, ("TG433", "pattern changed", "^a", "^b", f"{X}/pattern")),
        ({**STR, "format": "date"}, STR, ("TG431", "format removed", "date", ABSENT, X)),
        (ARR, {**ARR, "uniqueItems": True}, ("TG432", "uniqueItems added", ABSENT, True, f"{X}/uniqueItems")),
        ({**ARR, "uniqueItems": True}, ARR, ("TG431", "uniqueItems removed", True, ABSENT, X)),
        ({**ARR, "uniqueItems": False}, {**ARR, "uniqueItems": True},
         ("TG432", "uniqueItems added", ABSENT, True, f"{X}/uniqueItems")),
        ({**ARR, "uniqueItems": True}, {**ARR, "uniqueItems": False},
         ("TG431", "uniqueItems removed", True, ABSENT, f"{X}/uniqueItems")),
    ],
)  # fmt: skip
def test_each_finding_says_what_changed_with_both_values(old: Any, new: Any, expected: tuple[Any, ...]) -> None:
    """The rule, the message, the old and new values (`was`/`now` in the report) and where in the head."""
    rule, message, before, after, where = expected
    found = [(c.rule, c.message, c.old, c.new, c.head_pointer) for c in diff(x(old), x(new))]
    assert found == [(rule, f"`x`: {message}", before, after, where)]


def test_unique_items_false_is_no_constraint() -> None:
    """`uniqueItems: false` allows what no `uniqueItems` allows: writing or dropping it is no change."""
    for old, new in ((ARR, {**ARR, "uniqueItems": False}), ({**ARR, "uniqueItems": False}, ARR)):
        assert diff(x(old), x(new)) == []


def test_enum_values_are_named_as_compact_json_with_their_own_characters() -> None:
    """The message lists each value once, as compact JSON, in one order, not ASCII-escaped."""
    [change] = diff(x({**STR, "enum": ["a"]}), x({**STR, "enum": ["a", "é", [1, 2], {"k": 1}]}))
    assert (change.rule, change.message) == ("TG428", '`x`: enum values added: "é", [1,2], {"k":1}')
