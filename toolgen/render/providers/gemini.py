"""Google Gemini: `gemini.json`, one `Tool` holding every function declaration.

Mapping decisions (the source of each is PROVIDERS.md, "Corrections, 2026-12-01": the keyword list
Google documents for `responseJsonSchema`; that `parametersJsonSchema` follows the same list is
unverified, and keywords outside it are reported silently ignored):
- The file is `[{"functionDeclarations": [...]}]`; each declaration is `{name, description,
  parametersJsonSchema}` plus `responseJsonSchema` when the contract has an output schema. The
  JSON Schema fields are used rather than the OpenAPI-subset `parameters`, as the SDK recommends.
- Kept as written (documented): `type`, `format`, `title`, `description`, `enum` of strings and
  numbers, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`,
  `properties`, `additionalProperties`, `required`, `propertyOrdering`, `$defs`, `$ref`.
- References: every local `$ref` that is not recursive is inlined (the most robust form). A
  recursive one stays a `$ref` into `$defs` (Gemini documents cyclic refs, "unrolled to a limited
  degree" through properties that are not required); a cycle through a required property is a TG306
  warning, since Gemini may cut it short. Keywords beside a kept `$ref` move into an `anyOf` around
  it (only `$`-keys may stand beside a `$ref`). A schema whose inlining would explode keeps its refs.
- Lowered: `const` becomes a one-value `enum`; a one-level `allOf` whose branches agree is merged.
  An enum Gemini cannot take (booleans, `null`, `""`, objects or arrays) is removed and its values
  stated in the description (TG308); numbers are kept ("enum for strings and numbers").
- Moved into the description, with a provider note: the value constraints Gemini does not document
  (`minLength`, `maxLength`, `pattern`, `multipleOf`, `exclusiveMinimum`, `exclusiveMaximum`,
  `uniqueItems`, `minProperties`, `maxProperties`, `dependentRequired`, `minContains`, `maxContains`,
  `default`, ...), as OpenAI strict mode does. Subschema keywords it does not document (`not`,
  `if`/`then`/`else`, `patternProperties`, `propertyNames`, `dependentSchemas`, `contains`,
  `unevaluated*`, `additionalItems`, an `allOf` that cannot be merged) are stated there too, with a
  TG309 warning: Gemini does not enforce them.
- Removed (annotations, no constraint): `$schema`, `$id`, `$anchor`, `$comment`, `examples`,
  `discriminator`, `readOnly`, `writeOnly`, `deprecated`, `contentMediaType`, `contentEncoding`; `x-` keys.
- A root `anyOf`/`oneOf`/`allOf` is flattened (TG302). At most 512 declarations per request (TG305).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.positions import escape
from toolgen.render.markdown import code as code_span
from toolgen.render.providers import codes
from toolgen.render.providers.common import (
    Output,
    Spec,
    always,
    check_count,
    check_name,
    description,
    flat_input_schema,
    included,
    one_of_widened,
    output_schema,
)
from toolgen.render.providers.lower import (
    Issue,
    RefError,
    Schema,
    add_note,
    children,
    inline_refs,
    merge_all_of,
    render_value,
    transform,
    walk,
)
from toolgen.render.providers.oneof import any_of_for_one_of
from toolgen.render.providers.refs import anchor_refs, cyclic_defs, hoist_refs
from toolgen.render.providers.sentences import sentence

PROVIDER = "Gemini"
FILE = "gemini"
MAX_DECLARATIONS = 512
KEEP = frozenset(
    {"type", "format", "title", "description", "enum", "items", "prefixItems", "minItems", "maxItems", "minimum"}
    | {"maximum", "anyOf", "oneOf", "properties", "additionalProperties", "required", "propertyOrdering", "$defs"}
    | {"$ref"}
)
"""The documented keywords (PROVIDERS.md corrections, Gemini JSON Schema)."""
DROP = frozenset(
    {"$schema", "$id", "$anchor", "$comment", "examples", "discriminator", "readOnly", "writeOnly", "deprecated"}
    | {"contentMediaType", "contentEncoding"}
)
"""Annotations that constrain nothing: removed."""
SUBSCHEMA = frozenset(
    {"not", "if", "then", "else", "patternProperties", "propertyNames", "dependentSchemas", "contains"}
    | {"unevaluatedProperties", "unevaluatedItems", "additionalItems", "contentSchema", "allOf"}
)
"""Undocumented keywords holding subschemas: stated in the description with a TG309 warning."""


def _enum_ok(values: Any) -> bool:
    return isinstance(values, list) and all(
        (isinstance(v, str) and v) or (isinstance(v, int | float) and not isinstance(v, bool)) for v in values
    )


def _enum(node: Schema, pointer: str, contract: Contract, out: Output, moves: list[str]) -> Schema:
    if "const" in node:
        node = {("enum" if k == "const" else k): ([v] if k == "const" else v) for k, v in node.items() if k != "enum"}
    enum = node.get("enum")
    if enum is None or _enum_ok(enum):
        return node
    node = {k: v for k, v in node.items() if k != "enum"}
    moves.append(f"{pointer}/enum")
    values = enum if isinstance(enum, list) else [enum]
    add_note(node, "One of: " + ", ".join(render_value(v) for v in values) + ".")
    message = "has an enum Gemini cannot take (only non-empty strings and numbers); its values move to the description"
    out.diagnostics.append(codes.diagnostic(codes.GEMINI_ENUM, contract, PROVIDER, f"{pointer}/enum", message))
    out.note(
        contract.name, f"Gemini: the enum at {code_span(pointer, in_table=False)} is stated in the description instead"
    )
    return node


def _node(node: Schema, pointer: str, contract: Contract, out: Output, moves: list[str]) -> Schema:
    node = {k: v for k, v in node.items() if k not in DROP}
    merged, why = merge_all_of(node, keep_coverage=True)
    node = _one_of(_enum(merged, pointer, contract, out, moves), pointer, contract, out, moves)
    if "patternProperties" in node and "additionalProperties" in node:
        node = {**node, "additionalProperties": node.pop("additionalProperties")}  # moved with the patterns
        moving = {"additionalProperties"}
    else:
        moving = set()
    result: Schema = {}
    said: list[str] = []
    for key, value in node.items():
        if key in KEEP and key not in moving:
            result[key] = value
            continue
        said.append(sentence(key, value))
        moves.append(f"{pointer}/{key}")
        if key in SUBSCHEMA:
            because = f" (it cannot be merged: {why})" if key == "allOf" and why else ""
            message = (
                f"uses {key}{because}, which Gemini does not document; it is stated in the description, not enforced"
            )
            out.diagnostics.append(
                codes.diagnostic(codes.GEMINI_KEYWORD, contract, PROVIDER, f"{pointer}/{key}", message)
            )
    if said:
        add_note(result, " ".join(said))
    return result


def _one_of(node: Schema, pointer: str, contract: Contract, out: Output, moves: list[str]) -> Schema:
    """A `oneOf` whose branches lost a constraint to their descriptions, declared as `anyOf`: two
    branches left unconstrained would both match every value, and `oneOf` would then refuse it."""
    inside = f"{pointer}/oneOf/"
    if not isinstance(node.get("oneOf"), list) or not any(m.startswith(inside) for m in moves):
        return node
    node, widened = any_of_for_one_of(node)
    if widened:
        why = "its branches lost constraints Gemini does not document to their descriptions"
        one_of_widened(contract, PROVIDER, [Issue(f"{pointer}/oneOf", why)], out, noted=False, why=why)
    return node


def _wrap_ref(node: Schema, _pointer: str) -> Schema:
    """A kept `$ref` with other keywords beside it: those keywords hold an `anyOf` around the ref."""
    if "$ref" not in node or all(k.startswith("$") for k in node):
        return node
    rest = {k: v for k, v in node.items() if not k.startswith("$")}
    return {**rest, "anyOf": [{k: v for k, v in node.items() if k.startswith("$")}]}


def _references(schema: Schema, base: str, contract: Contract, out: Output) -> Schema:
    """Refs inlined where they can be; recursive ones kept in `$defs` (TG306 when through a required property)."""
    hoisted = hoist_refs(schema)
    try:
        return inline_refs(hoisted, base)
    except RefError as exc:
        if "grows the schema" in exc.message:
            out.note(contract.name, f"Gemini: the $refs are kept, because {exc.message}")
            wrapped: Schema = transform(hoisted, _wrap_ref)
            return wrapped
    cyclic = cyclic_defs(hoisted)
    try:
        kept = inline_refs(hoisted, base, keep=cyclic)
    except RefError as exc:
        message = f"has a $ref Gemini cannot resolve: {exc.message}; it is declared as written"
        out.diagnostics.append(codes.diagnostic(codes.RECURSIVE, contract, PROVIDER, exc.pointer, message))
        out.note(contract.name, f"Gemini: declared as written, because {exc.message}")
        unresolved: Schema = transform(hoisted, _wrap_ref)
        return unresolved
    names = ", ".join(code_span(n, in_table=False) for n in sorted(cyclic))
    out.note(contract.name, f"Gemini: the recursive definitions {names} stay $refs (Gemini unrolls them)")
    for pointer, prop in _required_cycles(kept, base, cyclic):
        message = (
            f"is recursive through the required property `{prop}`; Gemini unrolls recursion only through "
            "optional properties, so it may cut this schema short (declared with the $ref as written)"
        )
        out.diagnostics.append(codes.diagnostic(codes.RECURSIVE, contract, PROVIDER, pointer, message))
    result: Schema = transform(kept, _wrap_ref)
    return result


def _required_cycles(schema: Schema, base: str, cyclic: frozenset[str]) -> list[tuple[str, str]]:
    """Each `$ref` into a cycle reached from a cyclic definition through a required property."""
    found: list[tuple[str, str]] = []

    def visit(node: Any, pointer: str, through: str | None) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.removeprefix("#/$defs/") in cyclic and through is not None:
            found.append((pointer, through))
        required = node.get("required") or []
        for name, sub in (node.get("properties") or {}).items():
            visit(sub, f"{pointer}/properties/{escape(name)}", name if name in required else through)
        for sub_pointer, sub in walk_children(node, pointer):
            visit(sub, sub_pointer, through)

    for name in sorted(cyclic):
        visit((schema.get("$defs") or {}).get(name), f"{base}/$defs/{escape(name)}", None)
    return found


def walk_children(node: Schema, pointer: str) -> list[tuple[str, Any]]:
    """The subschemas of `node` other than its `properties` and `$defs` entries."""
    return [
        (sub_pointer, sub)
        for sub_pointer, sub in children(node, pointer)
        if not sub_pointer[len(pointer) :].startswith(("/properties/", "/$defs/"))
    ]


def lower(schema: Schema, base: str, contract: Contract, out: Output) -> Schema:
    """`schema` lowered for Gemini's JSON Schema fields; problems go to `out`."""
    moves: list[str] = []
    schema = hoist_refs(anchor_refs(schema))  # before moving keywords, so no ref points into one moved
    lowered: Schema = transform(schema, lambda node, pointer: _node(node, pointer, contract, out, moves), base)
    enums = [m for m in moves if m.endswith("/enum")]  # TG308 has its own note
    moves = [m for m in moves if m not in enums]
    if moves:
        where = ", ".join(code_span(m, in_table=False) for m in moves)  # every one: the docs show notes whole
        keys = ", ".join(dict.fromkeys(m.rsplit("/", 1)[-1] for m in moves))
        out.note(contract.name, f"Gemini: does not document {keys}; stated in the description instead (at {where})")
    if any("$ref" in node for _, node in walk(lowered)):
        return _references(lowered, base, contract, out)
    return lowered


def declaration(contract: Contract, out: Output) -> dict[str, Any]:
    """The function declaration of one tool."""
    schema = flat_input_schema(contract, PROVIDER, out)
    decl: dict[str, Any] = {
        "name": contract.name,
        "description": description(contract),
        "parametersJsonSchema": lower(schema, "/input_schema", contract, out),
    }
    response = output_schema(contract)
    if response is not None:
        decl["responseJsonSchema"] = lower(response, "/output_schema", contract, out)
    return decl


def tool_entries(settings: Settings, contract: Contract, out: Output) -> dict[str, Any]:
    """One tool's function declaration (none when the tool is left out of Gemini)."""
    if not included(contract, settings, FILE, out):
        return {}
    out.diagnostics.extend(check_name(contract, PROVIDER))
    return {"gemini.json": declaration(contract, out)}


def _check(catalog: Catalog, settings: Settings, out: Output) -> None:
    check_count(catalog, settings, out, (PROVIDER, FILE, MAX_DECLARATIONS, "function declarations"))


SPEC = Spec(
    name=PROVIDER,
    files=("gemini.json",),
    tools=lambda settings: partial(tool_entries, settings),
    wrap=lambda _settings, _file, entries: [{"functionDeclarations": entries}],
    check=_check,
    independent=always,
)
