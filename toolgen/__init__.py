"""toolgen: one contract per tool, projected into everything an LLM agent team needs.

The package stands in seven layers, lowest first; a module imports its own layer and those below it,
never one above, lazily or not (tests/build/test_import_rules.py holds this and that no imports run
in a circle). (0) `runtime/` is the runtime every generated package carries, copied byte for byte;
it imports nothing of toolgen, so it runs where toolgen is not installed. (1) The base:
`diagnostics`, `positions`, `frozen` and `texts` import nothing of toolgen; `rules`,
`provideroptions`, `templating` and `catalog` stand on them; `config` resolves the settings once;
`discovery` says which files are contracts and `load` reads them. (2) `validate/`,
with `formatschema` (the contract format as a JSON Schema), judges the contracts before anything is
rendered. (3) `render/` holds the targets (catalog.json, Python, provider files, docs, mocks): pure
functions of the catalog and the settings. (4) The stages built on them: `importing/` (other
formats into contracts), `compat/` (`toolgen diff`), `audit/` and `replay`. (5) `build/` is the
only layer that memoizes, forks, compresses or writes: the pipeline, the cache, the no-change fast
path, the workers, the writer, and the targets' checks that `validate` runs. (6) The commands:
`cli` and `cliout`, `cli_audit`, `scaffold`, `mock_server`, `__main__`. What a lower layer needs
from a higher one is passed in, never imported: `toolgen validate` hands the build's target checks
to `validate.validate_paths`.
"""

__version__ = "0.1.0"
