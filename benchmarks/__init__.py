"""Benchmarks, the conformance harness and the synthetic catalog that the tests share.

A package so that tests and benchmarks import the same code (`from benchmarks import synth_catalog`)
without editing `sys.path`. Run a benchmark from the repository root as a module, for example
`.venv/bin/python -m benchmarks.bench_build --help`.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The checkout this package sits in."""


def corpora_dir() -> Path:
    """Where the shared tool corpora are: `$TOOLGEN_CORPORA`, else `shared/corpora` beside the checkout.

    The folder may not exist (a clone from anywhere but the shared workspace): callers say so."""
    configured = os.environ.get("TOOLGEN_CORPORA")
    return Path(configured) if configured else REPO.parent / "shared" / "corpora"
