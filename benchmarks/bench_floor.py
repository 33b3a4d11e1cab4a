"""What an edited `toolgen build` in a fresh process pays before it does any work of its own.

    .venv/bin/python -m benchmarks.bench_floor --rounds 9

Issue 32 asks a build of 1,000 contracts with one description edited to take at most 0.5 s, and one
with a property added at most 0.7 s. A build is a new Python process each time, and some of what it
must load is fixed, whatever toolgen does with it. This times those fixed costs, each in fresh
interpreters, in turns (one of each per round), and prints each median beside the interpreter's own
start (the anchor, measured in the same run) and as a share of the target it counts against:

- `interpreter`: `python -c pass`.
- `description edit imports`: the modules a one-description build imports (the command line, the
  pipeline, validation with jsonschema, which checks the edited file, jinja2 and the targets).
- `property edit adds`: datamodel-code-generator's first `generate()` of a one-property schema (it
  loads its parser and builds its own pydantic models on the first call) and `import black`, which
  a changed schema needs and a description edit does not. Timed as a process that imports the
  description edit's modules first, less that process's own time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from benchmarks import runs

IMPORTS = (
    "import toolgen.cli, toolgen.pipeline.project, toolgen.pipeline.stages, toolgen.validate, jinja2\n"
    "import toolgen.render.python, toolgen.render.docs, toolgen.render.providers, toolgen.render.catalog_json\n"
    "import toolgen.render.mocks\n"
)

MODELS = (
    "from datamodel_code_generator import DataModelType, InputFileType, PythonVersion, generate\n"
    'generate(\'{"type": "object", "properties": {"a": {"type": "string"}}}\', '
    "input_file_type=InputFileType.JsonSchema, output_model_type=DataModelType.PydanticV2BaseModel, "
    "target_python_version=PythonVersion.PY_311, formatters=[])\n"
    "import black\n"
)

COMMANDS = {"interpreter": "pass", "description edit imports": IMPORTS, "with the property edit's": IMPORTS + MODELS}
"""Each figure's child program."""

TARGETS = {"description edit imports": 0.5, "property edit adds": 0.7}
"""The target (seconds) each floor counts against (issue 32)."""


def timed(code: str) -> float:
    """Seconds of one fresh `python -c code` (which must exit 0)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=runs.ENV, check=True, capture_output=True)
    return time.perf_counter() - started


def measure(rounds: int) -> dict[str, float]:
    """The median of each figure over `rounds` rounds, the commands in turns within a round."""
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for code in COMMANDS.values():  # once each, untimed: bytecode written, files in the page cache
        timed(code)
    for _ in range(rounds):
        for name, code in COMMANDS.items():
            samples[name].append(timed(code))
    medians = {name: statistics.median(found) for name, found in samples.items()}
    medians["property edit adds"] = medians["with the property edit's"] - medians["description edit imports"]
    del medians["with the property edit's"]
    return medians


def report(medians: dict[str, float]) -> list[str]:
    """The lines printed: each figure, its ratio to the interpreter's start and its share of its target."""
    anchor = medians["interpreter"]
    lines = [f"{'figure':<28} {'seconds':>8} {'x interpreter':>14} {'of target':>10}"]
    for name, seconds in medians.items():
        target = TARGETS.get(name)
        share = f"{seconds / target:>9.0%}" if target else f"{'':>9}"
        lines.append(f"{name:<28} {seconds:>8.3f} {seconds / anchor:>14.1f} {share}")
    return lines


def main() -> int:
    """Time the floors and print them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="rounds (each figure timed once per round)")
    args = parser.parse_args()
    for line in report(measure(max(1, args.rounds))):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
