"""Strict-mode lowering, shared by OpenAI (`strict: true`) and Anthropic (`strict: true`).

A `StrictProfile` says what one provider's strict mode accepts. `lower_strict` rewrites a schema
into that subset where it can (`oneOf` → `anyOf`, a one-branch `allOf` merged, `additionalProperties:
false` and `properties` on every object, optional properties made nullable when the profile needs
every property required, unsupported keywords stated in the description) and returns one `Issue`
per place where strict mode is impossible (a free-form map, an array without `items`, a node without
a type, `not`/`if`/`prefixItems`/..., recursion where the profile forbids it, a size limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.positions import escape
from toolgen.render.providers.lower import (
    Issue,
    RefError,
    Schema,
    add_note,
    children,
    inline_refs,
    merge_all_of,
    render_value,
    resolve_pointer,
    transform,
    uses_lookaround,
    walk,
)
from toolgen.render.providers.oneof import any_of_for_one_of
from toolgen.render.providers.refs import hoist_refs

_FATAL = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "prefixItems",
        "patternProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
        "propertyNames",
        "additionalItems",
    }
)
_SILENT = frozenset({"$schema", "$id", "$comment", "$anchor", "examples", "deprecated", "readOnly", "writeOnly"})
_CORE = frozenset(
    {"type", "enum", "const", "anyOf", "$defs", "definitions", "$ref", "description", "title", "properties"}
    | {"required", "additionalProperties", "items"}
)


WIDENED = "oneOf (declared as anyOf, its branches may overlap)"
"""The label of a `oneOf` that strict mode declares as `anyOf` and says so in the description."""


@dataclass(frozen=True, slots=True)
class StrictProfile:
    """What one provider's strict mode accepts."""

    provider: str
    allowed: frozenset[str]
    formats: frozenset[str]
    all_required: bool
    allow_recursion: bool
    max_min_items: int | None = None
    primitive_enums_only: bool = False
    all_of_with_ref: bool = True
    """Whether a `$ref` may stand in (or beside) an `allOf` (Anthropic: no)."""


OPENAI = StrictProfile(
    provider="OpenAI",
    allowed=_CORE
    | {"pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {"minItems", "maxItems"},
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}),
    all_required=True,
    allow_recursion=True,
)
"""OpenAI Structured Outputs: every property required (optional ones nullable), 9 formats."""

ANTHROPIC = StrictProfile(
    provider="Anthropic",
    allowed=_CORE | {"pattern", "format", "minItems"},
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}),
    all_required=False,
    allow_recursion=False,
    max_min_items=1,
    primitive_enums_only=True,
    all_of_with_ref=False,
)
"""Anthropic strict tools: optional properties allowed, no numeric or length bounds, no recursion."""

OPENAI_LIMITS = {"properties": 5000, "depth": 10, "characters": 120_000, "enum_values": 1000}
"""OpenAI strict-mode size limits (PROVIDERS.md 1.5, item 8)."""


def accepts_null(node: Any) -> bool:
    """True when the schema node already admits `null`."""
    if not isinstance(node, dict):
        return node is True
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "const" in node and node["const"] is None:
        return True
    if isinstance(node.get("enum"), list) and None in node["enum"]:
        return True
    return any(accepts_null(branch) for branch in node.get("anyOf") or [])


def nullable(node: Schema) -> Schema:
    """`node` widened to also accept `null` (a type list where exact, else an `anyOf` with null)."""
    if accepts_null(node):
        return node
    kind = node.get("type")
    plain = not any(k in node for k in ("enum", "const", "$ref", "anyOf"))
    if plain and isinstance(kind, str):
        return {**node, "type": [kind, "null"]}
    if plain and isinstance(kind, list):
        return {**node, "type": [*kind, "null"]}
    lifted: Schema = {k: node[k] for k in ("title", "description") if k in node}
    inner = {k: v for k, v in node.items() if k not in lifted}
    return {"anyOf": [inner, {"type": "null"}], **lifted}


def _types(node: Schema) -> list[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return [kind]
    return [t for t in kind if isinstance(t, str)] if isinstance(kind, list) else []


def _compose(node: Schema, pointer: str, profile: StrictProfile, issues: list[Issue], moves: list[Issue]) -> Schema:
    if "oneOf" in node:
        if "anyOf" in node:
            issues.append(Issue(f"{pointer}/oneOf", "has both oneOf and anyOf"))
        else:
            node, widened = any_of_for_one_of(node)
            if widened:
                moves.append(Issue(f"{pointer}/oneOf", WIDENED))
    if isinstance(node.get("allOf"), list):
        merged, why = merge_all_of(node)
        if why is None:
            return merged
        if not profile.all_of_with_ref and "$ref" in why:
            why = f"{why}, and {profile.provider} strict mode does not take allOf together with $ref"
        elif not profile.all_of_with_ref and not _has_objects(node["allOf"]):
            return node  # Anthropic takes allOf itself; closing object branches one by one would change it
        else:
            why = f"{why}, so it cannot be merged into one schema (strict mode has no allOf)"
        issues.append(Issue(f"{pointer}/allOf", f"uses allOf where {why}"))
    return node


def _has_objects(branches: list[Any]) -> bool:
    return any(isinstance(b, dict) and ("properties" in b or "object" in _types(b)) for b in branches)


def _object(node: Schema, pointer: str, profile: StrictProfile, issues: list[Issue]) -> Schema:
    extra = node.get("additionalProperties")
    if extra is True or isinstance(extra, dict):
        what = "true" if extra is True else "a schema"
        issues.append(Issue(pointer, f"is a free-form map (additionalProperties is {what})"))
    elif extra is None and not node.get("properties"):
        issues.append(Issue(pointer, "is a free-form object (no properties, additionalProperties not false)"))
    properties = dict(node.get("properties") or {})
    node = {**node, "properties": properties, "additionalProperties": False}
    if profile.all_required:
        required = set(node.get("required") or [])
        for name, sub in properties.items():
            if name not in required and isinstance(sub, dict):
                properties[name] = nullable(sub)
        node["required"] = list(properties)
    return node


def _checks(node: Schema, pointer: str, profile: StrictProfile, issues: list[Issue]) -> None:
    for key in sorted(_FATAL & set(node)):
        issues.append(Issue(f"{pointer}/{key}", f"uses {key}, which {profile.provider} strict mode does not support"))
    if "array" in _types(node):
        items = node.get("items")
        if not isinstance(items, dict) or not items:
            issues.append(Issue(pointer, "is an array without an items schema"))
    if not any(k in node for k in ("type", "anyOf", "allOf", "$ref", "enum", "const")):
        issues.append(Issue(pointer, "accepts any value (it has no type)"))
    enum = node.get("enum")
    if profile.primitive_enums_only and isinstance(enum, list) and any(isinstance(v, dict | list) for v in enum):
        issues.append(Issue(f"{pointer}/enum", "has object or array enum values"))
    for where in _booleans(node, pointer):
        issues.append(Issue(where, "is a boolean schema (true or false), which has no type"))
    ref_siblings = set(node) - {"$ref", "title", "description"}
    if "$ref" in node and ref_siblings:
        issues.append(Issue(pointer, f"has keywords beside $ref ({', '.join(sorted(ref_siblings))})"))


def _booleans(node: Schema, pointer: str) -> list[str]:
    """Where `node` holds a boolean subschema (`additionalProperties: false` aside, which strict mode writes)."""
    found = [f"{pointer}/items"] if isinstance(node.get("items"), bool) else []
    for key in ("properties", "$defs", "definitions"):
        entries = node.get(key)
        if isinstance(entries, dict):
            found += [f"{pointer}/{key}/{escape(n)}" for n, sub in entries.items() if isinstance(sub, bool)]
    for key in ("anyOf", "oneOf", "allOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            found += [f"{pointer}/{key}/{i}" for i, sub in enumerate(branches) if isinstance(sub, bool)]
    return found


def _moved_text(key: str, value: Any, profile: StrictProfile) -> str | None:
    """How `key: value` reads in the description when strict mode cannot keep it, or None to keep it."""
    if key == "format":
        return None if value in profile.formats else f"format: {value}"
    if key == "minItems" and profile.max_min_items is not None and value > profile.max_min_items:
        return f"minItems: {value}"
    if key == "pattern" and uses_lookaround(value):
        return f"pattern: {render_value(value)}"
    if key in profile.allowed or key in _FATAL or key == "allOf":  # an allOf left here is already an issue
        return None
    return f"{'Default' if key == 'default' else key}: {render_value(value)}"


def _node(node: Schema, pointer: str, profile: StrictProfile, issues: list[Issue], moves: list[Issue]) -> Schema:
    node = _compose(node, pointer, profile, issues, moves)
    if "object" in _types(node) or "properties" in node:
        node = _object(node, pointer, profile, issues)
    moved: list[str] = []
    out: Schema = {}
    for key, value in node.items():
        if key in _SILENT:
            continue
        text = _moved_text(key, value, profile)
        if text is None:
            out[key] = value
        else:
            moved.append(text)
            label = "pattern (lookaround or a back-reference)" if key == "pattern" else key
            moves.append(Issue(f"{pointer}/{key}", label))
    if moved:
        add_note(out, "; ".join(moved) + ".")
    _checks(out, pointer, profile, issues)
    return out


def lower_strict(
    schema: Schema, base: str, profile: StrictProfile, moves: list[Issue] | None = None
) -> tuple[Schema, list[Issue]]:
    """`schema` lowered to the profile's strict subset, and every reason it cannot be strict.

    A `$ref` that does not point at a root `$defs` entry is made to (`lower.hoist_refs`) first.
    Each keyword moved into a description is added to `moves` (pointer, keyword), for the notes.
    """
    issues: list[Issue] = []
    found: list[Issue] = [] if moves is None else moves
    schema = hoist_refs(schema)
    lowered = transform(schema, lambda node, pointer: _node(node, pointer, profile, issues, found), base)
    if not profile.allow_recursion:
        try:
            inline_refs(lowered, base)
        except RefError as exc:
            issues.append(Issue(exc.pointer, exc.message))
    for pointer, node in walk(lowered, base):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        if not ref.startswith("#/$defs/") or "/" in ref.removeprefix("#/$defs/"):
            issues.append(Issue(pointer, f"has a $ref ({ref}) that is not a root $defs entry and cannot be made one"))
            continue
        try:
            resolve_pointer(lowered, ref)
        except KeyError:
            issues.append(Issue(pointer, f"has a $ref ({ref}) into a place the strict rewrite moved"))
    if profile is OPENAI:
        issues.extend(openai_limits(lowered, base))
    return lowered, _outermost(issues)


def _outermost(issues: list[Issue]) -> list[Issue]:
    """Drop issues inside a place that already has one (one reason per place is enough)."""
    places = {i.pointer for i in issues}
    kept = [i for i in issues if not any(i.pointer.startswith(p + "/") for p in places)]
    # a keyword strict mode refuses is the cause; what its own subschema lacks is not
    refused = {i.pointer for i in kept if i.message.startswith("uses ")}
    kept = [i for i in kept if i.pointer not in refused or i.message.startswith("uses ")]
    return sorted(set(kept), key=lambda i: (i.pointer, i.message))


def _depth(node: Any) -> int:
    if not isinstance(node, dict):
        return 0
    deepest = max((_depth(sub) for _, sub in children(node, "")), default=0)
    return deepest + (1 if "properties" in node else 0)


def openai_limits(schema: Schema, base: str) -> list[Issue]:
    """Where `schema` passes OpenAI's strict-mode size limits, and if not, how it fails them."""
    properties = enum_values = characters = 0
    issues: list[Issue] = []
    for pointer, node in walk(schema, base):
        names = list(node.get("properties") or {})
        properties += len(names)
        characters += sum(len(n) for n in names) + sum(len(n) for n in node.get("$defs") or {})
        enum: list[Any] = node["enum"] if isinstance(node.get("enum"), list) else []
        enum_values += len(enum)
        enum_chars = sum(len(str(v)) for v in enum) + (len(str(node["const"])) if "const" in node else 0)
        characters += enum_chars
        if len(enum) > 250 and enum_chars > 15_000:
            issues.append(Issue(f"{pointer}/enum", f"has {len(enum)} values in {enum_chars} characters (limit 15,000)"))
    found = {"properties": properties, "depth": _depth(schema), "characters": characters, "enum_values": enum_values}
    for key, limit in OPENAI_LIMITS.items():
        if found[key] > limit:
            what = key.replace("_", " ")
            issues.append(Issue(base, f"exceeds the strict-mode limit on {what}: {found[key]} > {limit}"))
    return issues
