"""The runtime every generated package carries, as ordinary Python that ruff, mypy, coverage and
mutation testing see.

Each module here except this one is copied byte for byte into `generated/python/<package>/` by the
python target (`toolgen.render.python_runtime`); the package's `__init__.py` and its tool modules
are the only Python that is rendered per catalog. Imported from here (as the tests do), the runtime
has an empty catalog: a `Registry` needs `contracts=`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

CATALOG: tuple[Any, ...] = ()
"""No tools: a generated package's `__init__.py` lists its own."""

CONTRACTS: Mapping[str, Any] = MappingProxyType({})
