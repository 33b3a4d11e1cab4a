"""Values a process keeps between its builds (`resident.Resident`): a unit declared `resident` is
taken from memory (a hit that reads nothing) and left there; one not declared so is read as ever;
only what the last build used stays; and a warmed project renders everything in its own process,
to the same bytes as a fresh build."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

import toolgen
from tests.build_support import cache_reads, reworded, tree, two_tools
from toolgen.config import load_settings
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Background, Workers
from toolgen.incremental.resident import Resident
from toolgen.pipeline.project import Project
from toolgen.render.units import Table, Values, as_text
from toolgen.thresholds import Thresholds


def _values(kind: str, made: list[str], *, resident: bool) -> Values[str, str]:
    def make(todo: Sequence[str]) -> list[str]:
        made.extend(todo)
        return [item.upper() for item in todo]

    return Values(kind, depends_on=lambda item: (item,), make=make, encode=str, decode=as_text, resident=resident)


def test_a_resident_value_is_taken_from_memory_and_only_what_a_build_used_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    kept, plain = _values("test-kept", made, resident=True), _values("test-plain", made, resident=False)
    resident = Resident(here=True)  # a warmed project's
    with cache.session(tmp_path) as store:
        assert store is not None
        building = Building(Workers(1), store, resident=resident)
        assert building.run(kept, ["a", "b"]) == ["A", "B"] and building.run(plain, ["a"]) == ["A"]
        resident.settle(store.used)
    assert made == ["a", "b", "a"] and len(resident.values) == 2  # the resident kind's two values
    read = cache_reads(monkeypatch)
    with cache.session(tmp_path) as store:
        assert store is not None
        building = Building(Workers(1), store, resident=resident)
        assert building.run(kept, ["a", "c"]) == ["A", "C"] and building.run(plain, ["a"]) == ["A"]
        assert store.hits == 2 and cache.entry_name("test-kept", cache.key_of("test-kept", ("a",))) in store.used
        resident.settle(store.used)
    assert made == ["a", "b", "a", "c"]  # nothing made again
    assert read == ["test-kept", "test-plain"]  # "a" of the resident kind read nothing; "c" was looked for
    assert sorted(resident.values.values()) == ["A", "C"]  # "b", unused by the last build, is gone


def test_a_resident_table_is_taken_from_memory_and_holds_exactly_the_last_builds_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []

    def make(todo: Sequence[str]) -> list[str]:
        made.extend(todo)
        return [item * 2 for item in todo]

    units = Table("test-table", ("shared",), item_key=lambda item: item, make=make, decode=as_text, resident=True)
    resident = Resident(here=True)  # a warmed project's
    with cache.session(tmp_path) as store:
        assert store is not None
        assert Building(Workers(1), store, resident=resident).table(units, ["x", "y"]) == ["xx", "yy"]
        resident.settle(store.used)
    read = cache_reads(monkeypatch)
    with cache.session(tmp_path) as store:
        assert store is not None
        assert Building(Workers(1), store, resident=resident).table(units, ["y", "z"]) == ["yy", "zz"]
    assert read == [] and made == ["x", "y", "z"]
    assert list(resident.values.values()) == [{"y": "yy", "z": "zz"}]
    with cache.session(tmp_path) as store:  # the entry on disk was written as any build writes it
        assert store is not None
        assert Building(Workers(1), store).table(units, ["y", "z"]) == ["yy", "zz"] and made == ["x", "y", "z"]


def test_a_warmed_project_renders_here_from_what_it_holds_to_a_fresh_builds_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "project"
    two_tools(root, ("echo_text", "write_file", "read_file"))
    settings = load_settings(root)[0]
    apart = Thresholds(apart_min=1, fork_min=2)  # the providers and docs render apart from one contract
    project = Project(dataclasses.replace(settings, thresholds=apart))
    forks: list[object] = []
    real = Background.__init__

    def counted(self: Background, workers: Workers, fn: object) -> None:
        forks.append(fn)
        real(self, workers, fn)  # type: ignore[arg-type]

    monkeypatch.setattr(Background, "__init__", counted)
    assert project.build().ok and len(forks) >= 1  # a project not warmed renders apart
    reworded(root, "write_file")
    assert project.build().ok and len(forks) >= 2  # again
    project.warm()  # a generation in memory, here
    first = len(forks)
    reworded(root, "echo_text")
    assert project.build().ok and len(forks) == first  # a warmed project renders here: nothing forked
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns("generated", ".toolgen-cache"))
    assert toolgen.build_project(fresh, use_cache=False).ok
    assert tree(root / "generated") == tree(fresh / "generated")


def test_a_project_that_is_not_warmed_keeps_no_values(tmp_path: Path) -> None:
    """A build in a process that builds once holds no unit's value to its end (at 10,000 contracts
    the providers' runs and catalog.json's entries held that way raised the peak by 30 MB)."""
    made: list[str] = []
    kept = _values("test-kept", made, resident=True)
    resident = Resident()
    with cache.session(tmp_path) as store:
        assert store is not None
        assert Building(Workers(1), store, resident=resident).run(kept, ["a", "b"]) == ["A", "B"]
    assert resident.values == {}
