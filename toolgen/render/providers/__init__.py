"""The `providers` target: the tool declarations each model API takes, under `providers/`.

Five files, each exactly what its API takes as the tools parameter: `openai_chat.json`,
`openai_responses.json`, `anthropic.json`, `gemini.json` and `mcp.json`. The decisions live in one
small module per provider (`openai`, `anthropic`, `gemini`, `mcp`), shared rewrites in `lower`, `refs` and
`strict`, the TG3xx rules in `codes`; what a contract's or the configuration's `providers` table
may say is in `toolgen.provideroptions`. Each provider says how it declares one tool and what it
checks over the catalog (`common.Spec`); with a build cache a tool's entries are cached (see
`_outputs`). Files are written a tool at a time as `json.dumps(indent=2, ensure_ascii=False)`
would write them (`render.jsontext`); JSON has no comments, so there is no header.

The docs show what each provider receives (`declarations`: every tool's entry per file, as text,
and the notes); `render_declared` gives the files and those from one projection, which the
pipeline hands to the docs target when both run. Nothing is kept between calls.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, sort_diagnostics
from toolgen.render import Artifact, RenderResult, jsontext
from toolgen.render.context import PLAIN, PLAIN_CONTEXT, Declarations, Executor, Notes, RenderContext
from toolgen.render.providers import anthropic, gemini, mcp, openai
from toolgen.render.providers.common import Output, Payload, Spec, build_with

FILES: tuple[str, ...] = ("openai_chat.json", "openai_responses.json", "anthropic.json", "gemini.json", "mcp.json")
"""Every file of the target, in the order providers are reported."""

_SPECS: tuple[Spec, ...] = (openai.SPEC, anthropic.SPEC, gemini.SPEC, mcp.SPEC)


@dataclass(frozen=True, slots=True)
class Projection:
    """Every provider's payload for one catalog, with diagnostics and per-tool notes."""

    payloads: tuple[Payload, ...]
    diagnostics: tuple[Diagnostic, ...]
    notes: Mapping[str, tuple[str, ...]]


def project(catalog: Catalog, settings: Settings) -> Projection:
    """Project the catalog for every provider, in memory."""
    payloads: list[Payload] = []
    diagnostics: list[Diagnostic] = []
    notes: dict[str, list[str]] = {}
    for spec in _SPECS:
        out = build_with(spec, catalog, settings)
        payloads.extend(out.payloads)
        diagnostics.extend(out.diagnostics)
        _gather(notes, out)
    ordered = tuple(sorted(payloads, key=lambda p: FILES.index(p.file)))
    return Projection(ordered, tuple(sort_diagnostics(diagnostics)), _frozen_notes(catalog, notes))


def _dump_pieces(payload: Payload) -> Iterator[str]:
    """The text of one provider file (`json.dumps(indent=2, ensure_ascii=False)`), a tool at a time."""
    yield from jsontext.pieces(payload.document)
    yield "\n"


def _outputs(catalog: Catalog, settings: Settings, executor: Executor) -> Iterator[Output]:
    """Each provider's output in turn.

    In a build with a cache, a tool's entries (already encoded), diagnostics and notes for every
    provider whose tools are independent are one cache entry, keyed on the contract, its file and
    the settings: a one-contract change declares one tool again, not the catalog. Without a cache
    the providers are built one at a time, so only one provider's payloads are held as data.
    """
    independent = [s for s in _SPECS if s.independent(settings)] if executor.caching else []
    parts = _tool_parts(catalog, settings, independent, executor) if independent else []
    for spec in _SPECS:
        yield _assembled(spec, catalog, settings, parts) if spec in independent else build_with(spec, catalog, settings)


def _tool_parts(
    catalog: Catalog, settings: Settings, specs: Sequence[Spec], executor: Executor
) -> list[dict[str, Any]]:
    def compute(todo: Sequence[Contract]) -> list[dict[str, Any]]:
        makers = [(spec, spec.tools(settings)) for spec in specs]
        made: list[dict[str, Any]] = []
        for contract in todo:
            part: dict[str, Any] = {}
            for spec, make in makers:
                out = Output()
                entries = make(contract, out)
                part[spec.name] = {
                    "entries": {file: jsontext.encode(entry).text for file, entry in entries.items()},
                    "diagnostics": list(out.diagnostics),
                    "notes": out.notes.get(contract.name, []),
                }
            made.append(part)
        return made

    shared = _shared(settings, specs)
    return executor.memo_many(
        "providers",
        list(catalog),
        parts_of=lambda c: _key_parts(shared, c),
        compute_many=compute,
        encode=_encode_part,
        decode=lambda text: _part(text, specs),
        raw=True,
    )


def _shared(settings: Settings, specs: Sequence[Spec]) -> tuple[str, ...]:
    """What every tool's part is keyed on: the settings and the providers (once: 1,000 tools, one
    fingerprint)."""
    return (settings.fingerprint(), *(spec.name for spec in specs))


def _key_parts(shared: tuple[str, ...], contract: Contract) -> tuple[str, ...]:
    """What decides one tool's part: `shared`, and its contract and file."""
    return (shared[0], contract.source, contract.digest, *shared[1:])


def _identity(catalog: Catalog, settings: Settings, executor: Executor) -> dict[str, str] | None:
    """Each tool's part key (`Declarations.identity`), when every tool's declarations and notes come
    from its part alone: with a build cache, every provider independent (the checks over the
    catalog add diagnostics, never notes)."""
    specs = [s for s in _SPECS if s.independent(settings)]
    if not executor.caching or len(specs) != len(_SPECS):
        return None
    shared = _shared(settings, specs)
    return {c.name: "\0".join(_key_parts(shared, c)) for c in catalog}


def _encode_part(part: Mapping[str, Any]) -> str:
    """A tool part as one text: a line of JSON with each provider's diagnostics, notes and the
    length of each of its entries, then the entries' texts as they are. The texts are JSON already;
    escaped again into JSON strings, reading 1,000 parts back cost more than assembling the files."""
    head: dict[str, Any] = {}
    for name, mine in part.items():
        head[name] = {
            "files": list(mine["entries"]),
            "lengths": [len(text) for text in mine["entries"].values()],
            "diagnostics": [d.as_json() for d in mine["diagnostics"]],
            "notes": mine["notes"],
        }
    texts = "".join(text for mine in part.values() for text in mine["entries"].values())
    return json.dumps(head, ensure_ascii=False, separators=(",", ":")) + "\n" + texts


def _part(text: str, specs: Sequence[Spec]) -> dict[str, Any]:
    """A cached tool part (`_encode_part`), checked to have every provider's entries, diagnostics and
    notes, its texts exactly filling the rest, its diagnostics made objects once (a part of any other
    shape is a miss, never a crash later)."""
    line, newline, body = text.partition("\n")
    head = json.loads(line)
    if not newline or not isinstance(head, dict) or not all(_is_head(head.get(spec.name), spec) for spec in specs):
        raise TypeError("a cached provider entry is not of the shape toolgen stores")
    part: dict[str, Any] = {}
    start = 0
    for name, mine in head.items():  # the texts follow in the order the line lists them
        entries: dict[str, str] = {}
        for file, length in zip(mine["files"], mine["lengths"], strict=True):
            entries[file], start = body[start : start + length], start + length
        # from_json raises on a malformed diagnostic, which makes the entry a miss too
        found = [Diagnostic.from_json(d) for d in mine["diagnostics"]]
        part[name] = {"entries": entries, "diagnostics": found, "notes": mine["notes"]}
    if start != len(body) or len(part) != len(specs):
        raise ValueError("a cached provider entry's texts do not fill it")
    return part


def _is_head(value: Any, spec: Spec) -> bool:
    if not isinstance(value, dict):
        return False
    files, lengths, diagnostics, notes = (value.get(k) for k in ("files", "lengths", "diagnostics", "notes"))
    if not isinstance(files, list) or not isinstance(lengths, list) or len(files) != len(lengths):
        return False
    if not all(file in spec.files for file in files) or len(set(files)) != len(files):
        return False
    if not all(type(n) is int and n >= 0 for n in lengths):
        return False
    return isinstance(diagnostics, list) and isinstance(notes, list) and all(isinstance(n, str) for n in notes)


def _assembled(spec: Spec, catalog: Catalog, settings: Settings, parts: Sequence[Mapping[str, Any]]) -> Output:
    """`spec`'s output from each tool's cached part, then its checks over the whole catalog."""
    out = Output()
    entries: dict[str, dict[str, Any]] = {file: {} for file in spec.files}
    for contract, part in zip(catalog, parts, strict=True):
        mine = part[spec.name]
        for file in spec.files:
            if file in mine["entries"]:
                entries[file][contract.name] = jsontext.Raw(str(mine["entries"][file]))
        out.diagnostics.extend(mine["diagnostics"])
        for text in mine["notes"]:
            out.note(contract.name, str(text))
    spec.check(catalog, settings, out)
    for file in spec.files:
        out.payloads.append(Payload(file, spec.wrap(settings, file, list(entries[file].values())), entries[file]))
    return out


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the five provider files."""
    return _render(catalog, settings, None, context.executor)


def render_declared(
    catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT
) -> tuple[RenderResult, Declarations]:
    """`render`, and what the docs target shows of it (`declarations`), from one projection."""
    gathered: _Gathered = ({}, {name: [] for name in catalog.names})
    result = _render(catalog, settings, gathered, context.executor)
    return result, _declared(catalog, gathered, _identity(catalog, settings, context.executor))


_Gathered = tuple[dict[str, list[str]], dict[str, list[tuple[str, str]]]]
"""Notes and `(file, text)` declarations per tool, as `_outputs` produces them."""


def _render(catalog: Catalog, settings: Settings, gathered: _Gathered | None, executor: Executor) -> RenderResult:
    artifacts: list[Artifact] = []
    diagnostics: list[Diagnostic] = []
    for out in _outputs(catalog, settings, executor):
        if gathered is not None:
            _gather_declarations(gathered, out)
        artifacts.extend(Artifact(f"providers/{p.file}", "".join(_dump_pieces(p))) for p in out.payloads)
        diagnostics.extend(out.diagnostics)
    ordered = tuple(sorted(artifacts, key=lambda a: FILES.index(a.path.removeprefix("providers/"))))
    return RenderResult(artifacts=ordered, diagnostics=tuple(sort_diagnostics(diagnostics)))


def provider_notes(catalog: Catalog, settings: Settings, executor: Executor = PLAIN) -> Notes:
    """Per tool name, what a reader should know about its provider declarations (for the docs target).

    For example `("OpenAI: not strict, because `/input_schema/properties/headers` is a free-form
    map (additionalProperties is a schema)",)`. Every tool of the catalog has an entry, maybe empty.
    """
    return declarations(catalog, settings, executor).notes


def declarations(catalog: Catalog, settings: Settings, executor: Executor = PLAIN) -> Declarations:
    """Every tool's declaration per provider file, and its provider notes (for the docs target).

    Computed as `render` computes them (with a build cache, from the same per-tool entries), so
    the docs show what the files hold; nothing is kept between calls.
    """
    gathered: _Gathered = ({}, {name: [] for name in catalog.names})
    for out in _outputs(catalog, settings, executor):
        _gather_declarations(gathered, out)
    return _declared(catalog, gathered, _identity(catalog, settings, executor))


def _gather_declarations(gathered: _Gathered, out: Output) -> None:
    notes, tools = gathered
    _gather(notes, out)
    for payload in out.payloads:
        for name, entry in payload.tools.items():
            text = entry.text if isinstance(entry, jsontext.Raw) else jsontext.encode(entry).text
            tools.setdefault(name, []).append((payload.file, text))


def _declared(catalog: Catalog, gathered: _Gathered, identity: Mapping[str, str] | None) -> Declarations:
    notes, tools = gathered
    ordered = {name: tuple(sorted(pairs, key=lambda p: FILES.index(p[0]))) for name, pairs in tools.items()}
    return Declarations(ordered, _frozen_notes(catalog, notes), identity)


def _gather(notes: dict[str, list[str]], out: Output) -> None:
    for tool, texts in out.notes.items():
        notes.setdefault(tool, []).extend(texts)


def _frozen_notes(catalog: Catalog, notes: Mapping[str, list[str]]) -> Mapping[str, tuple[str, ...]]:
    return {name: tuple(notes.get(name, ())) for name in catalog.names}


__all__ = [
    "FILES",
    "Declarations",
    "Projection",
    "declarations",
    "project",
    "provider_notes",
    "render",
    "render_declared",
]
