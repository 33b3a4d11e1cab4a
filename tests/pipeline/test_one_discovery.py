"""One discovery: the no-change fast path digests exactly the contract files the loader reads.

Same filters for both (suffixes in any case, hidden names, regular files, links that leave the
project, folders named like contracts, the sort order), because both call one function; a change
the loader would see never lets a no-change build skip.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.build_support import run
from tests.factory import contract, write_json
from toolgen import cliout, discovery
from toolgen.config import Settings, load_settings
from toolgen.incremental import fastpath
from toolgen.load import discover, load_documents
from toolgen.thresholds import Thresholds

FAST = "no input changed since the last build"

Shape = Callable[[Path, Path], object]
"""Makes a tree: (project root, a folder outside the project)."""


def _text(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(contract(name)), encoding="utf-8")


TREES: dict[str, Shape] = {
    "upper-case suffixes": lambda r, o: (_text(r / "contracts/B.JSON", "b"), _text(r / "contracts/c/D.Json", "d")),
    "hidden files and folders": lambda r, o: (
        _text(r / "contracts/.h.json", "h"),
        _text(r / "contracts/.d/x.json", "x"),
    ),
    "a FIFO named like a contract": lambda r, o: os.mkfifo(r / "contracts/pipe.json"),
    "a FIFO named like something else": lambda r, o: os.mkfifo(r / "contracts/pipe.txt"),
    "a broken link": lambda r, o: (r / "contracts/gone.json").symlink_to("nowhere.json"),
    "a link to a FIFO outside": lambda r, o: (os.mkfifo(o / "ff"), (r / "contracts/ff.json").symlink_to(o / "ff")),
    "a linked folder in the project": lambda r, o: (
        _text(r / "shared/s.json", "s"),
        (r / "contracts/shared").symlink_to(r / "shared"),
    ),
    "a linked file in the project": lambda r, o: (
        _text(r / "elsewhere/e.json", "e"),
        (r / "contracts/e.json").symlink_to(r / "elsewhere/e.json"),
    ),
    "names that sort apart": lambda r, o: [
        _text(r / "contracts" / rel, rel.replace("/", "_").split(".")[0].lower())
        for rel in ("a-b/x.json", "a/x.json", "a.b.json", "A.json", "a b.json", "\u00e9.json")
    ],
    "a link outside the project": lambda r, o: (
        _text(o / "o.json", "o"),
        (r / "contracts/o.json").symlink_to(o / "o.json"),
    ),
    "a folder named like a contract": lambda r, o: (r / "contracts/f.json").mkdir(),
    "a symlink loop": lambda r, o: (r / "contracts/loop").symlink_to(r / "contracts"),
}


def _tree(tmp_path: Path, shape: Shape) -> Settings:
    root, outside = tmp_path / "p", tmp_path / "outside"
    (root / "contracts").mkdir(parents=True)
    outside.mkdir()
    _text(root / "contracts/a.json", "a")
    (root / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    shape(root, outside)
    settings, problems = load_settings(root)
    assert problems == []
    return settings


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_fast_path_and_the_loader_list_with_one_function() -> None:
    """No second listing to keep in step: the fast path digests the discovery's own list."""
    assert fastpath.contract_files is discovery.contract_files


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_listing_is_what_the_loader_reads_in_its_order(tmp_path: Path, name: str) -> None:
    settings = _tree(tmp_path, TREES[name])
    paths, problems = discover(settings.contracts_dir, settings)
    files, trouble = discovery.contract_files(settings.contracts_dir, settings)
    assert [path for _, path in files] == paths == sorted(paths, key=settings.rel)
    assert [rel for rel, _ in files] == [p.relative_to(settings.contracts_dir).as_posix() for p in paths]
    assert trouble == problems
    assert all(discovery.is_contract_name(p.name) and not p.name.startswith(".") for p in paths)


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_key_vouches_only_for_what_the_loader_read(tmp_path: Path, name: str) -> None:
    """A probe key exists only for a tree the loader reads without a problem, and it is the key of what it read."""
    settings = _tree(tmp_path, TREES[name])
    probe = fastpath.probe(settings)
    documents, problems = load_documents(settings)
    if problems:
        assert probe.key is None
        return
    inputs = [(d.path.relative_to(settings.contracts_dir).as_posix(), d.digest) for d in documents]
    assert probe.key is not None
    assert probe.key == fastpath.loaded_key(settings, probe, inputs)


CHANGES: dict[str, Shape] = {
    "a new contract with an upper-case suffix": lambda r, o: _text(r / "contracts/new.TOML", "new"),
    "a contract edited through a linked folder": lambda r, o: _text(r / "shared/s.json", "renamed"),
    "a FIFO added": lambda r, o: os.mkfifo(r / "contracts/pipe.json"),
    "a broken link added": lambda r, o: (r / "contracts/gone.json").symlink_to("nowhere.json"),
    "a folder named like a contract": lambda r, o: (r / "contracts/f.json").mkdir(),
    "a contract moved to a subfolder": lambda r, o: (r / "contracts/a.json").rename(r / "contracts/sub.json"),
    "a link that leaves the project": lambda r, o: (
        _text(o / "o.json", "o"),
        (r / "contracts/o.json").symlink_to(o / "o.json"),
    ),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_no_change_build_never_skips_a_change_the_loader_sees(tmp_path: Path, name: str) -> None:
    settings = _tree(tmp_path, TREES["a linked folder in the project"])
    assert run(settings.root, "build")[0] == 0
    assert FAST in run(settings.root, "build")[1]
    CHANGES[name](settings.root, tmp_path / "outside")
    code, out, err = run(settings.root, "build")
    assert FAST not in out, (code, out, err)


def test_a_hidden_file_is_no_change_to_either(tmp_path: Path) -> None:
    settings = _tree(tmp_path, TREES["a linked folder in the project"])
    assert run(settings.root, "build")[0] == 0
    _text(settings.root / "contracts/.draft.json", "draft")
    _text(settings.root / "contracts/.drafts/d.json", "d")
    assert FAST in run(settings.root, "build")[1]


def test_the_progress_bar_counts_through_a_linked_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar counts with the loader's listing: a folder linked from inside the project is read, not refused."""
    root = tmp_path / "p"
    for index in range(3):
        write_json(root, contract(f"tool_{index}"), "../shared")
    (root / "contracts").mkdir(exist_ok=True)
    (root / "contracts/shared").symlink_to(root / "shared")
    settings, _ = load_settings(root)
    settings = dataclasses.replace(settings, thresholds=Thresholds(progress_min=2))
    monkeypatch.setattr(sys, "stderr", _Terminal())
    with cliout.progress_bar(settings) as step:
        assert step is not None


def test_a_build_after_a_probe_lists_the_contracts_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe's listing is handed to the loader (as its bytes are): one walk of the folder a build."""
    _text(tmp_path / "contracts" / "a_tool.json", "a_tool")
    assert run(tmp_path, "build")[0] == 0
    _text(tmp_path / "contracts" / "sub" / "b_tool.json", "b_tool")
    calls: list[Path] = []
    real = discovery.contract_files

    def counted(folder: Path, settings: Settings) -> tuple[list[tuple[str, Path]], list[object]]:
        calls.append(folder)
        return real(folder, settings)  # type: ignore[return-value]

    monkeypatch.setattr(fastpath, "contract_files", counted)
    monkeypatch.setattr("toolgen.load.contract_files", counted)
    code, out, _ = run(tmp_path, "build")
    assert code == 0 and FAST not in out and "2 contracts" in out
    assert len(calls) == 1
