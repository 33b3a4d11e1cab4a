"""What the build's targets would report about a valid catalog, for `toolgen validate` (writes nothing).

The build reports more than validation: the provider projection (TG3xx) and the Python target
(TG35x) judge the catalog as they render it. `target_diagnostics` runs the same checks on the
configured targets without rendering a file (the providers' projection is cheap and is what judges;
the Python target's `check` makes the models, not the modules), reading the build cache without
writing it, and resolves severities and positions as `pipeline.generate` does. Only TG352, about a
template override, needs the files and is left to the build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from toolgen.catalog import Catalog, build_catalog, contract_from_document
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, resolve_severities
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.load import RawDocument, locate
from toolgen.render.context import RenderContext


def _providers(catalog: Catalog, settings: Settings, context: RenderContext) -> list[Diagnostic]:
    from toolgen.render import providers

    return list(providers.render(catalog, settings, context).diagnostics)


def _python(catalog: Catalog, settings: Settings, context: RenderContext) -> list[Diagnostic]:
    from toolgen.render import python

    return python.check(catalog, settings, context)


CHECKS: dict[str, Callable[[Catalog, Settings, RenderContext], list[Diagnostic]]] = {
    "providers": _providers,
    "python": _python,
}
"""The targets that judge contracts, by name (`catalog`, `docs` and `mocks` report nothing)."""


def target_diagnostics(documents: Sequence[RawDocument], settings: Settings) -> list[Diagnostic]:
    """The diagnostics the configured targets give documents that passed validation without an error."""
    wanted = [name for name in settings.targets if name in CHECKS]
    if not wanted or not documents:
        return []
    catalog = build_catalog([contract_from_document(d.data, d.rel) for d in documents])
    found: list[Diagnostic] = []
    with cache.session(settings.root, read_only=True) as store:
        context = RenderContext(Building(Workers(settings.jobs, settings.thresholds.fork_min), store))
        for name in wanted:
            found.extend(CHECKS[name](catalog, settings, context))
    per_file = {c.source: c.rules for c in catalog}
    return locate(resolve_severities(found, settings.rule_severities, per_file), documents)
