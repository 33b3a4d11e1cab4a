"""Real-world conformance: import corpora of tool declarations written by others and build them.

For each corpus file (JSON Lines, one declaration a line), in batches of `--batch` records:
1. `toolgen import --repair` (the library call) into a fresh temporary project;
2. `toolgen build` of every target that exists (`pipeline.generate`), dropping the contracts an error
   names and building again, so one bad record never hides the others;
3. the generated Python package is imported in a subprocess, module by module, with its mocks;
4. every provider file is validated with the provider SDK's own types (OpenAI, Anthropic, Gemini, MCP),
   through the provider tests' checks (`tests/providers_support.py`) when they exist.

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
import functools
import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import corpora_dir

PACKAGE = "conformance_tools"
STATES = ("built", "rejected", "broken", "crashed")


@dataclass
class Outcome:
    """What happened to one record: its line, name, state and (unless built) the reason."""

    line: int
    name: str
    state: str = "built"
    reason: str = ""
    imported: bool = False
    changed: list[str] = field(default_factory=list)
    lost: str = ""


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
            outcomes[number].state, outcomes[number].reason = "crashed", f"import raised {_exc(sys.exc_info()[1])}"
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


_INPUT_KEYS = ("parameters", "parametersJsonSchema", "parameters_json_schema", "params_json_schema")
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


def _exc(exc: BaseException | None) -> str:
    if exc is None:
        return "?"
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return f"{type(exc).__name__}: {str(exc)[:200]}{where}"


def _build(root: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> Any:
    """Build, dropping contracts that errors name, until the rest builds; returns the result or None."""
    from toolgen.build import pipeline

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
    from toolgen.build import pipeline

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
            outcomes[number].state, outcomes[number].reason = "crashed", f"build raised {_exc(alone)}"
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
            outcomes[number].state, outcomes[number].reason = "crashed", f"build raised {_exc(exc)} (batch only)"
        return None


_IMPORT_CHECK = """
import importlib, json, pkgutil, sys
failures = {}
pkg = importlib.import_module(sys.argv[1])
for info in pkgutil.iter_modules(pkg.__path__):
    try:
        importlib.import_module(f"{sys.argv[1]}.{info.name}")
    except Exception as exc:
        failures[info.name] = f"{type(exc).__name__}: {str(exc)[:200]}"
try:
    registry = pkg.mocks.mock_registry() if hasattr(pkg, "mocks") else importlib.import_module(
        f"{sys.argv[1]}.mocks").mock_registry()
    for contract in pkg.CATALOG:
        result = registry.call(contract.name, "{}")
        if result.ok is not True and result.code not in ("INVALID_INPUT",):
            failures[contract.name] = f"mock call with {{}} gave {result.code}: {result.message[:150]}"
except Exception as exc:
    failures["*"] = f"{type(exc).__name__}: {str(exc)[:200]}"
print(json.dumps(failures))
"""


def _check_python(out: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> str | None:
    """Import the package and each module; mark broken tools. Returns the contract file (relative) of
    a tool whose module stops the whole package from importing, so the caller can drop it and retry."""
    by_name = {Path(rel).stem: n for rel, n in files.items()}
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_CHECK, PACKAGE],
        cwd=out / "python",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    try:
        failures = json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        culprit = _culprit(run.stderr, by_name)
        last = run.stderr.strip().splitlines()[-1][:300] if run.stderr.strip() else f"exit {run.returncode}"
        reason = f"the package does not import: {last}"
        if culprit is not None:
            number = by_name[culprit]
            outcomes[number].state, outcomes[number].reason = "broken", f"python package ({culprit}): {reason}"
            return next(rel for rel, n in files.items() if n == number)
        failures = {"*": reason}
    for module, reason in failures.items():
        number = by_name.get(module, by_name.get(module.rstrip("_")))
        for line in [number] if number is not None else list(by_name.values()):
            if outcomes[line].state == "built":
                outcomes[line].state, outcomes[line].reason = "broken", f"python package ({module}): {reason}"
    return None


def _culprit(stderr: str, by_name: dict[str, int]) -> str | None:
    """The tool whose module appears last in an import traceback, if any."""
    modules = re.findall(rf"{PACKAGE}/(\w+)\.py", stderr)
    for module in reversed(modules):
        for name in (module, module.rstrip("_")):
            if name in by_name:
                return name
    return None


@functools.cache
def _sdk_validators() -> dict[str, Any]:
    from anthropic.types import ToolParam
    from google.genai import types as genai
    from mcp import types as mcp
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam
    from pydantic import TypeAdapter

    def typed(adapter: TypeAdapter[Any], keys: set[str]) -> Any:
        def check(item: Any) -> None:
            adapter.validate_python(item)
            extra = set(item) - keys
            if extra:
                raise ValueError(f"keys the SDK type does not declare: {sorted(extra)}")

        return check

    return {
        "openai_chat.json": typed(TypeAdapter(ChatCompletionFunctionToolParam), {"type", "function"}),
        "openai_responses.json": typed(TypeAdapter(FunctionToolParam), set(FunctionToolParam.__annotations__)),
        "anthropic.json": typed(TypeAdapter(ToolParam), set(ToolParam.__annotations__)),
        "gemini.json": genai.Tool.model_validate,
        "mcp.json": mcp.ListToolsResult.model_validate,
    }


@functools.cache
def _validators() -> dict[str, Any]:
    """The provider helper's checks (tests/providers_support.py: the SDK types plus the strict-mode and
    Gemini-subset rules the SDKs do not check) when they exist, else the SDK types alone."""
    try:
        from tests import providers_support as checks
    except ImportError:
        return _sdk_validators()
    return {
        "openai_chat.json": checks.check_openai_chat,
        "openai_responses.json": checks.check_openai_responses,
        "anthropic.json": checks.check_anthropic,
        "gemini.json": lambda tool: checks.check_gemini([tool]),
        "mcp.json": checks.check_mcp,
    }


def _check_providers(out: Path, files: dict[str, int], outcomes: dict[int, Outcome]) -> None:
    by_name = {Path(rel).stem: n for rel, n in files.items()}
    for filename, check in _validators().items():
        path = out / "providers" / filename
        if not path.exists():
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        if filename == "mcp.json":
            items = [({"tools": [tool]}, tool.get("name")) for tool in document.get("tools", [])]
        elif filename == "gemini.json":
            items = [
                ({"functionDeclarations": [d]}, d.get("name")) for t in document for d in t["functionDeclarations"]
            ]
        else:
            items = [(item, item.get("name") or item.get("function", {}).get("name")) for item in document]
        for item, name in items:
            try:
                check(item)
            except Exception as exc:
                number = by_name.get(name)
                if number is not None and outcomes[number].state == "built":
                    outcomes[number].state = "broken"
                    outcomes[number].reason = f"{filename} fails its check: {_exc(exc)}"


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
    from toolgen.build import write

    result = _build(root, files, outcomes)
    if result is None:
        return None
    out = root / "generated"
    try:
        write.apply(write.plan(result.artifacts, out))
    except Exception as exc:
        for number in files.values():
            outcomes[number].state, outcomes[number].reason = "crashed", f"write raised {_exc(exc)}"
        return None
    if (out / "python" / PACKAGE).is_dir():
        culprit = _check_python(out, files, outcomes)
        if culprit is not None:
            return culprit
    _check_providers(out, files, outcomes)
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
