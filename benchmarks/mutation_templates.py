"""Mutation testing with each mutant written into the module itself (the runtime walks), for `benchmarks/mutation.py`.

The registry's schema walks are runtime modules (`toolgen/runtime/`) that every build copies into the
generated package, so mutmut's trampoline must not sit in them. Their Python (below any leading
`{% ... %}` template lines, kept for templates) is mutated with mutmut's own operators; each mutant is
written into the module of the scratch checkout and judged by the group's tests, which import the
walks from that module (`tests/runtime/test_walks_*.py` import them) in a fraction of a second.

What a mutant would cost is pytest's start (several seconds of imports and plugins), not its tests.
So one worker process (`--serve`, in the scratch checkout) imports pytest, its plugins and the test
helpers once, then forks a child per mutant that runs `pytest.main`; the parent never imports the
mutated module, so each child imports the mutant afresh. A mutant the fast tests leave alive is then judged
by the group's `confirm` tests (the registry-level tests that build a package, seconds each). Outcomes
go to `results.jsonl` beside the checkout, one line per mutant, so a run cut short by its budget
resumes where it stopped when given the same `--workdir`.
"""

from __future__ import annotations

import difflib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PER_RUN = {"tests": 30.0, "confirm": 400.0}
"""Seconds a mutant's pytest run may take before it counts as a timeout (an endless loop): the unit
tests of the walks take a second or two, the registry tests (`confirm`) build packages."""


def template_mutants(text: str) -> list[tuple[str, str]]:
    """(a name, the mutated template text) for each mutmut mutation of the template's Python body.

    The Jinja header lines (`{% ... %}` and `# {{ line }}`) are kept as they are; only the Python
    after them is parsed and mutated. Names are `<function>__<index>` (`module` outside functions),
    stable for a given template, in a round robin over the functions so that a partial run has still
    tried each of them. mutmut reads its configuration from the working directory.
    """
    from mutmut.mutation.file_mutation import create_mutations

    lines = text.splitlines(keepends=True)
    head = 0
    while head < len(lines) and ("{%" in lines[head] or "{{" in lines[head]):
        head += 1
    header, body = "".join(lines[:head]), "".join(lines[head:])
    module, mutations, _, _ = create_mutations("template.py", body)
    by_function: dict[str, list[tuple[str, str]]] = {}
    for index, mutation in enumerate(mutations):
        where = getattr(getattr(mutation.contained_by_top_level_function, "name", None), "value", "module")
        mutated = module.deep_replace(mutation.original_node, mutation.mutated_node)
        by_function.setdefault(where, []).append((f"{where}__{index}", header + mutated.code))  # type: ignore[attr-defined]
    queues = list(by_function.values())
    out: list[tuple[str, str]] = []
    while any(queues):
        out.extend(queue.pop(0) for queue in queues if queue)
    return out


def diff(original: str, mutant: str) -> str:
    """The mutant's change, as a short unified diff."""
    lines = difflib.unified_diff(original.splitlines(), mutant.splitlines(), "template", "mutant", n=1, lineterm="")
    return "\n".join(lines)


def run_template(
    root: Path, template: str, tests: Sequence[str], confirm: Sequence[str], budget: float
) -> tuple[Counter[str], list[str], bool]:
    """Judge every mutant of `template` in the scratch checkout `root`: (outcomes, survivors, finished)."""
    original = (root / template).read_text(encoding="utf-8")
    here = Path.cwd()
    os.chdir(root)
    try:
        mutants = template_mutants(original)
    finally:
        os.chdir(here)
    folder = root.parent / "mutants"
    folder.mkdir(exist_ok=True)
    for name, text in mutants:
        (folder / f"{name}.jinja").write_text(text, encoding="utf-8")
    results = root.parent / "results.jsonl"
    spec = {
        "template": template,
        "mutants": [name for name, _ in mutants],
        "folder": str(folder),
        "results": str(results),
        "tests": list(tests),
        "confirm": list(confirm),
        "deadline": time.time() + budget,
    }
    (root.parent / "spec.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(root.parent / "spec.json")]
    subprocess.run(command, cwd=root, env=env, check=True, timeout=budget + 2 * max(PER_RUN.values()))
    done = _results(results)
    counts = Counter(done[name]["outcome"] for name, _ in mutants if name in done)
    survivors = [name for name, _ in mutants if done.get(name, {}).get("outcome") == "survived"]
    return counts, survivors, all(name in done for name, _ in mutants)


def _results(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["mutant"]: row for row in rows}


def _warm() -> None:
    """Import what every pytest run of the tests imports, once, before the forks."""
    from importlib.metadata import entry_points

    import pytest  # noqa: F401

    for plugin in entry_points(group="pytest11"):
        try:
            plugin.load()
        except Exception:
            continue
    import jinja2  # noqa: F401
    import jsonschema  # noqa: F401
    import pydantic  # noqa: F401

    import tests.conftest  # noqa: F401
    import toolgen.pipeline.stages
    import toolgen.templating  # noqa: F401


def _pytest(tests: Sequence[str], deadline: float, per_run: float) -> str:
    """Run pytest over `tests` in a forked child: `killed`, `survived`, `timeout`, `error` (pytest could
    not run them: usage, collection or internal error, no tests) or `cut` (the budget ran out first)."""
    pid = os.fork()
    if pid == 0:  # the child: its output is not read, only its exit status
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        import pytest

        code = pytest.main([*tests, "-x", "-q", "-n0", "-p", "no:cacheprovider", "-p", "no:randomly"])
        os._exit(int(code))
    left = deadline - time.time()
    limit = time.monotonic() + min(per_run, left)
    while time.monotonic() < limit:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return "survived" if code == 0 else "killed" if code == 1 else "error"
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "timeout" if left >= per_run else "cut"


def serve(spec_file: str) -> int:
    """The worker: judge each mutant of the spec not judged yet, until done or past the deadline."""
    spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
    root = Path.cwd()
    sys.path.insert(0, str(root))
    _warm()
    template = root / spec["template"]
    original = template.read_text(encoding="utf-8")
    results = Path(spec["results"])
    done = _results(results)
    try:
        for name in spec["mutants"]:
            if name in done:
                continue
            if time.time() >= spec["deadline"]:
                return 0
            started = time.monotonic()
            template.write_text((Path(spec["folder"]) / f"{name}.jinja").read_text(encoding="utf-8"), encoding="utf-8")
            outcome = _pytest(spec["tests"], spec["deadline"], PER_RUN["tests"])
            by = "tests"
            if outcome == "survived" and spec["confirm"]:
                outcome, by = _pytest(spec["confirm"], spec["deadline"], PER_RUN["confirm"]), "confirm"
            if outcome == "cut":  # not judged: a later run with the same --workdir takes it up
                return 0
            row = {"mutant": name, "outcome": outcome, "by": by, "seconds": round(time.monotonic() - started, 2)}
            with results.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
    finally:
        template.write_text(original, encoding="utf-8")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        sys.exit(serve(sys.argv[2]))
    sys.exit("usage: mutation_templates.py --serve SPEC (started by benchmarks/mutation.py)")
