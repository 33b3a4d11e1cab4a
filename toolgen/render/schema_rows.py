"""Schema flattening for the docs: one table row per value a model may send, nested ones under paths.

Objects nest as `parent.child`, arrays of objects as `parent[].child` (`parent[][].child` for arrays
of arrays); array items that are not objects get their own `parent[]` row, tuple items `parent[0]`.
A map's values (`additionalProperties` or `patternProperties` schemas) are `parent.*` rows, its
key rules (`propertyNames`) are constraints of the map's row ("key pattern ..."). Each variant of
an `anyOf`/`oneOf` with more than one real branch is a `parent (variant N)` row with its fields
under it; an optional value written as `anyOf: [schema, null]` (or a one-branch `allOf`) is
expanded like the schema, and the branches of a longer `allOf` add their fields and constraints.
Local `$ref`s are followed (a cycle is shown once and not expanded again). Everything here
returns plain strings; escaping for Markdown happens in `toolgen.render.docs`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from toolgen.frozen import thaw
from toolgen.positions import unescape

MAX_DEPTH = 8
"""How deep nested objects are expanded in a table; deeper ones are shown as `object`."""

_CONSTRAINTS: tuple[tuple[str, str, bool], ...] = (
    ("format", "format", True),
    ("minLength", "min length", False),
    ("maxLength", "max length", False),
    ("pattern", "pattern", True),
    ("minimum", ">=", False),
    ("exclusiveMinimum", ">", False),
    ("maximum", "<=", False),
    ("exclusiveMaximum", "<", False),
    ("multipleOf", "multiple of", False),
    ("minItems", "min items", False),
    ("maxItems", "max items", False),
    ("minContains", "min contains", False),
    ("maxContains", "max contains", False),
    ("minProperties", "min properties", False),
    ("maxProperties", "max properties", False),
)
"""Keyword, label, and whether its value is shown as code (a pattern, a format) or as a number."""

_AS_JSON: tuple[str, ...] = (
    "contains",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
)
"""Keywords shown as their compact JSON, so that no constraint is hidden however it is written."""


@dataclass(frozen=True, slots=True)
class Constraint:
    """One constraint as text: a label, then its values (each a code span when `code`), comma-separated."""

    label: str
    values: tuple[str, ...] = ()
    code: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    """One value of a schema, flattened: path, type, required, default, constraints, description.

    `required` is None for a row that is not a property (an array item, a map value, a variant).
    """

    path: str
    type: str
    required: bool | None
    default: str
    constraints: tuple[Constraint, ...]
    description: str
    sensitive: bool


def follow_ref(schema: Mapping[str, object], root: Mapping[str, object]) -> Mapping[str, object]:
    """Follow a local `$ref` chain (`#/...`) to the schema it names; unknown refs resolve to `{}`."""
    seen: set[str] = set()
    while isinstance(ref := schema.get("$ref"), str) and ref not in seen:
        seen.add(ref)
        target: object = root
        for part in ref.removeprefix("#").strip("/").split("/") if ref != "#" else ():
            key = unescape(part)
            target = target.get(key) if isinstance(target, Mapping) else None
        if not isinstance(target, Mapping):
            return {}
        schema = target
    return schema


def schema_type_label(schema: Mapping[str, object], root: Mapping[str, object], depth: int = 0) -> str:
    """A short human type: `string`, `integer or null`, `array of object`, `enum`, `const`.

    A value with several real variants says how many: `object (one of 2 variants)`.
    """
    ref = schema.get("$ref")
    target = follow_ref(schema, root)
    if depth > MAX_DEPTH:
        return "any"
    if "const" in target:
        return "const"
    if "enum" in target:
        return "enum"
    kind = target.get("type")
    if isinstance(kind, str):
        kinds = [kind]
    elif isinstance(kind, list | tuple):
        kinds = [str(k) for k in kind]
    else:
        kinds = []
    for key in ("anyOf", "oneOf"):
        options = target.get(key)
        if isinstance(options, list | tuple):
            kinds.extend(schema_type_label(o, root, depth + 1) for o in options if isinstance(o, Mapping))
    every = target.get("allOf")
    if not kinds and isinstance(every, list | tuple):
        kinds = [
            k for k in (schema_type_label(b, root, depth + 1) for b in every if isinstance(b, Mapping)) if k != "any"
        ]
    if "array" in kinds and isinstance(of := target.get("items"), Mapping):
        items = schema_type_label(of, root, depth + 1)
        kinds = [f"array of {items}" if k == "array" else k for k in kinds]
    if not kinds and isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    shown = " or ".join(dict.fromkeys(k.split(" (", 1)[0] for k in kinds)) or "any"
    keyword, branches = variants(target, root)
    if branches:
        shown += f" ({'one' if keyword == 'oneOf' else 'any'} of {len(branches)} variants)"
    return shown


def variants(target: Mapping[str, object], root: Mapping[str, object]) -> tuple[str, list[Mapping[str, object]]]:
    """The keyword and the real (not `null`) branches of an `anyOf`/`oneOf` with more than one."""
    for key in ("oneOf", "anyOf"):
        options = target.get(key)
        if isinstance(options, list | tuple):
            real = [o for o in options if isinstance(o, Mapping) and follow_ref(o, root).get("type") != "null"]
            if len(real) > 1:
                return key, real
    return "", []


def constraints(schema: Mapping[str, object], root: Mapping[str, object], depth: int = 0) -> tuple[Constraint, ...]:
    """Every constraint of a value as short text, in a fixed order; `allOf` branches add theirs, and
    so does the one real branch of an optional value (`anyOf: [schema, null]`)."""
    target = follow_ref(schema, root)
    out: list[Constraint] = []
    if depth > MAX_DEPTH:
        return ()
    if "const" in target:
        out.append(Constraint("=", (_json(target["const"]),), code=True))
    if isinstance(enum := target.get("enum"), list | tuple):
        out.append(Constraint("one of", tuple(_json(v) for v in enum), code=True))
    for key, label, code in _CONSTRAINTS:
        if key in target:
            value = target[key]
            out.append(Constraint(label, (value if isinstance(value, str) else _json(value),), code=code))
    if target.get("uniqueItems") is True:
        out.append(Constraint("unique items"))
    names = target.get("propertyNames")
    if isinstance(names, Mapping):
        out.extend(replace(c, label=f"key {c.label}".strip()) for c in constraints(names, root, depth + 1))
    out.extend(Constraint(key, (_json(target[key]),), code=True) for key in _AS_JSON if key in target)
    every = target.get("allOf")
    if isinstance(every, list | tuple) and len(every) > 1:
        for branch in every:
            if isinstance(branch, Mapping):
                out.extend(c for c in constraints(branch, root, depth + 1) if c not in out)
    only = _only_branch(target, root)
    if only is not None:
        out.extend(c for c in constraints(only, root, depth + 1) if c not in out)
    return tuple(out)


def rows(schema: Mapping[str, object] | None) -> tuple[Row, ...]:
    """The rows of an object schema's properties, depth first, in the author's order, then the
    variants of a root `anyOf`/`oneOf` (`(variant 1)`, with the fields each one requires)."""
    if not schema:
        return ()
    found = _container(schema, schema, frozenset())
    if found is None:
        return ()
    _, branches = variants(found[0], schema)
    root_variants = (
        row
        for index, branch in enumerate(branches, start=1)
        for row in _nested(branch, schema, f"(variant {index})", 0, found[1], always=True, variant=True)
    )
    return (*_walk(found[0], schema, "", 0, found[1]), *root_variants)


def _walk(
    target: Mapping[str, object], root: Mapping[str, object], prefix: str, depth: int, refs: frozenset[str]
) -> Iterator[Row]:
    """The rows of `target`'s properties (and of the object branches of a longer `allOf`)."""
    if depth > MAX_DEPTH:
        return
    properties = target.get("properties")
    required = target.get("required")
    needed = set(required) if isinstance(required, list | tuple) else set()
    if isinstance(properties, Mapping):
        for name, prop in properties.items():
            if isinstance(prop, Mapping):
                yield _row(f"{prefix}{name}", prop, root, name in needed)
                yield from _children(prop, root, f"{prefix}{name}", depth, refs)
    every = target.get("allOf")
    if isinstance(every, list | tuple) and len(every) > 1:
        for branch in every:
            found = _container(branch, root, refs) if isinstance(branch, Mapping) else None
            if found is not None:
                yield from _walk(found[0], root, prefix, depth + 1, found[1])


def _children(
    schema: Mapping[str, object], root: Mapping[str, object], path: str, depth: int, refs: frozenset[str]
) -> Iterator[Row]:
    """The rows nested in one value: its fields (`path.x`), items (`path[]`), map values, variants."""
    found = _container(schema, root, refs)
    if found is None or depth > MAX_DEPTH:
        return
    inner, seen = found
    yield from _walk(inner, root, path + ".", depth + 1, seen)
    yield from _map_values(inner, root, path, depth, seen)
    items = inner.get("items")
    if isinstance(items, Mapping):
        yield from _nested(items, root, path + "[]", depth, seen)
    prefix = inner.get("prefixItems")
    for index, item in enumerate(prefix if isinstance(prefix, list | tuple) else ()):
        if isinstance(item, Mapping):
            yield from _nested(item, root, f"{path}[{index}]", depth, seen, always=True)
    _, branches = variants(inner, root)
    for index, branch in enumerate(branches, start=1):
        yield from _nested(branch, root, f"{path} (variant {index})", depth, seen, always=True, variant=True)


def _required(schema: Mapping[str, object], root: Mapping[str, object]) -> tuple[Constraint, ...]:
    """A variant's `required` names as a constraint ("requires `id`"), when it has them."""
    names = follow_ref(schema, root).get("required")
    if isinstance(names, list | tuple) and names:
        return (Constraint("requires", tuple(str(n) for n in names), code=True),)
    return ()


def _map_values(
    inner: Mapping[str, object], root: Mapping[str, object], path: str, depth: int, refs: frozenset[str]
) -> Iterator[Row]:
    """A map's value rows: one per `patternProperties` pattern, then the `additionalProperties` schema."""
    patterns = inner.get("patternProperties")
    if isinstance(patterns, Mapping):
        for pattern, value in patterns.items():
            if isinstance(value, Mapping):
                key = Constraint("key pattern", (str(pattern),), code=True)
                yield from _nested(value, root, path + ".*", depth, refs, always=True, first=key)
    extra = inner.get("additionalProperties")
    if isinstance(extra, Mapping):
        yield from _nested(extra, root, path + ".*", depth, refs, always=True)


def _nested(
    schema: Mapping[str, object],
    root: Mapping[str, object],
    path: str,
    depth: int,
    refs: frozenset[str],
    *,
    always: bool = False,
    first: Constraint | None = None,
    variant: bool = False,
) -> Iterator[Row]:
    """A row for a value that is not a property, then its children.

    An array item's row is left out when it would say nothing the array's row does not already
    say (`array of string`, no constraints, no description); a variant or map value always has one.
    """
    row = _row(path, schema, root, None)
    if first is not None:
        row = replace(row, constraints=(first, *row.constraints))
    if variant:  # which fields a variant requires is part of what it is
        row = replace(row, constraints=(*_required(schema, root), *row.constraints))
    if always or row.constraints or row.description:
        yield row
    yield from _children(schema, root, path, depth + 1, refs)


def _container(
    schema: Mapping[str, object], root: Mapping[str, object], refs: frozenset[str]
) -> tuple[Mapping[str, object], frozenset[str]] | None:
    """The schema whose `properties`/`items` describe the values of `schema`, with the `$ref`s followed.

    A `$ref` is followed, and a wrapper with one real branch (`anyOf`/`oneOf` of a schema and
    `null`, as an optional model is often written, or a one-branch `allOf`) is unwrapped. None when
    that would enter a `$ref` already being expanded (a cycle is shown once, not expanded again).
    """
    for _ in range(MAX_DEPTH):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            if ref in refs:
                return None
            refs = refs | {ref}
        target = follow_ref(schema, root)
        branch = _only_branch(target, root)
        if branch is None:
            return target, refs
        schema = branch
    return None


def _only_branch(target: Mapping[str, object], root: Mapping[str, object]) -> Mapping[str, object] | None:
    if "properties" in target or "items" in target or "prefixItems" in target:
        return None
    for key in ("anyOf", "oneOf"):
        options = target.get(key)
        if isinstance(options, list | tuple):
            real = [o for o in options if isinstance(o, Mapping) and follow_ref(o, root).get("type") != "null"]
            if len(real) == 1:
                return real[0]
    every = target.get("allOf")
    if isinstance(every, list | tuple) and len(every) == 1 and isinstance(every[0], Mapping):
        return every[0]
    return None


def _row(path: str, prop: Mapping[str, object], root: Mapping[str, object], required: bool | None) -> Row:
    target = follow_ref(prop, root)
    description = prop.get("description", target.get("description", ""))
    if required is None:
        title = prop.get("title", target.get("title", ""))
        parts = [t for t in (title, description) if isinstance(t, str) and t]
        description = ": ".join(parts)
    default = _json(prop["default"]) if "default" in prop else _json(target["default"]) if "default" in target else ""
    return Row(
        path=path,
        type=schema_type_label(prop, root),
        required=required,
        default=default,
        constraints=constraints(prop, root),
        description=description if isinstance(description, str) else "",
        sensitive=prop.get("x-sensitive") is True or target.get("x-sensitive") is True,
    )


def _json(value: object) -> str:
    return json.dumps(thaw(value), ensure_ascii=False)
