"""The `providers` target: the tool declarations each model API takes, under `providers/`.

Five files, each exactly what its API takes as the tools parameter: `openai_chat.json`,
`openai_responses.json`, `anthropic.json`, `gemini.json` and `mcp.json`. The decisions live in one
small module per provider (`openai`, `anthropic`, `gemini`, `mcp`), shared rewrites in `lower`, `refs` and
`strict`, the TG3xx rules in `codes`; what a contract's or the configuration's `providers` table
may say is in `toolgen.provideroptions`. Each provider says how it declares one tool and what it
checks over the catalog (`common.Spec`); a tool's entries may be declared as units, each made
from its contract (see `_outputs`). Files are written a tool at a time as `json.dumps(indent=2, ensure_ascii=False)`
would write them (`render.jsontext`); JSON has no comments, so there is no header.

The docs show what each provider receives (`declarations`: every tool's entry per file, as text,
and the notes); `render_declared` gives the files and those from one projection, which the
pipeline hands to the docs target when both run. Nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, sort_diagnostics
from toolgen.render import File, RenderResult, jsontext
from toolgen.render.context import PLAIN, PLAIN_CONTEXT, Declarations, Executor, Notes, RenderContext
from toolgen.render.providers import anthropic, cached, gemini, mcp, openai
from toolgen.render.providers.common import Payload, ProviderResult, Spec, build_with
from toolgen.render.units import Either

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


def _outputs(catalog: Catalog, settings: Settings, executor: Executor) -> Iterator[ProviderResult]:
    """Each provider's output in turn, one of two ways (the executor takes one).

    By units: every provider whose tools are independent is assembled from runs of tools
    (`cached.runs`: each tool's entries, already encoded, its diagnostics and notes, made from the
    contract, its file and the settings): where they are remembered, a one-contract change declares
    one tool again, and joins about 32 texts per file, not 1,000. Whole: the providers are built one
    at a time, so only one provider's payloads are held as data.
    """
    independent = [s for s in _SPECS if s.independent(settings)]

    def by_units() -> Iterator[ProviderResult]:
        made = cached.runs(list(catalog), settings, independent, executor) if independent else []
        for spec in _SPECS:
            yield (
                _assembled(spec, catalog, settings, made)
                if spec in independent
                else build_with(spec, catalog, settings)
            )

    whole = lambda: (build_with(spec, catalog, settings) for spec in _SPECS)  # noqa: E731
    return executor.either(Either(whole=whole, by_units=by_units))


def _identity(catalog: Catalog, settings: Settings) -> dict[str, str] | None:
    """Each tool's part key (`Declarations.identity`), when every tool's declarations and notes come
    from its part alone: every provider independent (the checks over the catalog add diagnostics,
    never notes)."""
    specs = [s for s in _SPECS if s.independent(settings)]
    if len(specs) != len(_SPECS):
        return None
    shared = cached.shared_key(settings, specs)
    return {c.name: "\0".join(cached.part_key(shared, c)) for c in catalog}


def _assembled(spec: Spec, catalog: Catalog, settings: Settings, runs: Sequence[cached.Run]) -> ProviderResult:
    """`spec`'s output from the cached runs of tools, then its checks over the whole catalog. Each
    run's text of a file is one `Raw` item of its list: `jsontext` places it as the entries it joins."""
    out = ProviderResult()
    for run in runs:
        for name, head in zip(run.names, run.heads, strict=True):
            mine = head[spec.name]
            out.diagnostics.extend(mine["diagnostics"])
            for text in mine["notes"]:
                out.note(name, str(text))
    spec.check(catalog, settings, out)
    places = cached.Places(runs)
    for file in spec.files:
        items: list[object] = [jsontext.Raw(run.texts[file]) for run in runs if file in run.texts]
        out.payloads.append(Payload(file, spec.wrap(settings, file, items), cached.RunEntries(places, spec.name, file)))
    return out


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the five provider files."""
    return _render(catalog, settings, None, context.executor)


def render_declared(
    catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT
) -> tuple[RenderResult, Declarations]:
    """`render`, and what the docs target shows of it (`declarations`), from one projection."""
    gathered: _Gathered = ({}, [])
    result = _render(catalog, settings, gathered, context.executor)
    return result, _declared(catalog, gathered, _identity(catalog, settings))


_Gathered = tuple[dict[str, list[str]], list[tuple[str, Mapping[str, object]]]]
"""Notes per tool, and per file each tool's declaration (its text, or a `Raw` cut from a cached run
when asked for), as `_outputs` produces them."""


def _render(catalog: Catalog, settings: Settings, gathered: _Gathered | None, executor: Executor) -> RenderResult:
    artifacts: list[File] = []
    diagnostics: list[Diagnostic] = []
    for out in _outputs(catalog, settings, executor):
        if gathered is not None:
            _gather_declarations(gathered, out)
        artifacts.extend(executor.joined(f"providers/{p.file}", _dump_pieces(p)) for p in out.payloads)
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
    gathered: _Gathered = ({}, [])
    for out in _outputs(catalog, settings, executor):
        _gather_declarations(gathered, out)
    return _declared(catalog, gathered, _identity(catalog, settings))


def _gather_declarations(gathered: _Gathered, out: ProviderResult) -> None:
    """The notes and declarations of one provider's output: the entries of cached runs are kept
    as they are (cut out when asked for); entries made as data are encoded now, so the payloads
    themselves are not held past their provider."""
    notes, files = gathered
    _gather(notes, out)
    for payload in out.payloads:
        tools = payload.tools
        if not isinstance(tools, cached.RunEntries):
            tools = {name: _text(entry) for name, entry in tools.items()}
        files.append((payload.file, tools))


def _declared(catalog: Catalog, gathered: _Gathered, identity: Mapping[str, str] | None) -> Declarations:
    notes, files = gathered
    return Declarations(_Pairs(catalog.names, files), _frozen_notes(catalog, notes), identity)


class _Pairs(Mapping[str, tuple[tuple[str, str], ...]]):
    """Per tool, its `(file, text)` declarations in `FILES` order, made from the payloads each time
    they are asked for: with a build cache the docs ask only for the pages they make again, and a
    page asks once. None is kept: in a cold build of 10,000 contracts, keeping them held a second
    copy of every declaration (cut from the cached runs, which stay held) until the last page."""

    def __init__(self, names: Sequence[str], files: Sequence[tuple[str, Mapping[str, object]]]) -> None:
        self._names = names
        self._known = frozenset(names)
        self._files = sorted(files, key=lambda pair: FILES.index(pair[0]))

    def __getitem__(self, name: str) -> tuple[tuple[str, str], ...]:
        if name not in self._known:
            raise KeyError(name)
        entries = ((file, tools.get(name)) for file, tools in self._files)  # one look-up a file
        return tuple((file, _text(entry)) for file, entry in entries if entry is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _text(entry: object) -> str:
    """A declaration's text: as it is, from its `Raw`, or encoded from its data."""
    if isinstance(entry, str):
        return entry
    return entry.text if isinstance(entry, jsontext.Raw) else jsontext.encode(entry).text


def _gather(notes: dict[str, list[str]], out: ProviderResult) -> None:
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
