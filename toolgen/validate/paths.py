"""`toolgen validate [PATH...]`: the project's contracts validated, reported on the files named.

When no contract has an error, the checks of the configured targets run too, so validation reports
what a build would. Those checks render (they live in the pipeline,
`toolgen.pipeline.targetchecks.target_diagnostics`): the caller passes them in, as the command line
does, and validation imports nothing above itself (tests/house/test_import_rules.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity, sort_diagnostics
from toolgen.load import RawDocument, load_documents, load_named
from toolgen.validate.contract import validate_documents

TargetChecks = Callable[[Sequence[RawDocument], Settings], list[Diagnostic]]
"""What the configured targets report about documents that passed validation without an error."""


def _wanted(settings: Settings, path: Path) -> str | None:
    """A PATH argument as a project-relative path (tried from the working directory, then the project)."""
    candidates = [path] if path.is_absolute() else [Path.cwd() / path, settings.root / path]
    for candidate in candidates:
        if candidate.exists() or candidate.is_symlink():
            return settings.rel(candidate)
    return None


def validate_paths(settings: Settings, paths: Sequence[Path], targets: TargetChecks | None = None) -> list[Diagnostic]:
    """Load and validate the project's contracts; with `paths`, report only on those files or folders.

    Duplicate names are still checked across the whole catalog. A named file or folder outside the
    contracts folder is loaded and checked with it. A path that does not exist is TG101.
    When no contract has an error, `targets` runs too (the build's `target_diagnostics`: TG3xx,
    TG35x), so validation reports what a build would; without it only the contracts are judged.
    """
    documents, problems = load_documents(settings)
    if paths:  # files named outside the contracts folder are checked too, never reported clean unread
        named, trouble = load_named(settings, paths, documents)
        documents, problems = [*documents, *named], [*problems, *trouble]
    problems.extend(validate_documents(documents, settings))
    if targets is not None and not any(d.is_error for d in problems):
        problems.extend(targets(documents, settings))
    if paths:
        wanted = [_wanted(settings, p) for p in paths]
        missing = [
            Diagnostic("TG101", Severity.ERROR, "no such file or folder; check the path", p.as_posix())
            for p, w in zip(paths, wanted, strict=True)
            if w is None
        ]
        found = [w for w in wanted if w is not None]
        problems = [d for d in problems if any(d.file == w or d.file.startswith(w.rstrip("/") + "/") for w in found)]
        problems.extend(missing)
    return sort_diagnostics(problems)
