"""Masking for the docs: example values of `x-sensitive` schemas replaced before they are shown.

A value is masked when any schema that applies to it says `x-sensitive = true`: a property, an
`additionalProperties` or `patternProperties` schema, array `items` or `prefixItems`, and every
branch of `allOf`/`anyOf`/`oneOf` and local `$ref` (cycles are followed once). Masking errs on the
side of hiding: a value is masked if any branch that could describe it is sensitive.

A masked value keeps its shape, so the example still has the types its schema requires: an object
keeps its keys and an array its length, each string, number or boolean inside is replaced by a
placeholder the value's schema accepts (`***` for a string when it may be; else a value the schema
itself names, such as its `minimum` or first `enum` value), and `null` stays `null`. A placeholder
never equals the value it replaces; when no candidate fits, the string `***` is shown anyway.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
from referencing.exceptions import Unresolvable

from toolgen.frozen import thaw
from toolgen.render.schema_rows import follow_ref

MASK = "***"
"""What a sensitive string is shown as."""


def mask(value: Any, schema: Mapping[str, Any] | None) -> Any:
    """A plain copy of `value` with every sensitive part replaced by a placeholder, at any depth."""
    if schema is None:
        return thaw(value)
    root = thaw(schema)
    return _mask(thaw(value), [root], _Root(root))


def holds_sensitive(value: Any, schema: Mapping[str, Any] | None) -> bool:
    """Whether any part of `value` is sensitive (what `mask` would replace), a boolean or null included."""
    if schema is None:
        return False
    root = thaw(schema)
    return _holds(thaw(value), [root], _Root(root))


def _holds(value: Any, schemas: list[Mapping[str, Any]], root: _Root) -> bool:
    applying = _all(schemas, root)
    if any(s.get("x-sensitive") is True for s in applying):
        return True
    if isinstance(value, dict):
        return any(_holds(item, _for_key(applying, key), root) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds(item, _for_index(applying, index), root) for index, item in enumerate(value))
    return False


class _Root:
    """The root schema and a validator for it, to check placeholders against subschemas (`$ref`s resolve)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self._validator: Any = None

    def accepts(self, value: Any, schemas: list[Mapping[str, Any]]) -> bool:
        if self._validator is None:
            self._validator = jsonschema.Draft202012Validator(self.schema)
        try:
            return all(self._validator.evolve(schema=s).is_valid(value) for s in schemas)
        except (Unresolvable, jsonschema.exceptions.SchemaError):
            return True


def _applying(schema: Mapping[str, Any], root: Mapping[str, Any], seen: frozenset[str]) -> Iterator[Mapping[str, Any]]:
    """`schema` and every schema that applies alongside it through `$ref` and the combinators."""
    yield schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        target = follow_ref({"$ref": ref}, root)
        if target:
            yield from _applying(target, root, seen | {ref})
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(keyword, ()):
            if isinstance(branch, Mapping):
                yield from _applying(branch, root, seen)


def _all(schemas: list[Mapping[str, Any]], root: _Root) -> list[Mapping[str, Any]]:
    return [a for s in schemas for a in _applying(s, root.schema, frozenset())]


def _mask(value: Any, schemas: list[Mapping[str, Any]], root: _Root) -> Any:
    applying = _all(schemas, root)
    if any(s.get("x-sensitive") is True for s in applying):
        return _hidden(value, schemas, root)
    if isinstance(value, dict):
        return {key: _mask(item, _for_key(applying, key), root) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask(item, _for_index(applying, index), root) for index, item in enumerate(value)]
    return value


def _hidden(value: Any, schemas: list[Mapping[str, Any]], root: _Root) -> Any:
    """`value` with its shape kept and every string, number and boolean in it replaced."""
    if isinstance(value, dict):
        applying = _all(schemas, root)
        return {key: _hidden(item, _for_key(applying, key), root) for key, item in value.items()}
    if isinstance(value, list):
        applying = _all(schemas, root)
        return [_hidden(item, _for_index(applying, index), root) for index, item in enumerate(value)]
    if value is None:
        return None
    for candidate in _candidates(value, _all(schemas, root)):
        if (isinstance(value, bool) or candidate != value) and root.accepts(candidate, schemas):
            return candidate
    return MASK


def _candidates(value: Any, schemas: list[Mapping[str, Any]]) -> Iterator[Any]:
    """Placeholders for a scalar, most neutral first: `***`, then values the schemas themselves name."""
    named: list[Any] = []
    for schema in schemas:
        named.extend(schema.get("enum") or ())
        if "const" in schema:
            named.append(schema["const"])
    if isinstance(value, bool):
        yield from (False, True)
    elif isinstance(value, str):
        yield MASK
        yield from (v for v in named if isinstance(v, str))
        for schema in schemas:
            if isinstance(schema.get("minLength"), int):
                yield "*" * schema["minLength"]
        yield "*" * len(value)
    elif isinstance(value, int | float):
        yield 0
        yield from (v for v in named if isinstance(v, int | float) and not isinstance(v, bool))
        for schema in schemas:
            yield from _bounds(schema, integer=isinstance(value, int))


def _bounds(schema: Mapping[str, Any], *, integer: bool) -> Iterator[Any]:
    step = 1 if integer else 0.5
    for key, offset in (("minimum", 0), ("exclusiveMinimum", step), ("maximum", 0), ("exclusiveMaximum", -step)):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool):
            yield bound + offset
    if isinstance(schema.get("multipleOf"), int | float):
        yield schema["multipleOf"]


def _for_key(schemas: list[Mapping[str, Any]], key: str) -> list[Mapping[str, Any]]:
    found: list[Mapping[str, Any]] = []
    for schema in schemas:
        properties = schema.get("properties")
        if isinstance(properties, Mapping) and isinstance(properties.get(key), Mapping):
            found.append(properties[key])
            continue
        patterns = schema.get("patternProperties")
        matched = [s for p, s in (patterns or {}).items() if isinstance(s, Mapping) and _search(p, key)]
        found.extend(matched)
        extra = schema.get("additionalProperties")
        if not matched and isinstance(extra, Mapping):
            found.append(extra)
    return found


def _for_index(schemas: list[Mapping[str, Any]], index: int) -> list[Mapping[str, Any]]:
    found: list[Mapping[str, Any]] = []
    for schema in schemas:
        prefix = schema.get("prefixItems") or ()
        if index < len(prefix) and isinstance(prefix[index], Mapping):
            found.append(prefix[index])
        elif isinstance(schema.get("items"), Mapping):
            found.append(schema["items"])
    return found


def _search(pattern: str, key: str) -> bool:
    try:
        return re.search(pattern, key) is not None
    except re.error:
        return False
