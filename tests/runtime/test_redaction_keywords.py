"""Redaction reaches a sensitive value through every keyword a schema can route a value through.

Each case is a property of one tool's input whose schema reaches an `x-sensitive` value through one
keyword only; a call goes through the registry and the trace must not hold the secret. The list of
keywords comes from toolgen's own table of subschema keywords (`toolgen.validate.schemawalk`), so a keyword
added there needs a case here, or a reason in `NOT_ROUTING` why no value is described by it.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.python_support import imported
from toolgen.validate.schemawalk import LIST_KEYWORDS, MAP_KEYWORDS, ONE_KEYWORDS

PACKAGE = "redaction_tools"
SENSITIVE = {"type": "string", "x-sensitive": True}

CASES: dict[str, tuple[dict[str, Any], Any]] = {
    # keyword: (the property's schema, a value for it holding the secret)
    "properties": ({"type": "object", "properties": {"pin": SENSITIVE}}, {"pin": "SECRET"}),
    "patternProperties": ({"type": "object", "patternProperties": {"^secret_": SENSITIVE}}, {"secret_key": "SECRET"}),
    "additionalProperties": ({"type": "object", "additionalProperties": SENSITIVE}, {"any": "SECRET"}),
    "items": ({"type": "array", "items": SENSITIVE}, ["SECRET"]),
    "prefixItems": ({"type": "array", "prefixItems": [{"type": "string"}, SENSITIVE]}, ["shown", "SECRET"]),
    "$ref": ({"$ref": "#/$defs/secret"}, "SECRET"),
    "allOf": ({"allOf": [{"type": "string"}, SENSITIVE]}, "SECRET"),
    "anyOf": ({"anyOf": [{"type": "integer"}, SENSITIVE]}, "SECRET"),
    "oneOf": ({"oneOf": [{"type": "integer"}, SENSITIVE]}, "SECRET"),
    "then": ({"if": {"type": "string"}, "then": SENSITIVE}, "SECRET"),
    "else": ({"if": {"type": "integer"}, "else": SENSITIVE}, "SECRET"),
    "dependentSchemas": (
        {"type": "object", "dependentSchemas": {"user": {"properties": {"pin": SENSITIVE}}}},
        {"user": "ann", "pin": "SECRET"},
    ),
    "unevaluatedProperties": (
        {"type": "object", "properties": {"user": {"type": "string"}}, "unevaluatedProperties": SENSITIVE},
        {"user": "ann", "pin": "SECRET"},
    ),
    "unevaluatedItems": (
        {"type": "array", "prefixItems": [{"type": "string"}], "unevaluatedItems": SENSITIVE},
        ["shown", "SECRET"],
    ),
    "contains": ({"type": "array", "contains": SENSITIVE}, ["SECRET"]),
}
"""Every keyword through which a schema describes a value, each with one property that uses it."""

NOT_ROUTING = {
    "$defs": "holds schemas for `$ref` only; reached through the `$ref` case",
    "definitions": "the draft-07 spelling of `$defs`; reached through `$ref`",
    "not": "a value matching `not` is one the subschema does not describe",
    "if": "only decides between `then` and `else`, both covered",
    "propertyNames": "applies to the keys of an object, which are not secret values",
    "additionalItems": "not a 2020-12 keyword (`items` after `prefixItems` replaced it)",
    "contentSchema": "describes the decoded content of a string, which the trace holds as a string",
}
"""Subschema keywords of `toolgen.validate.schemawalk` that route no value of the document, and why."""


ROWS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^secret_": {"$ref": "#/$defs/secret"}},
    },
}
"""Keywords combined: a secret by pattern, behind a `$ref`, in an array item."""


def _contract() -> dict[str, Any]:
    properties = {f"p{index}": schema for index, (schema, _) in enumerate(CASES.values())}
    return {
        "name": "vault",
        "version": "1.0.0",
        "description": "Keeps secrets behind every kind of subschema.",
        "permissions": [],
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": properties | {"label": {"type": "string"}, "rows": ROWS},
            "$defs": {"secret": SENSITIVE},
        },
    }


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported({"vault": _contract()}, tmp_path_factory.mktemp("redaction"), PACKAGE) as package:
        yield package


def test_every_subschema_keyword_is_a_case_or_routes_no_value() -> None:
    known = {*MAP_KEYWORDS, *ONE_KEYWORDS, *LIST_KEYWORDS, "$ref"}
    assert known - CASES.keys() - NOT_ROUTING.keys() == set(), "a subschema keyword has no redaction case"
    assert not CASES.keys() & NOT_ROUTING.keys()
    assert (CASES.keys() | NOT_ROUTING.keys()) <= known, "a case names a keyword toolgen does not know"


@pytest.mark.parametrize("keyword", list(CASES))
def test_a_secret_behind_the_keyword_is_redacted_in_the_trace(pkg: ModuleType, keyword: str) -> None:
    name = f"p{list(CASES).index(keyword)}"
    value = CASES[keyword][1]
    traces: list[Any] = []
    reg = pkg.Registry(policy=pkg.Policy(), tracer=traces.append)
    reg.register("vault", lambda arguments: pkg.Ok({}))
    result = reg.call("vault", {name: value, "label": "visible-label"})
    assert result.ok, result.payload()
    (record,) = traces
    assert "SECRET" not in repr(record), f"{keyword}: the secret reached the trace: {record.input}"
    assert record.input["label"] == "visible-label"
    assert "[REDACTED]" in _leaves(record.input[name]), record.input[name]


def _leaves(value: Any) -> list[Any]:
    """Every scalar inside a JSON value."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def test_a_secret_under_pattern_properties_inside_an_array_item_is_redacted_in_the_trace(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = pkg.Registry(policy=pkg.Policy(), tracer=traces.append)
    reg.register("vault", lambda arguments: pkg.Ok({}))
    rows = [{"name": "first", "secret_key": "SECRET"}, {"name": "second", "secret_pin": "SECRET-2"}]
    result = reg.call("vault", {"rows": rows, "label": "visible-label"})
    assert result.ok, result.payload()
    (record,) = traces
    assert "SECRET" not in repr(record), record.input
    assert record.input["rows"] == [
        {"name": "first", "secret_key": "[REDACTED]"},
        {"name": "second", "secret_pin": "[REDACTED]"},
    ]
