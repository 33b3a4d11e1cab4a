"""The schema the python target hands datamodel-code-generator: wider where a model cannot state it.

The generated registry judges every call by the contract's schema (jsonschema, draft 2020-12) and only
then builds the input model, so a model may be wider than its schema but never narrower: a value the
schema accepts must fit it. datamodel-code-generator (dcg) makes a narrower model for some schemas,
so before dcg sees a schema, `widen` replaces each such subschema by one that accepts every value the
original accepts, and says where and why (TG355):

- a subschema with keywords of a type but no `type` (`{"items": ...}`, `{"properties": ..., "required":
  [...]}`): JSON Schema applies them only to values of that type and accepts any other value, dcg
  makes a field of that type. It becomes a JSON value (`Any`).
- `prefixItems`, `unevaluatedItems` (dcg makes a fixed tuple or ignores what follows) and a `$ref`
  other than `#/$defs/<name>` (`#`, a pointer into `properties`, an empty name), a `$dynamicRef`, an
  embedded `$id` or `$anchor`: the subschema keeps only its `type` (`list[Any]`) or becomes `Any`.
- `patternProperties` and `unevaluatedProperties` on an object: the object keeps its named
  properties, and any other key is kept as it came (`extra="allow"`).
- `pattern` is left out of every model (no note): the registry matches patterns on RE2, in linear time,
  and a model's pattern would run on Python's backtracking `re` (see docs/python.md).

Titles, descriptions and `x-` annotations stay on a widened subschema.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from toolgen.frozen import thaw
from toolgen.positions import join

_TYPED = frozenset(
    {
        "properties", "required", "additionalProperties", "patternProperties", "minProperties",
        "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
        "items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems", "minContains",
        "maxContains", "unevaluatedItems", "minLength", "maxLength", "pattern", "format", "minimum",
        "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    }
)  # fmt: skip
"""Keywords that apply to values of one type only."""

_SCHEMA_MAPS = ("properties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = ("items", "additionalProperties", "contains", "not", "if", "then", "else")
_KEPT = ("type", "title", "description", "default")
_PLAIN_REF = re.compile(r"#/\$defs/[^/~]+")
_PLAIN_NAME = re.compile(r"[^/~]+")
"""A definition name a plain `$ref` reaches; the others (`""`) are left out of the models."""


def widen(schema: Mapping[str, object], pointer: str) -> tuple[dict[str, object], list[tuple[str, str]]]:
    """`schema` as dcg should see it, and (pointer, reason) for every subschema made wider."""
    notes: list[tuple[str, str]] = []
    return _object(thaw(schema), pointer, notes, root=True), notes


def _reason(node: Mapping[str, object]) -> str | None:
    """Why no model states `node` exactly, or None."""
    ref = node.get("$ref")
    if isinstance(ref, str) and not _PLAIN_REF.fullmatch(ref):
        return f"its `$ref` {ref!r} is not of the form `#/$defs/<name>`"
    for keyword in ("$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor"):
        if keyword in node:
            return f"it has `{keyword}`"
    if "type" not in node and "$ref" not in node:
        typed = sorted(k for k in node if k in _TYPED)
        if typed:
            return f"it has `{typed[0]}` but no `type`, so it also accepts values of every other type"
    for keyword in ("prefixItems", "unevaluatedItems"):
        if keyword in node:
            return f"it has `{keyword}`"
    return None


def _node(node: object, here: str, notes: list[tuple[str, str]], root: bool = False) -> object:
    """A subschema as dcg should see it (a boolean schema as it is)."""
    return _object(node, here, notes, root) if isinstance(node, dict) else node


def _object(node: dict[str, object], here: str, notes: list[tuple[str, str]], root: bool = False) -> dict[str, object]:
    reason = None if root else _reason(node)
    if reason is not None:
        notes.append((here, reason))
        return {k: v for k, v in node.items() if k in _KEPT or k.startswith("x-")}
    out = {k: v for k, v in node.items() if k != "pattern"}
    loose = [k for k in ("patternProperties", "unevaluatedProperties") if k in out]
    if loose:
        notes.append((here, f"it has `{loose[0]}`: keys other than the named properties are kept as they came"))
        for keyword in loose:
            del out[keyword]
        out["additionalProperties"] = True
    for key in _SCHEMA_MAPS:
        if isinstance(named := out.get(key), dict):
            out[key] = {
                name: _node(sub, join(here, key, name), notes)
                for name, sub in named.items()
                if key not in ("$defs", "definitions") or _PLAIN_NAME.fullmatch(name)
            }
    for key in _SCHEMA_LISTS:
        if isinstance(listed := out.get(key), list):
            out[key] = [_node(sub, join(here, key, str(i)), notes) for i, sub in enumerate(listed)]
    for key in _SCHEMA_ONE:
        if key in out:
            out[key] = _node(out[key], join(here, key), notes)
    if "propertyNames" in out:  # applies to keys, always strings: no type needed, but no pattern either
        out["propertyNames"] = _node(out["propertyNames"], join(here, "propertyNames"), notes, root=True)
    return out
