"""The keyword comparisons whose verdict `toolgen diff` gates on, stated: `const` with `enum` as one set
of values, decimal steps of `multipleOf`, and the subtree of a changed type that still overlaps. Written
against the surviving mutants of `benchmarks/mutation.py compat-schema` (`toolgen/compat/keywords.py`).
"""

from __future__ import annotations

from typing import Any

from tests.compat.test_compat_schema_stated import brief, diff, obj
from toolgen.compat import Bump

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
