"""An instance oracle for schema compatibility: look for a value that breaks a change.

A change is breaking in the input role when a value the old schema accepts is refused by the new
one; in the output role when a value the new schema allows was not allowed before. `sides` gives
the schema values are drawn from and the schema that must still accept them, for a role and an
assumption (`declared`: callers send only declared input properties, so old values are drawn with
every open object closed; consumers ignore unknown output keys, so the old output schema judges
with `additionalProperties: false` lifted. `strict`: the schemas as written).

Candidates are boundary values derived from both schemas (each property path set to the values of
a palette: every JSON type, enum and const values, bounds and one past them, lengths around each
length bound, or left out) around a minimal valid value, plus hypothesis-jsonschema draws; every
verdict is jsonschema's (draft 2020-12, formats asserted).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

Schema = dict[str, Any]
Path = tuple[str, ...]
ITEM = "[]"
"""A path step into an array's elements."""

_GENERIC: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2.5, 10**9, "", "a", "aaaa", "x" * 300, [], [1], {}, {"k": "v"},
    "abc", "abc1", "1", "ABC", "a-b", "a b", "2024-01-01", "https://example.com/", "x@example.com",
)  # fmt: skip
_MAX_DEPTH = 4


def _validator(schema: Any) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _objectish(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return "properties" in node or kind == "object" or (isinstance(kind, list) and "object" in kind)


def _rewrite(node: Any, change: Any, in_all_of: bool = False) -> Any:
    """`node` with `change(node)` applied to every subschema (not inside `allOf` branches)."""
    if isinstance(node, list):
        return [_rewrite(v, change, in_all_of) for v in node]
    if not isinstance(node, dict):
        return node
    out: Schema = {}
    for key, value in node.items():
        if key in ("enum", "const", "default", "examples", "required"):
            out[key] = value
        elif key in ("properties", "$defs", "definitions", "patternProperties") and isinstance(value, dict):
            out[key] = {k: _rewrite(v, change) for k, v in value.items()}
        else:
            out[key] = _rewrite(value, change, in_all_of or key == "allOf")
    return out if in_all_of else change(out)


def _close(node: Schema) -> Schema:
    open_ = node.get("additionalProperties", True) in (True, {})
    return {**node, "additionalProperties": False} if _objectish(node) and open_ else node


def _lift(node: Schema) -> Schema:
    return (
        {k: v for k, v in node.items() if k != "additionalProperties"}
        if node.get("additionalProperties") is False
        else node
    )


def sides(old: Schema, new: Schema, role: str, assume: str) -> tuple[Schema, Schema]:
    """(schema values come from, schema that must accept them) for `role` input/output and `assume`."""
    declared = assume == "declared"
    if role == "input":
        return (_rewrite(old, _close) if declared else old), new
    return new, (_rewrite(old, _lift) if declared else old)


def _resolve(node: Any, root: Schema) -> Any:
    for _ in range(8):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/")):
            return node
        target: Any = root
        for token in node["$ref"][2:].split("/"):
            target = target.get(token.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _nodes(node: Any, root: Schema) -> Iterator[Schema]:
    """The schema and its combinator branches, resolved."""
    node = _resolve(node, root)
    if isinstance(node, dict):
        yield node
        for key in ("anyOf", "oneOf", "allOf"):
            for branch in node.get(key, []) if isinstance(node.get(key), list) else []:
                yield from _nodes(branch, root)


def _paths(schema: Schema, root: Schema, prefix: Path = ()) -> Iterator[tuple[Path, Schema]]:
    """Every property path (and array element path) with a schema found there."""
    if len(prefix) > _MAX_DEPTH:
        return
    for node in _nodes(schema, root):
        yield prefix, node
        if _objectish(node):
            yield (*prefix, "zz_undeclared"), {}
        for name, sub in (node.get("properties") or {}).items():
            yield from _paths(sub, root, (*prefix, name))
        if isinstance(node.get("items"), dict):
            yield from _paths(node["items"], root, (*prefix, ITEM))
        if isinstance(node.get("additionalProperties"), dict):
            yield from _paths(node["additionalProperties"], root, (*prefix, "zz_key"))


def _around(node: Schema) -> list[Any]:
    values: list[Any] = [*node.get("enum", []), *([node["const"]] if "const" in node else [])]
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if isinstance(node.get(key), int | float) and not isinstance(node.get(key), bool):
            values += [node[key] + step for step in (-1, -0.5, 0, 0.5, 1)]
    for key in ("minLength", "maxLength"):
        if isinstance(node.get(key), int) and node[key] < 2000:
            values += ["a" * max(0, node[key] + step) for step in (-1, 0, 1)]
    for key in ("minItems", "maxItems"):
        if isinstance(node.get(key), int) and node[key] < 50:
            values += [[1] * max(0, node[key] + step) for step in (-1, 0, 1)]
    if "default" in node:
        values.append(node["default"])
    return values


def minimal(schema: Any, root: Schema, depth: int = 0) -> Any:
    """A small value meant to be valid for `schema` (checked by the caller)."""
    node = _resolve(schema, root)
    if not isinstance(node, dict) or depth > _MAX_DEPTH * 2:
        return None
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(node.get(key), list) and node[key] and "type" not in node:
            return minimal(node[key][0], root, depth + 1)
    return _typed_minimal(node, root, depth)


def _typed_minimal(node: Schema, root: Schema, depth: int) -> Any:
    kinds = node.get("type") or ("object" if "properties" in node else None)
    kind = next((k for k in kinds if k != "null"), "null") if isinstance(kinds, list) else kinds
    props = node.get("properties") or {}
    simple: dict[Any, Any] = {"string": "a" * node.get("minLength", 1), "boolean": False, "null": None}
    if kind == "object":
        return {n: minimal(props.get(n, {}), root, depth + 1) for n in node.get("required", []) if isinstance(n, str)}
    if kind == "array":
        return [minimal(node.get("items", {}), root, depth + 1)] * node.get("minItems", 0)
    if kind in ("integer", "number"):
        low = node.get("minimum", node.get("exclusiveMinimum", -1) + 1)
        return int(low) if isinstance(low, int | float) else 0
    return simple.get(kind, "a")


def _set(value: Any, path: Path, leaf: Any) -> Any:
    if not path:
        return leaf
    step, rest = path[0], path[1:]
    if step == ITEM:
        first = value[0] if isinstance(value, list) and value else {}
        return [_set(first, rest, leaf), *(value[1:] if isinstance(value, list) else [])]
    out = dict(value) if isinstance(value, dict) else {}
    if rest == () and leaf is _OUT:
        out.pop(step, None)
    else:
        out[step] = _set(out.get(step), rest, leaf)
    return out


_OUT = object()
"""A path's value left out."""


def candidates(source: Schema, target: Schema, bases: list[Any]) -> Iterator[Any]:
    """Boundary values: each base with one path set to each palette value (or left out)."""
    paths: dict[Path, list[Any]] = {}
    for root in (source, target):
        for path, node in _paths(root, root):
            paths.setdefault(path, list(_GENERIC))
            paths[path].extend(v for v in _around(node) if v not in paths[path])
    yield from bases
    for base in bases:
        for path, palette in sorted(paths.items()):
            for leaf in [*palette, *([_OUT] if path else [])]:
                yield _set(copy.deepcopy(base), path, leaf)


def draws(schema: Schema, count: int) -> list[Any]:
    """`count` values drawn by hypothesis-jsonschema, the same on every run (none if it cannot)."""
    found: list[Any] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(from_schema(schema))
    def collect(value: Any) -> None:
        found.append(value)

    try:
        collect()
    except Exception:
        return []
    return found


def witness(source: Schema, target: Schema, extra: list[Any] = ()) -> tuple[bool, Any]:  # type: ignore[assignment]
    """(True, value) for the first value `source` accepts and `target` refuses, else (False, None)."""
    accepts, judge = _validator(source), _validator(target)
    bases = [b for b in (minimal(source, source), *extra) if accepts.is_valid(b)]
    if not bases:  # the minimal value missed (an `allOf`, a pattern): start from drawn ones
        bases = [b for b in draws(source, 2) if accepts.is_valid(b)] or [minimal(source, source)]
    for value in candidates(source, target, bases):
        if accepts.is_valid(value) and not judge.is_valid(value):
            return True, value
    return False, None
