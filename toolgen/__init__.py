"""toolgen: one contract per tool, projected into everything an LLM agent team needs.

The package stands in seven layers, lowest first; a module imports its own layer and those below it,
never one above, lazily or not (tests/house/test_import_rules.py holds this and that no imports run
in a circle). (0) `runtime/` is the runtime every generated package carries, copied byte for byte;
it imports nothing of toolgen, so it runs where toolgen is not installed. (1) The base:
`diagnostics`, `positions`, `frozen` and `texts` import nothing of toolgen; `rules`,
`provideroptions`, `templating` and `catalog` stand on them; `config` resolves the settings once;
`discovery` says which files are contracts and `load` reads them. (2) `validate/`, with
`formatschema` (the contract format as a JSON Schema), judges the contracts before anything is
rendered. (3) `render/` holds the targets (catalog.json, Python, provider files, docs, mocks): pure
functions of the catalog and the settings. (4) The stages built on them: `importing/` (other formats
into contracts), `compat/` (`toolgen diff`), `audit/` and `replay`. (5) The build stages, lowest
first: `writer/` (the safe writer: plans, journals and applies the output), `incremental/` (the
cache, the no-change fast path, the workers: what makes a build fast and never changes its bytes)
and `pipeline/` (a whole build or check: `project`, and `stages`, which runs load, validation and
the targets; with the targets' checks that `validate` runs). (6) The commands: `cli` and `cliout`,
`cli_audit`, `scaffold`, `mock_server`, `quick` (a plain no-change `build` or `check`, answered
before `cli` loads), `summaries`, `__main__`. What a lower layer needs from a higher one is
passed in, never imported: `toolgen validate` hands the build's target checks to
`validate.validate_paths`. The one exception is this package's own name for the library entry point,
`toolgen.build_project` (with `Project` and `BuildReport`), imported when first used.
"""

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from toolgen.pipeline.project import BuildReport, Project, build_project

__all__ = ["BuildReport", "Project", "__version__", "build_project"]


def __getattr__(name: str) -> object:
    """The library entry point (`build_project`, `Project`, `BuildReport`), imported when first
    named: `import toolgen` stays light, and the runtime's version lookup imports nothing more."""
    if name in {"BuildReport", "Project", "build_project"}:
        from toolgen.pipeline import project

        return getattr(project, name)
    raise AttributeError(f"module 'toolgen' has no attribute {name!r}")
