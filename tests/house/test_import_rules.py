"""The package's shape, read from its own imports: targets stay pure, nothing imports in a circle,
and no import runs up the layers (`LAYERS`, described in toolgen/__init__.py).

Every module under `toolgen/` is parsed (not imported): an `import toolgen.x` or `from toolgen.x
import y` statement anywhere in it, at the top or inside a function, counts as an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import toolgen

PACKAGE = Path(toolgen.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The toolgen modules `path` imports (`from toolgen.a import b` names module a.b when it is one)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("toolgen"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("toolgen"):
            base = node.module or ""
            subs = {f"{base}.{alias.name}" for alias in node.names} & modules.keys()
            found.update(subs or {base})
    return {name for name in found if name in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def test_the_graph_is_read() -> None:
    graph = _graph()
    assert "toolgen.pipeline.stages" in graph["toolgen.cli"]
    assert "toolgen.render" in graph["toolgen.pipeline.stages"]


BUILD_STAGES = ("toolgen.pipeline", "toolgen.incremental", "toolgen.writer")
"""The packages that run, remember and write a build: no target may know them."""


def test_no_target_imports_the_build_stages() -> None:
    graph = _graph()
    offending = sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if name == "toolgen.render" or name.startswith("toolgen.render.")
        for target in targets
        if any(target == stage or target.startswith(stage + ".") for stage in BUILD_STAGES)
    )
    assert offending == []


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of `graph` (the modules in order, the first repeated at the end), or None.

    A package's `__init__` importing its own submodules is how a package hands names on: the edge
    from `toolgen.x` to `toolgen.x.y` is not counted."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished without a circle
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph.get(name, ())):
            if target.startswith(name + "."):
                continue
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert _circle({"p": {"p.x"}, "p.x": set()}) is None


def test_no_import_circle_among_toolgen_modules() -> None:
    assert _circle(_graph()) is None


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("runtime", ("toolgen.runtime",)),
    (
        "base",
        (
            "toolgen",
            "toolgen.catalog",
            "toolgen.config",
            "toolgen.diagnostics",
            "toolgen.discovery",
            "toolgen.frozen",
            "toolgen.load",
            "toolgen.positions",
            "toolgen.provideroptions",
            "toolgen.rules",
            "toolgen.templating",
            "toolgen.templateguard",
            "toolgen.texts",
            "toolgen.thresholds",
            "toolgen.versions",
        ),
    ),
    ("validate", ("toolgen.validate", "toolgen.formatschema")),
    ("render", ("toolgen.render",)),
    ("stages", ("toolgen.importing", "toolgen.compat", "toolgen.audit", "toolgen.replay")),
    ("writer", ("toolgen.writer",)),
    ("incremental", ("toolgen.incremental",)),
    ("pipeline", ("toolgen.pipeline",)),
    (
        "commands",
        (
            "toolgen.cli",
            "toolgen.cliout",
            "toolgen.cli_audit",
            "toolgen.cli_mock",
            "toolgen.cli_watch",
            "toolgen.scaffold",
            "toolgen.mock_server",
            "toolgen.quick",
            "toolgen.summaries",
            "toolgen.__main__",
        ),
    ),
)
"""The layers, lowest first: a module may import its own layer and those below it, never one above
(lazily or not). `toolgen` alone is the package itself (its version), not everything under it."""


def _layer(name: str) -> int | None:
    """The rank of module `name` in `LAYERS` (its longest matching package), or None when unplaced."""
    best: tuple[int, int] | None = None
    for rank, (_, packages) in enumerate(LAYERS):
        for package in packages:
            inside = name == package or (package != "toolgen" and name.startswith(package + "."))
            if inside and (best is None or len(package) > best[1]):
                best = (rank, len(package))
    return None if best is None else best[0]


ENTRY_POINTS = {"toolgen": {"toolgen.pipeline.project"}}
"""The one import allowed to run up: the package names the library entry point (`toolgen.build_project`),
imported when first used."""


def _upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of `graph` that runs from a lower layer up to a higher one."""
    found = []
    for name, targets in sorted(graph.items()):
        here = _layer(name)
        for target in sorted(targets - ENTRY_POINTS.get(name, set())):
            there = _layer(target)
            if here is not None and there is not None and there > here:
                found.append(f"{name} ({LAYERS[here][0]}) imports {target} ({LAYERS[there][0]})")
    return found


def test_the_layer_rule_sees_an_import_running_up() -> None:
    graph = {"toolgen.render.docs": {"toolgen.incremental.cache", "toolgen.catalog"}, "toolgen.cli": {"toolgen.render"}}
    assert _upward(graph) == ["toolgen.render.docs (render) imports toolgen.incremental.cache (incremental)"]
    assert _layer("toolgen.validate.paths") == 2 and _layer("toolgen.texts") == 1 and _layer("toolgen.nowhere") is None
    assert _layer("toolgen.runtime.integrations.mcp") == 0


def test_the_runtime_imports_nothing_of_toolgen() -> None:
    """The runtime is copied into packages that have no toolgen: it imports its own modules relatively."""
    graph = _graph()
    runtime = [name for name in graph if name == "toolgen.runtime" or name.startswith("toolgen.runtime.")]
    assert len(runtime) >= 20
    assert {name: sorted(graph[name]) for name in runtime if graph[name]} == {}


def test_every_module_has_a_layer() -> None:
    assert sorted(name for name in _graph() if _layer(name) is None) == []


def test_no_import_runs_up_the_layers() -> None:
    assert _upward(_graph()) == []
