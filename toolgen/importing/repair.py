"""Repairs for tool declarations written elsewhere: what real catalogs get wrong, fixed and reported.

Each repair returns the fixed value and appends a `Repair(pointer, message)` per change, the pointer
being RFC 6901 into the source record. `toolgen import` applies them with `--repair`; without it, the
same notes become errors that say what `--repair` would do. Decisions:
- names become snake_case (dots, camelCase, hyphens, spaces, other characters), at most 64 characters;
- a description longer than a provider accepts is cut at a paragraph, sentence or word end (`shorten`);
- `type` names from Python, Java and JavaScript (`dict`, `float`, `tuple`, `String`, `HashMap`, ...)
  become JSON Schema types; `any` and unknown names drop the type (any value); OpenAPI `nullable`
  becomes a `null` type;
- a property's `"optional": true` (or `"required": false`) takes it out of the parent's `required`,
  `"optional": false` (or `"required": true`) puts it in; the non-standard key is removed;
- a `default` whose type does not match the node's `type` (or is not one of its `enum`) is dropped;
- `required` names missing from `properties`, duplicates and non-strings are dropped;
- `$schema` (draft-07 from zod-to-json-schema and others) is removed everywhere;
- a root without `type` becomes `type: "object"`; draft-07 array `items` become `prefixItems`;
- anything still invalid against the draft 2020-12 metaschema is removed, keyword by keyword.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.positions import join
from toolgen.validate.schemawalk import children

MAX_NAME = 64
"""Longest tool name a contract may have."""

JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")

TYPE_ALIASES: dict[str, str | None] = {
    **{t: t for t in JSON_TYPES},
    **dict.fromkeys(("dict", "map", "hashmap", "treemap", "linkedhashmap", "record", "struct", "json"), "object"),
    **dict.fromkeys(("float", "double", "decimal", "bigdecimal", "numeric", "real", "float64", "float32"), "number"),
    **dict.fromkeys(("int", "long", "short", "byte", "bigint", "biginteger", "int32", "int64", "uint"), "integer"),
    **dict.fromkeys(("str", "char", "character", "text", "date", "datetime", "uuid", "path", "url"), "string"),
    **dict.fromkeys(("bool",), "boolean"),
    **dict.fromkeys(("list", "tuple", "set", "arraylist", "linkedlist", "vector", "collection", "sequence"), "array"),
    **dict.fromkeys(("none", "nonetype", "nil", "void"), "null"),
    **dict.fromkeys(("any", "", "mixed", "unknown", "*"), None),
}
"""Lower-cased type names seen in real catalogs, mapped to a JSON Schema type (None: any value)."""

_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "object": dict,
    "array": list,
    "boolean": bool,
    "number": (int, float),
    "integer": int,
}
_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


@dataclass(frozen=True, slots=True)
class Repair:
    """One change made to a declaration: where (RFC 6901 into the source record) and what."""

    pointer: str
    message: str


def snake_case(name: str) -> str:
    """`math.sum` → `math_sum`, `getUserID` → `get_user_id`, `lol-champion` → `lol_champion`; may be empty."""
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    text = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()
    text = re.sub(r"_+", "_", text)
    if text and not text[0].isalpha():
        text = "tool_" + text
    return text[:MAX_NAME].rstrip("_")


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at the last paragraph, sentence or word end that fits."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    for mark in ("\n\n", ". ", ".\n", "; ", "\n", " "):
        cut = head.rfind(mark)
        if cut > limit // 2:
            return head[: cut + (1 if mark.startswith(".") else 0)].rstrip()
    return head.rstrip()


def fix_type(value: Any, where: str, notes: list[Repair]) -> tuple[bool, Any]:
    """The JSON Schema form of a `type` value: (keep, new value); keep is False for 'any value'."""
    names = value if isinstance(value, list) else [value]
    mapped: list[str] = []
    for name in names:
        if name in JSON_TYPES:
            mapped.append(name)
            continue
        base = re.split(r"[<\[(]", str(name), maxsplit=1)[0].strip().lower() if isinstance(name, str) else "?"
        target = TYPE_ALIASES.get(base)
        if target is None:
            notes.append(Repair(where, f"type {name!r} is not a JSON Schema type; removed it (any value is accepted)"))
            return False, None
        notes.append(Repair(where, f"type {name!r} is not a JSON Schema type; now {target!r}"))
        mapped.append(target)
    unique = list(dict.fromkeys(mapped))
    return True, unique if isinstance(value, list) else unique[0]


def _matches(value: Any, node: dict[str, Any]) -> bool:
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    if kinds:
        ok = False
        for name in kinds:
            if name == "null":
                ok = ok or value is None
            elif name in _PYTHON_TYPES:
                wanted = _PYTHON_TYPES[name]
                good = isinstance(value, wanted) and not (isinstance(value, bool) and name != "boolean")
                if name == "integer" and isinstance(value, float):
                    good = value.is_integer()
                ok = ok or good
        if not ok:
            return False
    enum = node.get("enum")
    return not (isinstance(enum, list) and value not in enum)


def _fix_node_keys(node: dict[str, Any], where: str, notes: list[Repair]) -> None:
    if "$schema" in node:
        notes.append(
            Repair(join(where, "$schema"), f"removed $schema {node.pop('$schema')!r} (contracts are draft 2020-12)")
        )
    if "type" in node:
        keep, new = fix_type(node["type"], join(where, "type"), notes)
        if keep:
            node["type"] = new
        else:
            del node["type"]
    if isinstance(node.get("nullable"), bool):
        nullable = node.pop("nullable")
        if nullable and isinstance(node.get("type"), str):
            node["type"] = [node["type"], "null"]
        notes.append(Repair(join(where, "nullable"), "OpenAPI `nullable` became a `null` type"))
    if isinstance(node.get("items"), list):
        node["prefixItems"] = node.pop("items")
        notes.append(Repair(join(where, "items"), "draft-07 list form of `items` became `prefixItems`"))
    if "default" in node and not _matches(node["default"], node):
        notes.append(
            Repair(join(where, "default"), f"default {node.pop('default')!r} does not match the type or enum; dropped")
        )


def _fix_properties(node: dict[str, Any], where: str, notes: list[Repair]) -> None:
    props = node.get("properties")
    if props is None:
        return
    if not isinstance(props, dict):
        notes.append(Repair(join(where, "properties"), "`properties` is not an object; removed"))
        del node["properties"]
        return
    required = node.get("required")
    wanted = list(required) if isinstance(required, list) else []
    for name, prop in list(props.items()):
        here = join(where, "properties", name)
        if isinstance(prop, str):
            notes.append(Repair(here, f"property given as the bare type {prop!r}; now a schema"))
            props[name] = {"type": prop}
            prop = props[name]  # noqa: PLW2901 - the bare type is replaced by its schema
        if not isinstance(prop, dict | bool):
            notes.append(Repair(here, "property schema is not an object; removed the property"))
            del props[name]
            continue
        if not isinstance(prop, dict):
            continue
        for flag, optional_when in (("optional", True), ("required", False)):
            if isinstance(prop.get(flag), bool):
                optional = prop.pop(flag) is optional_when
                if optional and name in wanted:
                    wanted.remove(name)
                elif not optional and name not in wanted:
                    wanted.append(name)
                state = "optional" if optional else "required"
                notes.append(Repair(join(here, flag), f"non-standard `{flag}` honoured: {name!r} is {state}"))
    if wanted or "required" in node:
        node["required"] = wanted


def _fix_required(node: dict[str, Any], where: str, notes: list[Repair]) -> None:
    if "required" not in node:
        return
    required = node["required"]
    if not isinstance(required, list):
        notes.append(Repair(join(where, "required"), "`required` is not a list of names; removed"))
        del node["required"]
        return
    props: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
    kept: list[str] = []
    for index, name in enumerate(required):
        if not isinstance(name, str) or name not in props:
            notes.append(Repair(join(where, "required", index), f"required {name!r} is not a property; dropped"))
        elif name in kept:
            notes.append(Repair(join(where, "required", index), f"required {name!r} is listed twice; dropped"))
        else:
            kept.append(name)
    node["required"] = kept


def repair_schema(schema: dict[str, Any], where: str, notes: list[Repair]) -> dict[str, Any]:
    """Fix a (mutable, owned) schema in place and return it; every change is appended to `notes`."""
    if "type" not in schema and not any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref")):
        schema["type"] = "object"
        notes.append(Repair(join(where, "type"), 'the root has no `type`; set it to "object"'))
    stack: list[tuple[dict[str, Any], str]] = [(schema, where)]
    seen: set[int] = set()
    while stack:
        node, here = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        _fix_required(node, here, notes)
        _fix_properties(node, here, notes)
        _fix_node_keys(node, here, notes)
        stack.extend(reversed([(child, pointer) for pointer, child in children(node, here) if isinstance(child, dict)]))
    _fix_metaschema(schema, where, notes)
    return schema


def _fix_metaschema(schema: dict[str, Any], where: str, notes: list[Repair]) -> None:
    """Remove, keyword by keyword, whatever the draft 2020-12 metaschema still rejects."""
    for _ in range(50):
        errors = list(_META.iter_errors(schema))
        if not errors:
            return
        error = min(errors, key=lambda e: len(e.absolute_path))
        path = list(error.absolute_path)
        if not path:
            return
        parent: Any = schema
        for part in path[:-1]:
            parent = parent[part]
        removed = parent.pop(path[-1]) if isinstance(parent, dict) else parent.pop(int(path[-1]))
        notes.append(Repair(join(where, *path), f"{removed!r} is not valid JSON Schema ({error.message}); removed"))


__all__ = ["MAX_NAME", "TYPE_ALIASES", "Repair", "fix_type", "join", "repair_schema", "shorten", "snake_case"]
