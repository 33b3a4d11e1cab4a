"""Repairs for tool declarations written elsewhere: what real catalogs get wrong, fixed and reported.

Each repair returns the fixed value and appends a `Repair(pointer, message, kind)` per change, the
pointer being RFC 6901 into the source record. A repair may change how a schema is written, never
which values it accepts, unless its kind is `changes`: its message then starts "changes what is
accepted:" and the importer tags the contract for review (TG450). A `note` is a faithful translation
(an older draft's spelling), applied even without `--repair`; the other repairs are applied with
`--repair`, and without it become errors that say what `--repair` would do. Decisions:
- names become snake_case (dots, camelCase, hyphens, spaces, other characters), at most 64 characters;
- a description longer than a provider accepts is cut at a paragraph, sentence or word end
  (`toolgen.texts.shorten`, which the OpenAI projection uses too);
- `type` names from Python, Java and JavaScript (`dict`, `float`, `tuple`, `String`, `HashMap`, ...)
  become JSON Schema types; `any` drops the type (any value); an unknown name drops it too, which
  changes what is accepted; OpenAPI `nullable` becomes a `null` type;
- a property's `"optional": true` (or `"required": false`) takes it out of the parent's `required`,
  `"optional": false` (or `"required": true`) puts it in (a change when it moves a name); the
  non-standard key is removed;
- a string `default` of a number or boolean node becomes that value (`"5"` → 5); another `default`
  whose type does not match the node's `type` (or is not one of its `enum`) is dropped;
- `required`: duplicates and non-strings are dropped; a name `properties` does not define is kept
  (it still demands the key) unless one property is evidently meant (`query` beside `search_query`,
  `deviceType` beside `device_type`: renamed, a change) or `additionalProperties` is false (no value
  could be valid: dropped, a change); inside `anyOf`/`oneOf`/`allOf`/`not`/`if` branches the names
  refer to the enclosing object's properties and are kept;
- `$schema` (draft-07 from zod-to-json-schema and others) is removed everywhere, draft-07 array
  `items` become `prefixItems` (`additionalItems` → `items`), draft-04 boolean exclusive bounds
  take the 2020-12 form: notes, applied without `--repair`;
- a root without `type` becomes `type: "object"` (tool arguments are always an object);
- anything still invalid against the draft 2020-12 metaschema is coerced when a number or list was
  written as a string or a single value, else removed keyword by keyword (a change, unless it was an
  annotation such as `examples` or `description`).
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.importing.dialects import drafts
from toolgen.importing.repairnote import CHANGED, CHANGES, NOTE, REPAIR, Repair
from toolgen.positions import join
from toolgen.texts import shorten
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

ANNOTATIONS = frozenset(
    ("title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly", "$comment", "format")
)
"""Keywords that never decide whether a value is accepted (`format` only annotates, by default)."""

_COMPOSITION = frozenset(("anyOf", "oneOf", "allOf", "not", "if", "then", "else", "dependentSchemas"))
_NUMERIC_KEYWORDS = frozenset(
    (
        *("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains"),
        *("maxContains", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    )
)
_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "object": dict,
    "array": list,
    "boolean": bool,
    "number": (int, float),
    "integer": int,
}
_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


def snake_case(name: str) -> str:
    """`math.sum` → `math_sum`, `getUserID` → `get_user_id`, `lol-champion` → `lol_champion`; may be empty."""
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    text = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()
    text = re.sub(r"_+", "_", text)
    if text and not text[0].isalpha():
        text = "tool_" + text
    return text[:MAX_NAME].rstrip("_")


def fix_type(value: object, where: str, notes: list[Repair]) -> tuple[bool, object]:
    """The JSON Schema form of a `type` value: (keep, new value); keep is False for 'any value'."""
    names = value if isinstance(value, list) else [value]
    mapped: list[str] = []
    for name in names:
        if name in JSON_TYPES:
            mapped.append(name)
            continue
        text = str(name) if isinstance(name, str) else "?"
        base = re.split(r"[<\[(]", text, maxsplit=1)[0].strip().lower()
        target = TYPE_ALIASES.get(base)
        generic = base != text.strip().lower()
        if target is None:
            if base in TYPE_ALIASES and not generic:
                notes.append(
                    Repair(where, f"type {name!r} is not a JSON Schema type; removed it (any value is accepted)")
                )
            else:
                notes.append(Repair.changed(where, f"type {name!r} is no type toolgen knows; removed it (any value)"))
            return False, None
        if generic:
            notes.append(Repair.changed(where, f"type {name!r} became {target!r}; its element type is not kept"))
        else:
            notes.append(Repair(where, f"type {name!r} is not a JSON Schema type; now {target!r}"))
        mapped.append(target)
    unique = list(dict.fromkeys(mapped))
    return True, unique if isinstance(value, list) else unique[0]


def _matches(value: object, node: dict[str, object]) -> bool:
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


def _coerced(value: object, node: dict[str, object]) -> object:
    """A string default read as the number or boolean its node's type asks for, else `value`."""
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if not isinstance(value, str) or "string" in kinds:
        return value
    text = value.strip()
    if "boolean" in kinds and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if "integer" in kinds and re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if "number" in kinds and re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    return value


def _fix_node_keys(node: dict[str, object], where: str, notes: list[Repair]) -> None:
    drafts(node, where, notes)
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
    if "default" in node:
        value = _coerced(node["default"], node)
        if value is not node["default"] and _matches(value, node):
            notes.append(Repair(join(where, "default"), f"default {node['default']!r} is a string; now {value!r}"))
            node["default"] = value
        elif not _matches(node["default"], node):
            message = f"default {node.pop('default')!r} does not match the type or enum; dropped"
            notes.append(Repair(join(where, "default"), message))


def _flag(prop: dict[str, object], name: str, wanted: list[str], here: str, notes: list[Repair]) -> None:
    """Honour a property's non-standard `optional`/`required` flag in the parent's `required` list."""
    for flag, optional_when in (("optional", True), ("required", False)):
        if not isinstance(prop.get(flag), bool):
            continue
        optional = prop.pop(flag) is optional_when
        state = "optional" if optional else "required"
        message = f"non-standard `{flag}` honoured: {name!r} is {state}"
        if optional == (name in wanted):
            (wanted.remove if optional else wanted.append)(name)
            notes.append(Repair.changed(join(here, flag), message))
        else:
            notes.append(Repair(join(here, flag), message))


def _fix_properties(node: dict[str, object], where: str, notes: list[Repair]) -> None:
    props = node.get("properties")
    if props is None:
        return
    if not isinstance(props, dict):
        notes.append(Repair.changed(join(where, "properties"), "`properties` is not an object; removed"))
        del node["properties"]
        return
    required = node.get("required")
    wanted = list(required) if isinstance(required, list) else []
    for name, prop in list(props.items()):
        here = join(where, "properties", name)
        if isinstance(prop, str):
            notes.append(Repair(here, f"property given as the bare type {prop!r}; now a schema"))
            props[name] = prop = {"type": prop}  # noqa: PLW2901 - the bare type is replaced by its schema
        if not isinstance(prop, dict | bool):
            notes.append(Repair.changed(here, f"property schema {prop!r} is not an object; now any value"))
            props[name] = {}
        elif isinstance(prop, dict):
            _flag(prop, name, wanted, here, notes)
    if wanted or "required" in node:
        node["required"] = wanted


def _words(name: str) -> str:
    return snake_case(name).replace("tool_", "", 1) if name[:1].isdigit() else snake_case(name)


def _meant(name: str, props: dict[str, object], taken: list[str]) -> str | None:
    """The one property a required name that is not a property evidently means, if exactly one."""
    words = _words(name)
    singular = words[:-1] if words.endswith("s") else words
    found = []
    for prop in props:
        if prop in taken:
            continue
        other = _words(prop)
        other_singular = other[:-1] if other.endswith("s") else other
        same = other == words or other_singular == singular
        part = other.endswith("_" + words) or other.startswith(words + "_")
        if words and (same or part):
            found.append(prop)
    return found[0] if len(found) == 1 else None


def _fix_required(node: dict[str, object], where: str, notes: list[Repair], outer: frozenset[str]) -> None:
    if "required" not in node:
        return
    required = node["required"]
    if isinstance(required, str):
        notes.append(Repair(join(where, "required"), f"`required` is the name {required!r}; now a list of it"))
        required = node["required"] = [required]
    if not isinstance(required, list):
        notes.append(Repair.changed(join(where, "required"), "`required` is not a list of names; removed"))
        del node["required"]
        return
    props: dict[str, object] = given if isinstance(given := node.get("properties"), dict) else {}
    open_to = "patternProperties" in node or isinstance(node.get("additionalProperties"), dict)
    kept: list[str] = []
    for index, name in enumerate(required):
        at = join(where, "required", index)
        if not isinstance(name, str):
            notes.append(Repair(at, f"required {name!r} is not a property name; dropped"))
        elif name in kept:
            notes.append(Repair(at, f"required {name!r} is listed twice; dropped"))
        elif name in props or name in outer or open_to:
            kept.append(name)
        else:
            _stray(name, node, kept, at, notes)
    node["required"] = kept


def _stray(name: str, node: dict[str, object], kept: list[str], at: str, notes: list[Repair]) -> None:
    """A required name no property defines: renamed to the property it evidently means, dropped when
    no value could have it (`additionalProperties: false`), else kept (it still demands the key)."""
    props: dict[str, object] = given if isinstance(given := node.get("properties"), dict) else {}
    listed = node.get("required")
    meant = _meant(name, props, [*(listed if isinstance(listed, list) else ()), *kept])
    if meant is not None:
        kept.append(meant)
        notes.append(Repair.changed(at, f"required {name!r} is not a property; {meant!r} is required instead"))
    elif node.get("additionalProperties") is False:
        message = f"required {name!r} is not a property and no other is allowed, so no value was valid; dropped"
        notes.append(Repair.changed(at, message))
    else:
        kept.append(name)


def repair_schema(schema: dict[str, object], where: str, notes: list[Repair]) -> dict[str, object]:
    """Fix a (mutable, owned) schema in place and return it; every change is appended to `notes`."""
    if "type" not in schema and not any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref")):
        schema["type"] = "object"
        notes.append(Repair(join(where, "type"), 'the root has no `type`; set it to "object"'))
    stack: list[tuple[dict[str, object], str, frozenset[str]]] = [(schema, where, frozenset())]
    seen: set[int] = set()
    while stack:
        node, here, outer = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        _fix_required(node, here, notes, outer)
        _fix_properties(node, here, notes)
        _fix_node_keys(node, here, notes)
        props = node.get("properties")
        inner = outer | frozenset(props if isinstance(props, dict) else ())
        found = [
            (child, pointer, inner if pointer[len(here) :].split("/")[1] in _COMPOSITION else frozenset())
            for pointer, child in children(node, here)
            if isinstance(child, dict)
        ]
        stack.extend(reversed(found))
    _fix_metaschema(schema, where, notes)
    return schema


def _coerce_keyword(keyword: object, value: object) -> object:
    """A keyword value written as a string or single item, in the form the metaschema asks; else None."""
    if keyword in _NUMERIC_KEYWORDS and isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+)", text):
            return float(text)
    if keyword == "examples" and not isinstance(value, list):
        return [value]
    return None


def _fix_metaschema(schema: dict[str, object], where: str, notes: list[Repair]) -> None:
    """Coerce, else remove, keyword by keyword, whatever the draft 2020-12 metaschema still rejects."""
    for _ in range(50):
        errors = list(_META.iter_errors(schema))
        if not errors:
            return
        error = min(errors, key=lambda e: len(e.absolute_path))
        path = list(error.absolute_path)
        if not path:
            return
        parent: Any = schema  # a JSON document: the path the error names runs through its dicts and lists
        for part in path[:-1]:
            parent = parent[part]
        key = path[-1]
        fixed = _coerce_keyword(key, parent[key]) if isinstance(parent, dict) else None
        if fixed is not None:
            notes.append(Repair(join(where, *path), f"{parent[key]!r} is written as {fixed!r}"))
            parent[key] = fixed
            continue
        removed = parent.pop(key) if isinstance(parent, dict) else parent.pop(int(key))
        message = f"{removed!r} is not valid JSON Schema ({error.message}); removed"
        annotation = isinstance(parent, dict) and key in ANNOTATIONS
        notes.append(Repair(join(where, *path), message) if annotation else Repair.changed(join(where, *path), message))


__all__ = [
    "CHANGED",
    "CHANGES",
    "MAX_NAME",
    "NOTE",
    "REPAIR",
    "TYPE_ALIASES",
    "Repair",
    "drafts",
    "fix_type",
    "join",
    "repair_schema",
    "shorten",
    "snake_case",
]
