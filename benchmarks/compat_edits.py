"""Schema pairs for judging `toolgen diff`: real tool schemas, each mutated by one kind of edit.

`sample_schemas(folder)` reads the corpus sample's input schemas (BFCL's Python type names read as
JSON Schema's, only schemas valid under draft 2020-12 kept); `make_pairs(schemas)` applies every
kind in `EDITS` to every schema it fits, deterministically (the property an edit touches is chosen
by a seeded `random.Random`). An edit returns `(old, new)`, usually `(schema, edited)`; for the
respellings both sides are edited, so the pair is two spellings of one schema.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

Schema = dict[str, Any]
Edit = Callable[[Schema, random.Random], tuple[Schema, Schema] | None]

_TYPES = {"dict": "object", "float": "number", "str": "string", "int": "integer", "bool": "boolean",
          "list": "array", "tuple": "array", "any": None}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Pair:
    """One generated pair: the kind of edit, where the schema came from, and both versions."""

    kind: str
    source: str
    old: Schema
    new: Schema


def _fix(node: Any) -> Any:
    if isinstance(node, list):
        return [_fix(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _fix(v) for k, v in node.items() if k != "$schema"}
    if isinstance(out.get("type"), str) and out["type"] in _TYPES:
        if _TYPES[out["type"]] is None:
            del out["type"]
        else:
            out["type"] = _TYPES[out["type"]]
    return out


def _record_schema(record: dict[str, Any]) -> Any:
    schema = record.get("inputSchema") or record.get("parameters")
    if schema is None and isinstance(record.get("arguments"), dict):
        schema = record["arguments"]
    return schema


def sample_schemas(folder: Path, per_file: int | None = None) -> list[tuple[str, Schema]]:
    """(`file:line`, schema) for every valid object input schema in the sample's JSON-lines files
    (the first `per_file` of each file, when given)."""
    out: list[tuple[str, Schema]] = []
    for path in sorted(folder.glob("*.jsonl")):
        taken = len(out)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            schema = _fix(_record_schema(json.loads(line)))
            if per_file is not None and len(out) - taken >= per_file:
                break
            if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
                continue
            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError:
                continue
            out.append((f"{path.name}:{number}", schema))
    return out


def _props(schema: Schema, want: Callable[[Schema], bool] = lambda s: True) -> list[str]:
    return sorted(n for n, s in schema.get("properties", {}).items() if isinstance(s, dict) and want(s))


def _typed(name: str) -> Callable[[Schema], bool]:
    return lambda s: s.get("type") == name


def _with(
    schema: Schema, rng: random.Random, want: Callable[[Schema], bool], change: Callable[[Schema], Any]
) -> tuple[Schema, Schema] | None:
    """The schema and a copy where one property that `want`s is replaced by `change(its schema)`."""
    names = _props(schema, want)
    if not names:
        return None
    name = rng.choice(names)
    new = copy.deepcopy(schema)
    replaced = change(copy.deepcopy(new["properties"][name]))
    if replaced is None:
        return None
    new["properties"][name] = replaced
    return schema, new


def _add(required: bool) -> Edit:
    def edit(schema: Schema, rng: random.Random) -> tuple[Schema, Schema]:
        new = copy.deepcopy(schema)
        new["properties"]["added_" + rng.choice(["flag", "count", "label"])] = {
            "type": rng.choice(["boolean", "integer", "string"])
        }
        if required:
            new["required"] = sorted(
                {*new.get("required", []), *[n for n in new["properties"] if n.startswith("added_")]}
            )
        return schema, new

    return edit


def _remove(schema: Schema, rng: random.Random) -> tuple[Schema, Schema] | None:
    names = _props(schema)
    if not names:
        return None
    name, new = rng.choice(names), copy.deepcopy(schema)
    del new["properties"][name]
    new["required"] = [r for r in new.get("required", []) if r != name]
    return schema, new


def _requiredness(make: bool) -> Edit:
    def edit(schema: Schema, rng: random.Random) -> tuple[Schema, Schema] | None:
        required = set(schema.get("required", []))
        names = [n for n in _props(schema) if (n in required) != make]
        if not names:
            return None
        new = copy.deepcopy(schema)
        new["required"] = sorted(required ^ {rng.choice(names)})
        return schema, new

    return edit


def _set(**values: Any) -> Callable[[Schema], Schema]:
    return lambda s: {**s, **values}


def _drop(key: str) -> Callable[[Schema], Schema]:
    return lambda s: {k: v for k, v in s.items() if k != key}


def _both(
    schema: Schema,
    rng: random.Random,
    want: Callable[[Schema], bool],
    one: Callable[[Schema], Any],
    other: Callable[[Schema], Any],
) -> tuple[Schema, Schema] | None:
    """Two edits of the same property: a respelling pair (or two related versions)."""
    names = _props(schema, want)
    if not names:
        return None
    name = rng.choice(names)
    old, new = copy.deepcopy(schema), copy.deepcopy(schema)
    old["properties"][name] = one(copy.deepcopy(schema["properties"][name]))
    new["properties"][name] = other(copy.deepcopy(schema["properties"][name]))
    return old, new


def _nullable_list(s: Schema) -> Schema:
    return {**s, "type": [s["type"], "null"]}


def _nullable_any_of(s: Schema) -> Schema:
    notes = {k: v for k, v in s.items() if k in ("description", "title")}
    rest = {k: v for k, v in s.items() if k not in notes}
    return {**notes, "anyOf": [rest, {"type": "null"}]}


def _shared_ref(schema: Schema, rng: random.Random) -> tuple[Schema, Schema] | None:
    names = _props(schema, _typed("string"))
    if len(names) < 2:
        return None
    first, second = rng.sample(names, 2)
    old = copy.deepcopy(schema)
    old["$defs"] = {"text": {"type": "string"}}
    old["properties"][first] = {"$ref": "#/$defs/text"}
    old["properties"][second] = {"$ref": "#/$defs/text"}
    new = copy.deepcopy(old)
    new["properties"][second] = {"$ref": "#/$defs/text", "maxLength": 3}
    return old, new


def _map_declared(schema: Schema, rng: random.Random) -> tuple[Schema, Schema]:
    old = copy.deepcopy(schema)
    old["properties"]["labels"] = {"type": "object", "additionalProperties": {"type": "string"}}
    new = copy.deepcopy(old)
    new["properties"]["labels"]["properties"] = {"priority": {"type": rng.choice(["integer", "string"])}}
    return old, new


def _to_ref(schema: Schema, rng: random.Random) -> tuple[Schema, Schema] | None:
    names = _props(schema)
    if not names:
        return None
    name, new = rng.choice(names), copy.deepcopy(schema)
    new.setdefault("$defs", {})["moved"] = new["properties"][name]
    new["properties"][name] = {"$ref": "#/$defs/moved"}
    return schema, new


def _scalar(s: Schema) -> bool:
    return s.get("type") in ("string", "integer", "number", "boolean")


def _has(*keys: str) -> Callable[[Schema], bool]:
    return lambda s: any(k in s for k in keys)


def _enum(least: int) -> Callable[[Schema], bool]:
    return lambda s: isinstance(s.get("enum"), list) and len(s["enum"]) >= least


def _either(*edits: Edit) -> Edit:
    def edit(schema: Schema, rng: random.Random) -> tuple[Schema, Schema] | None:
        return next((made for e in edits if (made := e(schema, rng)) is not None), None)

    return edit


def _on(want: Callable[[Schema], bool], change: Callable[[Schema], Any]) -> Edit:
    return lambda s, r: _with(s, r, want, change)


def _split_all_of(s: Schema) -> Schema:
    return {"allOf": [{"type": s["type"]}, {k: v for k, v in s.items() if k != "type"}]}


def _unbound(s: Schema) -> Schema:
    return {k: v for k, v in s.items() if k not in ("maxLength", "maximum", "minimum")}


EDITS: dict[str, Edit] = {
    "add-optional": _add(required=False),
    "add-required": _add(required=True),
    "remove-property": _remove,
    "make-required": _requiredness(make=True),
    "make-optional": _requiredness(make=False),
    "widen-type": _either(_on(_typed("integer"), _set(type="number")), _on(_scalar, _nullable_list)),
    "narrow-type": _on(_typed("number"), _set(type="integer")),
    "change-type": _on(_typed("string"), _set(type="integer")),
    "enum-add": _on(_enum(1), lambda p: {**p, "enum": [*p["enum"], "zz_new"]}),
    "enum-remove": _on(_enum(2), lambda p: {**p, "enum": p["enum"][:-1]}),
    "enum-added": _on(_typed("string"), _set(enum=["a", "b"])),
    "tighten-bound": _either(_on(_typed("string"), _set(maxLength=3)), _on(_typed("integer"), _set(minimum=1))),
    "loosen-bound": _on(_has("maxLength", "maximum", "minimum"), _unbound),
    "add-pattern": _on(_typed("string"), _set(pattern="^[a-z]+$")),
    "change-pattern": lambda s, r: _both(s, r, _typed("string"), _set(pattern="^[a-z]+$"), _set(pattern="^[a-z0-9]+$")),
    "narrow-pattern": lambda s, r: _both(s, r, _typed("string"), _set(pattern="^[a-z0-9]+$"), _set(pattern="^[a-z]+$")),
    "add-format": _on(_typed("string"), _set(format="date")),
    "close-object": lambda s, r: (s, {**s, "additionalProperties": False}) if "additionalProperties" not in s else None,
    "open-object": lambda s, r: ({**s, "additionalProperties": False}, s) if "additionalProperties" not in s else None,
    "ref-sibling": _shared_ref,
    "map-declared": _map_declared,
    "nullable-respelled": lambda s, r: _both(s, r, _scalar, _nullable_list, _nullable_any_of),
    "wrap-any-of": _on(_scalar, lambda p: {"anyOf": [p, {"type": "array", "items": p}]}),
    "wrap-one-of-null": _on(_scalar, lambda p: {"oneOf": [p, {"type": "null"}]}),
    "one-branch": _on(_scalar, lambda p: {"allOf": [p]}),
    "all-of-merge": _on(lambda p: _scalar(p) and len(p) > 1, _split_all_of),
    "const-enum": lambda s, r: _both(s, r, _typed("string"), _set(enum=["only"]), _set(const="only")),
    "ref-equal": _to_ref,
    "description": _on(lambda p: True, _set(description="Reworded.")),
    "default": _on(_typed("string"), _set(default="zz")),
}
"""Every kind of edit, by name."""


def make_pairs(schemas: list[tuple[str, Schema]], seed: int = 30) -> Iterator[Pair]:
    """Every kind of edit on every schema it fits, in a fixed order."""
    for index, (source, schema) in enumerate(schemas):
        for kind, edit in EDITS.items():
            made = edit(copy.deepcopy(schema), random.Random(f"{seed}:{index}:{kind}"))
            if made is not None and made[0] != made[1]:
                yield Pair(kind, source, made[0], made[1])
