"""Validation: every rule of SPEC.md "Validation" over raw documents, as diagnostics.

(Placeholder while the full rule set lands: returns no diagnostics.)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, sort_diagnostics
from toolgen.load import RawDocument, load_documents


def validate_documents(documents: Sequence[RawDocument], settings: Settings) -> list[Diagnostic]:
    """Every problem in every document, severities resolved, rules turned off dropped."""
    return []


def validate_paths(settings: Settings, paths: Sequence[Path]) -> list[Diagnostic]:
    """Load and validate the project's contracts; with `paths`, report only on those files or folders.

    Duplicate names are still checked across the whole catalog.
    """
    documents, problems = load_documents(settings)
    problems.extend(validate_documents(documents, settings))
    if paths:
        wanted = [settings.rel(p if p.is_absolute() else Path.cwd() / p) for p in paths]
        problems = [d for d in problems if any(d.file == w or d.file.startswith(w.rstrip("/") + "/") for w in wanted)]
    return sort_diagnostics(problems)
