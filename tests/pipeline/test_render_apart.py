"""From `pipeline.APART_MIN` contracts the providers and the docs pages render in a forked process
while this one renders the python, catalog and mocks targets and the docs index. The files must be
the bytes a build that forks nothing writes, after a change as after a cold build."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.build_support import reworded, run, tree, two_tools
from toolgen.config import load_settings
from toolgen.incremental import fastpath, parallel, pruning
from toolgen.pipeline import stages as pipeline
from toolgen.render import docs, mocks

NAMES = ("echo_text", "write_file", "read_file")


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
    monkeypatch.setattr(pipeline, "APART_MIN", 1)
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
    assert run(root, "build")[0] == 0
    assert sorted(indexes) == [1, 2]  # the index and the mocks rendered here, not in the forked process
    assert tree(root / "generated") == _reference(root, monkeypatch)
    reworded(root, "write_file")
    indexes.clear()
    assert run(root, "build")[0] == 0
    assert sorted(indexes) == [1, 2]
    assert tree(root / "generated") == _reference(root, monkeypatch)


def test_meanwhile_runs_here_before_the_forked_targets_are_waited_for(
    apart: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    real = parallel.Background.result
    monkeypatch.setattr(parallel.Background, "result", lambda self: order.append("result") or real(self))
    settings, _ = load_settings(apart)
    assert pipeline.generate(settings, meanwhile=lambda: order.append("meanwhile")).ok
    assert order == ["meanwhile", "result"]


def test_a_build_that_reads_the_last_record_ahead_reads_it_once(apart: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `meanwhile` read (`cliout.Ahead`) is what the writer and pruning use, not read again;
    when it is read is the test above."""
    root = apart
    assert run(root, "build")[0] == 0
    reworded(root, "write_file")
    reads: list[str] = []
    for module, name in ((fastpath, "trusted"), (pruning, "last_used")):
        monkeypatch.setattr(module, name, _counted(reads, name, getattr(module, name)))
    assert run(root, "build")[0] == 0
    assert sorted(reads) == ["last_used", "trusted"]
    assert tree(root / "generated") == _reference(root, monkeypatch)


def _counted(reads: list[str], name: str, real: Callable[..., object]) -> Callable[..., object]:
    def counted(*args: object) -> object:
        reads.append(name)
        return real(*args)

    return counted
