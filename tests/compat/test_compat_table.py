"""The decision table of `toolgen diff`, one test per cell, parametrized from the single CELLS table.

Each schema row is checked in both directions (input: what callers send; output: what callers
receive) against the bump written literally here, so a change to `toolgen/compat/table.py` must be
made here and in docs/compatibility.md too (a test below compares the docs with the code).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import REPO
from toolgen.catalog import Contract, build_catalog, contract_from_document
from toolgen.compat import DECISIONS, Bump, Direction, Status, diff_catalogs, diff_contract, diff_tool, needed_bump

P, MI, MA, NO = Bump.PATCH, Bump.MINOR, Bump.MAJOR, Bump.NONE


def obj(props: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """An object schema."""
    return {"type": "object", "properties": props, "required": list(required), **extra}


def prop(schema: Any) -> dict[str, Any]:
    """A root object with one optional property `p`."""
    return obj({"p": schema})


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 (a schema, not a number)


def make(**overrides: Any) -> Contract:
    """A contract with a plain input and output schema; `overrides` replace top-level keys."""
    data: dict[str, Any] = {
        "name": "tool",
        "version": "1.0.0",
        "description": "A tool used by the compatibility tests.",
        "permissions": ["read"],
        "input_schema": obj({"a": S}),
        "output_schema": obj({"a": S}),
        "errors": [{"code": "BUSY", "description": "Busy.", "retryable": True}],
    }
    data.update(overrides)
    return contract_from_document(data, "contracts/tool.json")


# (case id, rule, base schema, head schema, bump as input, bump as output)
SCHEMA_CELLS: list[tuple[str, str, Any, Any, Bump, Bump]] = [
    ("optional property added", "TG420", obj({"a": S}), obj({"a": S, "b": S}), MI, MI),
    ("optional property added to open object", "TG420", {"type": "object"}, prop(S), MI, MI),
    ("required property added", "TG421", obj({"a": S}), obj({"a": S, "b": S}, ("b",)), MA, MI),
    ("optional property removed", "TG422", obj({"a": S, "b": S}), obj({"a": S}), MA, MA),
    ("required property removed", "TG422", obj({"a": S, "b": S}, ("b",)), obj({"a": S}), MA, MA),
    ("optional became required", "TG423", obj({"a": S}), obj({"a": S}, ("a",)), MA, MI),
    ("required became optional", "TG424", obj({"a": S}, ("a",)), obj({"a": S}), MI, MA),
    ("required name without schema added", "TG423", obj({}), obj({}, ("z",)), MA, MI),
    ("integer to number", "TG425", prop(I), prop({"type": "number"}), MI, MA),
    ("string to string-or-null", "TG425", prop(S), prop({"type": ["string", "null"]}), MI, MA),
    ("type removed", "TG425", prop(S), prop({}), MI, MA),
    ("number to integer", "TG426", prop({"type": "number"}), prop(I), MA, MI),
    ("null dropped from type list", "TG426", prop({"type": ["string", "null"]}), prop(S), MA, MI),
    ("type added", "TG426", prop({}), prop(S), MA, MI),
    ("string to integer", "TG427", prop(S), prop(I), MA, MA),
    ("type list swapped", "TG427", prop({"type": ["string", "null"]}), prop({"type": ["string", "integer"]}), MA, MA),
    ("enum value added", "TG428", prop({"enum": ["a"]}), prop({"enum": ["a", "b"]}), MI, MA),
    ("enum removed", "TG428", prop({"enum": ["a"]}), prop({}), MI, MA),
    ("const became enum", "TG428", prop({"const": "a"}), prop({"enum": ["a", "b"]}), MI, MA),
    ("enum value removed", "TG429", prop({"enum": ["a", "b"]}), prop({"enum": ["a"]}), MA, MI),
    ("enum added", "TG429", prop(S), prop({**S, "enum": ["a"]}), MA, MI),
    ("const added", "TG429", prop(S), prop({**S, "const": "a"}), MA, MI),
    ("enum values swapped", "TG430", prop({"enum": ["a", "b"]}), prop({"enum": ["a", "c"]}), MA, MA),
    ("multipleOf added", "TG432", prop({"multipleOf": 2}), prop({"multipleOf": 4}), MA, MI),
    ("multipleOf to divisor", "TG431", prop({"multipleOf": 4}), prop({"multipleOf": 2}), MI, MA),
    ("multipleOf first set", "TG432", prop(I), prop({**I, "multipleOf": 3}), MA, MI),
    ("multipleOf removed", "TG431", prop({**I, "multipleOf": 3}), prop(I), MI, MA),
    ("multipleOf unrelated", "TG433", prop({"multipleOf": 2}), prop({"multipleOf": 3}), MA, MA),
    ("multipleOf fractional divisor", "TG431", prop({"multipleOf": 0.5}), prop({"multipleOf": 0.25}), MI, MA),
    ("pattern added", "TG432", prop(S), prop({**S, "pattern": "^a"}), MA, MI),
    ("pattern removed", "TG431", prop({**S, "pattern": "^a"}), prop(S), MI, MA),
    ("pattern changed", "TG433", prop({**S, "pattern": "^a"}), prop({**S, "pattern": "^b"}), MA, MA),
    ("format added", "TG432", prop(S), prop({**S, "format": "uri"}), MA, MI),
    ("format removed", "TG431", prop({**S, "format": "uri"}), prop(S), MI, MA),
    ("format changed", "TG433", prop({**S, "format": "uri"}), prop({**S, "format": "email"}), MA, MA),
    ("uniqueItems added", "TG432", prop({"type": "array"}), prop({"type": "array", "uniqueItems": True}), MA, MI),
    ("uniqueItems removed", "TG431", prop({"type": "array", "uniqueItems": True}), prop({"type": "array"}), MI, MA),
    ("additionalProperties false to true", "TG434", obj({}, additionalProperties=False), obj({}), MI, MI),
    ("additionalProperties false to schema", "TG434", obj({}, additionalProperties=False),
     obj({}, additionalProperties=S), MI, MI),
    ("additionalProperties true to false", "TG435", obj({}, additionalProperties=True),
     obj({}, additionalProperties=False), MA, MI),
    ("additionalProperties absent to false", "TG435", obj({}), obj({}, additionalProperties=False), MA, MI),
    ("additionalProperties values widened", "TG425", obj({}, additionalProperties=I),
     obj({}, additionalProperties={"type": "number"}), MI, MA),
    ("additionalProperties schema to true", "TG425", obj({}, additionalProperties=S),
     obj({}, additionalProperties=True), MI, MA),
    ("items type widened", "TG425", prop({"type": "array", "items": I}),
     prop({"type": "array", "items": {"type": "number"}}), MI, MA),
    ("items added", "TG426", prop({"type": "array"}), prop({"type": "array", "items": S}), MA, MI),
    ("property of array items removed", "TG422", prop({"type": "array", "items": obj({"x": S, "y": S})}),
     prop({"type": "array", "items": obj({"x": S})}), MA, MA),
    ("property three objects deep added", "TG420", prop(obj({"q": obj({"r": obj({})})})),
     prop(obj({"q": obj({"r": obj({"s": S})})})), MI, MI),
    ("prefixItems length changed", "TG441", prop({"prefixItems": [S]}), prop({"prefixItems": [S, S]}), MA, MA),
    ("prefixItems entry widened", "TG425", prop({"prefixItems": [I]}), prop({"prefixItems": [{"type": "number"}]}),
     MI, MA),
    ("contains added", "TG432", prop({"type": "array"}), prop({"type": "array", "contains": S}), MA, MI),
    ("contains removed", "TG431", prop({"type": "array", "contains": S}), prop({"type": "array"}), MI, MA),
    ("false schema became true", "TG431", prop(False), prop(True), MI, MA),
    ("true schema became false", "TG432", prop(True), prop(False), MA, MI),
    ("anyOf branch added", "TG436", prop({"anyOf": [S, I]}), prop({"anyOf": [S, I, {"type": "boolean"}]}), MI, MA),
    ("anyOf branch removed", "TG437", prop({"anyOf": [S, I, {"type": "boolean"}]}), prop({"anyOf": [S, I]}), MA, MI),
    ("anyOf added", "TG437", prop({}), prop({"anyOf": [S, {**S, "maxLength": 3}]}), MA, MI),
    ("anyOf removed", "TG436", prop({"anyOf": [S, {**S, "maxLength": 3}]}), prop({}), MI, MA),
    ("anyOf of types added (a type list)", "TG426", prop({}), prop({"anyOf": [S, I]}), MA, MI),
    ("anyOf wrapped around the schema", "TG436", prop(obj({"a": S})), prop({"anyOf": [obj({"a": S}), obj({"b": I})]}),
     MI, MA),
    ("allOf branch added", "TG437", prop({"allOf": [S]}), prop({"allOf": [S, {"maxLength": 3}]}), MA, MI),
    ("allOf branch removed", "TG436", prop({"allOf": [S, {"maxLength": 3}]}), prop({"allOf": [S]}), MI, MA),
    ("anyOf branch widened in place", "TG425", prop({"anyOf": [S, I]}), prop({"anyOf": [S, {"type": "number"}]}),
     MI, MA),
    ("oneOf branch added", "TG438", prop({"oneOf": [S, I]}), prop({"oneOf": [S, I, {"type": "number"}]}), MA, MA),
    ("oneOf branch removed", "TG438", prop({"oneOf": [S, I, {"type": "boolean"}]}), prop({"oneOf": [S, I]}), MA, MA),
    ("oneOf branch widened in place", "TG438", prop({"oneOf": [S, I]}), prop({"oneOf": [S, {"type": "number"}]}),
     MA, MA),
    ("anyOf and allOf rewritten", "TG438", prop({"anyOf": [S, I]}), prop({"anyOf": [{"type": "boolean"}]}), MA, MA),
    ("not added", "TG438", prop({}), prop({"not": S}), MA, MA),
    ("not changed", "TG438", prop({"not": S}), prop({"not": I}), MA, MA),
    ("default changed", "TG439", prop({**I, "default": 1}), prop({**I, "default": 2}), MI, P),
    ("default added", "TG439", prop(I), prop({**I, "default": 2}), MI, P),
    ("description changed", "TG440", prop({**S, "description": "x"}), prop({**S, "description": "y"}), P, P),
    ("x-sensitive added", "TG440", prop(S), prop({**S, "x-sensitive": True}), P, P),
    ("examples changed", "TG440", prop({**S, "examples": ["a"]}), prop({**S, "examples": ["b"]}), P, P),
    ("propertyNames added (unknown to the rules)", "TG441", obj({}), obj({}, propertyNames={"maxLength": 3}), MA, MA),
    ("if/then added (unknown to the rules)", "TG441", prop(S), prop({**S, "if": S, "then": {"maxLength": 3}}), MA, MA),
    ("patternProperties changed (unknown to the rules)", "TG441", obj({}, patternProperties={"^x": S}),
     obj({}, patternProperties={"^x": I}), MA, MA),
    ("dangling $ref", "TG442", prop({"$ref": "#/$defs/gone"}), prop(S), MA, MA),
    ("$ref loop without a schema", "TG442", {**prop({"$ref": "#/$defs/a"}), "$defs": {"a": {"$ref": "#/$defs/a"}}},
     prop(S), MA, MA),
]  # fmt: skip

_BOUNDS: list[tuple[str, str, int, int]] = [
    # keyword, the schema type it applies to, a value, a larger value
    ("maxLength", "string", 5, 10),
    ("minLength", "string", 1, 3),
    ("maximum", "number", 5, 10),
    ("minimum", "number", 1, 3),
    ("exclusiveMaximum", "number", 5, 10),
    ("exclusiveMinimum", "number", 1, 3),
    ("maxItems", "array", 5, 10),
    ("minItems", "array", 1, 3),
    ("maxProperties", "object", 5, 10),
    ("minProperties", "object", 1, 3),
    ("maxContains", "array", 5, 10),
    ("minContains", "array", 1, 3),
]
for _kw, _type, _small, _large in _BOUNDS:
    _upper = _kw.startswith(("max", "exclusiveMax"))
    _plain = {"type": _type}
    _lo, _hi = prop({**_plain, _kw: _small}), prop({**_plain, _kw: _large})
    SCHEMA_CELLS += [
        (f"{_kw} added", "TG432", prop(_plain), _lo, MA, MI),
        (f"{_kw} removed", "TG431", _lo, prop(_plain), MI, MA),
        (f"{_kw} raised", "TG431" if _upper else "TG432", _lo, _hi, *((MI, MA) if _upper else (MA, MI))),
        (f"{_kw} lowered", "TG432" if _upper else "TG431", _hi, _lo, *((MA, MI) if _upper else (MI, MA))),
    ]


def _schema_cells() -> list[Any]:
    out = []
    for case, rule, base, head, as_input, as_output in SCHEMA_CELLS:
        out.append(pytest.param(rule, Direction.INPUT, base, head, as_input, id=f"input: {case}"))
        out.append(pytest.param(rule, Direction.OUTPUT, base, head, as_output, id=f"output: {case}"))
    return out


@pytest.mark.parametrize(("rule", "direction", "base", "head", "expected"), _schema_cells())
def test_schema_cell(rule: str, direction: Direction, base: Any, head: Any, expected: Bump) -> None:
    key = "input_schema" if direction is Direction.INPUT else "output_schema"
    changes = diff_contract(make(**{key: base}), make(**{key: head}))
    found = {(c.rule, c.direction) for c in changes}
    assert (rule, direction) in found, changes
    assert needed_bump(changes) == expected, changes
    assert all(c.direction is direction for c in changes)


# (case id, rule, base overrides, head overrides, bump)
CONTRACT_CELLS: list[tuple[str, str, dict[str, Any], dict[str, Any], Bump]] = [
    ("description changed", "TG407", {}, {"description": "A tool, reworded for the compatibility tests."}, P),
    ("title added", "TG407", {}, {"title": "Tool"}, P),
    ("examples changed", "TG407", {}, {"examples": [{"input": {"a": "x"}, "output": {"a": "x"}}]}, P),
    ("owners changed", "TG407", {}, {"owners": ["@team"]}, P),
    ("tags changed", "TG407", {}, {"tags": ["fs"]}, P),
    ("error description changed", "TG407", {}, {"errors": [{"code": "BUSY", "description": "Later.",
                                                          "retryable": True}]}, P),
    ("standard error declared with its default", "TG407", {},
     {"errors": [{"code": "BUSY", "description": "Busy.", "retryable": True},
                 {"code": "NOT_FOUND", "description": "No such thing."}]}, P),
    ("deprecation message changed", "TG407", {"deprecated": "use a"}, {"deprecated": "use b"}, P),
    ("permission added", "TG405", {}, {"permissions": ["read", "write"]}, MA),
    ("permission removed", "TG406", {"permissions": ["read", "write"]}, {}, MI),
    ("deprecated", "TG408", {}, {"deprecated": "use other_tool"}, MI),
    ("undeprecated", "TG408", {"deprecated": True}, {}, MI),
    ("no longer idempotent", "TG409", {"idempotent": True}, {}, MA),
    ("became idempotent", "TG409", {}, {"idempotent": True}, MI),
    ("timeout lowered", "TG241", {"timeout_ms": 30000}, {"timeout_ms": 5000}, MI),
    ("timeout added", "TG241", {}, {"timeout_ms": 5000}, MI),
    ("timeout raised", "TG241", {"timeout_ms": 5000}, {"timeout_ms": 30000}, P),
    ("timeout removed", "TG241", {"timeout_ms": 5000}, {}, P),
    ("error code added", "TG410", {}, {"errors": [{"code": "BUSY", "description": "Busy.", "retryable": True},
                                                   {"code": "GONE", "description": "Gone.", "retryable": False}]}, MI),
    ("error code removed", "TG411", {}, {"errors": []}, MI),
    ("retryable changed", "TG412", {}, {"errors": [{"code": "BUSY", "description": "Busy.", "retryable": False}]}, MI),
    ("standard error made retryable", "TG412", {}, {"errors": [{"code": "BUSY", "description": "Busy.",
                                                               "retryable": True},
                                                              {"code": "CONFLICT", "description": "Retry.",
                                                               "retryable": True}]}, MI),
    ("content kind added", "TG413", {"content_kinds": ["image"]}, {"content_kinds": ["image", "audio"]}, MA),
    ("first content kind", "TG413", {}, {"content_kinds": ["file"]}, MA),
    ("content kind removed", "TG414", {"content_kinds": ["image", "audio"]}, {"content_kinds": ["image"]}, MI),
    ("output schema added", "TG426", {"output_schema": None}, {}, MI),
    ("output schema removed", "TG422", {}, {"output_schema": None}, MA),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "base", "head", "expected"), [pytest.param(*cell[1:], id=cell[0]) for cell in CONTRACT_CELLS]
)
def test_contract_cell(rule: str, base: dict[str, Any], head: dict[str, Any], expected: Bump) -> None:
    changes = diff_contract(make(**base), make(**head))
    assert rule in {c.rule for c in changes}, changes
    assert needed_bump(changes) == expected, changes


# (case id, old version, new version, the change made, expected status)
_WIDEN: dict[str, Any] = {"output_schema": obj({"a": {"type": ["string", "null"]}})}  # needs major
_ADD: dict[str, Any] = {"input_schema": obj({"a": S, "b": S})}  # needs minor
_DOC: dict[str, Any] = {"description": "A tool used by the compatibility tests, reworded."}  # needs patch
GATE_CELLS: list[tuple[str, str, str, dict[str, Any], Status]] = [
    ("no change, same version", "1.2.0", "1.2.0", {}, Status.OK),
    ("docs change without a bump", "1.2.0", "1.2.0", _DOC, Status.TOO_SMALL),
    ("docs change with a patch bump", "1.2.0", "1.2.1", _DOC, Status.OK),
    ("minor change with a patch bump", "1.2.0", "1.2.1", _ADD, Status.TOO_SMALL),
    ("minor change with a minor bump", "1.2.0", "1.3.0", _ADD, Status.OK),
    ("major change with a minor bump", "1.2.0", "1.3.0", _WIDEN, Status.TOO_SMALL),
    ("major change with a major bump", "1.2.0", "2.0.0", _WIDEN, Status.OK),
    ("bigger bump than needed", "1.2.0", "2.0.0", _DOC, Status.OK),
    ("version went down", "1.2.0", "1.1.9", {}, Status.WENT_DOWN),
    ("major went down even with a minor change", "2.0.0", "1.9.0", _ADD, Status.WENT_DOWN),
    ("below 1.0, a minor bump may break", "0.3.0", "0.4.0", _WIDEN, Status.OK),
    ("below 1.0, a patch bump may add", "0.3.0", "0.3.1", _ADD, Status.OK),
    ("below 1.0, a patch bump may not break", "0.3.0", "0.3.1", _WIDEN, Status.TOO_SMALL),
    ("not semver", "1.2", "1.3.0", {}, Status.BAD_VERSION),
]


@pytest.mark.parametrize(("old", "new", "head", "status"), [pytest.param(*cell[1:], id=cell[0]) for cell in GATE_CELLS])
def test_version_gate(old: str, new: str, head: dict[str, Any], status: Status) -> None:
    tool = diff_tool(make(version=old), make(version=new, **head))
    assert tool.status is status
    assert tool.failed == (status is not Status.OK)


def test_tool_added_needs_nothing_and_removed_fails_unless_allowed() -> None:
    a, b = make(name="a_tool"), make(name="b_tool")
    report = diff_catalogs(build_catalog([a]), build_catalog([b]))
    by_name = {t.name: t for t in report.tools}
    assert by_name["b_tool"].status is Status.ADDED and by_name["b_tool"].needed is NO
    assert by_name["a_tool"].status is Status.REMOVED
    assert [c.rule for c in by_name["a_tool"].changes] == ["TG401"]
    assert [c.rule for c in by_name["b_tool"].changes] == ["TG402"]
    assert not report.compatible and "a_tool: tool removed" in report.failures[0]
    allowed = diff_catalogs(build_catalog([a]), build_catalog([b]), allow_removal=True)
    assert allowed.compatible


def test_escalation_is_listed_with_owners_and_fails_unless_allowed() -> None:
    base = make(owners=["@team", "@sec"])
    head = make(owners=["@team", "@sec"], permissions=["read", "execute", "network"], version="2.0.0")
    report = diff_catalogs(build_catalog([base]), build_catalog([head]))
    assert [(e.tool, e.added, e.owners) for e in report.escalations] == [
        ("tool", ("execute", "network"), ("@team", "@sec"))
    ]
    assert report.tools[0].status is Status.OK
    assert not report.compatible
    assert diff_catalogs(build_catalog([base]), build_catalog([head]), allow_escalation=True).compatible


def test_every_rule_has_a_cell() -> None:
    covered = {c[1] for c in SCHEMA_CELLS} | {c[1] for c in CONTRACT_CELLS}
    covered |= {"TG401", "TG402"}  # tested above, together with --allow-removal
    covered |= {"TG403", "TG404"}  # the version gate: Status.WENT_DOWN and Status.TOO_SMALL
    assert covered >= set(DECISIONS), sorted(set(DECISIONS) - covered)


def _docs_rows() -> dict[str, list[str]]:
    text = (REPO / "docs" / "compatibility.md").read_text(encoding="utf-8")
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith(("| TG4", "| TG241")) and len(cells) >= 4:
            rows[cells[0]] = cells
    return rows


def test_docs_decision_table_matches_the_code() -> None:
    """docs/compatibility.md has one row per rule, with the code's name and bumps (first word of a cell)."""
    rows = _docs_rows()
    assert set(rows) == set(DECISIONS)
    special = {"TG403": "error", "TG404": "error", "TG409": "major", "TG241": "minor"}
    for code, decision in DECISIONS.items():
        cells = rows[code]
        assert cells[1] == f"`{decision.name}`", cells
        if decision.input is not None and decision.output is not None:
            assert (cells[3].split()[0], cells[4].split()[0]) == (decision.input.label, decision.output.label), cells
        else:
            expected = decision.metadata.label if decision.metadata is not None else special[code]
            assert cells[3].split()[0] == expected, cells
