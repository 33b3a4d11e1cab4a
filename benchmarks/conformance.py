"""Real-world conformance: import corpora of tool declarations written by others and build them.

For each corpus file (JSON Lines, one declaration a line), in batches of `--batch` records:
1. `toolgen import --repair` (the library call) into a fresh temporary project;
2. `toolgen build` of every target that exists (`pipeline.generate`), dropping the contracts an error
   names and building again, so one bad record never hides the others;
3. the generated Python package is imported in a subprocess, module by module, with its mocks;
4. every provider file is validated with the provider SDK's own types (OpenAI, Anthropic, Gemini, MCP),
   through the provider tests' checks (`tests/providers_support.py`) when they exist
   (steps 3 and 4: `conformance_checks.py`).

Each record ends in one state: built (everything passed), rejected (import or build refused it with a
diagnostic), broken (toolgen built it but the package or provider JSON failed a check) or crashed
(toolgen raised). Besides, an imported record may have its meaning changed (a repair's report line
says "changes what is accepted") or its input schema lost (a property of the source, found here
independently of the importer, is missing from the contract: must never happen). Prints a table per
corpus and names every record that did not build, whose meaning changed or whose schema was lost.

    .venv/bin/python benchmarks/conformance.py                 # every file of ../shared/corpora
    .venv/bin/python benchmarks/conformance.py FILE[:shape]... [--batch 100] [--jobs 2] [--json OUT]

The shape is `openai`, `anthropic`, `gemini` or `mcp`; by default `mcp` for files named `mcp*`, else
`openai`. Exit status 1 when anything crashed, a schema was lost or a corpus builds less than
`--min-rate` (0.99).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import corpora_dir
from benchmarks.conformance_checks import PACKAGE, Outcome, check_providers, check_python, describe

STATES = ("built", "rejected", "broken", "crashed")


@dataclass
class CorpusResult:
    """Every record of one corpus file, and the time it took."""

    corpus: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> Counter[str]:
        """Records per state, plus how many were imported."""
        found = Counter(o.state for o in self.outcomes)
        found["imported"] = sum(o.imported for o in self.outcomes)
        found["records"] = len(self.outcomes)
        found["changed"] = sum(bool(o.changed) for o in self.outcomes)
        found["lost"] = sum(bool(o.lost) for o in self.outcomes)
        return found

    @property
    def rate(self) -> float:
        """The share of records that built."""
        return self.counts()["built"] / max(1, len(self.outcomes))


def _name_of(line: str) -> str:
    try:
        data = json.loads(line)
    except ValueError:
        return "?"
    return str(data.get("name", "?")) if isinstance(data, dict) else "?"


def _settings(root: Path) -> Any:
    from toolgen.config import load_settings

    (root / "contracts").mkdir(parents=True, exist_ok=True)
    (root / "toolgen.toml").write_text(f'python_package = "{PACKAGE}"\n', encoding="utf-8")
    settings, problems = load_settings(root)
    assert not problems, problems
    return settings


def _import(lines: list[tuple[int, str]], shape: str, root: Path, outcomes: dict[int, Outcome]) -> dict[str, int]:
    """Import the batch as one file; returns contract file (relative) -> corpus line of its record."""
    from toolgen.importing import importer, write

    settings = _settings(root)
    options = importer.Options(source="batch", repair=True)
    try:
        plan = importer.plan_import("\n".join(text for _, text in lines) + "\n", shape, settings, options)
        written = list(write.write_plan(plan, settings))
    except Exception:
        if len(lines) == 1:
            number = lines[0][0]
            outcomes[number].state, outcomes[number].reason = "crashed", f"import raised {describe(sys.exc_info()[1])}"
            return {}
        files: dict[str, int] = {}
        for one in lines:  # find the record that makes the import raise
            files.update(_import([one], shape, root, outcomes))
        return files
    for diagnostic in plan.diagnostics:
        number = lines[(diagnostic.line or 1) - 1][0]
        if diagnostic.is_error and outcomes[number].state == "built":
            outcomes[number].state = "rejected"
            outcomes[number].reason = f"import {diagnostic.code}: {diagnostic.message}"
    found: dict[str, int] = {}
    for item, path, _note in written:
        number = lines[(item.record.line or 1) - 1][0]
        outcomes[number].imported = True
        outcomes[number].changed = [f"{r.pointer or '/'}: {r.message}" for r in item.repairs if r.changes]
        outcomes[number].lost = _lost(item.record.data, item.document["input_schema"])
        found[settings.rel(path)] = number
    return found


_INPUT_KEYS: tuple[str, ...] = ("parameters", "parametersJsonSchema", "parameters_json_schema", "params_json_schema")
_INPUT_KEYS += ("input_schema", "inputSchema", "arguments")


def _source_properties(data: Any) -> list[str]:
    """The top-level property names of a source declaration's input schema, read without the importer."""
    if isinstance(data, dict) and isinstance(data.get("function"), dict):
        data = data["function"]
    for key in _INPUT_KEYS if isinstance(data, dict) else ():
        value = data.get(key)
        if isinstance(value, list):
            return [str(a["name"]) for a in value if isinstance(a, dict) and "name" in a]
        if isinstance(value, dict):
            props = value.get("properties")
            return [str(k) for k in props] if isinstance(props, dict) else []
    return []


def _lost(data: Any, schema: Any) -> str:
    """Why the contract lost part of the source's input schema, or an empty string."""
    props = schema.get("properties") if isinstance(schema, dict) else None
    kept = set(props) if isinstance(props, dict) else set()
    missing = [name for name in _source_properties(data) if name not in kept]
    return f"the contract lacks the source's properties {missing}" if missing else ""


def _build(root: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> Any:
    """Build, dropping contracts that errors name, until the rest builds; returns the result or None."""
    from toolgen.pipeline import stages as pipeline

    settings = _settings(root)
    for _attempt in range(6):
        if not files:
            return None
        try:
            result = pipeline.generate(settings)
        except Exception as exc:
            return _bisect_crash(root, files, outcomes, exc)
        if result.ok:
            return result
        named = {d.file: d for d in result.diagnostics if d.is_error and d.file in files}
        if not named:
            for number in files.values():
                first = next(d for d in result.diagnostics if d.is_error)
                outcomes[number].state = "rejected"
                outcomes[number].reason = f"build {first.code} (batch): {first.message}"
            return None
        for rel, diagnostic in named.items():
            number = files.pop(rel)
            outcomes[number].state = "rejected"
            outcomes[number].reason = f"build {diagnostic.code} at {diagnostic.pointer or '/'}: {diagnostic.message}"
            (root / rel).unlink()
    return None


def _bisect_crash(root: Path, files: dict[str, int], outcomes: dict[int, Outcome], exc: Exception) -> Any:
    """A build raised: find the contracts that make it raise by building each alone."""
    from toolgen.pipeline import stages as pipeline

    settings = _settings(root)
    parked = root / "parked"
    parked.mkdir(exist_ok=True)
    for rel in files:
        (root / rel).rename(parked / Path(rel).name)
    for rel, number in list(files.items()):
        (parked / Path(rel).name).rename(root / rel)
        try:
            pipeline.generate(settings)
        except Exception as alone:
            outcomes[number].state, outcomes[number].reason = "crashed", f"build raised {describe(alone)}"
            (root / rel).unlink()
            files.pop(rel)
            continue
        (root / rel).rename(parked / Path(rel).name)
    for rel in files:
        (parked / Path(rel).name).rename(root / rel)
    if not files:
        return None
    try:
        return pipeline.generate(settings)
    except Exception:
        for number in files.values():
            outcomes[number].state, outcomes[number].reason = "crashed", f"build raised {describe(exc)} (batch only)"
        return None


def run_batch(lines: list[tuple[int, str]], shape: str) -> list[Outcome]:
    """Import, build and check one batch of corpus lines in a fresh temporary project."""
    outcomes = {n: Outcome(n, _name_of(text)) for n, text in lines}
    with tempfile.TemporaryDirectory(prefix="toolgen-conformance-") as tmp:
        root = Path(tmp)
        files = _import(lines, shape, root, outcomes)
        for _attempt in range(5):
            culprit = _build_and_check(root, files, outcomes)
            if culprit is None:
                break
            files.pop(culprit)
            (root / culprit).unlink()
    return list(outcomes.values())


def _build_and_check(root: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> str | None:
    """Build, write and check the outputs; returns a contract to drop when its module breaks the package."""
    from toolgen.writer import write

    result = _build(root, files, outcomes)
    if result is None:
        return None
    out = root / "generated"
    try:
        write.apply(write.plan(result.artifacts, out))
    except Exception as exc:
        for number in files.values():
            outcomes[number].state, outcomes[number].reason = "crashed", f"write raised {describe(exc)}"
        return None
    if (out / "python" / PACKAGE).is_dir():
        culprit = check_python(out, files, outcomes)
        if culprit is not None:
            return culprit
    check_providers(out, files, outcomes)
    return None


def run_corpus(path: Path, shape: str, batch: int = 100, jobs: int = 1, limit: int | None = None) -> CorpusResult:
    """Run every record of one JSON Lines corpus file."""
    started = time.perf_counter()
    numbered = [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
    numbered = numbered[:limit] if limit else numbered
    batches = [numbered[i : i + batch] for i in range(0, len(numbered), batch)]
    result = CorpusResult(path.name)
    if jobs > 1 and len(batches) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for outcomes in pool.map(run_batch, batches, [shape] * len(batches)):
                result.outcomes.extend(outcomes)
                _progress(result, len(numbered), started)
    else:
        for chunk in batches:
            result.outcomes.extend(run_batch(chunk, shape))
            _progress(result, len(numbered), started)
    result.seconds = time.perf_counter() - started
    return result


def _progress(result: CorpusResult, total: int, started: float) -> None:
    if sys.stderr.isatty() or total > 500:
        done, built = len(result.outcomes), result.counts()["built"]
        print(
            f"  {result.corpus}: {done}/{total} records, {built} built, {time.perf_counter() - started:.0f}s",
            file=sys.stderr,
            flush=True,
        )


def table(results: list[CorpusResult]) -> str:
    """The summary table (Markdown) and every record that did not build."""
    head = "| corpus | records | imported | built | rejected | broken | crashed | meaning changed | schema lost |"
    rows = [head + " build rate | time |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for result in results:
        c = result.counts()
        rows.append(
            f"| {result.corpus} | {c['records']} | {c['imported']} | {c['built']} | {c['rejected']} | "
            f"{c['broken']} | {c['crashed']} | {c['changed']} | {c['lost']} | {100 * result.rate:.2f}% | "
            f"{result.seconds:.0f}s |"
        )
    for result in results:
        for o in result.outcomes:
            where = f"- {result.corpus}:{o.line} ({o.name})"
            if o.state != "built":
                rows.append(f"{where} {o.state}: {o.reason}")
            if o.changed:
                more = f" (and {len(o.changed) - 1} more)" if len(o.changed) > 1 else ""
                rows.append(f"{where} meaning changed: {o.changed[0]}{more}")
            if o.lost:
                rows.append(f"{where} schema lost: {o.lost}")
    return "\n".join(rows) + "\n"


def _default_files() -> list[str]:
    corpora = corpora_dir()
    return [str(p) for p in sorted(corpora.rglob("*.jsonl"))] if corpora.is_dir() else []


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="corpus files, each optionally FILE:shape")
    parser.add_argument("--batch", type=int, default=100, help="records per temporary project")
    parser.add_argument("--jobs", type=int, default=2, help="batches built in parallel")
    parser.add_argument("--limit", type=int, default=None, help="only the first N records of each file")
    parser.add_argument("--min-rate", type=float, default=0.99, help="lowest acceptable build rate")
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome as JSON here")
    args = parser.parse_args(argv)
    results: list[CorpusResult] = []
    for spec in args.files or _default_files():
        file, _, shape = spec.partition(":")
        shape = shape or ("mcp" if Path(file).name.startswith("mcp") else "openai")
        results.append(run_corpus(Path(file), shape, args.batch, args.jobs, args.limit))
        print(f"{Path(file).name}: {results[-1].counts()['built']}/{len(results[-1].outcomes)} built", file=sys.stderr)
    print(table(results), end="")
    if args.json:
        payload = {r.corpus: [o.__dict__ for o in r.outcomes] for r in results}
        args.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    bad = [r for r in results if r.rate < args.min_rate or r.counts()["crashed"] or r.counts()["lost"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
