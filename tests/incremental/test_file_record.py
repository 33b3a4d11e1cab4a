"""The file record: a build after one contract changed leaves the other tools' pages and modules unread.

`Building.files` turns an entry the record knows into a `Kept` file (its digest, no text); the
writer finds it unchanged by the trusted stat. The bytes must still be those of a `--no-cache`
build, and a `Kept` must survive the trip back from a forked worker.
"""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from tests.build_support import cache_reads, reworded, run, seal, tree, two_tools, unseal
from toolgen.incremental import cache
from toolgen.incremental.kept import Kept
from toolgen.render import python_models

NAMES = ("echo_text", "write_file", "read_file")


def _kept_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of every kept file whose entry is read from now on (its text or bytes asked for)."""
    seen: list[str] = []
    real = Kept._read

    def read(self: Kept) -> tuple[str, bytes]:
        seen.append(self.path)
        return real(self)

    monkeypatch.setattr(Kept, "_read", read)
    return seen


def _builds_as_without_cache(root: Path) -> None:
    """A build of `root` succeeds and writes what a `--no-cache` build of its contracts writes."""
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr
    reference = root / "reference"
    shutil.copytree(root / "contracts", reference / "contracts")
    assert run(reference, "build", "--no-cache")[0] == 0
    assert tree(root / "generated") == tree(reference / "generated")


def test_one_changed_contract_reads_one_page_and_one_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    reworded(tmp_path, "write_file")
    seen = cache_reads(monkeypatch)
    kept = _kept_reads(monkeypatch)
    code, stdout, stderr = run(tmp_path, "build")
    assert code == 0, stdout + stderr
    assert (seen.count("docs"), seen.count("module")) == (1, 1)  # the changed tool's, a miss
    assert kept == []  # the others' pages and modules: trusted on disk, their entries never opened
    reference = tmp_path / "reference"
    shutil.copytree(tmp_path / "contracts", reference / "contracts")
    assert run(reference, "build", "--no-cache")[0] == 0
    assert tree(tmp_path / "generated") == tree(reference / "generated")


def test_without_the_record_every_page_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    record = tmp_path / ".toolgen-cache" / cache.FORMAT / cache.RECORD
    assert record.is_file()
    record.unlink()
    reworded(tmp_path, "write_file")
    seen = cache_reads(monkeypatch)
    assert run(tmp_path, "build")[0] == 0
    assert (seen.count("docs"), seen.count("module")) == (len(NAMES), len(NAMES))
    assert record.is_file()  # written again, for the next build


def _kept(tmp_path: Path) -> Kept:
    """A Kept page of a built project, as the next build's `Building.files` makes it."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    made: list[Kept] = []
    real = Kept.__init__

    def init(self: Kept, path: str, digest: str, entry: str, secret: bytes) -> None:
        real(self, path, digest, entry, secret)
        made.append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Kept, "__init__", init)
        reworded(tmp_path, "write_file")
        assert run(tmp_path, "build")[0] == 0
    return next(k for k in made if k.path == "docs/echo_text.md")


def test_a_kept_file_gives_its_bytes_and_crosses_a_fork(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    on_disk = (tmp_path / "generated" / "docs" / "echo_text.md").read_bytes()
    assert kept.data() == on_disk and kept.text == on_disk.decode()
    back = pickle.loads(pickle.dumps(kept))
    assert (back.path, back.digest, back.entry, back.data()) == (kept.path, kept.digest, kept.entry, on_disk)


def test_a_kept_file_whose_entry_lies_raises_and_drops_the_record(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    record = tmp_path / ".toolgen-cache" / cache.FORMAT / cache.RECORD
    entry = Path(kept.entry)
    entry.write_bytes(seal(entry.name, '{"text": "not the page", "extra": null}'))
    with pytest.raises(cache.LostEntry, match=r"docs/echo_text\.md"):
        kept.data()
    assert not record.exists()


def test_models_of_unread_modules_are_kept_for_the_next_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that leaves every module unread still keeps their models: the next edit of a
    description (which remakes the module, not its models) takes the models from the cache."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    reworded(tmp_path, "echo_text")
    assert run(tmp_path, "build")[0] == 0  # read_file's module and models left unread, then pruning
    made: list[int] = []
    real = python_models.batch_models
    monkeypatch.setattr(python_models, "batch_models", lambda todo, **kw: made.append(len(todo)) or real(todo, **kw))
    reworded(tmp_path, "read_file")
    assert run(tmp_path, "build")[0] == 0
    assert made == []  # dcg did not run
    assert "Reworded." in (tmp_path / "generated" / "docs" / "read_file.md").read_text()


def test_a_forged_record_of_the_wrong_shape_is_not_trusted(tmp_path: Path) -> None:
    """Under a seal that matches it, a record whose notes are not notes is no record of them: the
    build reads those entries again and writes what a `--no-cache` build writes."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    path = tmp_path / ".toolgen-cache" / cache.FORMAT / cache.RECORD
    text = unseal(cache.RECORD, path.read_bytes())
    assert text is not None
    forged = {key: [digest, 5 if extra is not None else None] for key, (digest, extra) in json.loads(text).items()}
    path.write_bytes(seal(cache.RECORD, json.dumps(forged)))
    reworded(tmp_path, "write_file")
    _builds_as_without_cache(tmp_path)


def test_an_entry_whose_notes_are_not_notes_is_a_miss(tmp_path: Path) -> None:
    """A module entry read back (no record) whose kept notes are of the wrong shape is computed again."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    folder = tmp_path / ".toolgen-cache" / cache.FORMAT
    (folder / cache.RECORD).unlink()
    for entry in (folder / "module").rglob("*"):
        if entry.is_file():
            text = unseal(entry.name, entry.read_bytes())
            assert text is not None
            entry.write_bytes(seal(entry.name, json.dumps({**json.loads(text), "extra": 5})))
    reworded(tmp_path, "write_file")
    _builds_as_without_cache(tmp_path)
