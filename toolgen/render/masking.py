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
from collections.abc import Iterator, Mapping, Sequence

import jsonschema
from referencing.exceptions import Unresolvable

from toolgen.frozen import thaw
from toolgen.render.schema_rows import follow_ref

MASK = "***"
"""What a sensitive string is shown as."""


def mask(value: object, schema: Mapping[str, object] | None) -> object:
    """A plain copy of `value` with every sensitive part replaced by a placeholder, at any depth."""
    if schema is None:
        return thaw(value)
    root = thaw(schema)
    return _mask(thaw(value), [root], _Root(root))


def holds_sensitive(value: object, schema: Mapping[str, object] | None) -> bool:
    """Whether any part of `value` is sensitive (what `mask` would replace), a boolean or null included."""
    if schema is None:
        return False
    root = thaw(schema)
    return _holds(thaw(value), [root], _Root(root))


def _holds(value: object, schemas: list[Mapping[str, object]], root: _Root) -> bool:
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

    def __init__(self, schema: Mapping[str, object]) -> None:
        self.schema = schema
        self._validator: jsonschema.Draft202012Validator | None = None

    def accepts(self, value: object, schemas: list[Mapping[str, object]]) -> bool:
        if self._validator is None:
            self._validator = jsonschema.Draft202012Validator(self.schema)
        try:
            return all(self._validator.evolve(schema=s).is_valid(value) for s in schemas)
        except (Unresolvable, jsonschema.exceptions.SchemaError):
            return True


def _applying(
    schema: Mapping[str, object], root: Mapping[str, object], seen: frozenset[str]
) -> Iterator[Mapping[str, object]]:
    """`schema` and every schema that applies alongside it through `$ref` and the combinators."""
    yield schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        target = follow_ref({"$ref": ref}, root)
        if target:
            yield from _applying(target, root, seen | {ref})
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in _listed(schema.get(keyword, ())):
            if isinstance(branch, Mapping):
                yield from _applying(branch, root, seen)


def _all(schemas: list[Mapping[str, object]], root: _Root) -> list[Mapping[str, object]]:
    return [a for s in schemas for a in _applying(s, root.schema, frozenset())]


def _mask(value: object, schemas: list[Mapping[str, object]], root: _Root) -> object:
    applying = _all(schemas, root)
    if any(s.get("x-sensitive") is True for s in applying):
        return _hidden(value, schemas, root)
    if isinstance(value, dict):
        return {key: _mask(item, _for_key(applying, key), root) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask(item, _for_index(applying, index), root) for index, item in enumerate(value)]
    return value


def _hidden(value: object, schemas: list[Mapping[str, object]], root: _Root) -> object:
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


def _candidates(value: object, schemas: list[Mapping[str, object]]) -> Iterator[object]:
    """Placeholders for a scalar, most neutral first: `***`, then values the schemas themselves name."""
    named: list[object] = []
    for schema in schemas:
        named.extend(_listed(schema.get("enum") or ()))
        if "const" in schema:
            named.append(schema["const"])
    if isinstance(value, bool):
        yield from (False, True)
    elif isinstance(value, str):
        yield MASK
        yield from (v for v in named if isinstance(v, str))
        for schema in schemas:
            if isinstance(least := schema.get("minLength"), int):
                yield "*" * least
        yield "*" * len(value)
    elif isinstance(value, int | float):
        yield 0
        yield from (v for v in named if isinstance(v, int | float) and not isinstance(v, bool))
        for schema in schemas:
            yield from _bounds(schema, integer=isinstance(value, int))


def _bounds(schema: Mapping[str, object], *, integer: bool) -> Iterator[object]:
    step = 1 if integer else 0.5
    for key, offset in (("minimum", 0), ("exclusiveMinimum", step), ("maximum", 0), ("exclusiveMaximum", -step)):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool):
            yield bound + offset
    if isinstance(multiple := schema.get("multipleOf"), int | float):
        yield multiple


def _for_key(schemas: list[Mapping[str, object]], key: str) -> list[Mapping[str, object]]:
    found: list[Mapping[str, object]] = []
    for schema in schemas:
        properties = schema.get("properties")
        if isinstance(properties, Mapping) and isinstance(named := properties.get(key), Mapping):
            found.append(named)
            continue
        patterns = schema.get("patternProperties")
        pairs = patterns.items() if isinstance(patterns, Mapping) else ()
        matched = [s for p, s in pairs if isinstance(s, Mapping) and _search(p, key)]
        found.extend(matched)
        extra = schema.get("additionalProperties")
        if not matched and isinstance(extra, Mapping):
            found.append(extra)
    return found


def _for_index(schemas: list[Mapping[str, object]], index: int) -> list[Mapping[str, object]]:
    found: list[Mapping[str, object]] = []
    for schema in schemas:
        prefix = _listed(schema.get("prefixItems") or ())
        items = schema.get("items")
        at = prefix[index] if index < len(prefix) else None
        if isinstance(at, Mapping):
            found.append(at)
        elif isinstance(items, Mapping):
            found.append(items)
    return found


def _listed(value: object) -> Sequence[object]:
    """The items of a list keyword (`enum`, `prefixItems`, a combinator); nothing for another shape."""
    return value if isinstance(value, list | tuple) else ()


def _search(pattern: str, key: str) -> bool:
    try:
        return re.search(pattern, key) is not None
    except re.error:
        return False
