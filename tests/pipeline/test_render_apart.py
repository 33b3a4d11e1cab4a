"""From `Thresholds.apart_min` contracts the providers and the docs pages render in a forked process
while this one renders the python, catalog and mocks targets and the docs index. The files must be
the bytes a build that forks nothing writes, after a change as after a cold build."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import toolgen
from tests.build_support import reworded, run, tree, two_tools
from toolgen.config import Settings, load_settings
from toolgen.incremental import fastpath, parallel, pruning
from toolgen.pipeline import stages as pipeline
from toolgen.render import docs, mocks
from toolgen.thresholds import Thresholds

NAMES = ("echo_text", "write_file", "read_file")
APART = Thresholds(apart_min=1)
"""Three tools render apart (a test sets the threshold, never a module constant)."""


def _settings(root: Path) -> Settings:
    settings, problems = load_settings(root)
    assert not problems
    return dataclasses.replace(settings, thresholds=APART)


def _build(root: Path) -> bool:
    """`toolgen build` of `root` through the library, rendering apart."""
    return toolgen.build_project(_settings(root)).ok


def _reference(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """What a build of `root`'s contracts writes in one process, with no cache."""
    reference = root.parent / f"{root.name}-reference"
    shutil.rmtree(reference, ignore_errors=True)
    shutil.copytree(root / "contracts", reference / "contracts")
    with monkeypatch.context() as patch:
        patch.setenv("TOOLGEN_JOBS", "1")
        assert run(reference, "build", "--no-cache")[0] == 0
    return tree(reference / "generated")


@pytest.fixture
def apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of three tools whose providers and docs pages render in a forked process."""
    monkeypatch.setenv("TOOLGEN_JOBS", "2")
    root = tmp_path / "p"
    two_tools(root, NAMES)
    return root


def test_a_build_that_renders_apart_writes_what_one_process_writes(
    apart: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = apart
    indexes: list[int] = []
    real = docs.render_index
    monkeypatch.setattr(docs, "render_index", lambda *a, **k: indexes.append(1) or real(*a, **k))
    mocked = mocks.render
    monkeypatch.setattr(mocks, "render", lambda *a, **k: indexes.append(2) or mocked(*a, **k))
    assert _build(root)
    assert sorted(indexes) == [1, 2]  # the index and the mocks rendered here, not in the forked process
    assert tree(root / "generated") == _reference(root, monkeypatch)
    reworded(root, "write_file")
    indexes.clear()
    assert _build(root)
    assert sorted(indexes) == [1, 2]
    assert tree(root / "generated") == _reference(root, monkeypatch)


def test_meanwhile_runs_here_before_the_forked_targets_are_waited_for(
    apart: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    real = parallel.Background.result
    monkeypatch.setattr(parallel.Background, "result", lambda self: order.append("result") or real(self))
    settings = _settings(apart)
    assert pipeline.generate(settings, meanwhile=lambda: order.append("meanwhile")).ok
    assert order == ["meanwhile", "result"]


def test_a_build_that_reads_the_last_record_ahead_reads_it_once(apart: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `meanwhile` read (`project.Ahead`) is what the writer and pruning use, not read again;
    when it is read is the test above."""
    root = apart
    assert _build(root)
    reworded(root, "write_file")
    reads: list[str] = []
    for module, name in ((fastpath, "trusted"), (pruning, "last_used")):
        monkeypatch.setattr(module, name, _counted(reads, name, getattr(module, name)))
    assert _build(root)
    assert sorted(reads) == ["last_used", "trusted"]
    assert tree(root / "generated") == _reference(root, monkeypatch)


def _counted(reads: list[str], name: str, real: Callable[..., object]) -> Callable[..., object]:
    def counted(*args: object) -> object:
        reads.append(name)
        return real(*args)

    return counted
