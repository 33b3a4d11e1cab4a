"""OpenAI: `openai_chat.json` (Chat Completions) and `openai_responses.json` (Responses).

Mapping decisions:
- Chat: `{"type": "function", "function": {name, description, parameters, strict}}`; Responses: the
  flat `{"type": "function", name, description, parameters, strict}`. Both always carry `strict`
  (Responses would otherwise try strict mode on its own and make optional fields mandatory).
- Strict when the schema can be made strict (`strict.OPENAI`): every `$ref` made to point at a
  root `$defs` entry first (PROVIDERS.md corrections: only `#/$defs/...` is taken; a target inside
  `properties` is copied there, so a required property referring to an optional one stays required),
  `additionalProperties: false` and `properties` on every object, every property required with
  optional ones made nullable, `oneOf` → `anyOf` (see below), an `allOf` whose branches agree merged, keywords
  and formats outside the strict subset (`default`, `minLength`, `uniqueItems`, `format: uri`, a
  `pattern` with lookaround, ...) stated in the description instead (listed in the provider notes),
  and the size limits checked (5,000 properties, depth 10, 120,000 characters, 1,000 enum values).
- Otherwise `strict: false` with a TG301 warning per reason; the schema keeps its keywords, with
  `oneOf` → `anyOf` (a `oneOf` was reported refused on Responses, and strict mode has none),
  `items: {}` added to arrays without one and `properties: {}` to objects without one (both APIs
  refuse them: "object schema missing properties").
- `oneOf` → `anyOf` is exact when no value can match two branches (they differ in type or in their
  listed values); otherwise `anyOf` accepts a value matching several, so the node's description says
  "Exactly one of these alternatives must match, not several.", with a TG312 warning and a note.
- A root `anyOf`/`oneOf`/`allOf` is flattened first (TG302).
- A description over 1,024 characters (Chat refuses it) is shortened at a paragraph, sentence or
  word end in both files, with a TG304 warning (the contract and the other providers keep it whole).
  More than 128 tools in a file is a TG305 warning: the file is a catalog a request takes a subset
  from; a contract's or the configuration's `providers.exclude` leaves tools out of either file
  (with a note).
- Responses: `defer_loading` from the contract's `providers` table; a contract's `namespace` that
  the configuration describes (`[providers.namespaces]`) groups its tools into one `namespace` tool
  (SDK `NamespaceToolParam`); an undescribed one is a TG310 warning.
- No `output_schema` on Responses: it describes string outputs and its server semantics are
  unverified (PROVIDERS.md 1.2).
"""

from __future__ import annotations

from functools import partial

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.render.markdown import code as code_span
from toolgen.render.providers import codes, strict
from toolgen.render.providers.common import (
    ProviderResult,
    Spec,
    check_count,
    check_name,
    description,
    flat_input_schema,
    included,
    moved_note,
    one_of_widened,
)
from toolgen.render.providers.lower import Issue, Schema, transform
from toolgen.render.providers.oneof import any_of_for_one_of
from toolgen.texts import shorten

PROVIDER = "OpenAI"
MAX_TOOLS = 128
MAX_DESCRIPTION = 1024


def _kinds(node: Schema) -> list[object]:
    kind = node.get("type")
    return kind if isinstance(kind, list) else [kind]


def _loose_node(node: Schema, pointer: str, widened: list[Issue]) -> Schema:
    node, wider = any_of_for_one_of(node)
    if wider:
        widened.append(Issue(f"{pointer}/oneOf", strict.WIDENED))
    if "array" in _kinds(node) and "items" not in node:
        node = {**node, "items": {}}
    if "object" in _kinds(node) and "properties" not in node:
        node = {**node, "properties": {}}  # both APIs refuse an object schema without `properties`
    return node


def parameters(contract: Contract, out: ProviderResult) -> tuple[Schema, bool]:
    """The `parameters` schema for `contract` and whether it is strict; records diagnostics and notes."""
    schema = flat_input_schema(contract, PROVIDER, out)
    moves: list[Issue] = []
    lowered, issues = strict.lower_strict(schema, "/input_schema", strict.OPENAI, moves)
    if not issues:
        optional = [n for n in schema.get("properties") or {} if n not in (schema.get("required") or [])]
        if optional:
            names = ", ".join(code_span(n, in_table=False) for n in optional)
            text = f"OpenAI: strict; the optional properties {names} arrive as null when the model leaves them out"
            out.note(contract.name, text)
        moved = moved_note(PROVIDER, moves)
        if moved:
            out.note(contract.name, moved)
        one_of_widened(contract, PROVIDER, [m for m in moves if m.message == strict.WIDENED], out, noted=True)
        return lowered, True
    for issue in issues:
        message = f"is not strict, because {issue.pointer} {issue.message}; it is declared with strict: false"
        out.diagnostics.append(codes.diagnostic(codes.NOT_STRICT, contract, PROVIDER, issue.pointer, message))
    first = issues[0]
    out.note(contract.name, f"OpenAI: not strict, because {code_span(first.pointer, in_table=False)} {first.message}")
    widened: list[Issue] = []
    loose: Schema = transform(schema, lambda node, pointer: _loose_node(node, pointer, widened), "/input_schema")
    one_of_widened(contract, PROVIDER, widened, out, noted=False)
    return loose, False


def _description(contract: Contract, out: ProviderResult) -> str:
    """The description for both OpenAI files: shortened, with a TG304 warning, when Chat would refuse it."""
    text = description(contract)
    if len(text) <= MAX_DESCRIPTION:
        return text
    short = shorten(text, MAX_DESCRIPTION)
    message = (
        f"has a description of {len(text)} characters; Chat Completions accepts at most {MAX_DESCRIPTION}, so the "
        f"OpenAI files carry its first {len(short)} (cut at a paragraph, sentence or word end); the contract and "
        "the other providers keep the whole text"
    )
    out.diagnostics.append(codes.diagnostic(codes.DESCRIPTION_LENGTH, contract, PROVIDER, "/description", message))
    out.note(contract.name, f"OpenAI: the description is shortened from {len(text)} to {len(short)} characters")
    return short


def tool_entries(settings: Settings, contract: Contract, out: ProviderResult) -> dict[str, object]:
    """One tool's entry in `openai_chat.json` and in `openai_responses.json` (each unless left out)."""
    chat = included(contract, settings, "openai_chat", out)
    responses = included(contract, settings, "openai_responses", out)
    if not (chat or responses):
        return {}
    out.diagnostics.extend(check_name(contract, PROVIDER))
    text = _description(contract, out)
    schema, is_strict = parameters(contract, out)
    function = {"name": contract.name, "description": text, "parameters": schema}
    entries: dict[str, object] = {}
    if chat:
        entries["openai_chat.json"] = {"type": "function", "function": {**function, "strict": is_strict}}
    if responses:
        entries["openai_responses.json"] = _responses_entry(settings, contract, out, {**function, "strict": is_strict})
    return entries


def _responses_entry(
    settings: Settings, contract: Contract, out: ProviderResult, function: dict[str, object]
) -> dict[str, object]:
    entry: dict[str, object] = {"type": "function", **function}
    if contract.providers.get("defer_loading") is True:
        entry["defer_loading"] = True
    namespace = contract.providers.get("namespace")
    if isinstance(namespace, str):
        if namespace in (settings.providers.get("namespaces") or {}):
            entry[NAMESPACE_KEY] = namespace
            out.note(contract.name, f"OpenAI Responses: in the namespace {code_span(namespace, in_table=False)}")
        else:
            message = (
                f"names the namespace `{namespace}`, which the configuration does not declare "
                f'([providers.namespaces] {namespace} = "what its tools are for"); it is declared without one'
            )
            out.diagnostics.append(
                codes.diagnostic(codes.NAMESPACE, contract, PROVIDER, "/providers/namespace", message)
            )
    return entry


NAMESPACE_KEY = "_toolgen_namespace"
"""Marks a Responses entry for its namespace until `wrap` groups it (never written)."""


def wrap(settings: Settings, file: str, entries: list[object]) -> object:
    """The file's tools; on Responses, namespaced tools grouped into one `namespace` tool each."""
    if file != "openai_responses.json" or not any(isinstance(e, dict) and NAMESPACE_KEY in e for e in entries):
        return entries
    described = settings.providers.get("namespaces") or {}
    out: list[object] = []
    groups: dict[str, list[object]] = {}
    for entry in entries:
        if isinstance(entry, dict) and NAMESPACE_KEY in entry:
            name = entry[NAMESPACE_KEY]
            if name not in groups:
                groups[name] = []
                out.append({"type": "namespace", "name": name, "description": described[name], "tools": groups[name]})
            groups[name].append({k: v for k, v in entry.items() if k != NAMESPACE_KEY})
        else:
            out.append(entry)
    return out


def check(catalog: Catalog, settings: Settings, out: ProviderResult) -> None:
    """TG305 on the first tool past the 128 one request takes, in each file."""
    for file in ("openai_chat", "openai_responses"):
        check_count(catalog, settings, out, (PROVIDER, file, MAX_TOOLS, "tools"))


SPEC = Spec(
    name=PROVIDER,
    files=("openai_chat.json", "openai_responses.json"),
    tools=lambda settings: partial(tool_entries, settings),
    wrap=wrap,
    check=check,
    independent=lambda settings: not settings.providers.get("namespaces"),  # grouping needs the entries as data
)
