"""Pruning after a build: by the last build's list of entries, and by listing the folder when it must.

A build deletes the entries the last one used and it did not (`pruning.USED`), without listing the
cache folder; every `FULL_PRUNE` builds, or when the list is missing or not intact, it lists the
folder. Either way the cache holds only what this build used, but for strays a listing removes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.build_support import reworded, run, seal, two_tools, unseal
from toolgen.incremental import cache, pruning

NAMES = ("echo_text", "write_file", "read_file")


def _folder(root: Path) -> Path:
    return root / ".toolgen-cache" / cache.FORMAT


def _entries(root: Path) -> set[str]:
    """`namespace/xx/key` of every entry in the cache folder."""
    folder = _folder(root)
    return {p.relative_to(folder).as_posix() for p in folder.glob("*/*/*") if p.is_file()}


def _listed(root: Path) -> dict[str, object]:
    text = unseal(pruning.USED, (_folder(root) / pruning.USED).read_bytes())
    assert text is not None
    document = json.loads(text)
    assert isinstance(document, dict)
    return document


def _stray(root: Path) -> Path:
    """An entry no build used (as a killed build leaves one)."""
    path = _folder(root) / "docs" / "ab" / ("ab" + "0" * 62)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(seal(path.name, '{"text": "left by a killed build", "extra": null}'))
    return path


def _built(root: Path) -> None:
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr


def test_a_build_leaves_exactly_the_entries_it_used_and_lists_them(tmp_path: Path) -> None:
    two_tools(tmp_path, NAMES)
    _built(tmp_path)
    first = _entries(tmp_path)
    assert _listed(tmp_path) == {"builds": 0, "used": sorted(first)}  # no list yet: the folder was listed
    reworded(tmp_path, "write_file")
    _built(tmp_path)
    second = _entries(tmp_path)
    assert first - second, "the changed tool's old entries are gone"
    assert _listed(tmp_path) == {"builds": 1, "used": sorted(second)}


def test_a_stray_entry_survives_pruning_by_the_list_and_goes_when_the_folder_is_listed(tmp_path: Path) -> None:
    two_tools(tmp_path, NAMES)
    _built(tmp_path)
    stray = _stray(tmp_path)
    for count in range(1, pruning.FULL_PRUNE):
        reworded(tmp_path, "write_file", f" Reworded {count}.")
        _built(tmp_path)
        assert stray.exists() and _listed(tmp_path)["builds"] == count
    reworded(tmp_path, "write_file", " Reworded again.")
    _built(tmp_path)
    assert not stray.exists() and _listed(tmp_path)["builds"] == 0


@pytest.mark.parametrize(
    "listed",
    [
        b"not sealed",
        seal(pruning.USED, '{"builds": 1, "used": ["../../contracts/echo_text.json"]}'),
        seal(pruning.USED, '{"builds": 1, "used": ["record"]}'),
        seal(pruning.USED, '{"builds": 1, "used": "docs"}'),
        seal("other", '{"builds": 1, "used": []}'),
    ],
    ids=["unsealed", "out-of-the-folder", "the-record", "not-a-list", "foreign-seal"],
)
def test_a_list_that_is_not_intact_is_not_trusted(tmp_path: Path, listed: bytes) -> None:
    """A forged or damaged list makes the build list the folder: it never deletes what the list
    names outside the entries, and the stray goes."""
    two_tools(tmp_path, NAMES)
    _built(tmp_path)
    stray = _stray(tmp_path)
    (_folder(tmp_path) / pruning.USED).write_bytes(listed)
    reworded(tmp_path, "write_file")
    _built(tmp_path)
    assert (tmp_path / "contracts" / "echo_text.json").is_file()  # named by the forged list
    assert (_folder(tmp_path) / cache.RECORD).is_file()
    assert not stray.exists() and _listed(tmp_path)["builds"] == 0


def test_an_older_layout_goes_when_the_folder_is_listed(tmp_path: Path) -> None:
    two_tools(tmp_path, NAMES)
    older = tmp_path / ".toolgen-cache" / "v1" / "docs"
    older.mkdir(parents=True)
    (older / "entry").write_text("old", encoding="utf-8")
    _built(tmp_path)
    assert not older.parent.exists()
