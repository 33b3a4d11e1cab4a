"""What every provider module shares: the result types, the description text and the name check."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic
from toolgen.frozen import thaw
from toolgen.render.markdown import code as code_span
from toolgen.render.providers import codes
from toolgen.render.providers.lower import Issue, Schema, flatten_root, strip_annotations, transform
from toolgen.texts import paragraphs


@dataclass(frozen=True, slots=True)
class Payload:
    """One output file: its name under `providers/`, the JSON document, and each tool's declaration."""

    file: str
    document: Any
    tools: Mapping[str, Any]


@dataclass(slots=True)
class Output:
    """What one provider module produced for a catalog."""

    payloads: list[Payload] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)

    def note(self, tool: str, text: str) -> None:
        """Record a provider note for the docs of `tool`."""
        self.notes.setdefault(tool, []).append(text)


ToolEntries = Callable[[Contract, Output], Mapping[str, Any]]
"""One tool's entry in each file of a provider; its diagnostics and notes go to the `Output`."""


@dataclass(frozen=True, slots=True)
class Spec:
    """How one provider declares a catalog: tool by tool, then checks over the whole catalog.

    `tools(settings)` gives the function that makes each tool's entries, called in catalog order
    (a fresh one per build: Anthropic's strict mode counts a budget across tools). When
    `independent(settings)`, a tool's entries, diagnostics and notes depend on that tool alone, so
    they may be cached per tool (`toolgen.render.providers.render`). `wrap` puts a file's entries
    into the document the API takes; `check` adds what needs the whole catalog (tool counts). A tool
    left out of a file (`excluded`) has no entry for it.
    """

    name: str
    files: tuple[str, ...]
    tools: Callable[[Settings], ToolEntries]
    wrap: Callable[[Settings, str, list[Any]], Any]
    check: Callable[[Catalog, Settings, Output], None]
    independent: Callable[[Settings], bool]


def build_with(spec: Spec, catalog: Catalog, settings: Settings) -> Output:
    """`spec` over `catalog`: the payloads as data, with diagnostics and notes."""
    out = Output()
    entries: dict[str, dict[str, Any]] = {file: {} for file in spec.files}
    make = spec.tools(settings)
    for contract in catalog:
        for file, entry in make(contract, out).items():
            entries[file][contract.name] = entry
    spec.check(catalog, settings, out)
    for file in spec.files:
        tools = {name: _public(entry) for name, entry in entries[file].items()}
        out.payloads.append(Payload(file, spec.wrap(settings, file, list(entries[file].values())), tools))
    return out


def _public(entry: Any) -> Any:
    """An entry without the marks (`_toolgen_...` keys) a provider's `wrap` reads and removes."""
    if isinstance(entry, dict) and any(k.startswith("_toolgen_") for k in entry):
        return {k: v for k, v in entry.items() if not k.startswith("_toolgen_")}
    return entry


def no_catalog_check(catalog: Catalog, settings: Settings, out: Output) -> None:
    """A provider with no limit over the whole catalog."""


def as_is(settings: Settings, file: str, entries: list[Any]) -> Any:
    """A file that is the list of its tools."""
    return entries


LABELS: Mapping[str, str] = {
    "openai_chat": "OpenAI Chat",
    "openai_responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini",
    "mcp": "MCP",
}


def excluded(contract: Contract, settings: Settings, file: str) -> bool:
    """Whether the contract or the configuration leaves `contract` out of `file` (`openai_chat`, ...)."""
    if file in (contract.providers.get("exclude") or ()):
        return True
    by_file = settings.providers.get("exclude") or {}
    return contract.name in (by_file.get(file) or ())


def included(contract: Contract, settings: Settings, file: str, out: Output) -> bool:
    """True unless `contract` is left out of `file`; a tool left out gets a note saying so."""
    if not excluded(contract, settings, file):
        return True
    out.note(contract.name, f"{LABELS[file]}: left out of {file}.json (providers exclude)")
    return False


def check_count(catalog: Catalog, settings: Settings, out: Output, spec: tuple[str, str, int, str]) -> None:
    """TG305 on the first tool of `file` past `limit` (`spec` = provider, file, limit, what is counted)."""
    provider, file, limit, what = spec
    kept = [c for c in catalog if not excluded(c, settings, file)]
    if len(kept) <= limit:
        return
    message = (
        f"is tool {limit + 1} of the {len(kept)} in {file}.json; one request takes at most {limit} {what}, "
        f'so send a subset, or leave tools out with providers = {{ exclude = ["{file}"] }}'
    )
    out.diagnostics.append(codes.diagnostic(codes.TOOL_COUNT, kept[limit], provider, "", message))


def always(settings: Settings) -> bool:
    """Tools are independent whatever the settings."""
    return True


NAME_RULES: Mapping[str, tuple[re.Pattern[str], str]] = {
    "OpenAI": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "letters, digits, `_` and `-`, at most 64 characters"),
    "Anthropic": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "letters, digits, `_` and `-`, at most 64 characters"),
    "Gemini": (
        re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$"),
        "a letter or `_` first, then letters, digits, `_ . : -`, at most 64 characters",
    ),
    "MCP": (re.compile(r"^[A-Za-z0-9._-]{1,128}$"), "letters, digits, `_ . -`, at most 128 characters"),
}
"""Each provider's tool-name rule (PROVIDERS.md 1.3, 2.2, 3.2, 4.2) and how to say it."""


def check_name(contract: Contract, provider: str) -> list[Diagnostic]:
    """A TG303 error when the tool's name breaks the provider's rule."""
    pattern, rule = NAME_RULES[provider]
    if pattern.match(contract.name):
        return []
    return [codes.diagnostic(codes.NAME, contract, provider, "/name", f"has a name {provider} refuses: use {rule}")]


_SAYS_DEPRECATED = re.compile(r"^\W*deprecated\b", re.IGNORECASE | re.MULTILINE)


def description(contract: Contract) -> str:
    """The description sent to the model, as paragraphs (`texts.paragraphs`).

    A deprecated tool says so first (`Deprecated: <what instead>.`), once: a description with a line
    that already starts with "Deprecated" says it in the author's words, and is sent as it is."""
    text = paragraphs(contract.description)
    if contract.deprecated is False or _SAYS_DEPRECATED.search(text):
        return text
    instead = contract.deprecated.strip().rstrip(".") if isinstance(contract.deprecated, str) else ""
    return f"Deprecated: {instead}.\n\n{text}" if instead else f"Deprecated.\n\n{text}"


def _as_paragraphs(node: Schema, _pointer: str) -> Schema:
    text = node.get("description")
    return {**node, "description": paragraphs(text)} if isinstance(text, str) else node


def input_schema(contract: Contract) -> Schema:
    """A mutable copy of the input schema with `x-` annotations removed, descriptions as paragraphs."""
    schema: Schema = transform(strip_annotations(thaw(contract.input_schema)), _as_paragraphs)
    return schema


def output_schema(contract: Contract) -> Schema | None:
    """A mutable copy of the output schema with `x-` annotations removed, descriptions as paragraphs."""
    if contract.output_schema is None:
        return None
    schema: Schema = transform(strip_annotations(thaw(contract.output_schema)), _as_paragraphs)
    return schema


def flat_input_schema(contract: Contract, provider: str, out: Output) -> Schema:
    """The input schema with a root `anyOf`/`oneOf`/`allOf` flattened, each one reported as TG302."""
    schema, issues = flatten_root(input_schema(contract), "/input_schema")
    for issue in issues:
        message = issue.message.format(provider=provider)
        out.diagnostics.append(codes.diagnostic(codes.ROOT_COMPOSITION, contract, provider, issue.pointer, message))
        keyword = issue.pointer.rsplit("/", 1)[-1]
        out.note(contract.name, f"{provider}: the root `{keyword}` is flattened into one object")
    return schema


def moved_note(provider: str, moves: list[Issue]) -> str | None:
    """The provider note listing what strict lowering stated in descriptions instead, or None."""
    if not moves:
        return None
    seen = list(dict.fromkeys(m.message for m in moves))
    where = ", ".join(code_span(m.pointer, in_table=False) for m in moves)  # every one: the docs show notes whole
    return f"{provider}: strict mode cannot keep {', '.join(seen)}; stated in the description instead (at {where})"


def one_of_widened(
    contract: Contract, provider: str, widened: list[Issue], out: Output, *, noted: bool, why: str = ""
) -> None:
    """A TG312 warning per `oneOf` declared as `anyOf` whose branches may overlap, and a note unless
    the moved-keywords note (`noted`) already names them."""
    because = why or f"{provider} does not take oneOf"
    for issue in widened:
        message = (
            f"declares the oneOf at {issue.pointer} as anyOf ({because}), which also accepts a "
            "value matching several branches; its description says exactly one must match"
        )
        out.diagnostics.append(codes.diagnostic(codes.ONE_OF, contract, provider, issue.pointer, message))
    if widened and not noted:
        where = ", ".join(code_span(i.pointer, in_table=False) for i in widened)
        out.note(
            contract.name,
            f"{provider}: oneOf declared as anyOf, with the description saying exactly one must match (at {where})",
        )
