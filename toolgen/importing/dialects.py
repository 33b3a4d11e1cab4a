"""Gemini's OpenAPI schema subset read as JSON Schema draft 2020-12 that accepts the same values.

`toolgen import --from gemini` applies it with or without `--repair`: it is how the format is read,
not a repair. It reads `parameters`/`response` as the REST API and the SDKs' `model_dump()` write
them, camelCase or snake_case, a null value being an unset field: upper-case types
(`TYPE_UNSPECIFIED`: any type), `nullable` (a `null` type, and `null` in an `enum`), `anyOf`,
`defs`/`ref` (`$defs`/`$ref`), int64 limits written as strings, `example` (`examples`),
`propertyOrdering` (the properties are put in that order) and the string `enum` values Gemini
requires for numeric types (numbers again, `format: enum` dropped). `drafts` translates what older
JSON Schema drafts spell differently (see `toolgen.importing.repair`).
"""

from __future__ import annotations

import re

from toolgen.importing.repairnote import NOTE, Repair
from toolgen.positions import join

_GEMINI_KEYS = {
    "additional_properties": "additionalProperties",
    "any_of": "anyOf",
    "defs": "$defs",
    "ref": "$ref",
    "max_items": "maxItems",
    "min_items": "minItems",
    "max_length": "maxLength",
    "min_length": "minLength",
    "max_properties": "maxProperties",
    "min_properties": "minProperties",
    "property_ordering": "propertyOrdering",
}
_INT_KEYS = ("maxItems", "minItems", "maxLength", "minLength", "maxProperties", "minProperties")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def drafts(node: dict[str, object], where: str, notes: list[Repair]) -> None:
    """Translate one schema node written for an older draft into draft 2020-12 (in place)."""
    if "$schema" in node:
        value = node.pop("$schema")
        notes.append(Repair(join(where, "$schema"), f"removed $schema {value!r} (contracts are draft 2020-12)", NOTE))
    if isinstance(node.get("items"), list):
        node["prefixItems"] = node.pop("items")
        message = "draft-07 list form of `items` became `prefixItems`"
        if "additionalItems" in node:
            node["items"] = node.pop("additionalItems")
            message += " (and `additionalItems` became `items`)"
        notes.append(Repair(join(where, "items"), message, NOTE))
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(flag), bool):
            exclusive = node.pop(flag)
            if exclusive and isinstance(node.get(bound), int | float):
                node[flag] = node.pop(bound)
            notes.append(Repair(join(where, flag), f"draft-04 boolean `{flag}` written in the 2020-12 form", NOTE))


def _number(text: str) -> int | float | None:
    if not _NUMBER.fullmatch(text.strip()):
        return None
    value = float(text)
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _gemini_type(out: dict[str, object]) -> None:
    kind = out.get("type")
    if isinstance(kind, str):
        if kind.upper() == "TYPE_UNSPECIFIED":
            del out["type"]
        else:
            out["type"] = kind.lower()
    kind = out.get("type")
    if isinstance(enum := out.get("enum"), list) and kind in ("integer", "number"):
        values = [_number(v) if isinstance(v, str) else v for v in enum]
        if all(v is not None for v in values):
            out["enum"] = values
            if out.get("format") == "enum":
                del out["format"]
    if out.pop("nullable", False) is True:
        _allow_null(out)


def _allow_null(out: dict[str, object]) -> None:
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        out["type"] = [*kind, "null"]
    elif "type" not in out and isinstance(any_of := out.get("anyOf"), list):
        out["anyOf"] = [*any_of, {"type": "null"}]
    if isinstance(enum := out.get("enum"), list) and None not in enum:
        out["enum"] = [*enum, None]


def _gemini_node(node: dict[str, object]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in node.items():
        name = _GEMINI_KEYS.get(key, key)
        if value is None:  # an unset field, as `model_dump()` writes it
            continue
        if name in ("properties", "$defs") and isinstance(value, dict):
            out[name] = {k: gemini_schema(v) for k, v in value.items()}
        elif name in ("items", "additionalProperties") and isinstance(value, dict):
            out[name] = gemini_schema(value)
        elif name == "anyOf" and isinstance(value, list):
            out[name] = [gemini_schema(v) for v in value]
        elif name == "$ref" and isinstance(value, str):
            out[name] = re.sub(r"^#/defs/", "#/$defs/", value)
        elif name in _INT_KEYS and isinstance(value, str) and value.strip().isdigit():
            out[name] = int(value)
        elif name in ("minimum", "maximum") and isinstance(value, str) and _number(value) is not None:
            out[name] = _number(value)
        elif name == "example":
            out.setdefault("examples", [value])
        else:
            out[name] = value
    return out


def gemini_schema(schema: object) -> object:
    """A Gemini OpenAPI-subset `Schema` (camelCase or snake_case keys) as the same JSON Schema."""
    if not isinstance(schema, dict):
        return schema
    out = _gemini_node(schema)
    _gemini_type(out)
    order = out.pop("propertyOrdering", None)
    properties = out.get("properties")
    if isinstance(order, list) and isinstance(properties, dict):
        first = {k: properties[k] for k in order if isinstance(k, str) and k in properties}
        out["properties"] = {**first, **{k: v for k, v in properties.items() if k not in first}}
    return out


__all__ = ["drafts", "gemini_schema"]
