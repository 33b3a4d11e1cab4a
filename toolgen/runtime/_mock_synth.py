# The toolgen runtime's _mock_synth.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Synthetic JSON values derived from a JSON Schema alone: the fallback answer of a mock tool.

Needs only the standard library and jsonschema. `synthesize(schema)` returns a value that validates
against `schema` (draft 2020-12, local `$ref`s, formats included) and depends on nothing but the
schema: the same schema gives the same value in every run and on every machine. It tries a short,
fixed list of candidates per subschema and keeps the first one the validator accepts.
`with_defaults(value, schema)` fills in the defaults a schema declares for missing properties.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]

from ._mock_values import FORMATS, numbers, strings

MAX_DEPTH = 12
"""Below this depth only required properties and minimum item counts are generated."""


class SynthesisError(ValueError):
    """No value could be found that validates against the schema (for example an unsatisfiable one)."""


def synthesize(schema: Mapping[str, Any], name: str = "value") -> Any:
    """A deterministic value that validates against `schema`; raises `SynthesisError` if none is found."""
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    validator = jsonschema.Draft202012Validator(_plain(schema), format_checker=checker)
    return _Synth(validator).first(schema, name, 0)


def with_defaults(value: Any, schema: Mapping[str, Any]) -> Any:
    """A copy of `value` with the `default` of every missing property filled in, at any depth."""
    return _defaults(_plain(value), schema, schema, 0)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    seen: set[str] = set()
    while (
        isinstance(schema.get("$ref"), str)
        and schema["$ref"].startswith("#")
        and schema["$ref"] not in seen
    ):
        ref: str = schema["$ref"]
        seen.add(ref)
        node: Any = root
        for part in ref[1:].split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            elif (
                isinstance(node, (list, tuple))
                and key.isdigit()
                and int(key) < len(node)
            ):
                node = node[int(key)]
            else:
                return {}
        if not isinstance(node, Mapping):
            return {}
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**node, **rest} if rest else node
    return schema


def _defaults(value: Any, schema: Any, root: Mapping[str, Any], depth: int) -> Any:
    if not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return value
    schema = _resolve(schema, root)
    for sub in schema.get("allOf", ()):
        value = _defaults(value, sub, root, depth + 1)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key, sub in properties.items() if isinstance(properties, Mapping) else ():
            target = _resolve(sub, root) if isinstance(sub, Mapping) else {}
            if key not in value and "default" in target:
                value[key] = _plain(target["default"])
            if key in value:
                value[key] = _defaults(value[key], sub, root, depth + 1)
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        value = [_defaults(item, schema["items"], root, depth + 1) for item in value]
    return value


class _Synth:
    """Candidate generation, checked against the root validator (so `$ref`s resolve)."""

    def __init__(self, validator: jsonschema.Draft202012Validator) -> None:
        self.validator = validator
        self.root: Mapping[str, Any] = (
            validator.schema if isinstance(validator.schema, Mapping) else {}
        )

    def valid(self, value: Any, schema: Mapping[str, Any]) -> bool:
        """True when `value` validates against the subschema `schema` of the root."""
        return bool(self.validator.evolve(schema=_plain(schema)).is_valid(value))

    def first(self, schema: Any, name: str, depth: int) -> Any:
        """The first candidate that validates, or `SynthesisError`."""
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return name
        if not isinstance(schema, Mapping):
            raise SynthesisError(f"no value validates against {schema!r}")
        for candidate in self.candidates(schema, name, depth):
            if self.valid(candidate, schema):
                return candidate
        raise SynthesisError(
            f"no candidate value validates against the schema of {name!r}"
        )

    def maybe(self, schema: Any, name: str, depth: int) -> Iterator[Any]:
        """The first valid value of `schema` as a one-item iterator, or nothing."""
        try:
            yield self.first(schema, name, depth)
        except SynthesisError:
            return

    def candidates(
        self, schema: Mapping[str, Any], name: str, depth: int
    ) -> Iterator[Any]:
        """Values worth trying for `schema`, most illustrative first."""
        if "const" in schema:
            yield _plain(schema["const"])
            return
        if isinstance(schema.get("enum"), (list, tuple)):
            yield from (_plain(v) for v in schema["enum"])
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and depth <= MAX_DEPTH:
            yield from self.maybe(_resolve(schema, self.root), name, depth + 1)
        base = {
            k: v
            for k, v in schema.items()
            if k not in ("allOf", "anyOf", "oneOf", "$ref")
        }
        for option in schema.get("allOf", ()):
            base = dict(_merge(base, option, self.root))
        for keyword in ("anyOf", "oneOf"):
            for option in schema.get(keyword, ()):
                yield from self.maybe(_merge(base, option, self.root), name, depth + 1)
        if "allOf" in schema:
            yield from self.maybe(base, name, depth + 1)
        for kind in _types(schema):
            yield from self.typed(kind, schema, name, depth)

    def typed(
        self, kind: str, schema: Mapping[str, Any], name: str, depth: int
    ) -> Iterator[Any]:
        """Candidates of one JSON type."""
        if kind == "object":
            yield from self.objects(schema, depth)
        elif kind == "array":
            yield from self.arrays(schema, name, depth)
        elif kind == "string":
            yield from strings(schema, name)
        elif kind in ("integer", "number"):
            yield from numbers(schema, kind == "integer")
        elif kind == "boolean":
            yield from (True, False)
        elif kind == "null":
            yield None

    def objects(
        self, schema: Mapping[str, Any], depth: int
    ) -> Iterator[dict[str, Any]]:
        """Objects with every property, then only the required ones."""
        properties = schema.get("properties", {})
        required = [str(r) for r in schema.get("required", ())]
        everything = list(properties) if depth < MAX_DEPTH else []
        for keys in (
            everything + [r for r in required if r not in everything],
            required,
        ):
            value: dict[str, Any] = {}
            for key in keys:
                value[key] = self.property(schema, key, depth)
            extra = schema.get("additionalProperties", True)
            index = 1
            while len(value) < int(schema.get("minProperties", 0)) and index < 1000:
                key = f"key{index}"
                index += 1
                if key not in value:
                    value[key] = self.first(
                        extra if isinstance(extra, Mapping) else {}, key, depth + 1
                    )
            yield value

    def property(self, schema: Mapping[str, Any], key: str, depth: int) -> Any:
        """A value for property `key` of an object schema."""
        properties = schema.get("properties", {})
        if key in properties:
            return self.first(properties[key], key, depth + 1)
        for pattern, sub in schema.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return self.first(sub, key, depth + 1)
        extra = schema.get("additionalProperties", True)
        return self.first(extra if isinstance(extra, Mapping) else {}, key, depth + 1)

    def arrays(
        self, schema: Mapping[str, Any], name: str, depth: int
    ) -> Iterator[list[Any]]:
        """Arrays of the minimum useful length (one item unless the schema says otherwise)."""
        prefix = list(schema.get("prefixItems", ()))
        items = schema.get("items", {})
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", max(low, 1)))
        for count in dict.fromkeys(
            (max(low, min(1, high), len(prefix) if items is False else 0), low)
        ):
            value = [
                self.first(sub, f"{name}{i}", depth + 1)
                for i, sub in enumerate(prefix[:count])
            ]
            if items is not False and len(value) < count:
                pool = self.distinct(
                    items if isinstance(items, Mapping) else {},
                    name,
                    depth,
                    count - len(value),
                )
                value.extend(pool)
            contains = schema.get("contains")
            if (
                isinstance(contains, Mapping)
                and value
                and not any(self.valid(v, contains) for v in value)
            ):
                value[-1:] = list(self.maybe(contains, name, depth + 1))
            elif isinstance(contains, Mapping) and not value:
                value = list(self.maybe(contains, name, depth + 1))
            yield value

    def distinct(
        self, schema: Mapping[str, Any], name: str, depth: int, count: int
    ) -> list[Any]:
        """`count` values for array items, all different where the schema allows it."""
        found: list[Any] = []
        for candidate in self.candidates(schema, name, depth + 1):
            if candidate not in found and self.valid(candidate, schema):
                found.append(candidate)
            if len(found) == count:
                return found
        index = 0
        while len(found) < count and index < count * 4:
            index += 1
            for candidate in self.maybe(schema, f"{name}{index}", depth + 1):
                if candidate not in found or len(found) + 1 == count:
                    found.append(candidate)
        while found and len(found) < count:
            found.append(found[-1])
        return found


def _merge(
    base: Mapping[str, Any], option: Any, root: Mapping[str, Any]
) -> Mapping[str, Any]:
    if not isinstance(option, Mapping):
        return base
    option = _resolve(option, root)
    merged = dict(base)
    for key, value in option.items():
        if (
            key == "properties"
            and isinstance(merged.get(key), Mapping)
            and isinstance(value, Mapping)
        ):
            merged[key] = {**merged[key], **value}
        elif key == "required" and isinstance(merged.get(key), (list, tuple)):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        else:
            merged[key] = value
    return merged


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, (list, tuple)):
        return sorted((str(k) for k in kind), key=lambda k: k == "null")
    if any(
        k in schema
        for k in ("properties", "required", "additionalProperties", "patternProperties")
    ):
        return ["object"]
    if any(
        k in schema
        for k in ("items", "prefixItems", "minItems", "maxItems", "contains")
    ):
        return ["array"]
    if any(
        k in schema
        for k in (
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        )
    ):
        return ["number"]
    return ["string", "object", "integer", "boolean", "null"]


__all__ = ["FORMATS", "MAX_DEPTH", "SynthesisError", "synthesize", "with_defaults"]
