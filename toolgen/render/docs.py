"""The `docs` target: `docs/README.md` (an index grouped by tags) and `docs/<name>.md` per tool.

Every piece of contract text is escaped here, in Python, before a template sees it (see
`toolgen.render.markdown`); the templates `docs/README.md.jinja` and `docs/tool.md.jinja` only loop
over the prepared view data. Sensitive example values (`x-sensitive = true`) are masked.
Provider notes (why a tool is not strict on OpenAI, what Gemini lowering changed) come from the
providers target: handed over in the render context when that target ran in the same build, else
computed here (`toolgen.render.providers.provider_notes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.catalog import PERMISSION_MEANINGS, STANDARD_ERROR_MEANINGS, STANDARD_ERRORS, Catalog, Contract
from toolgen.config import Settings
from toolgen.render import Artifact, RenderResult, header_lines
from toolgen.render import markdown as md
from toolgen.render.context import PLAIN_CONTEXT, Executor, RenderContext, as_text
from toolgen.render.masking import mask
from toolgen.render.schema_rows import Row, rows
from toolgen.templating import environment, templates_digest

UNTAGGED = "Other tools"
"""The index group of tools without tags."""


@dataclass(frozen=True, slots=True)
class ExampleView:
    """One example, ready to print: an escaped title and fenced JSON blocks."""

    title: str
    input: str
    input_fence: str
    result_label: str
    result: str
    result_fence: str


def provider_notes(
    catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT
) -> Mapping[str, tuple[str, ...]]:
    """Per tool, the providers target's notes, such as "OpenAI: not strict, because ..."."""
    if context.provider_notes is not None:
        return context.provider_notes
    from toolgen.render import providers

    return providers.provider_notes(catalog, settings, context.executor)


def _schema_rows(schema: Mapping[str, Any] | None) -> list[list[str]]:
    def one(row: Row) -> list[str]:
        return [
            md.code(row.path),
            md.cell(row.type),
            "yes" if row.required else "no",
            md.code(row.default) if row.default else " ",
            md.cell("; ".join(row.constraints)) if row.constraints else " ",
            md.prose(row.description + (" (sensitive: masked in docs and traces)" if row.sensitive else "")),
        ]

    return [one(r) for r in rows(schema)]


def _errors(contract: Contract) -> list[list[str]]:
    out = []
    for error in contract.errors:
        standard = STANDARD_ERROR_MEANINGS.get(error.code, "")
        meaning = error.description or standard
        out.append(
            [
                md.code(error.code),
                "yes" if error.retryable else "no",
                md.prose(meaning),
                md.cell(_next_step(error.code, error.retryable)),
            ]
        )
    return out


def _next_step(code: str, retryable: bool) -> str:
    if code == "INVALID_INPUT":
        return "Fix the arguments named in the message, then call again."
    if code == "PERMISSION_DENIED":
        return "Do not retry; ask for the permission or choose another tool."
    if retryable:
        return "Retry the same call after a pause, with backoff."
    return "Do not retry the same call; change the arguments or the state it depends on first."


def _examples(contract: Contract) -> list[ExampleView]:
    out = []
    for index, example in enumerate(contract.examples, start=1):
        shown_in = md.json_text(mask(example.input, contract.input_schema))
        if example.error is not None:
            label, shown_out = "Error", md.json_text(example.error.to_json())
        elif example.output is not None:
            label, shown_out = "Output", md.json_text(mask(example.output, contract.output_schema))
        else:
            label, shown_out = "", ""
        title = example.title or f"Example {index}"
        out.append(ExampleView(md.heading(title), shown_in, md.fence(shown_in), label, shown_out, md.fence(shown_out)))
    return out


def _deprecation(contract: Contract) -> str:
    if contract.deprecated is False:
        return ""
    if isinstance(contract.deprecated, str):
        return md.prose(contract.deprecated, in_table=False)
    return "This tool is deprecated."


def _meta(contract: Contract) -> str:
    parts = ["Version " + md.code(contract.version, in_table=False)]
    if contract.owners:
        parts.append("owners: " + ", ".join(md.cell(o) for o in contract.owners))
    if contract.tags:
        parts.append("tags: " + ", ".join(md.cell(t) for t in contract.tags))
    return " · ".join(parts)


def tool_view(contract: Contract, notes: tuple[str, ...]) -> dict[str, Any]:
    """Everything `docs/tool.md.jinja` prints for one tool, escaped."""
    return {
        "header": md.comment(" ".join(header_lines(contract.source))),
        "name": md.escape_inline(contract.name),
        "title": md.cell(contract.title) if contract.title else "",
        "meta": _meta(contract),
        "description": md.block(contract.description),
        "deprecation": _deprecation(contract),
        "parameters": _schema_rows(contract.input_schema),
        "outputs": _schema_rows(contract.output_schema),
        "has_output": contract.output_schema is not None,
        "permissions": [
            [md.code(p, in_table=False), md.cell(PERMISSION_MEANINGS.get(p, ""))] for p in contract.permissions
        ],
        "idempotent": "yes" if contract.idempotent else "no",
        "timeout_ms": f"{contract.timeout_ms:,}" if contract.timeout_ms is not None else None,
        "errors": _errors(contract),
        "standard_errors": ", ".join(md.code(c, in_table=False) for c in STANDARD_ERRORS),
        "examples": _examples(contract),
        "notes": [md.toolgen_text(n) for n in notes],
        "source": md.code(contract.source, in_table=False),
    }


def _index_row(contract: Contract) -> list[str]:
    deprecated = "no"
    if contract.deprecated:
        deprecated = "yes" if contract.deprecated is True else md.prose(contract.deprecated)
    return [
        f"[{md.escape_inline(contract.name)}]({contract.name}.md)",
        md.code(contract.version),
        ", ".join(contract.permissions) or "none",
        md.prose(contract.summary),
        deprecated,
    ]


def index_view(catalog: Catalog) -> dict[str, Any]:
    """Everything `docs/README.md.jinja` prints: groups of tools by tag, and the standard errors."""
    groups: dict[str, list[list[str]]] = {}
    for contract in catalog:
        for tag in contract.tags or (UNTAGGED,):
            groups.setdefault(tag, []).append(_index_row(contract))
    ordered = sorted(k for k in groups if k != UNTAGGED) + ([UNTAGGED] if UNTAGGED in groups else [])
    sources = f"{len(catalog)} tool{'s' * (len(catalog) != 1)}"
    return {
        "header": md.comment(" ".join(header_lines(sources))),
        "count": sources,
        "groups": [{"tag": md.heading(tag), "rows": groups[tag]} for tag in ordered],
        "standard_errors": [
            [md.code(code), "yes" if retryable else "no", md.cell(STANDARD_ERROR_MEANINGS[code])]
            for code, retryable in STANDARD_ERRORS.items()
        ],
    }


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the docs index and one page per tool (each page cached, see below)."""
    env = environment(settings.templates_dir)
    notes = provider_notes(catalog, settings, context)
    executor: Executor = context.executor
    artifacts = [Artifact("docs/README.md", env.get_template("docs/README.md.jinja").render(index_view(catalog)))]
    templates = templates_digest(settings.templates_dir)

    def pages(todo: Sequence[Contract]) -> list[str]:
        page = env.get_template("docs/tool.md.jinja")
        return [page.render(tool_view(c, notes.get(c.name, ()))) for c in todo]

    # a page is cached on all that shapes it: the contract, its file, its provider notes, the templates
    texts = executor.memo_many(
        "docs",
        list(catalog),
        parts_of=lambda c: (templates, c.source, c.digest, *notes.get(c.name, ())),
        compute_many=pages,
        encode=str,
        decode=as_text,
    )
    for contract, text in zip(catalog, texts, strict=True):
        artifacts.append(Artifact(f"docs/{contract.name}.md", text))
    return RenderResult(artifacts=tuple(artifacts))
