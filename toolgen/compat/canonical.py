"""A canonical form of one schema node, so that two spellings of the same set of values compare equal.

`normalize` rewrites the top level of a (resolved) schema, never its children:

- a combinator with one branch (`anyOf: [S]`, `oneOf: [S]`, `allOf: [S]`) is that branch;
- an `allOf` whose branches only add keywords the schema does not have yet is merged into it;
- an `anyOf`/`oneOf` of branches with disjoint types, each constrained only by keywords that apply
  to its own types (`maxLength` to strings, `properties` to objects, ...), is one type list:
  `anyOf: [{type: string, maxLength: 5}, {type: null}]` is `type: [string, null], maxLength: 5`.

(`const` and a one-value `enum` are already one set of values to `keywords.compare_enum`.)

Branches behind a `$ref` are resolved with the caller's `resolve` first. Annotations of a merged
branch are kept where the schema has none of its own (they never change the values accepted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolgen.compat import keywords as kw

Resolve = Callable[[Any], Any]
"""The content a schema stands for after its `$ref` (with sibling keywords) is followed."""

FAMILIES: dict[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
            "maxProperties",
            "patternProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
        }
    ),
    "array": frozenset(
        {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains"}
    ),
}
"""Keywords that constrain only values of one JSON type (`integer` uses the `number` family)."""

_PASSES = 8
"""Rewrites applied at most this many times to one node (each one removes a combinator level)."""


def _family(keyword: str) -> str | None:
    return next((name for name, words in FAMILIES.items() if keyword in words), None)


def _types(schema: Mapping[str, Any]) -> frozenset[str] | None:
    raw = schema.get("type")
    if raw is None:
        return None
    if isinstance(raw, str):
        return frozenset({raw})
    if isinstance(raw, Sequence) and all(isinstance(t, str) for t in raw):
        return frozenset(raw)
    return None


def _type_value(types: list[str]) -> Any:
    """Types as `type` is written: one name, or a list in the branches' order."""
    return types[0] if len(types) == 1 else types


def _constraints(schema: Mapping[str, Any]) -> set[str]:
    return {k for k in schema if not kw.is_annotation(k)}


_GROUPS = (
    *FAMILIES.values(),
    frozenset({"if", "then", "else"}),
    frozenset({"unevaluatedProperties", "unevaluatedItems"}),
)
"""Keywords that read each other (`additionalProperties` reads `properties`): never split across a merge."""


def conflicts(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """True when merging the two keyword sets would change meaning: a constraint in both, or a group
    of keywords that read each other split between them."""
    mine, theirs = _constraints(one), _constraints(other)
    return bool(mine & theirs) or any(mine & group and theirs & group for group in _GROUPS)


def _absorb(parent: dict[str, Any], branch: Mapping[str, Any]) -> bool:
    """Merge `branch` into `parent` when that does not change meaning; True when it did."""
    if "$ref" in branch or conflicts(parent, branch):
        return False
    for key, value in branch.items():
        parent.setdefault(key, value)
    return True


def _branches(schema: Mapping[str, Any], key: str, resolve: Resolve) -> list[Any] | None:
    raw = schema.get(key)
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        return None
    return [resolve(b) for b in raw]


def _one_branch(schema: dict[str, Any], resolve: Resolve, keys: frozenset[str]) -> bool:
    for key in keys:
        branches = _branches(schema, key, resolve)
        if branches is None or len(branches) != 1:
            continue
        (branch,) = branches
        if branch is True or (isinstance(branch, Mapping) and not branch):
            del schema[key]
            return True
        rest = {k: v for k, v in schema.items() if k != key}
        if isinstance(branch, Mapping) and _absorb(rest, branch):
            schema.clear()
            schema.update(rest)
            return True
    return False


def _all_of(schema: dict[str, Any], resolve: Resolve, keys: frozenset[str]) -> bool:
    branches = _branches(schema, "allOf", resolve) if "allOf" in keys else None
    if branches is None or not all(isinstance(b, Mapping) for b in branches):
        return False
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    if all(_absorb(merged, b) for b in branches):
        schema.clear()
        schema.update(merged)
        return True
    return False


def _typed_union(branches: list[Any]) -> dict[str, Any] | None:
    """The branches as one schema with a type list, or None when they do not merge without changing meaning."""
    seen: list[str] = []
    merged: dict[str, Any] = {}
    for branch in branches:
        types = _types(branch) if isinstance(branch, Mapping) else None
        if types is None or "$ref" in branch:
            return None
        kinds = {"number" if t == "integer" else t for t in types}
        if kinds & {"number" if t == "integer" else t for t in seen}:
            return None
        seen += sorted(types)
        for key, value in branch.items():
            if key == "type" or kw.is_annotation(key):
                continue
            family = _family(key)
            if family is None or family not in kinds or key in merged:
                return None
            merged[key] = value
    return {"type": _type_value(seen), **merged}


def _union(schema: dict[str, Any], resolve: Resolve, keys: frozenset[str]) -> bool:
    for key in sorted(keys - {"allOf"}):
        branches = _branches(schema, key, resolve)
        union = _typed_union(branches) if branches is not None and len(branches) > 1 else None
        if union is None:
            continue
        rest = {k: v for k, v in schema.items() if k != key}
        if any(k == "type" or _family(k) for k in rest):
            continue
        schema.clear()
        schema.update({**rest, **union})
        return True
    return False


COMBINATORS = ("allOf", "anyOf", "oneOf")


def normalize(schema: Any, resolve: Resolve, keys: frozenset[str] = frozenset(COMBINATORS)) -> Any:
    """The canonical form of one schema node, rewriting only the combinators in `keys`.

    Booleans and non-schemas come back as they are. The walk asks for the keys only one version has,
    so two versions spelled alike keep their branches (and findings keep their branch pointers).
    """
    if not isinstance(schema, Mapping) or not keys & set(schema):
        return schema
    out = dict(schema)
    for _ in range(_PASSES):
        if not any(k in keys for k in out):
            break
        if not (_one_branch(out, resolve, keys) or _all_of(out, resolve, keys) or _union(out, resolve, keys)):
            break
    return out


def kinds(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The keyword families a schema's `type` lets apply (None: every family)."""
    types = _types(schema)
    if types is None:
        return None
    return frozenset("number" if t == "integer" else t for t in types)


def within(schema: Mapping[str, Any], shared: frozenset[str] | None, compared: frozenset[str]) -> Mapping[str, Any]:
    """`schema` without the `compared` keywords of families whose type only one side accepts (or neither).

    Values of such a type are all added or all removed, which the type finding already says; the
    keywords that would constrain them compare nothing both versions accept. Keywords no rule
    compares stay, to fail closed.
    """
    if shared is None:
        return schema
    return {k: v for k, v in schema.items() if k not in compared or _family(k) in (*shared, None)}
