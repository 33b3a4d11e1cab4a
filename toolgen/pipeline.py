"""The pipeline: configuration → load → validate → catalog → render, in memory.

`generate()` is the library entry point behind `build` and `check`: it returns the catalog, every
artifact of every configured target and every diagnostic, and writes nothing. A target runs only
when validation found no error; an error from any target means nothing may be written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolgen.catalog import Catalog, build_catalog, contract_from_document
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic, has_errors, resolve_severities, sort_diagnostics
from toolgen.load import RawDocument, load_documents
from toolgen.render import Artifact, targets
from toolgen.validate import validate_documents


@dataclass(frozen=True, slots=True)
class Generated:
    """The outcome of a generation run: artifacts only when nothing failed."""

    settings: Settings
    diagnostics: tuple[Diagnostic, ...]
    catalog: Catalog | None = None
    artifacts: tuple[Artifact, ...] = ()

    @property
    def ok(self) -> bool:
        """True when there is no error and so the artifacts may be written."""
        return not has_errors(self.diagnostics)


def load_catalog(settings: Settings) -> tuple[Catalog | None, list[Diagnostic], list[RawDocument]]:
    """Load and validate every contract; the catalog is None when any contract has an error."""
    documents, problems = load_documents(settings)
    problems.extend(validate_documents(documents, settings))
    problems = sort_diagnostics(problems)
    if has_errors(problems):
        return None, problems, documents
    contracts = [contract_from_document(d.data, d.rel) for d in documents]
    return build_catalog(contracts), problems, documents


def locate(diagnostics: Iterable[Diagnostic], documents: Iterable[RawDocument]) -> list[Diagnostic]:
    """Fill in line and column for diagnostics that carry only a pointer into a contract."""
    by_file = {d.rel: d for d in documents}
    out: list[Diagnostic] = []
    for diagnostic in diagnostics:
        document = by_file.get(diagnostic.file)
        if diagnostic.line is None and document is not None:
            line, column = document.locate(diagnostic.pointer)
            out.append(replace(diagnostic, line=line, column=column))
        else:
            out.append(diagnostic)
    return out


def generate(settings: Settings) -> Generated:
    """Validate and render every configured target in memory."""
    catalog, problems, documents = load_catalog(settings)
    if catalog is None:
        return Generated(settings, tuple(problems))
    per_file = {c.source: c.rules for c in catalog}
    registry = targets()
    artifacts: list[Artifact] = []
    for name in settings.targets:
        if name not in registry:
            continue
        result = registry[name](catalog, settings)
        found = resolve_severities(result.diagnostics, settings.rule_severities, per_file)
        problems.extend(locate(found, documents))
        artifacts.extend(result.artifacts)
    diagnostics = tuple(sort_diagnostics(problems))
    if has_errors(diagnostics):
        return Generated(settings, diagnostics, catalog)
    return Generated(settings, diagnostics, catalog, tuple(sorted(artifacts, key=lambda a: a.path)))


def settings_for(root: Path, overrides: Mapping[str, Any] | None = None) -> tuple[Settings, list[Diagnostic]]:
    """Settings for the project at `root` (a thin re-export for library users)."""
    return load_settings(root, overrides)
