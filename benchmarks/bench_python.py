"""Time the python target alone, cold, in this process: dcg models and the whole target.

    .venv/bin/python -m benchmarks.bench_python            # the repo's contracts
    .venv/bin/python -m benchmarks.bench_python --count 200  # 200 synthetic contracts (synth_catalog.py)

No build cache session is open, so nothing is reused; `models_for` and the target each run once
from scratch (the target makes its models again, so its time includes them).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import REPO, synth_catalog
from toolgen.config import load_settings
from toolgen.pipeline.stages import load_catalog
from toolgen.render import python as target
from toolgen.render import python_models


def main() -> int:
    """Print the two timings for the chosen catalog."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=0, help="synthetic contracts (0: the repo's own)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if args.count:
            synth_catalog.write_catalog(root, args.count)
        else:
            shutil.copytree(REPO / "contracts", root / "contracts")
        settings, _ = load_settings(root)
        catalog, _problems, _ = load_catalog(settings)
        if catalog is None:
            print("the catalog is invalid", file=sys.stderr)
            return 1
        started = time.perf_counter()
        python_models.models_for(catalog, settings.python_package)
        models = time.perf_counter() - started
        started = time.perf_counter()
        result = target.render(catalog, settings)
        whole = time.perf_counter() - started
        size = sum(len(a.text.encode()) for a in result.artifacts) // 1024
        print(f"{len(catalog)} contracts: models_for {models:.2f}s; python target {whole:.2f}s; {size} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
