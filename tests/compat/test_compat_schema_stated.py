"""Schema comparison stated one behaviour at a time: `$ref` resolution, the place a finding names.

`toolgen diff` gates CI on these findings: a rule code decides the bump, the message names the
property a reviewer looks at, the pointers say where it is in each version. Written against the
surviving mutants of `benchmarks/mutation.py compat-schema`.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.compat import ABSENT, Bump, Direction, diff_schema
from toolgen.compat.model import Change
from toolgen.compat.schema import MAX_DEPTH

IN, OUT = Direction.INPUT, Direction.OUTPUT


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


def diff(base: Any, head: Any, direction: Direction = IN) -> list[Change]:
    return diff_schema(direction, base, head, "/input_schema", "/input_schema")


def brief(changes: list[Change]) -> list[tuple[str, Bump, str, str | None, str | None]]:
    return [(c.rule, c.bump, c.message, c.base_pointer, c.head_pointer) for c in changes]


# --- `$ref` into arrays, and `$ref`s that name nothing -------------------------------------------


def test_a_ref_to_an_array_element_is_followed() -> None:
    """`#/$defs/pair/1` names the second schema of a list: a change there is found and located (both
    sides are inside `$defs`, so the message names the definition)."""
    base = obj({"x": {"$ref": "#/$defs/pair/1"}}, **{"$defs": {"pair": [{"type": "string"}, {"type": "integer"}]}})
    head = obj({"x": {"$ref": "#/$defs/pair/1"}}, **{"$defs": {"pair": [{"type": "string"}, {"type": "number"}]}})
    assert brief(diff(base, head)) == [
        ("TG425", Bump.MINOR, "`pair`: type widened",
         "/input_schema/$defs/pair/1/type", "/input_schema/$defs/pair/1/type"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("ref", "defs"),
    [
        ("#/$defs/pair/2", {"pair": [{"type": "string"}, {"type": "integer"}]}),  # one past the end
        ("#/$defs/pair/first", {"pair": [{"type": "string"}]}),  # not an index
        ("#/$defs/word/0", {"word": "text"}),  # a string is not a list of schemas
    ],
    ids=["past-the-end", "not-an-index", "into-a-string"],
)
def test_a_ref_that_names_no_schema_is_unresolvable(ref: str, defs: dict[str, Any]) -> None:
    """TG442 (fail closed, with the fix 'make every $ref point inside'), not a crash reported as TG441."""
    base = obj({"x": {"type": "string"}})
    head = obj({"x": {"$ref": ref}}, **{"$defs": defs})
    assert brief(diff(base, head)) == [
        ("TG442", Bump.MAJOR, "`x`: a $ref could not be resolved, so this part cannot be compared",
         "/input_schema/properties/x", "/input_schema/properties/x"),
    ]  # fmt: skip


# --- a `$ref` with sibling keywords ---------------------------------------------------------------


def test_a_ref_to_false_with_a_sibling_still_accepts_nothing() -> None:
    """An output property that could hold no value now holds strings: callers get values they never
    handled (major for output), not a narrowed type (minor)."""
    never = {"$defs": {"never": False}}
    base = obj({"x": {"$ref": "#/$defs/never", "description": "Unused."}}, **never)
    head = obj({"x": {"type": "string", "description": "Unused."}}, **never)
    assert brief(diff(base, head, OUT)) == [
        ("TG431", Bump.MAJOR, "`x`: schema accepted no value, now accepts some",
         "/input_schema/$defs/never", "/input_schema/properties/x"),
    ]  # fmt: skip


def test_a_ref_to_true_with_sibling_constraints_is_the_siblings() -> None:
    """`{"$ref": <true>, "type": "string"}` accepts strings only: inlining it is no change."""
    anything = {"$defs": {"anything": True}}
    base = obj({"x": {"$ref": "#/$defs/anything", "type": "string"}}, **anything)
    head = obj({"x": {"type": "string"}}, **anything)
    assert diff(base, head) == []
    assert diff(head, base) == []


def test_a_sibling_annotation_over_the_targets_own_is_merged_not_combined() -> None:
    """A sibling `description` replaces the target's: no `allOf` appears, so inlining is no change."""
    base = obj({"x": {"type": "string", "description": "Here."}})
    head = obj({"x": {"$ref": "#/$defs/text", "description": "Here."}}, **{"$defs": {"text": {
        "type": "string", "description": "Any text."}}})  # fmt: skip
    assert diff(base, head) == []


# --- the property a finding names -----------------------------------------------------------------


def test_a_finding_names_the_property_path_rather_than_a_definition() -> None:
    """Inline `range.start` in the base, `span.start` in the head's `$defs`: the message names the
    property callers know, `range.start`, whichever sorts first."""
    start = {"start": {"type": "integer"}}
    base = obj({"range": obj(start)})
    head = obj({"range": {"$ref": "#/$defs/span"}}, **{"$defs": {"span": obj({"start": {"type": "number"}})}})
    assert brief(diff(base, head)) == [
        ("TG425", Bump.MINOR, "`range.start`: type widened",
         "/input_schema/properties/range/properties/start/type", "/input_schema/$defs/span/properties/start/type"),
    ]  # fmt: skip


def test_each_sides_pointer_prefix_is_stripped_from_its_own_pointers() -> None:
    """`diff_schema` takes a prefix per version; the property path is read after each side's own."""
    base = obj({"word": {"type": "string"}})
    head = obj({"word": {"type": "string", "maxLength": 3}})
    [change] = diff_schema(IN, base, head, "/input_schema", "/tools/0/input_schema")
    assert (change.message, change.base_pointer, change.head_pointer) == (
        "`word`: maxLength added",
        "/input_schema/properties/word",
        "/tools/0/input_schema/properties/word/maxLength",
    )
    [change] = diff_schema(IN, base, head, "/tools/0/input_schema", "/input_schema")
    assert change.message == "`word`: maxLength added"


def test_the_longer_path_is_read_with_each_sides_own_prefix() -> None:
    """`items` removed: the base place is inside `f[]`, the head's is `f` itself; each pointer is read
    after its own version's prefix, so the message still names `f[]`."""
    base = obj({"f": {"type": "array", "items": {"type": "string"}}})
    head = obj({"f": {"type": "array"}})
    [change] = diff_schema(IN, base, head, "/input_schema", "/tools/0/input_schema")
    assert (change.rule, change.message) == ("TG425", "`f[]`: type widened")
    assert (change.base_pointer, change.head_pointer) == (
        "/input_schema/properties/f/items/type",
        "/tools/0/input_schema/properties/f",
    )


# --- schemas toolgen cannot walk ------------------------------------------------------------------


def test_identical_schemas_are_no_change_even_when_they_cannot_be_walked() -> None:
    """A hand-edited base catalog kept as it was by the head: nothing changed, so nothing to report."""
    odd = {"type": "object", "properties": {"a": {"type": "string"}, "b": "not a schema"}, "required": 7}
    broken = {"properties": [1, "a"]}
    for schema in (odd, broken):
        assert diff(schema, dict(schema)) == []


def test_a_schema_that_cannot_be_walked_is_one_major_finding_with_both_versions() -> None:
    """Fail closed: TG441 at the schema's root, naming the error kind, with both whole schemas as values."""
    base = obj({"a": {"type": "string"}})
    head = {"type": "object", "properties": [1]}
    assert [(c.rule, c.bump, c.message, c.base_pointer, c.head_pointer, c.old, c.new) for c in diff(base, head)] == [
        ("TG441", Bump.MAJOR, "schema is malformed and cannot be compared (TypeError)",
         "/input_schema", "/input_schema", base, head),
    ]  # fmt: skip


# --- anyOf / oneOf / allOf ------------------------------------------------------------------------

S, N = {"type": "string"}, {"type": "integer"}


def full(changes: list[Change]) -> list[tuple[Any, ...]]:
    return [(c.rule, c.message, c.base_pointer, c.head_pointer, c.old, c.new) for c in changes]


def test_a_combinator_added_or_removed_says_which_with_its_branches() -> None:
    # Branches of one type: `anyOf: [string, integer]` would be the type list it spells (issue 30).
    short, prefixed = {"type": "string", "maxLength": 3}, {"type": "string", "pattern": "^a"}
    plain, either = obj({"x": {}}), obj({"x": {"anyOf": [short, prefixed]}})
    x = "/input_schema/properties/x"
    assert full(diff(plain, either)) == [("TG437", "`x`: anyOf added", x, f"{x}/anyOf", ABSENT, [short, prefixed])]
    assert full(diff(either, plain)) == [("TG436", "`x`: anyOf removed", f"{x}/anyOf", x, [short, prefixed], ABSENT)]


def test_an_any_of_only_one_version_uses_is_compared_as_the_type_list_it_spells() -> None:
    plain, either = obj({"x": {}}), obj({"x": {"anyOf": [S, N]}})
    x = "/input_schema/properties/x"
    assert full(diff(plain, either)) == [("TG426", "`x`: type narrowed", x, f"{x}/type", ABSENT, ["string", "integer"])]
    assert full(diff(either, plain)) == [("TG425", "`x`: type widened", f"{x}/type", x, ["string", "integer"], ABSENT)]


def test_branches_added_or_removed_are_named_with_both_lists() -> None:
    two, three = obj({"x": {"anyOf": [S, N]}}), obj({"x": {"anyOf": [S, N, {"type": "boolean"}]}})
    at = "/input_schema/properties/x/anyOf"
    assert full(diff(two, three)) == [
        ("TG436", "`x`: anyOf branches added", at, at, [S, N], three["properties"]["x"]["anyOf"])
    ]
    assert full(diff(three, two)) == [
        ("TG437", "`x`: anyOf branches removed", at, at, three["properties"]["x"]["anyOf"], [S, N])
    ]


def test_a_oneof_branch_that_changed_what_it_accepts_is_tg438_with_both_lists() -> None:
    base, head = obj({"x": {"oneOf": [S, N]}}), obj({"x": {"oneOf": [S, {"type": "number"}]}})
    at = "/input_schema/properties/x/oneOf"
    assert full(diff(base, head)) == [
        ("TG425", "`x.oneOf[1]`: type widened", f"{at}/1/type", f"{at}/1/type", "integer", "number"),
        ("TG438", "`x`: a oneOf branch changed: a value may now match two branches or none", at, at,
         [S, N], [S, {"type": "number"}]),
    ]  # fmt: skip


def test_a_oneof_branch_that_changed_only_its_documentation_is_not_tg438() -> None:
    """A patch-level change inside a branch cannot make a value match two branches; nor does a
    major change elsewhere in the schema count against the oneOf, before it in the walk (`a`, found
    first) or after it (`y`)."""
    base = obj({"a": S, "y": S, "x": {"oneOf": [S, N]}})
    head = obj({"x": {"oneOf": [S, {**N, "description": "A count."}]}})
    assert [(c.rule, c.message) for c in diff(base, head)] == [
        ("TG422", "property `a` removed"),
        ("TG440", "`x.oneOf[1]`: description changed"),
        ("TG422", "property `y` removed"),
    ]


def test_branches_are_located_in_each_version_when_the_combinator_moved() -> None:
    base = obj({"x": {"anyOf": [S, N]}})
    head = obj({"x": {"$ref": "#/$defs/x"}}, **{"$defs": {"x": {"anyOf": [S, {"type": "number"}]}}})
    assert [(c.rule, c.base_pointer, c.head_pointer) for c in diff(base, head)] == [
        ("TG425", "/input_schema/properties/x/anyOf/1/type", "/input_schema/$defs/x/anyOf/1/type"),
    ]


def _branches(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    for _ in range(depth):
        leaf = {"anyOf": [leaf]}
    return leaf


def test_each_branch_level_counts_once_toward_the_depth_limit() -> None:
    """Nested within the limit the real change is found; past it, TG442 (fail closed)."""
    shallow = diff(_branches(MAX_DEPTH - 4, S), _branches(MAX_DEPTH - 4, N))
    assert [c.rule for c in shallow] == ["TG427"]
    deep = diff(_branches(MAX_DEPTH + 4, S), _branches(MAX_DEPTH + 4, N))
    assert [c.rule for c in deep] == ["TG442"]
    assert deep[0].message.endswith(f"]`: schemas nest deeper than {MAX_DEPTH} levels")


# --- multipleOf -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [(0, 2), (2, 0), (-2, 4), (4, -2), (2, "two"), ("two", 2)])
def test_a_step_that_is_not_a_positive_number_cannot_be_compared(before: Any, after: Any) -> None:
    """Fail closed: TG433 (major), never 'loosened'/'tightened' by arithmetic on a step the schema forbids."""
    [change] = diff(obj({"n": {"multipleOf": before}}), obj({"n": {"multipleOf": after}}))
    assert (change.rule, change.bump, change.message) == (
        "TG433",
        Bump.MAJOR,
        "`n`: multipleOf changed to an unrelated step",
    )


# --- arrays ---------------------------------------------------------------------------------------


def arr(**keywords: Any) -> dict[str, Any]:
    return obj({"f": {"type": "array", **keywords}})


F = "/input_schema/properties/f"


def test_items_removed_accepts_any_item() -> None:
    """No `items` means any item (true), not no item: input loosened (minor), output widened (major)."""
    base, head = arr(items=S), arr()
    assert full(diff(base, head)) == [("TG425", "`f[]`: type widened", f"{F}/items/type", F, "string", ABSENT)]
    assert [c.bump for c in diff(base, head, OUT)] == [Bump.MAJOR]
    assert full(diff(head, base)) == [("TG426", "`f[]`: type narrowed", F, f"{F}/items/type", ABSENT, "string")]


def test_items_are_located_in_each_version_after_a_ref() -> None:
    base = arr(items=N)
    head = obj({"f": {"$ref": "#/$defs/list"}}, **{"$defs": {"list": {"type": "array", "items": {"type": "number"}}}})
    assert [(c.rule, c.base_pointer, c.head_pointer) for c in diff(base, head)] == [
        ("TG425", f"{F}/items/type", "/input_schema/$defs/list/items/type"),
    ]


def test_prefix_items_are_compared_position_by_position_in_each_version() -> None:
    base = arr(prefixItems=[S, N])
    head = obj({"f": {"$ref": "#/$defs/pair"}}, **{"$defs": {"pair": {"type": "array", "prefixItems": [
        S, {"type": "number"}]}}})  # fmt: skip
    assert full(diff(base, head)) == [
        ("TG425", "`f.prefixItems[1]`: type widened", f"{F}/prefixItems/1/type",
         "/input_schema/$defs/pair/prefixItems/1/type", "integer", "number"),
    ]  # fmt: skip


def test_prefix_items_of_another_length_cannot_be_compared() -> None:
    base, head = arr(prefixItems=[S]), arr(prefixItems=[S, N])
    assert full(diff(base, head)) == [
        ("TG441", "`f`: prefixItems changed length", f"{F}/prefixItems", f"{F}/prefixItems", [S], [S, N]),
    ]
    assert full(diff(arr(), head)) == [("TG441", "`f`: prefixItems changed length", F, f"{F}/prefixItems", [], [S, N])]


def test_each_items_level_counts_once_toward_the_depth_limit() -> None:
    def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = {"items": leaf}
        return leaf

    def tuples(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = {"prefixItems": [leaf]}
        return leaf

    for build in (nested, tuples):
        assert [c.rule for c in diff(build(MAX_DEPTH - 4, S), build(MAX_DEPTH - 4, N))] == ["TG427"]
        assert [c.rule for c in diff(build(MAX_DEPTH + 4, S), build(MAX_DEPTH + 4, N))] == ["TG442"]


# --- additionalProperties -------------------------------------------------------------------------


def test_additional_properties_opened_and_closed_are_stated_with_both_values() -> None:
    closed, opened = obj({}, additionalProperties=False), obj({}, additionalProperties=S)
    at = "/input_schema/additionalProperties"
    assert full(diff(closed, opened)) == [("TG434", "`{}`: additionalProperties no longer false", at, at, False, S)]
    assert full(diff(opened, closed)) == [("TG435", "`{}`: additionalProperties became false", at, at, S, False)]
    assert full(diff(obj({}), closed)) == [
        ("TG435", "`{}`: additionalProperties became false", "/input_schema", at, True, False),
    ]


def test_the_schema_of_additional_properties_is_compared_in_each_version() -> None:
    base = obj({"m": {"type": "object", "additionalProperties": N}})
    head = obj({"m": {"$ref": "#/$defs/map"}}, **{"$defs": {"map": {"type": "object", "additionalProperties": {
        "type": "number"}}}})  # fmt: skip
    assert full(diff(base, head)) == [
        ("TG425", "`m{}`: type widened", "/input_schema/properties/m/additionalProperties/type",
         "/input_schema/$defs/map/additionalProperties/type", "integer", "number"),
    ]  # fmt: skip


def test_each_additional_properties_level_counts_once_toward_the_depth_limit() -> None:
    def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = {"additionalProperties": leaf}
        return leaf

    assert [c.rule for c in diff(nested(MAX_DEPTH - 4, S), nested(MAX_DEPTH - 4, N))] == ["TG427"]
    assert [c.rule for c in diff(nested(MAX_DEPTH + 4, S), nested(MAX_DEPTH + 4, N))] == ["TG442"]


# --- numbers in bounds and steps ------------------------------------------------------------------


@pytest.mark.parametrize("before", [True, "5"], ids=["boolean", "numeric-string"])
def test_a_bound_that_is_not_a_number_cannot_be_compared(before: Any) -> None:
    """`true` and `"5"` are not numbers (JSON Schema compares no such bound): fail closed with TG441."""
    [change] = diff(obj({"s": {"maxLength": before}}), obj({"s": {"maxLength": 3}}))
    assert (change.rule, change.message) == ("TG441", "`s`: maxLength changed to a value toolgen cannot compare")


def test_decimal_steps_are_compared_as_written() -> None:
    """0.3 is a multiple of 0.1 as written, though not in binary floating point: tightened, not unknown."""
    [change] = diff(obj({"n": {"multipleOf": 0.1}}), obj({"n": {"multipleOf": 0.3}}))
    assert (change.rule, change.message) == ("TG432", "`n`: multipleOf tightened (a multiple of the old step)")


def test_a_longer_definition_name_does_not_hide_the_property() -> None:
    """`f` moved into `$defs/a_long_name`: the message still names `f`, not the definition."""
    base = obj({"f": {"type": "string"}})
    head = obj({"f": {"$ref": "#/$defs/a_long_name"}}, **{"$defs": {"a_long_name": {"type": "string", "maxLength": 2}}})
    [change] = diff(base, head)
    assert (change.message, change.head_pointer) == (
        "`f`: maxLength added",
        "/input_schema/$defs/a_long_name/maxLength",
    )


def test_a_branch_path_reads_from_the_root_and_goes_on_into_the_branch() -> None:
    """`anyOf[1]` for a branch of the schema itself; `x.anyOf[0].y` for a property inside a branch."""
    [change] = diff({"anyOf": [S, N]}, {"anyOf": [S, {"type": "number"}]})
    assert change.message == "`anyOf[1]`: type widened"
    base = obj({"x": {"anyOf": [obj({"y": S})]}})
    head = obj({"x": {"anyOf": [obj({"y": {"type": "string", "maxLength": 2}})]}})
    [change] = diff(base, head)
    assert change.message == "`x.anyOf[0].y`: maxLength added"


def test_additional_properties_false_dropped_is_opened() -> None:
    """No `additionalProperties` means any further property (true), stated as the new value."""
    at = "/input_schema/additionalProperties"
    closed = obj({}, additionalProperties=False)
    assert full(diff(closed, obj({}))) == [
        ("TG434", "`{}`: additionalProperties no longer false", at, "/input_schema", False, True),
    ]


# --- contains and not -----------------------------------------------------------------------------

ARRAY = {"type": "array"}


def test_contains_added_or_removed_is_stated_with_its_schema_and_both_places() -> None:
    """`contains` added narrows the arrays accepted (TG432), removed widens them (TG431)."""
    plain, holding = obj({"a": ARRAY}), obj({"a": {**ARRAY, "contains": S}})
    at, kept = "/input_schema/properties/a", "/input_schema/properties/a/contains"
    assert full(diff(plain, holding)) == [("TG432", "`a[?]`: contains added", at, kept, ABSENT, S)]
    assert full(diff(holding, plain)) == [("TG431", "`a[?]`: contains removed", kept, at, S, ABSENT)]


def test_the_schema_of_contains_is_compared_in_each_version() -> None:
    base = obj({"a": {**ARRAY, "contains": S}})
    head = obj({"a": {"$ref": "#/$defs/arr"}}, **{"$defs": {"arr": {**ARRAY, "contains": {**S, "maxLength": 2}}}})
    assert full(diff(base, head)) == [
        ("TG432", "`a[?]`: maxLength added", "/input_schema/properties/a/contains",
         "/input_schema/$defs/arr/contains/maxLength", ABSENT, 2),
    ]  # fmt: skip


def test_each_contains_level_counts_once_toward_the_depth_limit() -> None:
    def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = {"contains": leaf}
        return leaf

    assert [c.rule for c in diff(nested(MAX_DEPTH - 4, S), nested(MAX_DEPTH - 4, N))] == ["TG427"]
    assert [c.rule for c in diff(nested(MAX_DEPTH + 4, S), nested(MAX_DEPTH + 4, N))] == ["TG442"]


def test_not_added_removed_or_changed_is_tg438_with_both_values_and_places() -> None:
    plain, negated = obj({"a": S}), obj({"a": {**S, "not": {"const": ""}}})
    at, kept = "/input_schema/properties/a", "/input_schema/properties/a/not"
    assert full(diff(plain, negated)) == [("TG438", "`a!`: not changed", at, kept, ABSENT, {"const": ""})]
    assert full(diff(negated, plain)) == [("TG438", "`a!`: not changed", kept, at, {"const": ""}, ABSENT)]
    head = obj({"a": {"$ref": "#/$defs/w"}}, **{"$defs": {"w": {**S, "not": {"const": "x"}}}})
    assert full(diff(negated, head)) == [
        ("TG438", "`a!`: not changed", kept, "/input_schema/$defs/w/not", {"const": ""}, {"const": "x"}),
    ]


def test_the_same_not_written_in_another_key_order_is_no_change() -> None:
    base = obj({"a": {**S, "not": {"const": "", "description": "d"}}})
    head = obj({"a": {**S, "not": {"description": "d", "const": ""}}, "b": S})
    assert [c.rule for c in diff(base, head)] == ["TG420"]


def test_a_property_moved_into_definitions_is_still_named_by_its_property() -> None:
    """`definitions` (draft 7) is a definitions section like `$defs`: the message names `x`."""
    base = obj({"x": S})
    head = obj({"x": {"$ref": "#/definitions/a_long_name"}}, definitions={"a_long_name": {**S, "maxLength": 2}})
    assert full(diff(base, head)) == [
        ("TG432", "`x`: maxLength added", "/input_schema/properties/x",
         "/input_schema/definitions/a_long_name/maxLength", ABSENT, 2),
    ]  # fmt: skip


def test_with_both_sides_inside_defs_the_base_definition_is_named() -> None:
    base = obj({"x": {"$ref": "#/$defs/a"}}, **{"$defs": {"a": S}})
    head = obj({"x": {"$ref": "#/$defs/bb"}}, **{"$defs": {"bb": {**S, "maxLength": 2}}})
    [change] = diff(base, head)
    assert (change.message, change.base_pointer, change.head_pointer) == (
        "`a`: maxLength added", "/input_schema/$defs/a", "/input_schema/$defs/bb/maxLength",
    )  # fmt: skip


def test_when_both_paths_are_properties_the_longer_one_is_named() -> None:
    """`z` became a `$ref` to property `alpha`, which gained a bound: the two places are `z` (base)
    and `alpha` (head), neither inside `$defs`. The longer path is named (the more specific place),
    not the one that sorts last."""
    base = obj({"z": S, "alpha": S})
    head = obj({"z": {"$ref": "#/properties/alpha"}, "alpha": {**S, "maxLength": 2}})
    at = "/input_schema/properties"
    assert full(diff(base, head)) == [
        ("TG432", "`alpha`: maxLength added", f"{at}/alpha", f"{at}/alpha/maxLength", ABSENT, 2),
        ("TG432", "`alpha`: maxLength added", f"{at}/z", f"{at}/alpha/maxLength", ABSENT, 2),
    ]


def test_when_both_paths_are_as_long_the_base_one_is_named() -> None:
    """`a` became a `$ref` to property `b`: equal lengths name the base version's place, `a`."""
    base = obj({"a": S, "b": S})
    head = obj({"a": {"$ref": "#/properties/b"}, "b": {**S, "maxLength": 2}})
    at = "/input_schema/properties"
    assert [(c.message, c.base_pointer) for c in diff(base, head)] == [
        ("`a`: maxLength added", f"{at}/a"),
        ("`b`: maxLength added", f"{at}/b"),
    ]


# --- what cannot be compared, said with both values -----------------------------------------------

GONE = {"$ref": "#/$defs/gone"}


def test_an_unresolvable_ref_is_tg442_with_both_schemas_as_written() -> None:
    x = "/input_schema/properties/x"
    assert full(diff(obj({"x": GONE}), obj({"x": S}))) == [
        ("TG442", "`x`: a $ref could not be resolved, so this part cannot be compared", x, x, GONE, S),
    ]
    assert full(diff(obj({"x": S}), obj({"x": GONE}))) == [
        ("TG442", "`x`: a $ref could not be resolved, so this part cannot be compared", x, x, S, GONE),
    ]


def test_the_same_unresolvable_ref_in_both_versions_is_no_change() -> None:
    """Only what differs is reported: `x` is the same (unresolvable) `$ref` on both sides."""
    assert [c.message for c in diff(obj({"x": GONE, "y": S}), obj({"x": GONE, "y": N}))] == ["`y`: type changed"]


def test_a_ref_that_is_not_a_string_is_unresolvable_at_its_place() -> None:
    """`{"$ref": 5}` is TG442 where it is, not a crash that makes the whole schema malformed (TG441)."""
    x = "/input_schema/properties/x"
    assert full(diff(obj({"x": {"$ref": 5}}), obj({"x": S}))) == [
        ("TG442", "`x`: a $ref could not be resolved, so this part cannot be compared", x, x, {"$ref": 5}, S),
    ]


def test_nesting_of_exactly_max_depth_levels_is_still_compared() -> None:
    def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = {"contains": leaf}
        return leaf

    assert [c.rule for c in diff(nested(MAX_DEPTH, S), nested(MAX_DEPTH, N))] == ["TG427"]
    [change] = diff(nested(MAX_DEPTH + 1, S), nested(MAX_DEPTH + 1, N))
    at = "/input_schema" + "/contains" * (MAX_DEPTH + 1)
    message = f"`{'[?]' * (MAX_DEPTH + 1)}`: schemas nest deeper than {MAX_DEPTH} levels"
    assert full([change]) == [("TG442", message, at, at, ABSENT, ABSENT)]


def test_a_definition_shared_by_two_properties_is_compared_once() -> None:
    """`x` and `y` both use `$defs/t`: its change is one finding (named by the definition), not two."""
    shared = {"x": {"$ref": "#/$defs/t"}, "y": {"$ref": "#/$defs/t"}}
    base, head = obj(shared, **{"$defs": {"t": S}}), obj(shared, **{"$defs": {"t": {**S, "maxLength": 2}}})
    assert [(c.message, c.head_pointer) for c in diff(base, head)] == [
        ("`t`: maxLength added", "/input_schema/$defs/t/maxLength"),
    ]


def test_a_schema_that_became_false_or_true_says_which_with_both_values() -> None:
    x = "/input_schema/properties/x"
    assert full(diff(obj({"x": S}), obj({"x": False}))) == [
        ("TG432", "`x`: schema now accepts no value", x, x, S, False)
    ]
    assert full(diff(obj({"x": False}), obj({"x": S}))) == [
        ("TG431", "`x`: schema accepted no value, now accepts some", x, x, False, S),
    ]


def test_a_schema_that_is_not_an_object_is_tg441_at_its_place_with_both_values() -> None:
    """Fail closed where it is (the rest is still compared), whichever side holds the odd value."""
    x = "/input_schema/properties/x"
    message = "`x`: schema is not an object or boolean"
    assert full(diff(obj({"x": S}), obj({"x": 5}))) == [("TG441", message, x, x, S, 5)]
    assert full(diff(obj({"x": 5}), obj({"x": S}))) == [("TG441", message, x, x, 5, S)]
    assert full(diff(obj({"x": "a", "y": S}), obj({"x": "b", "y": S}))) == [("TG441", message, x, x, "a", "b")]
    assert [c.message for c in diff(obj({"x": "a", "y": S}), obj({"x": "a", "y": N}))] == ["`y`: type changed"]


# --- properties, required names and the keywords no rule covers, each side read with its prefix -----

OBJ = {"type": "object"}
B, H = "/input_schema", "/tools/0/input_schema"


@pytest.mark.parametrize(
    ("base", "head", "expected"),
    [
        (obj({"a": S}), obj({"a": S, "b": S}),
         ("TG420", "optional property `b` added", B, f"{H}/properties/b", ABSENT, S)),
        (obj({"a": S}), obj({"a": S, "b": S}, required=["b"]),
         ("TG421", "required property `b` added", B, f"{H}/properties/b", ABSENT, S)),
        (obj({"a": S, "b": S}), obj({"a": S}), ("TG422", "property `b` removed", f"{B}/properties/b", H, S, ABSENT)),
        ({**OBJ, "required": ["z"]}, OBJ,
         ("TG424", "property `z` became optional", f"{B}/required", H, "required", "optional")),
        (OBJ, {**OBJ, "required": ["z"]},
         ("TG423", "property `z` became required", B, f"{H}/required", "optional", "required")),
        (obj({"p": {**OBJ, "required": ["z"]}}), obj({"p": OBJ}),
         ("TG424", "property `p.z` became optional", f"{B}/properties/p/required", f"{H}/properties/p", "required",
          "optional")),
        ({**S, "default": "a"}, S, ("TG439", "default changed", f"{B}/default", H, "a", ABSENT)),
        (S, {**S, "default": "a"}, ("TG439", "default changed", B, f"{H}/default", ABSENT, "a")),
        ({**S, "default": "a"}, {**S, "default": "b"},
         ("TG439", "default changed", f"{B}/default", f"{H}/default", "a", "b")),
        ({**S, "description": "D", "maxLength": 3, "title": "A"},
         {**S, "description": "D", "maxLength": 3, "title": "B"},
         ("TG440", "title changed", f"{B}/title", f"{H}/title", "A", "B")),
        ({**S, "x-note": 1}, S, ("TG440", "x-note changed", f"{B}/x-note", H, 1, ABSENT)),
        ({**S, "dependentRequired": {"a": ["b"]}}, S,
         ("TG441", "dependentRequired changed, and no rule proves the change safe", f"{B}/dependentRequired", H,
          {"a": ["b"]}, ABSENT)),
    ],
    ids=["optional-added", "required-added", "removed", "required-name-dropped", "required-name-added",
         "nested-required-name", "default-removed", "default-added", "default-changed",
         "title-after-unchanged-keywords", "annotation-removed", "unknown-keyword-removed"],
)  # fmt: skip
def test_each_finding_names_its_property_with_both_values_and_both_places(
    base: dict[str, Any], head: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    """The head's pointers start at another prefix (a catalog whose tool moved): each pointer and each
    property path is read after its own version's prefix."""
    assert full(diff_schema(IN, base, head, B, H)) == [expected]


def test_properties_nested_max_depth_levels_deep_are_still_compared() -> None:
    def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
        for _ in range(depth):
            leaf = obj({"a": leaf})
        return leaf

    assert [c.rule for c in diff(nested(MAX_DEPTH, S), nested(MAX_DEPTH, N))] == ["TG427"]
    assert [c.rule for c in diff(nested(MAX_DEPTH + 1, S), nested(MAX_DEPTH + 1, N))] == ["TG442"]
