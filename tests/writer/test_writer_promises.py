"""Promises of the writer stated one by one (each was a mutant the other writer tests let live)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from factory import contract, write_json

from toolgen import __version__
from toolgen.cli import main
from toolgen.diagnostics import Severity, format_text
from toolgen.render import Artifact
from toolgen.writer import journal, write


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _arts(**files: str) -> list[Artifact]:
    return [Artifact(path.replace("__", "/"), text) for path, text in files.items()]


def _refused(change: write.Plan, *, force: bool = False) -> write.WriteError:
    try:
        write.apply(change, force=force)
    except write.WriteError as exc:
        return exc
    raise AssertionError("the plan was applied; it should have been refused")


def test_a_file_in_the_way_of_a_deep_path_is_named_itself(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    (out / "a").mkdir(parents=True)
    (out / "a" / "b").write_text("mine", encoding="utf-8")
    change = write.plan(_arts(a__b__c__d_txt="x", top_txt="t"), out, label="generated")
    assert dict(change.blocked) == {"a/b": "is a file where toolgen needs a folder"}
    assert not change.up_to_date
    exc = _refused(change, force=True)  # --force never writes through a file in the way
    assert [(d.code, d.file) for d in exc.diagnostics] == [("TG134", "generated/a/b")]
    assert "move it away" in exc.diagnostics[0].message
    assert "generated/a/b: cannot be written (TG134)\n" in list(change.drift())
    assert (out / "a" / "b").read_text(encoding="utf-8") == "mine" and not (out / "top_txt").exists()


def test_a_file_at_the_top_of_a_path_is_named(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "a").write_text("mine", encoding="utf-8")
    change = write.plan(_arts(a__b_txt="x"), out)
    assert dict(change.blocked) == {"a": "is a file where toolgen needs a folder"}
    assert [d.file for d in _refused(change).diagnostics] == ["a"]


def test_a_refusal_without_a_label_names_the_path_alone(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "x.txt").write_text("mine", encoding="utf-8")
    change = write.plan(_arts(**{"x.txt": "generated"}), out)
    assert change.foreign == ("x.txt",)
    assert [(d.code, d.file) for d in _refused(change).diagnostics] == [("TG133", "x.txt")]
    labelled = write.plan(_arts(**{"x.txt": "generated"}), out, label="gen")
    assert [d.file for d in _refused(labelled).diagnostics] == ["gen/x.txt"]
    assert labelled.shown("") == "gen" and labelled.shown("x.txt") == "gen/x.txt"


def test_the_message_of_an_edited_file_says_whether_it_would_be_deleted_or_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(keep="k", gone="g"), out))
    (out / "keep").write_text("edited keep\n", encoding="utf-8")
    (out / "gone").write_text("edited gone\n", encoding="utf-8")
    change = write.plan(_arts(keep="new k"), out, label="generated")
    messages = {d.file: d.message for d in _refused(change).diagnostics}
    assert set(messages) == {"generated/gone", "generated/keep"}
    assert "would delete it (its contract or target is gone)" in messages["generated/gone"]
    assert "would overwrite it;" in messages["generated/keep"]
    assert all("--force" in m and write.MANIFEST in m for m in messages.values())


def test_a_refusal_carries_its_diagnostics_one_per_line(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "a").write_text("mine", encoding="utf-8")
    (out / "b").write_text("mine", encoding="utf-8")
    exc = _refused(write.plan(_arts(a="x", b="y"), out))
    assert [d.code for d in exc.diagnostics] == ["TG133", "TG133"]
    assert str(exc).splitlines() == [format_text(d) for d in exc.diagnostics]
    plain = write.WriteError("refusing to write outside the output folder: '../x'")
    assert plain.diagnostics == () and str(plain) == "refusing to write outside the output folder: '../x'"


def test_what_interrupted_builds_left_is_reported_under_the_folder_name(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    assert write.interrupted(out) == []
    (out / ".toolgen-staging-abc").mkdir()
    (warning,) = write.interrupted(out)
    assert (warning.code, warning.severity, warning.file) == ("TG135", Severity.WARNING, out.as_posix())
    assert ".toolgen-staging-abc" in warning.message and "the next build removes it" in warning.message
    (out / journal.JOURNAL).write_text("{}", encoding="utf-8")
    found = write.interrupted(out, "generated")
    assert [(d.code, d.severity, d.file) for d in found] == [
        ("TG135", Severity.ERROR, "generated"),
        ("TG135", Severity.WARNING, "generated"),
    ]
    assert found[0].message.endswith("the folder is part old and part new; run `toolgen build` to complete it")


def test_the_manifest_lists_every_owned_file_with_the_digest_of_its_bytes(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one", sub__b="two"), out))
    document = json.loads((out / write.MANIFEST).read_text(encoding="utf-8"))
    assert document["generated_by"] == f"toolgen {__version__}"
    assert document["files"] == {"a": _sha(b"one\n"), "sub/b": _sha(b"two\n")}
    assert write.read_manifest(out) == document["files"]


@pytest.mark.parametrize("text", ["not json", "[]", '{"files": ["a"]}', '{"files": null}', '{"other": {}}'])
def test_an_unreadable_manifest_owns_nothing_so_nothing_is_deleted_or_overwritten(tmp_path: Path, text: str) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one", gone="g"), out))
    (out / write.MANIFEST).write_text(text, encoding="utf-8")
    assert write.read_manifest(out) == {}
    change = write.plan(_arts(a="two"), out)
    assert change.remove == () and change.foreign == ("a",)
    assert [d.code for d in _refused(change).diagnostics] == ["TG133"]
    assert (out / "a").read_text(encoding="utf-8") == "one\n" and (out / "gone").exists()


@pytest.mark.parametrize("on_disk", [b"one\nextra\n", b"one\n\n", b"one", b"", b"onf\n"])
def test_a_file_that_differs_by_a_byte_is_stale_not_unchanged(tmp_path: Path, on_disk: bytes) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    (out / "a").write_bytes(on_disk)
    change = write.plan(_arts(a="one"), out, label="generated")
    assert change.write == ("a",) and change.unchanged == (write.MANIFEST,)
    assert change.edited == ("a",) and change.before["a"] == _sha(on_disk)
    assert next(iter(change.drift())) == "generated/a: stale\n"
    write.apply(change, force=True)
    assert (out / "a").read_bytes() == b"one\n"


def test_check_lists_missing_stale_and_orphaned_files_under_the_folder_name(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(stale="old", orphan="o", same="s"), out))
    change = write.plan(_arts(stale="new", same="s", fresh="f"), out, label="gen")
    drift = "".join(change.drift())
    assert "gen/fresh: missing\n" in drift and "gen/stale: stale\n" in drift
    assert "gen/orphan: orphaned (its contract or target is gone)\n" in drift
    assert "-old\n+new\n" in drift and "gen/same" not in drift
    assert change.missing == ("fresh",) and change.remove == ("orphan",) and "same" in change.unchanged
    assert change.before["fresh"] is None and change.before["orphan"] == _sha(b"o\n")
    assert set(change.verified) == {"same"} and change.verified["same"] == write.file_stat(out / "same")


def test_a_build_with_nothing_to_change_creates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    before = sorted(p.name for p in out.iterdir())
    change, notes = write.update(_arts(a="one"), out)
    assert change.up_to_date and notes == []
    assert sorted(p.name for p in out.iterdir()) == before


def test_update_creates_the_output_folder_and_returns_its_plan(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "generated"
    change, notes = write.update(_arts(a="one"), out, label="generated")
    assert (out / "a").read_bytes() == b"one\n" and notes == []
    assert change.missing == (write.MANIFEST, "a") and change.label == "generated"
    assert write.read_manifest(out) == {"a": _sha(b"one\n")}


def test_a_refused_update_carries_the_notes_of_what_it_recovered(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    (out / "a").write_text("edited\n", encoding="utf-8")
    (out / ".toolgen-staging-old").mkdir()
    with pytest.raises(write.WriteError) as caught:
        write.update(_arts(a="two"), out, label="generated")
    assert [d.code for d in caught.value.diagnostics] == ["TG132"]
    assert caught.value.notes == ["removed .toolgen-staging-old, left by an interrupted build"]
    assert (out / "a").read_text(encoding="utf-8") == "edited\n"


def test_a_case_collision_found_after_a_recovery_carries_the_notes_of_what_it_recovered(tmp_path: Path) -> None:
    """`plan` refuses the build after the recovery changed the folder: the user is still told of the recovery."""
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    (out / ".toolgen-staging-old").mkdir()
    with pytest.raises(write.WriteError, match="differ only in case") as caught:
        write.update(_arts(a="two", A="three"), out, label="generated")
    assert caught.value.notes == ["removed .toolgen-staging-old, left by an interrupted build"]
    assert not (out / ".toolgen-staging-old").exists()
    assert (out / "a").read_bytes() == b"one\n" and not (out / "A").exists()


def _disk_full(*_: object) -> None:
    raise OSError(28, "No space left on device")


def test_an_update_that_fails_after_a_recovery_carries_the_notes_of_what_it_recovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    (out / ".toolgen-staging-old").mkdir()
    monkeypatch.setattr(journal, "commit", _disk_full)
    with pytest.raises(write.WriteError, match="the update failed") as caught:
        write.update(_arts(a="two"), out, label="generated")
    assert caught.value.notes == ["removed .toolgen-staging-old, left by an interrupted build"]


def test_the_cli_tells_of_a_recovery_when_the_build_then_fails(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal without a rule code (here the system's) still prints what the recovery did, before why it stopped."""
    write_json(project, contract("echo_text"))
    runner = CliRunner()
    assert runner.invoke(main, ["-C", str(project), "build"], catch_exceptions=False).exit_code == 0
    (project / "generated" / ".toolgen-staging-old").mkdir()
    write_json(project, contract("echo_text", description="Echo the text back unchanged, a second version of it."))
    monkeypatch.setattr(journal, "commit", _disk_full)
    result = runner.invoke(main, ["-C", str(project), "build"], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "toolgen: removed .toolgen-staging-old, left by an interrupted build",
        "toolgen: generated: the update failed ([Errno 28] No space left on device);"
        " the next build completes or undoes it",
    ]


def test_a_journal_toolgen_did_not_write_stops_update_with_tg135(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))
    (out / journal.JOURNAL).write_text("[]", encoding="utf-8")
    with pytest.raises(write.WriteError) as caught:
        write.update(_arts(a="two"), out, label="generated")
    ((code, file),) = [(d.code, d.file) for d in caught.value.diagnostics]
    assert (code, file) == ("TG135", "generated") and "is not a journal toolgen wrote" in str(caught.value)
    assert (out / "a").read_bytes() == b"one\n"
    with pytest.raises(write.WriteError) as unlabelled:
        write.update(_arts(a="two"), out)
    assert unlabelled.value.diagnostics[0].file == out.as_posix()


def test_check_shows_a_binary_file_on_disk_as_binary_and_cuts_long_diffs(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one", long="\n".join(map(str, range(40)))), out))
    (out / "a").write_bytes(b"\xff\xfe not text")
    (out / "long").write_text("".join(f"changed {i}\n" for i in range(40)), encoding="utf-8")
    change = write.plan(_arts(a="one", long="\n".join(map(str, range(40)))), out)
    assert change.diffs["a"] == "(binary content differs)\n"
    lines = change.diffs["long"].splitlines()
    assert len(lines) == 21 and lines[-1] == "... (63 more diff lines)"
    assert lines[:3] == ["--- long (on disk)", "+++ long (expected)", "@@ -1,40 +1,40 @@"]


def test_a_diff_of_a_file_without_a_final_newline_still_ends_every_line(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one\ntwo"), out))
    (out / "a").write_bytes(b"one\nTWO")
    diff = write.plan(_arts(a="one\ntwo"), out).diffs["a"]
    assert diff.endswith("\n") and "-TWO\n" in diff and "+two\n" in diff


def test_the_manifest_is_indented_json_that_says_what_it_is(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(b="two", a="one"), out))
    expected = {
        "generated_by": f"toolgen {__version__}",
        "note": "files toolgen owns in this folder; toolgen deletes only these",
        "files": {"a": _sha(b"one\n"), "b": _sha(b"two\n")},
    }
    assert (out / write.MANIFEST).read_text(encoding="utf-8") == json.dumps(expected, indent=2) + "\n"


def test_refusals_are_listed_by_file_whatever_their_code(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "a.txt").write_text("mine", encoding="utf-8")
    (out / "z").write_text("mine", encoding="utf-8")
    change = write.plan(_arts(**{"a.txt": "x", "z/inner.txt": "y"}), out, label="gen")
    assert [(d.file, d.code) for d in _refused(change).diagnostics] == [("gen/a.txt", "TG133"), ("gen/z", "TG134")]


def test_a_path_with_a_dot_part_is_refused(tmp_path: Path) -> None:
    for bad in ("./a", "a/./b", "a/."):
        with pytest.raises(write.WriteError, match="outside the output folder"):
            write.plan([Artifact(bad, "x")], tmp_path / "generated")


def test_a_refusal_found_while_planning_has_no_recovery_notes(tmp_path: Path) -> None:
    with pytest.raises(write.WriteError) as caught:
        write.update([Artifact("../x", "y")], tmp_path / "generated")
    assert caught.value.notes == [] and caught.value.diagnostics == ()


def test_an_update_the_system_refuses_names_the_folder_and_what_comes_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write.apply(write.plan(_arts(a="one"), out))

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    for label, where in (("generated", "generated"), ("", out.as_posix())):
        with pytest.raises(write.WriteError) as caught:
            write.update(_arts(a="two"), out, label=label)
        assert str(caught.value) == (
            f"{where}: the update failed ([Errno 28] No space left on device); the next build completes or undoes it"
        )
    assert (out / "a").read_bytes() == b"one\n"


def test_each_path_that_is_not_a_plain_file_is_refused_with_what_it_is(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    (out / "folder.txt").mkdir(parents=True)
    (out / "link.txt").symlink_to(out / "folder.txt")
    os.mkfifo(out / "fifo.txt")
    names = ("folder.txt", "link.txt", "fifo.txt", "n" * 300)
    change = write.plan([Artifact(name, "x") for name in names], out)
    assert dict(change.blocked) == {
        "fifo.txt": "is a special file (a FIFO, socket or device) where toolgen writes a file",
        "folder.txt": "is a folder where toolgen writes a file",
        "link.txt": "is a symlink, and toolgen never writes, deletes or reads through one",
        "n" * 300: "cannot be read (File name too long)",
    }
    assert [d.code for d in _refused(change, force=True).diagnostics] == ["TG134"] * 4


def test_a_folder_on_the_way_that_is_a_link_or_cannot_be_read_is_named_with_why(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "linked").symlink_to(tmp_path / "elsewhere")
    change = write.plan([Artifact("linked/a.txt", "x"), Artifact("n" * 300 + "/b.txt", "y")], out)
    assert dict(change.blocked) == {
        "linked": "is a symlink, and toolgen never writes, deletes or reads through one",
        "n" * 300: "cannot be read (File name too long)",
    }
    assert not any((tmp_path / "elsewhere").iterdir())
