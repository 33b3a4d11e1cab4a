"""Shared lowering helpers: schema-aware walks and the rewrites more than one provider needs.

Every helper takes a plain (thawed) schema and returns a new one; none mutates its argument. Walks
visit only subschema positions (`properties/*`, `items`, `anyOf/*`, `$defs/*`, ...), never values
such as `enum`, `const`, `default` or `examples`, so data that happens to contain `$ref` or `x-`
keys is left alone. Pointers are RFC 6901 pointers into the contract, e.g.
`/input_schema/properties/path`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, overload

from toolgen.positions import escape, unescape
from toolgen.validate.schemawalk import LIST_KEYWORDS, MAP_KEYWORDS, ONE_KEYWORDS

Schema = dict[str, Any]


_SUBSCHEMA_KEYWORDS = frozenset((*MAP_KEYWORDS, *ONE_KEYWORDS, *LIST_KEYWORDS))
"""The keywords whose values `children` and `transform` look into."""

COMPOSITION = ("anyOf", "oneOf", "allOf")
"""Composition keywords, which some providers refuse at the root."""


@dataclass(frozen=True, slots=True)
class Issue:
    """A problem found while lowering: where (pointer into the contract) and what."""

    pointer: str
    message: str


def children(node: Schema, pointer: str) -> Iterator[tuple[str, Schema]]:
    """The direct subschemas of `node` with their pointers (dicts only; boolean schemas are skipped)."""
    if node.keys().isdisjoint(_SUBSCHEMA_KEYWORDS):
        return
    for key in MAP_KEYWORDS:
        value = node.get(key)
        if isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, dict):
                    yield f"{pointer}/{escape(key)}/{escape(name)}", sub
    for key in ONE_KEYWORDS:
        if isinstance(node.get(key), dict):
            yield f"{pointer}/{key}", node[key]
    for key in LIST_KEYWORDS:
        value = node.get(key)
        if isinstance(value, list):
            for index, sub in enumerate(value):
                if isinstance(sub, dict):
                    yield f"{pointer}/{key}/{index}", sub


def walk(node: object, pointer: str = "") -> Iterator[tuple[str, Schema]]:
    """Every schema node under (and including) `node`, pre-order, with its pointer."""
    if not isinstance(node, dict):
        return
    yield pointer, node
    for sub_pointer, sub in children(node, pointer):
        yield from walk(sub, sub_pointer)


@overload
def transform(node: Schema, fn: Callable[[Schema, str], Schema], pointer: str = "") -> Schema: ...
@overload
def transform(node: object, fn: Callable[[Schema, str], Schema], pointer: str = "") -> object: ...
def transform(node: object, fn: Callable[[Schema, str], Schema], pointer: str = "") -> object:
    """A copy of `node` with `fn(copy, pointer)` applied to every schema node, children first (a
    boolean schema, or anything else not a schema object, is returned as it is)."""
    if not isinstance(node, dict):
        return node
    out: Schema = dict(node)
    if out.keys().isdisjoint(_SUBSCHEMA_KEYWORDS):  # a leaf, as most nodes are: no keyword to look into
        return fn(out, pointer)
    for key in MAP_KEYWORDS:
        if isinstance(out.get(key), dict):
            out[key] = {
                name: transform(sub, fn, f"{pointer}/{escape(key)}/{escape(name)}") for name, sub in out[key].items()
            }
    for key in ONE_KEYWORDS:
        if isinstance(out.get(key), dict):
            out[key] = transform(out[key], fn, f"{pointer}/{key}")
    for key in LIST_KEYWORDS:
        if isinstance(out.get(key), list):
            out[key] = [transform(sub, fn, f"{pointer}/{key}/{i}") for i, sub in enumerate(out[key])]
    return fn(out, pointer)


def strip_annotations(schema: Schema) -> Schema:
    """Remove every `x-` key from every schema node (property names starting with `x-` stay)."""
    return transform(schema, lambda node, _: {k: v for k, v in node.items() if not k.startswith("x-")})


def add_note(node: Schema, note: str) -> None:
    """Append `note` to the node's description (in place, on a node the caller owns)."""
    description = node.get("description")
    node["description"] = f"{description}\n\n{note}" if isinstance(description, str) and description else note


def render_value(value: object) -> str:
    """A compact JSON rendering of a keyword value, for notes in descriptions."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def resolve_pointer(root: object, ref: str) -> object:
    """The node a local `$ref` (`#/...`) points at in `root`; KeyError when it points at nothing."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        raise KeyError(ref)
    node = root
    for raw in ref[2:].split("/"):
        token = unescape(raw)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(ref)
    return node


class RefError(Exception):
    """A `$ref` that cannot be inlined: recursive, or pointing at nothing local."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.message = message


INLINE_LIMIT = 20_000
"""Most schema nodes inlining may produce. The largest corpus schema inlines to 68 nodes; 20,000 nodes
is far more than any request can afford (OpenAI caps a strict schema at 120,000 characters), and a
schema whose references double at every level is refused in well under a second instead of seconds."""


def inline_refs(
    schema: Schema, base: str = "", limit: int = INLINE_LIMIT, keep: frozenset[str] = frozenset()
) -> Schema:
    """`schema` with every local `$ref` replaced by its target and `$defs`/`definitions` removed.

    Keywords beside a `$ref` are kept and win over the target's. Raises `RefError` for a recursive
    or dangling reference, or when inlining would grow past `limit` nodes. A reference to a root
    `$defs` entry named in `keep` stays a reference, and that entry stays in `$defs` (its own
    references inlined the same way).
    """
    inliner = _Inliner(schema, base, limit, frozenset(f"#/$defs/{escape(name)}" for name in keep))
    result = {k: v for k, v in inliner.expand(schema, base, ()).items() if k not in ("$defs", "definitions")}
    defs = schema.get("$defs") or {}
    if keep:
        result["$defs"] = {
            n: inliner.expand(defs[n], f"{base}/$defs/{escape(n)}", ()) for n in sorted(keep) if n in defs
        }
    return result


class _Inliner:
    """One inlining of `schema`: a node budget and the references left as they are."""

    def __init__(self, schema: Schema, base: str, limit: int, kept: frozenset[str]) -> None:
        self.schema, self.base, self.limit, self.kept = schema, base, limit, kept
        self.budget = limit

    def expand(self, node: Schema, pointer: str, stack: tuple[str, ...]) -> Schema:
        """`node` with its own `$ref` replaced; `stack` holds the refs being expanded."""
        self.budget -= 1
        if self.budget < 0:
            raise RefError(pointer, f"inlining the $refs grows the schema past {self.limit} nodes")
        ref = node.get("$ref")
        if not isinstance(ref, str) or ref in self.kept:
            return self.children(node, pointer, stack)
        if ref in stack:
            raise RefError(pointer, f"$ref {ref!r} is recursive, so it cannot be inlined")
        try:
            target = resolve_pointer(self.schema, ref)
        except KeyError:
            raise RefError(pointer, f"$ref {ref!r} is not a local reference that can be inlined") from None
        if not isinstance(target, dict):
            raise RefError(pointer, f"$ref {ref!r} does not point at a schema object")
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        resolved = self.expand(target, self.base + ref[1:], (*stack, ref))
        return {**resolved, **self.children(siblings, pointer, stack)}

    def children(self, node: Schema, pointer: str, stack: tuple[str, ...]) -> Schema:
        """`node` with every subschema expanded."""
        out = dict(node)
        for key in ("properties", "patternProperties", "dependentSchemas"):
            if isinstance(out.get(key), dict):
                out[key] = {
                    n: self.expand(s, f"{pointer}/{key}/{escape(n)}", stack) if isinstance(s, dict) else s
                    for n, s in out[key].items()
                }
        for key in ONE_KEYWORDS:
            if isinstance(out.get(key), dict):
                out[key] = self.expand(out[key], f"{pointer}/{key}", stack)
        for key in LIST_KEYWORDS:
            if isinstance(out.get(key), list):
                out[key] = [
                    self.expand(s, f"{pointer}/{key}/{i}", stack) if isinstance(s, dict) else s
                    for i, s in enumerate(out[key])
                ]
        return out


def flatten_root(schema: Schema, base: str) -> tuple[Schema, list[Issue]]:
    """Remove `anyOf`/`oneOf`/`allOf` at the root, merging object branches into the root object.

    Branch properties join the root's (the root's own definition wins on a clash). `allOf` adds
    every branch's `required`; `anyOf`/`oneOf` keep only what every branch requires, and the
    alternatives are stated in the description. Returns the new schema and one issue per keyword
    (its message has a `{provider}` placeholder).
    """
    keys = [k for k in COMPOSITION if isinstance(schema.get(k), list)]
    if not keys:
        return schema, []
    out = {k: v for k, v in schema.items() if k not in COMPOSITION}
    properties = dict(out.get("properties") or {})
    required = list(out.get("required") or [])
    issues: list[Issue] = []
    for key in keys:
        branches = [b for b in schema[key] if isinstance(b, dict)]
        for branch in branches:
            for name, sub in (branch.get("properties") or {}).items():
                properties.setdefault(name, sub)
        sets = [list(b.get("required") or []) for b in branches]
        if key == "allOf":
            required += [n for s in sets for n in s if n not in required]
            note = "has a root allOf, which {provider} does not take at the top level; its branches are merged"
        else:
            common = [n for n in (sets[0] if sets else []) if all(n in s for s in sets)]
            required += [n for n in common if n not in required]
            if any(sets):
                options = " | ".join(", ".join(f"`{n}`" for n in s) or "(none)" for s in sets)
                add_note(out, f"Give {'exactly ' if key == 'oneOf' else ''}one of these sets of fields: {options}.")
            note = f"has a root {key}, which {{provider}} does not take at the top level; the description states it"
        issues.append(Issue(f"{base}/{key}", note))
    if properties:
        out["properties"] = properties
    if required:
        out["required"] = required
    return out, issues


_MERGE_UNION = ("required",)


def merge_all_of(node: Schema, *, keep_coverage: bool = False) -> tuple[Schema, str | None]:
    """`node` with its `allOf` merged into it, or `node` and why the branches cannot be merged.

    Branches merge when no two of them (or the node itself) give one keyword different values:
    `properties` join (a property given twice must be the same), `required` is the union,
    descriptions are joined and the first `title` is kept. A branch
    holding a `$ref` is not merged (its keywords are not known here). With `keep_coverage`, neither
    is an `allOf` whose merge would change what `additionalProperties` or `items` covers (`coverage`).
    """
    branches = node.get("allOf")
    if not isinstance(branches, list):
        return node, None
    if keep_coverage:
        why = coverage(node)
        if why is not None:
            return node, why
    merged: Schema = {k: v for k, v in node.items() if k != "allOf"}
    for index, branch in enumerate(branches):
        if not isinstance(branch, dict):
            return node, f"branch {index} of allOf is not a schema object"
        if "$ref" in branch:
            return node, f"branch {index} of allOf is a $ref"
        for key, value in branch.items():
            why = _merge_key(merged, key, value)
            if why is not None:
                return node, why
    return merged, None


def coverage(node: Schema) -> str | None:
    """Why merging `node`'s `allOf` into it would change what `additionalProperties` or `items` covers.

    `additionalProperties` applies to the names its own schema object does not list (`properties`,
    `patternProperties`), and `items` to the places its own `prefixItems` leave; a merge that brings
    another object's names or places beside them changes what they cover."""
    parts = [{k: v for k, v in node.items() if k != "allOf"}, *(b for b in node["allOf"] if isinstance(b, dict))]
    for holder in (p for p in parts if "additionalProperties" in p):
        names = set(holder.get("properties") or {})
        for other in parts:
            if other is not holder and (other.get("patternProperties") or set(other.get("properties") or {}) - names):
                return "merging would change which properties additionalProperties covers"
    for holder in (p for p in parts if "items" in p):
        for other in parts:
            if other is not holder and "prefixItems" in other and other["prefixItems"] != holder.get("prefixItems"):
                return "merging would change which items `items` covers"
    return None


def _merge_key(merged: Schema, key: str, value: object) -> str | None:
    """Merge one keyword of a branch into `merged` (in place), or say why it cannot be."""
    if key == "properties" and isinstance(value, dict):
        properties = dict(merged.get("properties") or {})
        for name, sub in value.items():
            if name in properties and properties[name] != sub:
                return f"two branches of allOf define the property `{name}` differently"
            properties[name] = sub
        merged["properties"] = properties
    elif key in _MERGE_UNION and isinstance(value, list):
        merged[key] = [*merged.get(key, []), *(v for v in value if v not in merged.get(key, []))]
    elif key == "description" and isinstance(value, str) and isinstance(merged.get(key), str):
        merged[key] = value if merged[key] == value else f"{merged[key]}\n\n{value}"
    elif key == "title" and key in merged:
        pass
    elif key in merged and merged[key] != value:
        return f"two branches of allOf give `{key}` different values"
    else:
        merged[key] = value
    return None


LOOKAROUND = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")
"""Lookahead, lookbehind and back-references in a regex: OpenAI's strict engine refuses them."""


def uses_lookaround(pattern: object) -> bool:
    """True when `pattern` is a string using lookaround or a back-reference."""
    return isinstance(pattern, str) and LOOKAROUND.search(pattern) is not None
