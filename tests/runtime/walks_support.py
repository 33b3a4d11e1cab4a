"""The runtime's schema walks (`_redact`, `_schemas`), imported from toolgen's source without a build.

The runtime is ordinary Python in `toolgen/runtime/`, copied byte for byte into each generated
package, so the unit tests of the walks (and the mutation groups `walks` and `redact` of
`benchmarks/mutation.py`, which mutate those source files) import it directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

from toolgen.runtime import _redact, _schemas


@contextmanager
def walks() -> Iterator[SimpleNamespace]:
    """`redact` and `schemas`: the runtime's `_redact` and `_schemas` modules."""
    yield SimpleNamespace(redact=_redact, schemas=_schemas)
