"""The `mocks` target: `python/<package>/mocks.py` and its synthesizer (`_mock_synth.py`, `_mock_pattern.py`).

All are plain Python templates (`templates/python/mocks.py.jinja`, `_mock_synth.py.jinja`,
`_mock_pattern.py.jinja`) whose only template part is the generated header; the tool data they
answer from is each tool module's `CONTRACT` (its schemas and examples), made by the python target.
The synthesizer is the single source of truth for synthetic outputs: toolgen's tests render it and
import the result.
"""

from __future__ import annotations

from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.render import Artifact, RenderResult, header_lines
from toolgen.render.context import PLAIN, PLAIN_CONTEXT, Executor, RenderContext
from toolgen.render.python import format_python, safe_comment
from toolgen.templating import environment

TEMPLATES: tuple[tuple[str, str], ...] = (
    ("python/mocks.py.jinja", "mocks.py"),
    ("python/_mock_synth.py.jinja", "_mock_synth.py"),
    ("python/_mock_pattern.py.jinja", "_mock_pattern.py"),
)
"""Template -> file name inside the package, for every file this target writes."""


def render_module(template: str, sources: str, settings: Settings, executor: Executor = PLAIN) -> str:
    """One module of the mocks target, rendered and black-formatted."""
    header = [safe_comment(line) for line in header_lines(sources)]
    text = environment(settings.templates_dir).get_template(template).render(header=header)
    return format_python(text, executor)


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the mocks module and the synthesizer into the generated package."""
    sources = f"{len(catalog)} contract{'s' * (len(catalog) != 1)}"
    folder = f"python/{settings.python_package}"
    artifacts = tuple(
        Artifact(f"{folder}/{name}", render_module(template, sources, settings, context.executor))
        for template, name in TEMPLATES
    )
    return RenderResult(artifacts=artifacts)
