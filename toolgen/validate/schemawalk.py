"""Where subschemas live in a JSON Schema: the one table every schema walk in toolgen reads.

Validation, provider lowering and import repair all walk schemas; they agree on which keywords hold
subschemas by importing these tuples instead of keeping their own copies.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from toolgen.positions import join

MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Keywords whose value maps names to subschemas."""

ONE_KEYWORDS = (
    "items",
    "additionalProperties",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contentSchema",
)
"""Keywords whose value is one subschema."""

LIST_KEYWORDS = ("anyOf", "oneOf", "allOf", "prefixItems")
"""Keywords whose value is a list of subschemas."""

KEYWORDS: frozenset[str] = frozenset(
    {
        *MAP_KEYWORDS,
        *ONE_KEYWORDS,
        *LIST_KEYWORDS,
        *["$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment"],
        *["type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
        *["maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains"],
        *["maxProperties", "minProperties", "required", "dependentRequired", "dependencies", "format"],
        *["contentEncoding", "contentMediaType", "title", "description", "default", "deprecated", "readOnly"],
        *["writeOnly", "examples", "nullable", "discriminator"],
    }
)
"""Every keyword of draft 2020-12 (plus a few common older ones); other keys get a typo check."""


def children(node: Mapping[str, object], pointer: str) -> Iterator[tuple[str, Mapping[str, object]]]:
    """The direct subschema objects of `node`, in document order, with their RFC 6901 pointers."""
    for key, value in node.items():
        if key in ONE_KEYWORDS and isinstance(value, Mapping):
            yield join(pointer, key), value
        elif key in MAP_KEYWORDS and isinstance(value, Mapping):
            yield from ((join(pointer, key, k), v) for k, v in value.items() if isinstance(v, Mapping))
        elif key in LIST_KEYWORDS and isinstance(value, list):
            yield from ((join(pointer, key, i), v) for i, v in enumerate(value) if isinstance(v, Mapping))
