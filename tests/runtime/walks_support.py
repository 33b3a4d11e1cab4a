"""The runtime's schema walks (`_redact`, `_schemas`) rendered from their templates, without a build.

The walks are plain Python once their Jinja header is rendered, and they import nothing of a
generated package but `_results`. `walks(folder)` renders those three modules, as `toolgen build`
renders them (the same environment, the runtime's view), into a package under `folder`, imports it
and forgets it afterwards. It costs a fraction of a second, so the unit tests of the walks (and the
mutation groups `walks` and `redact` of `benchmarks/mutation.py`, which run them once per mutant
against the mutated template) need no package build.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType, SimpleNamespace

from toolgen.templating import environment

MODULES = ("_results", "_redact", "_schemas")
"""The walks and the one module of the runtime they import."""


@contextmanager
def walks(folder: Path, package: str = "walks_under_test") -> Iterator[SimpleNamespace]:
    """`redact` and `schemas`: the rendered `_redact` and `_schemas` modules, imported for the block."""
    env = environment()
    home = folder / package
    home.mkdir(parents=True)
    (home / "__init__.py").write_text('"""The runtime walks, rendered alone for their tests."""\n', encoding="utf-8")
    for name in MODULES:
        text = env.get_template(f"python/{name}.py.jinja").render(header=["rendered for the walks' tests"])
        (home / f"{name}.py").write_text(text, encoding="utf-8", newline="\n")
    sys.path.insert(0, str(folder))
    try:
        redact: ModuleType = importlib.import_module(f"{package}._redact")
        schemas: ModuleType = importlib.import_module(f"{package}._schemas")
        yield SimpleNamespace(redact=redact, schemas=schemas)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
