"""Speed by declaration: a target declares its units and what each depends on; the incremental
layer keys, remembers and keeps the record. A per-tool target written with `render.pertool` has no
cache code, yet a second build reads its files back; no render module names the cache."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import shutil
from collections.abc import Sequence
from pathlib import Path

import toolgen
from tests.build_support import reworded, two_tools
from toolgen.catalog import Catalog, Contract
from toolgen.config import ALL_TARGETS, CACHE_DIR, TARGETS, Settings, load_settings
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.pipeline import stages
from toolgen.render import RenderResult, Target, pertool, targets
from toolgen.render.context import PLAIN, RenderContext
from toolgen.render.units import Either, Values, as_text
from toolgen.thresholds import Thresholds

NAMES = ("echo_text", "write_file", "read_file")


def _summary(made: list[str]) -> Target:
    """A target of one summary file per tool, as CONTRIBUTING.md's recipe writes it: no cache code."""

    def render(contract: Contract, settings: Settings) -> str:
        made.append(contract.name)
        return f"{contract.name}: {contract.description}\n"

    return pertool.per_tool("test-summary", path_of=lambda c, s: f"summaries/{c.name}.txt", render=render)


def _catalog(root: Path) -> tuple[Catalog, Settings]:
    settings, problems = load_settings(root)
    assert not problems
    catalog, found, _ = stages.load_catalog(settings)
    assert catalog is not None, found
    return catalog, settings


def _render(target: Target, root: Path) -> tuple[RenderResult, cache.Store]:
    """The target rendered as a build renders it: with the build's executor and cache session."""
    catalog, settings = _catalog(root)
    with cache.session(root) as store:
        assert store is not None
        result = target(catalog, settings, RenderContext(Building(Workers(1), store)))
        files = {f.path: f.data() for f in result.artifacts}  # read while the session is open
    assert files
    return result, store


def test_a_per_tool_target_without_cache_code_is_read_back(tmp_path: Path) -> None:
    two_tools(tmp_path, NAMES)
    made: list[str] = []
    target = _summary(made)
    catalog, settings = _catalog(tmp_path)
    plain = {f.path: f.data() for f in target(catalog, settings).artifacts}  # library use: every file made
    assert sorted(made) == sorted(NAMES) and len(plain) == 3

    made.clear()
    _, store = _render(target, tmp_path)
    assert sorted(made) == sorted(NAMES) and store.hits == 0

    made.clear()
    second, store = _render(target, tmp_path)
    assert made == [] and store.hits == 3  # nothing made again: the files come back from the cache
    assert {f.path: f.data() for f in second.artifacts} == plain

    reworded(tmp_path, "write_file")
    made.clear()
    third, store = _render(target, tmp_path)
    assert made == ["write_file"] and store.hits == 2  # only the changed tool's unit is made
    warm = {f.path: f.data() for f in third.artifacts}
    assert b"Reworded." in warm["summaries/write_file.txt"]

    shutil.rmtree(tmp_path / CACHE_DIR)  # a cold build of the changed project gives the same bytes
    made.clear()
    cold, store = _render(target, tmp_path)
    assert sorted(made) == sorted(NAMES) and store.hits == 0
    assert {f.path: f.data() for f in cold.artifacts} == warm


def test_a_target_is_registered_once_in_the_configuration() -> None:
    """`config.TARGETS` names each target's module; the registry is made from it, in build order
    (CONTRIBUTING.md's recipe: the target, that line, the test)."""
    registry = targets()
    assert tuple(registry) == ALL_TARGETS == tuple(TARGETS)
    for name, module in TARGETS.items():
        assert registry[name] is importlib.import_module(module).render


RENDER = Path(toolgen.__file__).resolve().parent / "render"
MEMO_NAMES = {"memo_many", "memo_files", "memo_table", "lru_cache", "Store", "session"}
"""Names no render module uses: the memo functions, a process cache, the cache store and session."""
MEMO_ATTRIBUTES = MEMO_NAMES | {"unknown", "caching", "cache", "keep_passes", "incremental", "keep", "pending"}
"""Attributes no render module reads (the executor's old memo interface among them)."""


def test_no_render_module_names_the_cache() -> None:
    """The targets declare units (`render.units`) and run them through the executor: none calls a
    memo function, asks whether a cache exists, or keeps an `lru_cache` of its own."""
    found = []
    for path in sorted(RENDER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                name, banned = node.attr, MEMO_ATTRIBUTES
            elif isinstance(node, ast.Name):
                name, banned = node.id, MEMO_NAMES
            else:
                continue
            if name in banned:
                found.append(f"{path.relative_to(RENDER)}:{node.lineno} {name}")
    assert found == []


def test_a_template_edited_while_the_process_lives_is_used(tmp_path: Path) -> None:
    """A library caller that edits a template between two builds gets the new one: the template
    environment a process keeps is keyed on the template files, not only on their folder."""
    two_tools(tmp_path, NAMES[:1])
    page = tmp_path / "templates" / "docs" / "tool.md.jinja"
    page.parent.mkdir(parents=True)
    page.write_text("First wording.\n", encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text('templates = "templates"\n', encoding="utf-8")
    assert toolgen.build_project(tmp_path).ok
    built = tmp_path / "generated" / "docs" / "echo_text.md"
    assert "First wording." in built.read_text(encoding="utf-8")
    page.write_text("Second wording, longer.\n", encoding="utf-8")
    assert toolgen.build_project(tmp_path).ok
    assert "Second wording, longer." in built.read_text(encoding="utf-8")


def test_thresholds_are_set_not_patched(tmp_path: Path) -> None:
    """A test takes the other side of a threshold by setting it on the settings (the bytes are the same)."""
    two_tools(tmp_path, NAMES)
    _, settings = _catalog(tmp_path)
    wide = stages.generate(settings)
    narrow = stages.generate(dataclasses.replace(settings, thresholds=Thresholds(pack_many=1)))
    assert [(a.path, a.data()) for a in wide.artifacts] == [(a.path, a.data()) for a in narrow.artifacts]
    assert any(type(a).__name__ == "Packed" for a in narrow.artifacts)
    assert not any(type(a).__name__ == "Packed" for a in wide.artifacts)


def _units_of(kind: str, made: list[str]) -> Values[str, str]:
    def make(todo: Sequence[str]) -> list[str]:
        made.extend(todo)
        return [item.upper() for item in todo]

    return Values(kind, depends_on=lambda item: (item,), make=make, encode=str, decode=as_text)


def _entry_name(kind: str, item: str) -> str:
    key = cache.key_of(kind, (item,))
    return f"{kind}/{key[:2]}/{key}"


def test_a_unit_not_made_keeps_what_it_is_made_again_from(tmp_path: Path) -> None:
    """`remade_from`: a unit read back names the units its next change is made from, and the layer
    counts them as used (pruning keeps them) without reading them; a unit made now names none."""
    parts_made: list[str] = []
    parts = _units_of("test-part", parts_made)
    runs_made: list[str] = []
    runs = dataclasses.replace(_units_of("test-run", runs_made), remade_from=lambda run: [(parts, run + "-part")])
    with cache.session(tmp_path) as store:
        assert store is not None
        assert Building(Workers(1), store).run(runs, ["a", "b"]) == ["A", "B"]
        assert _entry_name("test-part", "a-part") not in store.used  # made now: nothing to keep
    with cache.session(tmp_path) as store:
        assert store is not None
        assert Building(Workers(1), store).run(runs, ["a", "b", "c"]) == ["A", "B", "C"]
        kept = {_entry_name("test-part", f"{x}-part") for x in "ab"}
        assert kept <= store.used and _entry_name("test-part", "c-part") not in store.used
    assert runs_made == ["a", "b", "c"] and parts_made == []  # kept, never made nor read


def test_either_way_is_taken_by_the_executor_not_the_target(tmp_path: Path) -> None:
    """`Either`: the plain executor and a build without a cache take the whole pass; a build with
    a cache store the way by units."""
    ways = Either(whole=lambda: "whole", by_units=lambda: "by units")
    assert PLAIN.either(ways) == "whole"
    assert Building(Workers(1)).either(ways) == "whole"
    with cache.session(tmp_path) as store:
        assert Building(Workers(1), store).either(ways) == "by units"
