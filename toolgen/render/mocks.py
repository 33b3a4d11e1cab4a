"""The `mocks` target: `python/<package>/mocks.py` and its synthesizer (`_mock_synth.py`, `_mock_pattern.py`).

All three are runtime modules (`toolgen/runtime/`), copied byte for byte like the rest of the
runtime; the tool data they answer from is each tool module's `CONTRACT` (its schemas and examples),
made by the python target. The synthesizer is the single source of truth for synthetic outputs:
toolgen's tests import it from `toolgen.runtime._mock_synth`.
"""

from __future__ import annotations

from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.render import Artifact, RenderResult
from toolgen.render.context import PLAIN_CONTEXT, RenderContext
from toolgen.render.python_runtime import MOCK_MODULES, source


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """The mocks module and the synthesizer, into the generated package."""
    del catalog, context  # the same for every catalog
    folder = f"python/{settings.python_package}"
    return RenderResult(artifacts=tuple(Artifact(f"{folder}/{name}.py", source(name)) for name in MOCK_MODULES))
