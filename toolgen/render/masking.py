"""Masking for the docs: example values of `x-sensitive` schemas replaced before they are shown.

A value is masked when any schema that applies to it says `x-sensitive = true`: a property, an
`additionalProperties` or `patternProperties` schema, array `items` or `prefixItems`, and every
branch of `allOf`/`anyOf`/`oneOf` and local `$ref` (cycles are followed once). Masking errs on the
side of hiding: a value is masked if any branch that could describe it is sensitive.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolgen.frozen import thaw
from toolgen.render.schema_rows import resolve

MASK = "***"
"""What a sensitive value is shown as."""


def mask(value: Any, schema: Mapping[str, Any] | None) -> Any:
    """A plain copy of `value` with every sensitive part replaced by `MASK`, at any depth."""
    if schema is None:
        return thaw(value)
    return _mask(thaw(value), schema, schema, frozenset())


def _applying(schema: Mapping[str, Any], root: Mapping[str, Any], seen: frozenset[str]) -> Iterator[Mapping[str, Any]]:
    """`schema` and every schema that applies alongside it through `$ref` and the combinators."""
    yield schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        target = resolve({"$ref": ref}, root)
        if target:
            yield from _applying(target, root, seen | {ref})
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(keyword, ()):
            if isinstance(branch, Mapping):
                yield from _applying(branch, root, seen)


def _mask(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], seen: frozenset[str]) -> Any:
    schemas = list(_applying(schema, root, seen))
    if any(s.get("x-sensitive") is True for s in schemas):
        return MASK
    if isinstance(value, dict):
        return {key: _mask_all(item, _for_key(schemas, key), root) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask_all(item, _for_index(schemas, index), root) for index, item in enumerate(value)]
    return value


def _mask_all(value: Any, schemas: list[Mapping[str, Any]], root: Mapping[str, Any]) -> Any:
    for schema in schemas:
        value = _mask(value, schema, root, frozenset())
        if value == MASK:
            break
    return value


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
