"""The benchmarks' own shape: no module of `benchmarks/` imports, directly or through others, one
that imports it back (bench_build and bench_compare once did; what they share is in `runs`)."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _imports(path: Path, names: set[str]) -> set[str]:
    """The benchmarks modules `path` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name.removeprefix("benchmarks.") for a in node.names if a.name.startswith("benchmarks."))
        elif isinstance(node, ast.ImportFrom) and node.module == "benchmarks":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("benchmarks."):
            found.add((node.module or "").removeprefix("benchmarks."))
    return found & names


def _graph() -> dict[str, set[str]]:
    paths = {p.stem: p for p in BENCHMARKS.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_the_benchmarks_graph_is_read() -> None:
    graph = _graph()
    assert "runs" in graph["bench_build"] and "runs" in graph["bench_compare"]
    assert "bench_compare" in graph["bench_build"]  # bench_build hands two snapshots to bench_compare


def test_no_benchmark_imports_in_a_circle() -> None:
    graph = _graph()
    circles = sorted(name for name in graph if name in _reaches(graph, name))
    assert circles == []
