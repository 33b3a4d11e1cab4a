"""Schema checks: size and depth, JSON-representable values, the draft 2020-12 metaschema, `$ref`s,
misspelled keywords, and examples validated against the schemas.

Nothing here is recursive over author data until `walk_limits` has proved the document shallow
enough, and nothing is ever fetched: jsonschema gets a `referencing.Registry` that refuses retrieval.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

import jsonschema
import jsonschema_specifications  # type: ignore[import-untyped]
import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator

from toolgen.positions import join, unescape
from toolgen.validate.report import Reporter, did_you_mean
from toolgen.validate.schemarules import FORMAT_CHECKER, check_node
from toolgen.validate.schemawalk import KEYWORDS, children

MAX_DEPTH = 64
"""Deepest nesting of tables/arrays a contract may have (TG127)."""


def _refuse(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]
"""A registry that never fetches: any non-local `$ref` stays unresolvable."""


def _swap_dynamic(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _swap_dynamic(v) for k, v in node.items() if k != "$dynamicRef"}
        ref = out.get("$ref")
        if isinstance(ref, str) and "#/$defs/" in ref:
            out["$ref"] = ref[ref.index("#/$defs/") :]  # `meta/validation#/$defs/x`: now merged here
        return {"$ref": "#", **out} if node.get("$dynamicRef") == "#meta" else out
    if isinstance(node, list):
        return [_swap_dynamic(v) for v in node]
    return node


def flat_metaschema() -> dict[str, Any]:
    """The draft 2020-12 metaschema with its seven vocabularies merged into one schema.

    Same verdicts and error paths as the official one (a test checks this on thousands of real
    schemas), about five times faster: no `allOf` of seven parts and no `$dynamicRef` scope walk,
    since `#meta` always means the root here.
    """
    top = Draft202012Validator.META_SCHEMA
    properties: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for part in top["allOf"]:
        vocabulary = jsonschema_specifications.REGISTRY.contents(
            f"https://json-schema.org/draft/2020-12/{part['$ref']}"
        )
        properties.update(vocabulary.get("properties", {}))
        defs.update(vocabulary.get("$defs", {}))
    properties.update(top.get("properties", {}))
    flat: dict[str, Any] = _swap_dynamic({"type": ["object", "boolean"], "properties": properties, "$defs": defs})
    return flat


_META = Draft202012Validator(flat_metaschema(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def walk_limits(data: Any, report: Reporter) -> bool:
    """Check depth (TG127) and JSON-representable values (TG126) without recursion; False if too deep."""
    stack: list[tuple[str, Any, int]] = [("", data, 0)]
    while stack:
        pointer, value, depth = stack.pop()
        if depth > MAX_DEPTH:
            report("TG127", pointer, f"nested more than {MAX_DEPTH} levels deep; flatten it or use $defs and $ref")
            return False
        if isinstance(value, dict):
            stack.extend((join(pointer, k), v, depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((join(pointer, i), v, depth + 1) for i, v in enumerate(value))
        elif isinstance(value, datetime.date | datetime.time):
            report(
                "TG126",
                pointer,
                f'a TOML {type(value).__name__} cannot be written as JSON; quote it, like "{value.isoformat()}"',
            )
        elif isinstance(value, float) and not math.isfinite(value):
            report("TG126", pointer, f"{value} is not a JSON number; use a finite number or leave it out")
    return True


def subschemas(schema: Mapping[str, Any], pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every (pointer, schema object) inside `schema`, itself first (iterative, document order)."""
    stack: list[tuple[str, Any]] = [(pointer, schema)]
    while stack:
        here, node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield here, node
        stack.extend(reversed(list(children(node, here))))


def check_schema(schema: Any, pointer: str, report: Reporter) -> bool:
    """Check one schema (TG114-TG118, TG213, TG216-TG221); True when it is sound enough to validate examples with."""
    label = pointer.lstrip("/")
    if not isinstance(schema, dict):
        report("TG114", pointer, f'`{label}` must be a table/object holding a JSON Schema, like {{ type = "object" }}')
        return False
    before = len(report.found)
    if schema.get("type") != "object":
        got = f"is {schema['type']!r}" if "type" in schema else "is missing"
        report(
            "TG115",
            pointer,
            f'the root `type` of `{label}` {got}; it must be "object" (wrap other values in a property)',
        )
    for error in sorted(_META.iter_errors(schema), key=lambda e: [str(p) for p in e.absolute_path]):
        where = join(pointer, *error.absolute_path)
        report("TG116", where, f"not valid JSON Schema (draft 2020-12): {_meta_message(error)}")
    for here, node in subschemas(schema, pointer):
        _check_refs(schema, here, node, report)
        _check_keywords(here, node, report)
        check_node(here, node, report)
    check_ref_cycles(schema, pointer, report)
    return not any(d.code in ("TG114", "TG116", "TG117", "TG118") for d in report.found[before:])


def _meta_message(error: jsonschema.ValidationError) -> str:
    message = str(error.message)
    if error.validator == "type" and error.instance in _TYPE_NAMES:
        return f'{message}; a schema is a table/object: write {{ type = "{error.instance}" }}'
    if error.validator == "type":
        return f"{message}; change the value's type"
    if (error.path and error.path[-1] == "type") or (error.validator == "anyOf" and "type" in error.schema_path):
        return (
            f"{error.instance!r} is not a JSON Schema type; use one of "
            "array, boolean, integer, null, number, object, string"
        )
    if error.validator == "format" and error.validator_value == "regex":
        return f"{error.instance!r} is not a valid regular expression; fix it (escape a literal * + ? ( [ with \\)"
    return message + _META_HINTS.get(str(error.validator), "; see the JSON Schema 2020-12 meaning of this keyword")


_TYPE_NAMES = ("array", "boolean", "integer", "null", "number", "object", "string")


_META_HINTS: Mapping[str, str] = {
    "minimum": "; use a larger number",
    "exclusiveMinimum": "; use a larger number",
    "uniqueItems": "; remove the repeated entry",
    "minItems": "; add at least one entry",
    "pattern": "; change the value to match",
    "format": "; fix the value's syntax",
    "enum": "; use one of the allowed values",
}


def _check_refs(root: Mapping[str, Any], here: str, node: Mapping[str, Any], report: Reporter) -> None:
    for keyword in ("$ref", "$dynamicRef"):
        ref = node.get(keyword)
        if not isinstance(ref, str):
            continue
        where = join(here, keyword)
        if not ref.startswith("#"):
            report(
                "TG117",
                where,
                f"{keyword} {ref!r} points outside this contract and toolgen never fetches anything; "
                "copy the definition into `$defs` and use a local reference like '#/$defs/name'",
            )
        elif resolve(root, ref[1:]) is None:
            names = sorted(root.get("$defs", {})) if isinstance(root.get("$defs"), Mapping) else []
            hint = did_you_mean(ref[1:].rsplit("/", 1)[-1], names) if names else ""
            report(
                "TG118",
                where,
                f"{keyword} {ref!r} does not point at a schema in this document{hint}; define it under `$defs`",
            )


def resolve(root: Mapping[str, Any], fragment: str) -> str | None:
    """The pointer (relative to `root`) of the schema a local fragment names, or None."""
    if not fragment.startswith("/"):
        if not fragment:
            return ""
        for here, schema in subschemas(root, ""):
            if fragment in (schema.get("$anchor"), schema.get("$dynamicAnchor")):
                return here
        return None
    node: Any = root
    for raw in unquote(fragment)[1:].split("/"):
        token = unescape(raw)
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return unquote(fragment) if isinstance(node, Mapping | bool) else None


_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")


def _in_place(root: Mapping[str, Any], here: str, node: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(keyword pointer, target) for every schema applied to the same value as `node`."""
    edges: list[tuple[str, str]] = []
    ref = node.get("$ref")
    target = resolve(root, ref[1:]) if isinstance(ref, str) and ref.startswith("#") else None
    if target is not None:
        edges.append((join(here, "$ref"), target))
    edges += [(join(here, k), join(here, k)) for k in _IN_PLACE_ONE if isinstance(node.get(k), Mapping)]
    for key in _IN_PLACE_LISTS:
        items = node.get(key)
        if isinstance(items, list):
            edges += [(join(here, key, i), join(here, key, i)) for i in range(len(items))]
    return edges


def check_ref_cycles(root: Mapping[str, Any], pointer: str, report: Reporter) -> None:
    """TG118 for a `$ref` that leads back to itself without descending into a property or an item.

    Only `$ref` edges can point back up the tree, so every such cycle holds one; it is reported there.
    """
    graph = {here: _in_place(root, here, node) for here, node in subschemas(root, "")}
    done: set[str] = set()
    for start in graph:
        if start in done:
            continue
        trail: list[tuple[str, str]] = [("", start)]  # (edge that entered, node) on the current path
        cursor: list[int] = [0]
        while trail:
            node = trail[-1][1]
            edges = graph.get(node, [])
            if cursor[-1] >= len(edges):
                done.add(node)
                trail.pop()
                cursor.pop()
                continue
            via, target = edges[cursor[-1]]
            cursor[-1] += 1
            on_path = [n for _, n in trail]
            if target in on_path:
                loop = [e for e, _ in trail[on_path.index(target) + 1 :]] + [via]
                where = next(e for e in loop if e.endswith("/$ref"))
                report(
                    "TG118",
                    pointer + where,
                    "this $ref leads back to itself without descending into a property or an item, so "
                    "checking a value against it never ends; point it at a different schema",
                )
            elif target not in done and target in graph:
                trail.append((via, target))
                cursor.append(0)


def _check_keywords(here: str, node: Mapping[str, Any], report: Reporter) -> None:
    for key in node:
        if key in KEYWORDS or key.startswith("x-"):
            continue
        hint = did_you_mean(key, KEYWORDS, cutoff=0.75)
        if hint:
            report(
                "TG213",
                join(here, key),
                f"{key!r} is not a JSON Schema keyword, so it is ignored{hint} (prefix custom keys with `x-`)",
            )


def check_defaults(schema: Mapping[str, Any], pointer: str, report: Reporter) -> None:
    """TG214: each `default` in a sound schema must match the schema it sits in (formats checked)."""
    root = Draft202012Validator(schema, registry=REGISTRY, format_checker=FORMAT_CHECKER)
    for here, node in subschemas(schema, pointer):
        if "default" not in node:
            continue
        try:
            shown = json.dumps(node["default"], ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            continue  # not JSON at all: TG126
        try:
            error = next(root.evolve(schema=node).iter_errors(node["default"]), None)
        except (referencing.exceptions.Unresolvable, jsonschema.exceptions.SchemaError, RecursionError):
            continue  # reported by the $ref and metaschema checks
        if error is not None:
            report(
                "TG214",
                join(here, "default"),
                f"the default {shown[:80]} does not match its own schema ({error.message}); "
                "fix the default or remove it",
            )


def validate_instance(schema: Mapping[str, Any], instance: Any, pointer: str, code: str, report: Reporter) -> None:
    """Report every way `instance` fails `schema` (formats checked), at pointers under `pointer`."""
    validator = Draft202012Validator(schema, registry=REGISTRY, format_checker=FORMAT_CHECKER)
    what = "input" if code == "TG119" else "output"
    try:
        errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    except (referencing.exceptions.Unresolvable, jsonschema.exceptions.SchemaError) as exc:
        report(code, pointer, f"the example cannot be checked against the {what} schema: {exc}")
        return
    except RecursionError:
        report(code, pointer, f"the example cannot be checked: the {what} schema nests or refers too deeply")
        return
    for error in errors:
        where = join(pointer, *error.absolute_path)
        report(
            code,
            where,
            f"example {what} does not match the {what} schema: {error.message}; fix the example or the schema",
        )
