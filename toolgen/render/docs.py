"""The `docs` target: `docs/README.md` (an index grouped by tags) and `docs/<name>.md` per tool.

Every piece of contract text is escaped here, in Python, before a template sees it (see
`toolgen.render.markdown`); the templates `docs/README.md.jinja` and `docs/tool.md.jinja` only loop
over the prepared view data. Sensitive example values (`x-sensitive = true`) are masked, keeping
their types (`toolgen.render.masking`).

A page is built for review in a pull request. First the contract's own words and tables
(description, parameters, output, errors, examples, permissions, the MCP hints as the MCP declaration
states them, rule overrides with each rule's meaning and a link to the page that explains it). Where
toolgen adds words of its own they say so: a `retryable` the contract left out reads "no (standard)",
one that overrides the standard value says so ("no (the standard is yes)"), an error without a
description shows the standard meaning after "(standard meaning)". Errors and tags keep the author's
order. Then what the model receives: one canonical declaration and each provider's changes to it,
with a token table (`toolgen.render.docs_providers`), and the provider notes, whole. Prose goes one
sentence a line and lines are broken before 100 columns (`markdown.wrap_page`), so a changed word
changes one line of the page. The declarations and notes come from the providers target
(`toolgen.render.providers.declarations`), which the caller may pass in; nothing is read from module
state.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from toolgen import rules as rule_table
from toolgen.catalog import PERMISSION_MEANINGS, STANDARD_ERROR_MEANINGS, STANDARD_ERRORS, Catalog, Contract
from toolgen.config import Settings
from toolgen.frozen import as_array, thaw
from toolgen.render import Artifact, RenderResult, header_lines
from toolgen.render import markdown as md
from toolgen.render.context import PLAIN_CONTEXT, Declarations, Executor, RenderContext
from toolgen.render.docs_index import Rows, index_rows, index_view, links_for, links_in
from toolgen.render.docs_providers import model_view
from toolgen.render.masking import mask
from toolgen.render.schema_rows import Constraint, Row, rows
from toolgen.render.units import Files, Table, batch
from toolgen.templating import template_environment, templates_digest

T = TypeVar("T", bound=Iterable[object])
"""A value remembered per tool (`_per_tool`): kept as the JSON list of what it holds."""

PROVIDER_LABELS: Mapping[str, str] = {
    "openai_chat.json": "OpenAI Chat",
    "openai_responses.json": "OpenAI Responses",
    "anthropic.json": "Anthropic",
    "gemini.json": "Gemini",
    "mcp.json": "MCP",
}
"""How each provider file is named on a page."""


@dataclass(frozen=True, slots=True)
class ExampleView:
    """One example, ready to print: an escaped title and fenced JSON blocks."""

    title: str
    input: str
    input_fence: str
    result_label: str
    result: str
    result_fence: str
    masked: bool


def _constraint(item: Constraint) -> str:
    values = ", ".join(md.code(v) if item.code else md.cell(v) for v in item.values)
    return f"{md.cell(item.label)} {values}".strip() if item.label else values


def _schema_rows(found: Sequence[Row], links: md.Links, with_default: bool = True) -> list[list[str]]:
    def one(row: Row) -> list[str]:
        cells = [
            md.code(row.path),
            md.cell(row.type),
            " " if row.required is None else "yes" if row.required else "no",
            md.code(row.default) if row.default else " ",
            "; ".join(_constraint(c) for c in row.constraints) or " ",
            md.prose(
                row.description + (" (sensitive: masked in docs and traces)" if row.sensitive else ""), links=links
            ),
        ]
        return cells if with_default else cells[:3] + cells[4:]

    return [one(r) for r in found]


def _errors(contract: Contract, links: md.Links) -> list[list[str]]:
    """The declared errors in the author's order: the contract's words, toolgen's marked as standard."""
    declared = {e.code: e for e in contract.errors}
    out = []
    for code in contract.error_order or tuple(declared):
        error = declared[code]
        retryable = "yes" if error.retryable else "no"
        if code in STANDARD_ERRORS and not error.inherited and error.retryable != STANDARD_ERRORS[code]:
            retryable += f" (the standard is {'yes' if STANDARD_ERRORS[code] else 'no'})"
        if error.description:
            meaning = md.prose(error.description, links=links)
        else:
            meaning = md.prose(f"(standard meaning) {STANDARD_ERROR_MEANINGS.get(code, '')}".strip())
        out.append([md.code(code), f"{retryable} (standard)" if error.inherited else retryable, meaning])
    return out


def _examples(contract: Contract) -> list[ExampleView]:
    out = []
    for index, example in enumerate(contract.examples, start=1):
        shown = mask(example.input, contract.input_schema)
        masked = shown != thaw(example.input)
        shown_in = md.json_text(shown)
        if example.error is not None:
            label, shown_out = "Error", md.json_text(example.error.to_json())
        elif example.output is not None:
            output = mask(example.output, contract.output_schema)
            masked = masked or output != thaw(example.output)
            label, shown_out = "Output", md.json_text(output)
        else:
            label, shown_out = "", ""
        title = md.heading(example.title or f"Example {index}")
        out.append(ExampleView(title, shown_in, md.fence(shown_in), label, shown_out, md.fence(shown_out), masked))
    return out


def _deprecation(contract: Contract, links: md.Links) -> str:
    if contract.deprecated is False:
        return ""
    if isinstance(contract.deprecated, str):
        return md.prose(contract.deprecated, in_table=False, links=links)
    return "This tool is deprecated."


def _meta(contract: Contract) -> str:
    parts = ["Version " + md.code(contract.version, in_table=False)]
    if contract.owners:
        parts.append("owners: " + ", ".join(md.cell(o) for o in contract.owners))
    tags = contract.tag_order or contract.tags
    if tags:
        parts.append("tags: " + ", ".join(md.cell(t) for t in tags))
    return " · ".join(parts)


def _hints(pairs: Sequence[tuple[str, str]]) -> str:
    """The MCP annotation hints as the MCP declaration states them; empty when MCP does not declare the tool."""
    text = dict(pairs).get("mcp.json")
    mcp = json.loads(text) if text is not None else None
    hints = mcp.get("annotations") if isinstance(mcp, Mapping) else None
    if not isinstance(hints, Mapping):
        return ""
    return ", ".join(f"{md.code(str(k), in_table=False)}: {md.cell(json.dumps(v))}" for k, v in hints.items())


RULE_DOCS: tuple[tuple[str, str], ...] = (
    ("TG1", "rules.md"),
    ("TG2", "rules.md"),
    ("TG35", "python.md"),
    ("TG3", "rules-providers.md"),
    ("TG4", "compatibility.md"),
)
"""Where toolgen's documentation explains each range of rule codes, first match wins."""


def _rules(contract: Contract, docs: str) -> list[str]:
    """Each rule override: the code linked to the page that explains it, the severity, the rule's meaning."""
    out = []
    for code, level in sorted(contract.rules.items()):
        page = next((page for prefix, page in RULE_DOCS if str(code).startswith(prefix)), "rules.md")
        rule = rule_table.get(str(code))
        meaning = f" ({md.cell(rule.title)})" if rule is not None else ""
        out.append(f"[{md.code(str(code), in_table=False)}]({docs}/{page}): {md.cell(str(level))}{meaning}")
    return out


def docs_link(settings: Settings) -> str:
    """The project's `docs/` folder (toolgen's rule pages) as seen from the generated pages."""
    return os.path.relpath(settings.root / "docs", settings.output_dir / "docs").replace(os.sep, "/")


def tool_view(
    contract: Contract, declared: Sequence[tuple[str, str]], notes: Sequence[str], links: md.Links, docs: str = "."
) -> dict[str, object]:
    """Everything `docs/tool.md.jinja` prints for one tool, escaped."""
    outputs = rows(contract.output_schema)
    with_default = any(r.default for r in outputs)
    return {
        "header": md.comment(" ".join(header_lines(contract.source))),
        "heading": md.heading(f"{contract.name}: {contract.title}" if contract.title else contract.name),
        "meta": _meta(contract),
        "description": md.block(contract.description, links),
        "deprecation": _deprecation(contract, links),
        "parameters": _schema_rows(rows(contract.input_schema), links),
        "outputs": _schema_rows(outputs, links, with_default),
        "output_default": with_default,
        "has_output": contract.output_schema is not None,
        "permissions": [
            [md.code(p, in_table=False), md.cell(PERMISSION_MEANINGS.get(p, ""))] for p in contract.permissions
        ],
        "hints": _hints(declared),
        "mcp_name": md.code(str(contract.providers["mcp_name"]), in_table=False)
        if "mcp_name" in contract.providers
        else None,
        "idempotent": "yes" if contract.idempotent else "no",
        "timeout_ms": f"{contract.timeout_ms:,}" if contract.timeout_ms is not None else None,
        "timeout_retryable": "yes" if contract.retryable("TIMEOUT") else "no",
        "content_kinds": ", ".join(md.code(k, in_table=False) for k in contract.content_kinds),
        "errors": _errors(contract, links),
        "standard_errors": ", ".join(
            md.code(c, in_table=False) for c in contract.standard_errors if c not in {e.code for e in contract.errors}
        ),
        "excluded_errors": ", ".join(
            md.code(c, in_table=False) for c in STANDARD_ERRORS if c in contract.excluded_errors
        ),
        "declares_standard": any(e.code in STANDARD_ERRORS for e in contract.errors),
        "examples": _examples(contract),
        "model": model_view(declared, contract.description, PROVIDER_LABELS),
        "notes": [md.toolgen_text(n) for n in notes],
        "rules": _rules(contract, docs),
        "source": md.code(contract.source, in_table=False),
    }


def _page_parts(contract: Contract, declared: Declarations, links: Mapping[str, str]) -> tuple[str, ...]:
    """What a page depends on beyond its contract's digest: the order and inheritance the digest
    leaves out, the rule overrides, the linked tools, and the declarations and notes (or what
    decides them, `Declarations.identity`)."""
    order = (*contract.error_order, "|", *contract.tag_order, "|", *(str(e.inherited) for e in contract.errors))
    rules = json.dumps(thaw(contract.rules), sort_keys=True)
    identity = declared.identity.get(contract.name) if declared.identity is not None else None
    if identity is not None:
        return (*order, rules, *links, "providers-key", identity)
    pairs = [part for pair in declared.tools.get(contract.name, ()) for part in pair]
    return (*order, rules, *links, *pairs, "|", *declared.notes.get(contract.name, ()))


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the docs index and one page per tool (each page cached on all that shapes it).

    The providers' declarations and notes for this catalog come in the context when the providers
    target ran first in the same build; they are computed here otherwise.
    """
    index, pages = render_index(catalog, settings, context), render_pages(catalog, settings, context)
    return RenderResult(artifacts=(*index.artifacts, *pages.artifacts))


def render_index(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """The docs index alone (`docs/README.md`). It needs none of the providers' declarations, so a
    build renders it beside them while the pages wait for them. Its rows link the tools that their
    summaries and deprecation notes name, the only texts of a tool it shows."""
    env = template_environment(settings.templates_dir)
    text = env.get_template("docs/README.md.jinja").render(index_view(catalog, rows=_index_rows(catalog, context)))
    return RenderResult(artifacts=(Artifact("docs/README.md", text),))


def _index_rows(catalog: Catalog, context: RenderContext) -> dict[str, Rows]:
    """Each tool's rows of the index (`index_rows`), remembered (`_per_tool`): escaping 1,000 names
    and summaries again was most of the index."""
    names = frozenset(catalog.names)

    def decode(data: object) -> Rows:
        row, matrix = as_array(data)
        if isinstance(row, list) and isinstance(matrix, list) and all(isinstance(c, str) for c in (*row, *matrix)):
            return row, matrix
        raise TypeError("remembered index rows are not texts")

    def made(contract: Contract) -> Rows:
        return index_rows(contract, links_in(contract, _shown_in_index(contract), names))

    return _per_tool("docs-index", catalog, context.executor, made, decode)


def _shown_in_index(contract: Contract) -> tuple[str, ...]:
    """The texts of a tool the index shows: its summary, and its deprecation note if it has one."""
    return (contract.summary, contract.deprecated) if isinstance(contract.deprecated, str) else (contract.summary,)


def _links(catalog: Catalog, executor: Executor) -> dict[str, dict[str, str]]:
    """Each tool's `links_for`, remembered (`_per_tool`; what a page's key holds: a page renders
    again when a tool it names comes or goes). Finding them walks every schema of the catalog."""
    names = frozenset(catalog.names)

    def decode(data: object) -> dict[str, str]:
        if not isinstance(data, list) or not all(isinstance(n, str) and n in names for n in data):
            raise TypeError("remembered links are not names of this catalog")
        return {name: f"{name}.md" for name in data}

    return _per_tool("docs-links", catalog, executor, lambda c: links_for(c, names), decode)


def _per_tool(
    namespace: str,
    catalog: Catalog,
    executor: Executor,
    made: Callable[[Contract], T],
    decode: Callable[[object], T],
) -> dict[str, T]:
    """`made(contract)` for each tool, by name, remembered by contract digest under the catalog's
    names (the tools a text may link: one that comes or goes makes them all again); with one
    contract changed, only its own is made again. A value is kept as a JSON list."""
    units = Table(
        namespace,
        tuple(sorted(catalog.names)),
        item_key=lambda c: c.digest,
        make=batch(made),
        encode=list,
        decode=decode,
        resident=True,  # rows and links are read, never changed
    )
    found = executor.table(units, list(catalog))
    return {c.name: value for c, value in zip(catalog, found, strict=True)}


def render_pages(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """One page per tool, each cached on all that shapes it (`_page_parts`); the declarations and
    notes from the context, or computed here."""
    executor = context.executor
    declared = context.declarations
    if declared is None:
        from toolgen.render import providers

        declared = providers.declarations(catalog, settings, executor)
    env = template_environment(settings.templates_dir)
    links = _links(catalog, executor)
    templates = templates_digest(settings.templates_dir)
    docs = docs_link(settings)

    def pages(todo: Sequence[Contract]) -> list[tuple[str, None]]:
        page = env.get_template("docs/tool.md.jinja")
        views = (
            tool_view(c, declared.tools.get(c.name, ()), declared.notes.get(c.name, ()), links[c.name], docs)
            for c in todo
        )
        return [(md.wrap_page(page.render(view)), None) for view in views]

    units = Files(
        "docs",
        depends_on=lambda c: (templates, docs, c.source, c.digest, *_page_parts(c, declared, links[c.name])),
        path_of=lambda c: f"docs/{c.name}.md",
        make=pages,
    )
    made = executor.files(units, list(catalog))
    return RenderResult(artifacts=tuple(artifact for artifact, _ in made))
