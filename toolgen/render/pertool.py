"""A target made of one file per tool, declared in one call: no cache code in the target.

`per_tool(kind, path_of=..., render=...)` gives a `Target` whose units are the tools: each tool's
file is `render(contract, settings)` at `path_of(contract, settings)`, and depends on the tool's
contract (its file and digest), every setting that shapes output (`Settings.fingerprint`), the
templates (`templating.templates_digest`) and whatever `depends_on` adds. The executor of a build
reads back or leaves unread the files of unchanged tools (`toolgen.incremental`); called on its own
(library use, tests) every file is made. The recipe is in CONTRIBUTING.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.render import RenderResult, Target
from toolgen.render.context import PLAIN_CONTEXT, RenderContext
from toolgen.render.units import Files
from toolgen.templating import templates_digest


def _nothing(settings: Settings) -> Iterable[str]:
    return ()


def per_tool(
    kind: str,
    *,
    path_of: Callable[[Contract, Settings], str],
    render: Callable[[Contract, Settings], str],
    depends_on: Callable[[Settings], Iterable[str]] = _nothing,
) -> Target:
    """A target of one file per tool (`kind` names its units: unique among the targets)."""

    def target(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
        shared = (settings.fingerprint(), templates_digest(settings.templates_dir), *depends_on(settings))
        units: Files[Contract] = Files(
            kind,
            depends_on=lambda c: (*shared, c.source, c.digest),
            path_of=lambda c: path_of(c, settings),
            make=lambda todo: [(render(c, settings), None) for c in todo],
        )
        made = context.executor.files(units, list(catalog))
        return RenderResult(artifacts=tuple(file for file, _ in made))

    return target
