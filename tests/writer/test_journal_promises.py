"""The journal and recovery promises of the writer, stated one by one (each was a mutant the other
writer tests let live): a replay moves and deletes only what still holds the recorded bytes, a journal
toolgen did not write is refused untouched, and a build killed before or after its journal leaves a
folder the next build completes or never saw."""

from __future__ import annotations

import hashlib
import json
import os
import traceback
from pathlib import Path

import pytest

from toolgen.render import Artifact
from toolgen.writer import journal, write


def _arts(**files: str) -> list[Artifact]:
    return [Artifact(path.replace("__", "/"), text) for path, text in files.items()]


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _journaled(out: Path, moves: dict[str, str | None], removes: dict[str, str], staged: dict[str, bytes]) -> Path:
    """The output folder as a build killed right after writing its journal leaves it."""
    staging = out / ".toolgen-staging-killed"
    for path, data in staged.items():
        (staging / path).parent.mkdir(parents=True, exist_ok=True)
        (staging / path).write_bytes(data)
    record = journal.Record(staging.name, moves, removes, journal.MANIFEST in staged)
    (out / journal.JOURNAL).write_text(json.dumps(record.as_json()), encoding="utf-8")
    return staging


def test_a_replay_moves_what_still_holds_its_old_bytes_and_keeps_what_changed_since(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "same.txt").write_bytes(b"old\n")
    (out / "edited.txt").write_bytes(b"edited since\n")
    (out / "created.txt").write_bytes(b"made by hand since\n")
    (out / "real").mkdir()
    (out / "linked.txt").symlink_to(out / "real")
    moves: dict[str, str | None] = {
        "same.txt": _sha(b"old\n"),
        "edited.txt": _sha(b"old\n"),
        "created.txt": None,
        "new/deep.txt": None,
        "linked.txt": _sha(b"old\n"),
    }
    staged = dict.fromkeys(moves, b"new\n") | {journal.MANIFEST: b"{}\n"}
    staging = _journaled(out, moves, {}, staged)
    notes = journal.recover(out)
    assert notes == ["completed the update of the output folder that an interrupted build had begun"]
    assert (out / "same.txt").read_bytes() == b"new\n" and (out / "new" / "deep.txt").read_bytes() == b"new\n"
    assert (out / "edited.txt").read_bytes() == b"edited since\n"
    assert (out / "created.txt").read_bytes() == b"made by hand since\n"
    assert (out / "linked.txt").is_symlink() and (out / "real").is_dir()
    assert (out / journal.MANIFEST).read_bytes() == b"{}\n"
    assert not (out / journal.JOURNAL).exists() and not staging.exists()


def test_a_replay_deletes_only_files_that_hold_the_recorded_bytes(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    (out / "gone" / "deep").mkdir(parents=True)
    (out / "gone" / "deep" / "orphan.txt").write_bytes(b"generated\n")
    (out / "edited.txt").write_bytes(b"edited since\n")
    (out / "folder.txt").mkdir()
    (out / "target.txt").write_bytes(b"generated\n")
    (out / "link.txt").symlink_to(out / "target.txt")
    digest = _sha(b"generated\n")
    removes = {"gone/deep/orphan.txt": digest, "edited.txt": digest, "folder.txt": digest, "link.txt": digest}
    _journaled(out, {}, removes, {})
    journal.recover(out)
    assert not (out / "gone").exists(), "the emptied folders of a deleted orphan are pruned"
    assert (out / "edited.txt").read_bytes() == b"edited since\n"
    assert (out / "folder.txt").is_dir() and (out / "link.txt").is_symlink()
    assert (out / "target.txt").read_bytes() == b"generated\n"
    assert not (out / journal.MANIFEST).exists(), "no manifest was staged, none is installed"


NOBODY = 65534
"""The unprivileged uid and gid a root test run drops to, so that file permissions apply."""


def _recover_unprivileged(out: Path) -> None:
    """`journal.recover(out)` as a user that file permissions bind: directly when the tests do not run
    as root; as root, in a forked child that drops to uid and gid 65534 (the folder is given to it)."""
    if os.geteuid() != 0:
        journal.recover(out)
        return
    for path in (out, *out.rglob("*")):
        os.lchown(path, NOBODY, NOBODY)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.chdir(out)  # as root: the folders above `out` need not be open to the unprivileged user
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            journal.recover(Path("."))
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the recovery failed in the unprivileged child"


def test_a_replay_keeps_a_file_to_delete_that_cannot_be_read(tmp_path: Path) -> None:
    """Its bytes cannot be checked against the journal, so it counts as changed since: kept."""
    out = tmp_path / "generated"
    out.mkdir()
    (out / "locked.txt").write_bytes(b"generated\n")
    (out / "orphan.txt").write_bytes(b"generated\n")
    digest = _sha(b"generated\n")
    _journaled(out, {}, {"locked.txt": digest, "orphan.txt": digest}, {})
    (out / "locked.txt").chmod(0)
    _recover_unprivileged(out)
    assert not (out / "orphan.txt").exists(), "the readable orphan is deleted: the recovery could delete"
    assert not (out / journal.JOURNAL).exists(), "the recovery completed"
    assert (out / "locked.txt").is_file(), "the file toolgen could not read was deleted"
    assert (out / "locked.txt").stat().st_mode & 0o777 == 0
    assert (out / "locked.txt").read_bytes() == b"generated\n"


def test_recovery_removes_staging_folders_but_not_a_link_named_like_one(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / ".toolgen-staging-old").mkdir()
    (out / ".toolgen-staging-old" / "a.txt").write_text("staged", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep", encoding="utf-8")
    (out / ".toolgen-staging-link").symlink_to(elsewhere)
    notes = journal.recover(out)
    assert notes == ["removed .toolgen-staging-old, left by an interrupted build"]
    assert not (out / ".toolgen-staging-old").exists()
    assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "keep"


_X = ".toolgen-staging-x"
_BAD_FLAG = "(bad staging folder or manifest flag)"


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ({"staging": "elsewhere", "moves": {}, "removes": {}, "manifest": False}, _BAD_FLAG),
        ({"staging": _X, "moves": {}, "removes": {}, "manifest": "yes"}, _BAD_FLAG),
        ({"staging": _X, "moves": {"../out.txt": None}, "removes": {}, "manifest": False}, "(bad move)"),
        ({"staging": _X, "moves": {"a/./b.txt": None}, "removes": {}, "manifest": False}, "(bad move)"),
        ({"staging": _X, "moves": {".toolgen-journal.json": None}, "removes": {}, "manifest": False}, "(bad move)"),
        ({"staging": _X, "moves": {"a.txt": 3}, "removes": {}, "manifest": False}, "(bad move)"),
        ({"staging": _X, "moves": {}, "removes": {"/etc/passwd": "sha256:0"}, "manifest": False}, "(bad delete)"),
        ({"staging": _X, "moves": {}, "removes": {"a.txt": None}, "manifest": False}, "(bad delete)"),
        ({"staging": _X, "moves": {}, "removes": {}}, "('manifest')"),
        ({"moves": {}, "removes": {}, "manifest": False}, "('staging')"),
        ([], "(expected a JSON object, found list)"),
    ],
)
def test_a_journal_toolgen_did_not_write_is_refused_and_nothing_is_touched(
    tmp_path: Path, document: object, reason: str
) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "a.txt").write_text("kept", encoding="utf-8")
    (out / journal.JOURNAL).write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(journal.JournalError, match="is not a journal toolgen wrote") as caught:
        journal.recover(out)
    assert reason in str(caught.value)
    assert (out / "a.txt").read_text(encoding="utf-8") == "kept"


def test_a_journal_toolgen_wrote_reads_back_as_written(tmp_path: Path) -> None:
    record = journal.Record(".toolgen-staging-a1", {"a.txt": None, "b/c.txt": "sha256:1"}, {"d.txt": "sha256:2"}, True)
    (tmp_path / journal.JOURNAL).write_text(json.dumps(record.as_json()), encoding="utf-8")
    assert journal.read(tmp_path) == record
    assert journal.read(tmp_path / "no-journal-here") is None


def test_a_journal_that_is_not_text_is_refused(tmp_path: Path) -> None:
    (tmp_path / journal.JOURNAL).write_bytes(b"\xff\xfe")
    with pytest.raises(journal.JournalError, match=r"\.toolgen-journal\.json cannot be read"):
        journal.recover(tmp_path)


def test_recovery_leaves_a_plain_file_named_like_a_staging_folder(tmp_path: Path) -> None:
    (tmp_path / ".toolgen-staging-file").write_text("mine", encoding="utf-8")
    assert journal.recover(tmp_path) == []
    assert (tmp_path / ".toolgen-staging-file").read_text(encoding="utf-8") == "mine"


def _failing_replace(monkeypatch: pytest.MonkeyPatch, fail_at: int) -> None:
    """`os.replace` fails (the disk is full) from its `fail_at`-th call on."""
    real, calls = os.replace, []

    def replace(source: object, target: object) -> None:
        calls.append(target)
        if len(calls) >= fail_at:
            raise OSError(28, "No space left on device")
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)


def test_a_build_that_fails_before_its_journal_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    before = sorted(p.name for p in out.iterdir())
    _failing_replace(monkeypatch, 1)
    with pytest.raises(write.WriteError, match="the update failed"):
        write.update(_arts(a="two", b="new"), out)
    assert sorted(p.name for p in out.iterdir()) == before and (out / "a").read_bytes() == b"one\n"


def test_a_build_that_fails_after_its_journal_is_completed_by_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one", gone="g"), out))
    with monkeypatch.context() as patch:
        _failing_replace(patch, 2)  # the journal is in place, the first move fails
        with pytest.raises(write.WriteError, match="the next build completes or undoes it"):
            write.update(_arts(a="two", b="new"), out)
    (staging,) = [p for p in out.iterdir() if p.name.startswith(journal.STAGING_PREFIX)]
    assert journal.read(out) is not None and (out / "a").read_bytes() == b"one\n"
    notes = journal.recover(out)
    assert notes == ["completed the update of the output folder that an interrupted build had begun"]
    assert (out / "a").read_bytes() == b"two\n" and (out / "b").read_bytes() == b"new\n"
    assert not (out / "gone").exists() and not staging.exists() and not (out / journal.JOURNAL).exists()
    assert write.read_manifest(out) == {"a": _sha(b"two\n"), "b": _sha(b"new\n")}
