"""Benchmark `toolgen diff` (the comparison and the four report formats) on real tool schemas.

    .venv/bin/python -m benchmarks.bench_diff             # every MCP + BFCL schema in the shared corpora
    .venv/bin/python -m benchmarks.bench_diff --limit 500 # a quick look

Each input schema of the corpora becomes a contract (names made snake_case and unique; BFCL's
`"type": "dict"` read as `object`). The head catalog applies one deterministic edit per tool, in
turn: an optional property added, a property removed, a bound tightened, an enum added, a type
widened, a description reworded, or nothing. The run times `diff_catalogs(base, head)` and the
rendering of each format, best of `--repeat` runs, and prints the findings per rule.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import time
from collections import Counter
from typing import Any

from benchmarks import corpora_dir
from toolgen.catalog import Catalog, build_catalog, contract_from_document
from toolgen.compat import diff_catalogs, render

CORPORA = corpora_dir()


def _fix_types(schema: Any) -> Any:
    if isinstance(schema, dict):
        fixed = {k: _fix_types(v) for k, v in schema.items()}
        if fixed.get("type") == "dict":
            fixed["type"] = "object"
        return fixed
    if isinstance(schema, list):
        return [_fix_types(v) for v in schema]
    return schema


def load_schemas(limit: int | None) -> list[tuple[str, dict[str, Any]]]:
    """(name, input schema) for every usable record of the MCP and BFCL corpora."""
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for file in ("mcp_tools.jsonl", "bfcl_functions.jsonl"):
        for line in (CORPORA / file).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            schema = record.get("inputSchema") or record.get("parameters")
            if not isinstance(schema, dict) or not isinstance(schema.get("properties", {}), dict):
                continue
            base = re.sub(r"[^a-z0-9_]", "_", str(record["name"]).lower()).strip("_")[:50] or "tool"
            name = base if base[0].isalpha() else f"t_{base}"
            index = 2
            while name in seen:
                name, index = f"{base}_{index}", index + 1
            seen.add(name)
            out.append((name, {**_fix_types(schema), "type": "object"}))
    return out[:limit] if limit else out


def _edit(schema: dict[str, Any], kind: int) -> dict[str, Any]:
    head = copy.deepcopy(schema)
    props = head.setdefault("properties", {})
    first = next(iter(props), None)
    if kind == 0:
        props["added_option"] = {"type": "string", "description": "New."}
    elif kind == 1 and first is not None:
        del props[first]
    elif kind == 2 and first is not None and isinstance(props[first], dict):
        props[first] = {**props[first], "maxLength": 8}
    elif kind == 3 and first is not None and isinstance(props[first], dict):
        props[first] = {**props[first], "enum": ["a", "b"]}
    elif kind == 4 and first is not None and isinstance(props[first], dict):
        props[first] = {**props[first], "type": ["string", "number", "integer", "boolean", "null"]}
    elif kind == 5:
        head["description"] = "Reworded."
    return head


def catalogs(schemas: list[tuple[str, dict[str, Any]]]) -> tuple[Catalog, Catalog]:
    """The base catalog and the edited head catalog."""
    base, head = [], []
    for index, (name, schema) in enumerate(schemas):
        doc = {"name": name, "version": "1.0.0", "description": "A tool.", "permissions": ["read"]}
        base.append(contract_from_document({**doc, "input_schema": schema}, f"contracts/{name}.json"))
        edited = _edit(schema, index % 7)
        head.append(contract_from_document({**doc, "input_schema": edited}, f"contracts/{name}.json"))
    return build_catalog(base), build_catalog(head)


def best(repeat: int, action: Any) -> float:
    """The fastest of `repeat` runs of `action()`, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str]) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="Use only the first N schemas.")
    parser.add_argument("--repeat", type=int, default=3, help="Runs per figure; the best is printed.")
    args = parser.parse_args(argv)
    if not CORPORA.is_dir():
        parser.error(f"no corpora at {CORPORA}: put them in ../shared/corpora or set TOOLGEN_CORPORA")
    base, head = catalogs(load_schemas(args.limit))
    report = diff_catalogs(base, head)
    changes = [c for t in report.tools for c in t.changes]
    print(f"tools: {len(base)}; changed: {len(report.changed)}; findings: {len(changes)}")
    seconds = best(args.repeat, lambda: diff_catalogs(base, head))
    print(f"diff_catalogs: {seconds:.3f}s ({1000 * seconds / len(base):.3f} ms per tool)")
    same = best(args.repeat, lambda: diff_catalogs(base, base))
    found = sum(len(t.changes) for t in diff_catalogs(base, base).tools)
    print(f"diff_catalogs(base, base): {same:.3f}s, {found} findings")
    for fmt in ("text", "json", "markdown", "github"):
        size = len(render(report, fmt).encode("utf-8"))
        print(f"render {fmt}: {best(args.repeat, lambda f=fmt: render(report, f)):.3f}s, {size:,} bytes")
    for rule, count in sorted(Counter(c.rule for c in changes).items()):
        print(f"  {rule}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
