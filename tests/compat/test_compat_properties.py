"""Property tests of `toolgen diff` (hypothesis): the invariants the decision table must keep.

- `diff(a, a)` is empty, also after a round trip through `catalog.json`;
- moving every property schema into `$defs` behind a `$ref` is no change;
- adding an optional input property never needs more than minor;
- removing a required output property always needs major;
- the needed bump never decreases when a second, independent change is added.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen.catalog import Contract, build_catalog, catalog_from_json, contract_from_document
from toolgen.compat import Bump, Direction, diff_catalogs, diff_contract, diff_schema, needed_bump
from toolgen.compat.schema import SchemaDiff

NAMES = st.sampled_from(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"])

_STRING = st.fixed_dictionaries(
    {"type": st.just("string")},
    optional={
        "minLength": st.integers(0, 3),
        "maxLength": st.integers(4, 9),
        "pattern": st.sampled_from(["^a", "b$", "[0-9]"]),
        "format": st.sampled_from(["uri", "email"]),
        "enum": st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=3, unique=True),
        "description": st.sampled_from(["A value.", "Another value."]),
    },
)
_NUMBER = st.fixed_dictionaries(
    {"type": st.sampled_from(["integer", "number", ["integer", "null"]])},
    optional={"minimum": st.integers(-5, 0), "maximum": st.integers(1, 9), "multipleOf": st.sampled_from([1, 2, 4])},
)
_LEAF = st.one_of(_STRING, _NUMBER, st.just({"type": "boolean"}), st.just({"type": ["string", "null"]}))


def _object(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(NAMES, children, max_size=4))
        required = sorted(draw(st.sets(st.sampled_from(sorted(props)))) if props else set())
        schema: dict[str, Any] = {"type": "object", "properties": props, "required": required}
        if draw(st.booleans()):
            schema["additionalProperties"] = draw(st.booleans())
        return schema

    return build()


def _array(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    required = {"type": st.just("array"), "items": children}
    return st.fixed_dictionaries(required, optional={"minItems": st.integers(0, 2)})


def _combined(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    keyword = st.sampled_from(["anyOf", "oneOf", "allOf"])
    return st.builds(lambda k, xs: {k: xs}, keyword, st.lists(children, min_size=1, max_size=3))


SUBSCHEMAS = st.recursive(
    _LEAF, lambda children: st.one_of(_object(children), _array(children), _combined(children)), max_leaves=8
)
ROOTS = _object(SUBSCHEMAS)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _contract(input_schema: Any, output_schema: Any, version: str = "1.0.0") -> Contract:
    return contract_from_document(
        {
            "name": "tool",
            "version": version,
            "description": "A generated tool.",
            "permissions": ["read"],
            "input_schema": input_schema,
            "output_schema": output_schema,
        },
        "contracts/tool.json",
    )


def _needed(direction: Direction, base: Any, head: Any) -> Bump:
    return needed_bump(tuple(diff_schema(direction, base, head, "", "")))


@FAST
@given(ROOTS, ROOTS)
def test_diff_of_a_contract_with_itself_is_empty(input_schema: Any, output_schema: Any) -> None:
    contract = _contract(input_schema, output_schema)
    assert diff_contract(contract, contract) == ()
    for direction, schema in ((Direction.INPUT, input_schema), (Direction.OUTPUT, output_schema)):
        assert SchemaDiff(direction, schema, copy.deepcopy(schema), "", "").run() == []  # the full walk
    catalog = build_catalog([contract])
    reread = catalog_from_json(json.loads(json.dumps(catalog.to_json())))
    report = diff_catalogs(reread, catalog)
    assert report.compatible
    assert all(not t.changes for t in report.tools)


def _to_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Every root property schema moved into `$defs` and replaced by a `$ref` (a pure restructure)."""
    moved = copy.deepcopy(schema)
    defs = {f"d_{name}": sub for name, sub in moved["properties"].items()}
    moved["properties"] = {name: {"$ref": f"#/$defs/d_{name}"} for name in moved["properties"]}
    moved["$defs"] = defs
    return moved


@FAST
@given(ROOTS)
def test_moving_schemas_into_defs_is_no_change(schema: dict[str, Any]) -> None:
    for direction in (Direction.INPUT, Direction.OUTPUT):
        assert diff_schema(direction, schema, _to_defs(schema), "", "") == []
        assert diff_schema(direction, _to_defs(schema), schema, "", "") == []


@FAST
@given(ROOTS, SUBSCHEMAS, st.text("qrstuvwxyz", min_size=1, max_size=6))
def test_adding_an_optional_input_property_never_needs_more_than_minor(
    schema: dict[str, Any], added: Any, name: str
) -> None:
    head = copy.deepcopy(schema)
    head["properties"][f"new_{name}"] = copy.deepcopy(added)
    assert _needed(Direction.INPUT, schema, head) <= Bump.MINOR
    for sub in [s for s in head["properties"].values() if s.get("type") == "object"][:1]:
        sub["properties"][f"nested_{name}"] = copy.deepcopy(added)
        assert _needed(Direction.INPUT, schema, head) <= Bump.MINOR


@FAST
@given(ROOTS, st.data())
def test_removing_a_required_output_property_always_needs_major(schema: dict[str, Any], data: st.DataObject) -> None:
    if not schema["required"]:
        schema["properties"]["must"] = {"type": "string"}
        schema["required"] = ["must"]
    name = data.draw(st.sampled_from(schema["required"]))
    head = copy.deepcopy(schema)
    del head["properties"][name]
    head["required"].remove(name)
    assert _needed(Direction.OUTPUT, schema, head) == Bump.MAJOR


Mutation = Callable[[dict[str, Any], str], None]


def _remove(schema: dict[str, Any], name: str) -> None:
    del schema["properties"][name]
    if name in schema["required"]:
        schema["required"].remove(name)


def _toggle_required(schema: dict[str, Any], name: str) -> None:
    if name in schema["required"]:
        schema["required"].remove(name)
    else:
        schema["required"].append(name)


def _retype(schema: dict[str, Any], name: str) -> None:
    schema["properties"][name] = {"type": "number"} if schema["properties"][name].get("type") != "number" else {}


def _describe(schema: dict[str, Any], name: str) -> None:
    schema["properties"][name] = {**schema["properties"][name], "description": "Changed text."}


def _bound(schema: dict[str, Any], name: str) -> None:
    schema["properties"][name] = {**schema["properties"][name], "maxLength": 2}


def _enum(schema: dict[str, Any], name: str) -> None:
    schema["properties"][name] = {**schema["properties"][name], "enum": ["x", "y"]}


def _add_sibling(schema: dict[str, Any], name: str) -> None:
    schema["properties"][f"{name}_extra"] = {"type": "string"}


MUTATIONS: list[Mutation] = [_remove, _toggle_required, _retype, _describe, _bound, _enum, _add_sibling]


@FAST
@given(
    ROOTS,
    st.sampled_from(MUTATIONS),
    st.sampled_from(MUTATIONS),
    st.sampled_from([Direction.INPUT, Direction.OUTPUT]),
    st.data(),
)
def test_the_needed_bump_never_decreases_when_a_second_change_is_added(
    schema: dict[str, Any], first: Mutation, second: Mutation, direction: Direction, data: st.DataObject
) -> None:
    schema["properties"].setdefault("one", {"type": "string"})
    schema["properties"].setdefault("two", {"type": "integer"})
    names = data.draw(st.permutations(sorted(schema["properties"])))
    once = copy.deepcopy(schema)
    first(once, names[0])
    twice = copy.deepcopy(once)
    second(twice, names[1])
    assert _needed(direction, schema, twice) >= _needed(direction, schema, once)
