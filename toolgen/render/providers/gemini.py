"""Google Gemini: `gemini.json`, one `Tool` holding every function declaration.

Mapping decisions:
- The file is `[{"functionDeclarations": [...]}]`; each declaration is `{name, description,
  parametersJsonSchema}` plus `responseJsonSchema` when the contract has an output schema. The
  JSON Schema fields are used rather than the OpenAPI-subset `parameters`, as the SDK recommends.
- Local `$ref`s are inlined and `$defs`/`definitions` removed (Gemini mishandles references); a
  recursive or unresolvable `$ref` cannot be inlined and is a TG306 error.
- `oneOf` becomes `anyOf` (Gemini documents `anyOf` only; the model sees the same alternatives).
- `const` becomes a one-value `enum`. An enum Gemini cannot take (a non-string value, or the empty
  string) is removed and its values stated in the description, with a TG308 warning. Turning the
  values into strings, as some converters do, would make the model send `"1"` where the contract
  (and so the generated registry) expects `1`; the type is kept instead.
- `exclusiveMinimum`/`exclusiveMaximum` move into the description; `$schema`, `$id`, `$anchor`,
  `$comment`, `examples` and `discriminator` are removed; `x-` keys are removed.
- A root `anyOf`/`oneOf`/`allOf` is flattened (TG302).
- At most 512 declarations (TG305).
"""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.render.markdown import code as code_span
from toolgen.render.providers import codes
from toolgen.render.providers.common import (
    Output,
    Spec,
    always,
    check_name,
    description,
    flat_input_schema,
    output_schema,
)
from toolgen.render.providers.lower import (
    RefError,
    Schema,
    add_note,
    inline_refs,
    move_to_description,
    render_value,
    transform,
)

PROVIDER = "Gemini"
MAX_DECLARATIONS = 512
_DROP = frozenset({"$schema", "$id", "$anchor", "$comment", "examples", "discriminator"})
_DESCRIBE = ("exclusiveMinimum", "exclusiveMaximum")


def _node(node: Schema, pointer: str, contract: Contract, out: Output) -> Schema:
    node = {k: v for k, v in node.items() if k not in _DROP}
    if "oneOf" in node and "anyOf" not in node:
        node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
    if "const" in node:
        node = {("enum" if k == "const" else k): ([v] if k == "const" else v) for k, v in node.items() if k != "enum"}
    enum = node.get("enum")
    if isinstance(enum, list) and not all(isinstance(v, str) and v for v in enum):
        node = {k: v for k, v in node.items() if k != "enum"}
        add_note(node, "One of: " + ", ".join(render_value(v) for v in enum) + ".")
        message = "has an enum Gemini cannot take (only non-empty strings); its values move to the description"
        out.diagnostics.append(codes.diagnostic(codes.GEMINI_ENUM, contract, PROVIDER, f"{pointer}/enum", message))
        where = code_span(pointer, in_table=False)
        out.note(contract.name, f"Gemini: the enum at {where} is stated in the description instead")
    return move_to_description(node, _DESCRIBE)


def lower(schema: Schema, base: str, contract: Contract, out: Output) -> Schema:
    """`schema` lowered for Gemini's JSON Schema fields; problems go to `out`."""
    lowered: Schema = transform(schema, lambda node, pointer: _node(node, pointer, contract, out), base)
    try:
        return inline_refs(lowered, base)
    except RefError as exc:
        message = f"cannot be declared: {exc.message}; Gemini needs every $ref inlined"
        out.diagnostics.append(codes.diagnostic(codes.NOT_INLINABLE, contract, PROVIDER, exc.pointer, message))
        out.note(contract.name, f"Gemini: cannot be declared, because {exc.message}")
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


def tool_entries(contract: Contract, out: Output) -> dict[str, Any]:
    """One tool's function declaration."""
    out.diagnostics.extend(check_name(contract, PROVIDER))
    return {"gemini.json": declaration(contract, out)}


def check_count(catalog: Catalog, out: Output) -> None:
    """TG305 on the first tool past the declarations one request takes."""
    if len(catalog) > MAX_DECLARATIONS:
        contract = catalog.contracts[MAX_DECLARATIONS]
        message = (
            f"is tool {MAX_DECLARATIONS + 1} of {len(catalog)}; Gemini accepts at most {MAX_DECLARATIONS} declarations"
        )
        out.diagnostics.append(codes.diagnostic(codes.TOOL_COUNT, contract, PROVIDER, "", message))


SPEC = Spec(
    name=PROVIDER,
    files=("gemini.json",),
    tools=lambda _settings: tool_entries,
    wrap=lambda _file, entries: [{"functionDeclarations": entries}],
    check=check_count,
    independent=always,
)
