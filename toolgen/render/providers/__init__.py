"""The `providers` target: the tool declarations each model API takes, under `providers/`.

Five files, each exactly what its API takes as the tools parameter: `openai_chat.json`,
`openai_responses.json`, `anthropic.json`, `gemini.json` and `mcp.json`. The decisions live in one
small module per provider (`openai`, `anthropic`, `gemini`, `mcp`), shared rewrites in `lower` and
`strict`, the TG3xx rules in `codes`. Payloads are built as dicts and dumped with
`json.dumps(indent=2, ensure_ascii=False)`; JSON has no comments, so there is no header.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, sort_diagnostics
from toolgen.render import Artifact, RenderResult, jsontext
from toolgen.render.providers import anthropic, gemini, mcp, openai
from toolgen.render.providers.common import Output, Payload

FILES: tuple[str, ...] = ("openai_chat.json", "openai_responses.json", "anthropic.json", "gemini.json", "mcp.json")
"""Every file of the target, in the order providers are reported."""

_BUILDERS = (openai.build, anthropic.build, gemini.build, mcp.build)


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
    for builder in _BUILDERS:
        out: Output = builder(catalog, settings)
        payloads.extend(out.payloads)
        diagnostics.extend(out.diagnostics)
        for tool, texts in out.notes.items():
            notes.setdefault(tool, []).extend(texts)
    ordered = tuple(sorted(payloads, key=lambda p: FILES.index(p.file)))
    frozen_notes = {name: tuple(notes.get(name, ())) for name in catalog.names}
    return Projection(ordered, tuple(sort_diagnostics(diagnostics)), frozen_notes)


def dump(payload: Payload) -> str:
    """The text of one provider file (`json.dumps(indent=2, ensure_ascii=False)`, a tool at a time)."""
    return jsontext.dumps(payload.document) + "\n"


def _dump_pieces(payload: Payload) -> Iterator[str]:
    yield from jsontext.pieces(payload.document)
    yield "\n"


def _outputs(catalog: Catalog, settings: Settings) -> Iterator[Output]:
    """Each provider's output in turn, so only one provider's payloads are ever held as data."""
    for builder in _BUILDERS:
        yield builder(catalog, settings)


def render(catalog: Catalog, settings: Settings) -> RenderResult:
    """Render the five provider files (and keep their notes for the docs target of the same build)."""
    artifacts: list[Artifact] = []
    diagnostics: list[Diagnostic] = []
    notes: dict[str, list[str]] = {}
    for out in _outputs(catalog, settings):
        artifacts.extend(Artifact.streamed(f"providers/{p.file}", _dump_pieces(p)) for p in out.payloads)
        diagnostics.extend(out.diagnostics)
        _gather(notes, out)
    _LAST_NOTES[:] = [(_notes_key(catalog, settings), _frozen_notes(catalog, notes))]
    ordered = tuple(sorted(artifacts, key=lambda a: FILES.index(a.path.removeprefix("providers/"))))
    return RenderResult(artifacts=ordered, diagnostics=tuple(sort_diagnostics(diagnostics)))


def provider_notes(catalog: Catalog, settings: Settings) -> Mapping[str, tuple[str, ...]]:
    """Per tool name, what a reader should know about its provider declarations (for the docs target).

    For example `("OpenAI: not strict, because `/input_schema/properties/headers` is a free-form
    map (additionalProperties is a schema)",)`. Every tool of the catalog has an entry, maybe empty.
    """
    key = _notes_key(catalog, settings)
    if _LAST_NOTES and _LAST_NOTES[0][0] == key:
        return _LAST_NOTES[0][1]
    notes: dict[str, list[str]] = {}
    for out in _outputs(catalog, settings):
        _gather(notes, out)
    return _frozen_notes(catalog, notes)


_LAST_NOTES: list[tuple[tuple[str, str, bool], Mapping[str, tuple[str, ...]]]] = []
"""The notes of the last `render`, by catalog digest and settings: the docs target of the same build
reads them instead of projecting the whole catalog for every provider a second time."""


def _notes_key(catalog: Catalog, settings: Settings) -> tuple[str, str, bool]:
    return (catalog.digest, settings.fingerprint(), settings.anthropic_strict)


def _gather(notes: dict[str, list[str]], out: Output) -> None:
    for tool, texts in out.notes.items():
        notes.setdefault(tool, []).extend(texts)


def _frozen_notes(catalog: Catalog, notes: Mapping[str, list[str]]) -> Mapping[str, tuple[str, ...]]:
    return {name: tuple(notes.get(name, ())) for name in catalog.names}


__all__ = ["FILES", "Projection", "dump", "project", "provider_notes", "render"]
