"""Constraints in words: how a keyword a provider cannot take reads in a description.

`sentence("propertyNames", {"maxLength": 3})` is `Property names: at most 3 characters.`; a model and a
person read that more easily than escaped JSON. `describe` says a whole subschema as clauses; a
keyword it has no words for is written `key: <JSON>` in a code span, so nothing is ever dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_TYPES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "object": "an object",
    "array": "an array",
    "boolean": "a boolean",
    "null": "null",
}


def _json(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False, separators=(", ", ": ")) + "`"


def _code(value: Any) -> str:
    """A string as a code span when it can be one as written, else as JSON."""
    return f"`{value}`" if isinstance(value, str) and "`" not in value and value.strip() == value else _json(value)


def _count(n: Any, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _names(names: Any) -> str:
    return ", ".join(f"`{n}`" for n in names) if isinstance(names, list) else _json(names)


def _type(value: Any) -> str:
    kinds = value if isinstance(value, list) else [value]
    return " or ".join(_TYPES.get(k, _json(k)) for k in kinds)


def _alternatives(word: str) -> Callable[[Any], str]:
    def say(branches: Any) -> str:
        if not isinstance(branches, list):
            return f"{word}: {_json(branches)}"
        return f"{word}: " + " | ".join(f"({describe(b)})" for b in branches)

    return say


def _map(lead: str) -> Callable[[Any], str]:
    def say(entries: Any) -> str:
        if not isinstance(entries, dict):
            return f"{lead}: {_json(entries)}"
        return "; ".join(f"{lead} `{name}`: {describe(sub)}" for name, sub in entries.items())

    return say


def _dependent(value: Any) -> str:
    if not isinstance(value, dict):
        return f"dependentRequired: {_json(value)}"
    return "; ".join(f"if `{name}` is given, so must {_names(needs)} be" for name, needs in value.items())


_CLAUSES: dict[str, Callable[[Any], str]] = {
    "type": _type,
    "const": lambda v: f"exactly {_json(v)}",
    "enum": lambda v: "one of " + (", ".join(_json(x) for x in v) if isinstance(v, list) else _json(v)),
    "minLength": lambda v: f"at least {_count(v, 'character', 'characters')}",
    "maxLength": lambda v: f"at most {_count(v, 'character', 'characters')}",
    "pattern": lambda v: f"matches the regular expression {_code(v)}",
    "format": lambda v: f"in the {v} format" if isinstance(v, str) else f"format: {_json(v)}",
    "minimum": lambda v: f"at least {v}",
    "maximum": lambda v: f"at most {v}",
    "exclusiveMinimum": lambda v: f"greater than {v}",
    "exclusiveMaximum": lambda v: f"less than {v}",
    "multipleOf": lambda v: f"a multiple of {v}",
    "minItems": lambda v: f"at least {_count(v, 'item', 'items')}",
    "maxItems": lambda v: f"at most {_count(v, 'item', 'items')}",
    "uniqueItems": lambda v: "no item repeated" if v is True else "items may repeat",
    "minProperties": lambda v: f"at least {_count(v, 'property', 'properties')}",
    "maxProperties": lambda v: f"at most {_count(v, 'property', 'properties')}",
    "minContains": lambda v: f"at least {_count(v, 'item', 'items')} matching `contains`",
    "maxContains": lambda v: f"at most {_count(v, 'item', 'items')} matching `contains`",
    "required": lambda v: f"requires {_names(v)}",
    "properties": _map("property"),
    "patternProperties": _map("each property whose name matches"),
    "dependentSchemas": _map("if this property is given,"),
    "dependentRequired": _dependent,
    "additionalProperties": lambda v: "no other properties" if v is False else f"other properties: {describe(v)}",
    "unevaluatedProperties": lambda v: (
        "no properties beyond those named here" if v is False else f"any property not named here: {describe(v)}"
    ),
    "propertyNames": lambda v: f"property names: {describe(v)}",
    "items": lambda v: "no items" if v is False else f"each item: {describe(v)}",
    "prefixItems": lambda v: (
        "items in order: " + " | ".join(f"({describe(b)})" for b in v)
        if isinstance(v, list)
        else f"prefixItems: {_json(v)}"
    ),
    "additionalItems": lambda v: "no further items" if v is False else f"further items: {describe(v)}",
    "unevaluatedItems": lambda v: "no items beyond those named here" if v is False else f"other items: {describe(v)}",
    "contains": lambda v: f"at least one item: {describe(v)}",
    "not": lambda v: f"not ({describe(v)})",
    "if": lambda v: f"if ({describe(v)})",
    "then": lambda v: f"then ({describe(v)})",
    "else": lambda v: f"otherwise ({describe(v)})",
    "allOf": _alternatives("all of"),
    "anyOf": _alternatives("any of"),
    "oneOf": _alternatives("exactly one of"),
    "$ref": lambda v: f"as defined at `{v}`",
    "default": lambda v: f"default: {_json(v)}",
}
_QUIET = frozenset({"description", "title", "$comment", "examples", "$schema", "$id", "$anchor", "$defs"})


def clause(key: str, value: Any) -> str:
    """One keyword in words, lower case (`at most 3 characters`), or `key: <JSON>` when it has none."""
    say = _CLAUSES.get(key)
    return say(value) if say is not None else f"{key}: {_json(value)}"


def describe(schema: Any) -> str:
    """A subschema in words: its keywords' clauses joined with commas (`anything` when it has none)."""
    if schema is True:
        return "anything"
    if schema is False:
        return "nothing"
    if not isinstance(schema, dict):
        return _json(schema)
    said = [clause(k, v) for k, v in schema.items() if k not in _QUIET and not k.startswith("x-")]
    text = schema.get("description")
    if isinstance(text, str) and text.strip():  # a lowered subschema states here what it could not keep
        said.append(text.strip().rstrip(".").replace("\n\n", " ")[:1].lower() + text.strip().rstrip(".")[1:])
    return ", ".join(said) if said else "anything"


def sentence(key: str, value: Any) -> str:
    """One keyword as a sentence of a description: `Property names: at most 3 characters.`"""
    text = "Default: " + _json(value) if key == "default" else clause(key, value)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
