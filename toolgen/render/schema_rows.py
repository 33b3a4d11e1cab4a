"""Schema flattening for the docs: one table row per property, nested ones under dotted paths.

Objects nest as `parent.child`, arrays of objects as `parent[].child` (`parent[][].child` for arrays
of arrays). Local `$ref`s are followed (a cycle is shown once and not expanded again), and an
optional object written as `anyOf: [object, null]` (or a one-branch `allOf`) is expanded like the
object. Everything here returns plain strings; escaping for Markdown happens in
`toolgen.render.docs`, where the rows become table cells.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from toolgen.frozen import thaw
from toolgen.positions import unescape

MAX_DEPTH = 8
"""How deep nested objects are expanded in a table; deeper ones are shown as `object`."""

_CONSTRAINTS: tuple[tuple[str, str], ...] = (
    ("format", "format: {}"),
    ("minLength", "min length {}"),
    ("maxLength", "max length {}"),
    ("pattern", "pattern {}"),
    ("minimum", ">= {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "<= {}"),
    ("exclusiveMaximum", "< {}"),
    ("multipleOf", "multiple of {}"),
    ("minItems", "min items {}"),
    ("maxItems", "max items {}"),
    ("minProperties", "min properties {}"),
    ("maxProperties", "max properties {}"),
)


@dataclass(frozen=True, slots=True)
class Row:
    """One property of a schema, flattened: path, type, required, default, constraints, description."""

    path: str
    type: str
    required: bool
    default: str
    constraints: tuple[str, ...]
    description: str
    sensitive: bool


def resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """Follow a local `$ref` chain (`#/...`) to the schema it names; unknown refs resolve to `{}`."""
    seen: set[str] = set()
    while isinstance(schema.get("$ref"), str) and schema["$ref"] not in seen:
        ref = schema["$ref"]
        seen.add(ref)
        target: Any = root
        for part in ref.removeprefix("#").strip("/").split("/") if ref != "#" else ():
            key = unescape(part)
            target = target.get(key) if isinstance(target, Mapping) else None
        if not isinstance(target, Mapping):
            return {}
        schema = target
    return schema


def type_name(schema: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """A short human type: `string`, `integer | null`, `array of object`, `enum`, `const`."""
    ref = schema.get("$ref")
    target = resolve(schema, root)
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
            kinds.extend(type_name(o, root) for o in options if isinstance(o, Mapping))
    every = target.get("allOf")
    if not kinds and isinstance(every, list | tuple):
        kinds = [k for k in (type_name(b, root) for b in every if isinstance(b, Mapping)) if k != "any"]
    if "array" in kinds and isinstance(target.get("items"), Mapping):
        kinds = [f"array of {type_name(target['items'], root)}" if k == "array" else k for k in kinds]
    if not kinds and isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    return " | ".join(dict.fromkeys(kinds)) or "any"


def constraints(schema: Mapping[str, Any], root: Mapping[str, Any]) -> tuple[str, ...]:
    """Every constraint of a property as short text, in a fixed order."""
    target = resolve(schema, root)
    out: list[str] = []
    if "const" in target:
        out.append("= " + _json(target["const"]))
    if isinstance(target.get("enum"), list | tuple):
        out.append("one of " + ", ".join(_json(v) for v in target["enum"]))
    for key, text in _CONSTRAINTS:
        if key in target:
            value = target[key]
            out.append(text.format(value if isinstance(value, str) else _json(value)))
    if target.get("uniqueItems") is True:
        out.append("unique items")
    return tuple(out)


def rows(schema: Mapping[str, Any] | None) -> tuple[Row, ...]:
    """The rows of an object schema's properties, depth first, in the author's order."""
    if not schema:
        return ()
    found = _container(schema, schema, frozenset())
    return tuple(_walk(found[0], schema, "", 0, found[1])) if found else ()


def _walk(
    target: Mapping[str, Any], root: Mapping[str, Any], prefix: str, depth: int, refs: frozenset[str]
) -> Iterator[Row]:
    properties = target.get("properties")
    if not isinstance(properties, Mapping) or depth > MAX_DEPTH:
        return
    required = target.get("required")
    needed = set(required) if isinstance(required, list | tuple) else set()
    for name, prop in properties.items():
        if isinstance(prop, Mapping):
            yield _row(f"{prefix}{name}", prop, root, name in needed)
            yield from _children(prop, root, f"{prefix}{name}", depth, refs)


def _children(
    schema: Mapping[str, Any], root: Mapping[str, Any], path: str, depth: int, refs: frozenset[str]
) -> Iterator[Row]:
    """The rows nested in one property: its object's properties (`path.x`), its items' (`path[].x`), ..."""
    found = _container(schema, root, refs)
    if found is None or depth > MAX_DEPTH:
        return
    inner, seen = found
    yield from _walk(inner, root, path + ".", depth + 1, seen)
    items = inner.get("items")
    if isinstance(items, Mapping):
        yield from _children(items, root, path + "[]", depth + 1, seen)


def _container(
    schema: Mapping[str, Any], root: Mapping[str, Any], refs: frozenset[str]
) -> tuple[Mapping[str, Any], frozenset[str]] | None:
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
        target = resolve(schema, root)
        branch = _only_branch(target, root)
        if branch is None:
            return target, refs
        schema = branch
    return None


def _only_branch(target: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if "properties" in target or "items" in target:
        return None
    for key in ("anyOf", "oneOf"):
        options = target.get(key)
        if isinstance(options, list | tuple):
            real = [o for o in options if isinstance(o, Mapping) and resolve(o, root).get("type") != "null"]
            if len(real) == 1:
                return real[0]
    every = target.get("allOf")
    if isinstance(every, list | tuple) and len(every) == 1 and isinstance(every[0], Mapping):
        return every[0]
    return None


def _row(path: str, prop: Mapping[str, Any], root: Mapping[str, Any], required: bool) -> Row:
    target = resolve(prop, root)
    description = prop.get("description", target.get("description", ""))
    default = _json(prop["default"]) if "default" in prop else _json(target["default"]) if "default" in target else ""
    return Row(
        path=path,
        type=type_name(prop, root),
        required=required,
        default=default,
        constraints=constraints(prop, root),
        description=description if isinstance(description, str) else "",
        sensitive=prop.get("x-sensitive") is True or target.get("x-sensitive") is True,
    )


def _json(value: Any) -> str:
    return json.dumps(thaw(value), ensure_ascii=False)
