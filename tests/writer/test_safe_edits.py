"""A file a person changed in the output folder is never deleted or overwritten without --force.

toolgen deletes or overwrites a file only when its bytes are exactly what the manifest says toolgen
wrote there; anything else stops the build before a single file is written (TG132 for an edited
generated file, TG133 for a file toolgen never wrote, TG134 for a path that is not a plain file).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.build_support import add_to_manifest, manifest, reworded, run, sha, tree, two_tools


def test_an_edited_page_of_a_removed_tool_is_kept_and_named(project: Path) -> None:
    paths = two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    page = out / "docs" / "write_file.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nMy notes about this tool.\n", encoding="utf-8")
    paths["write_file"].unlink()
    before = tree(out)
    code, stdout, stderr = run(project, "build")
    assert code == 1, stdout + stderr
    assert "TG132" in stderr and "generated/docs/write_file.md" in stderr
    assert "--force" in stderr
    assert tree(out) == before, "a refused build must write nothing"
    code, stdout, stderr = run(project, "check")
    assert code == 1 and "generated/docs/write_file.md" in stdout + stderr and "edited" in stdout + stderr
    code, stdout, stderr = run(project, "build", "--force")
    assert code == 0, stdout + stderr
    assert not page.exists() and not (out / "python" / "agent_tools" / "write_file.py").exists()


def test_an_edited_file_that_would_be_rewritten_stops_the_build(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    page = out / "docs" / "echo_text.md"
    page.write_text("# My own page\n", encoding="utf-8")
    reworded(project, "echo_text")  # the catalog, the module and the page all change
    before = tree(out)
    code, stdout, stderr = run(project, "build")
    assert code == 1, stdout + stderr
    assert "TG132" in stderr and "generated/docs/echo_text.md" in stderr
    assert tree(out) == before
    assert run(project, "build", "--force")[0] == 0
    assert "Reworded." in page.read_text(encoding="utf-8")


def test_an_edited_file_of_an_unchanged_contract_is_not_restored_silently(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    module = project / "generated" / "python" / "agent_tools" / "echo_text.py"
    module.write_text(module.read_text(encoding="utf-8") + "# a local patch\n", encoding="utf-8")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG132" in stderr and "echo_text.py" in stderr
    assert module.read_text(encoding="utf-8").endswith("# a local patch\n")


def test_a_file_deleted_by_hand_is_simply_written_again(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    page = project / "generated" / "docs" / "echo_text.md"
    original = page.read_bytes()
    page.unlink()
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert page.read_bytes() == original


def test_a_user_file_listed_in_the_manifest_is_not_deleted(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    notes = out / "mine" / "notes.md"
    notes.parent.mkdir()
    notes.write_text("precious\n", encoding="utf-8")
    add_to_manifest(out, {"mine/notes.md": "sha256:" + "0" * 64})
    code, _, stderr = run(project, "build")
    assert notes.read_text(encoding="utf-8") == "precious\n"
    assert code == 1 and "TG132" in stderr and "generated/mine/notes.md" in stderr


def test_manifest_entries_that_are_not_plain_files_are_never_touched(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    (out / "mine").mkdir()
    (out / "mine" / "kept.txt").write_text("kept\n", encoding="utf-8")
    add_to_manifest(out, {"mine": "sha256:" + "0" * 64, "docs": sha(b"")})
    reworded(project, "write_file")
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert (out / "mine" / "kept.txt").read_text(encoding="utf-8") == "kept\n"
    assert (out / "docs" / "echo_text.md").is_file()
    assert "mine" not in manifest(out) and "docs" not in manifest(out)


def test_a_target_that_is_a_folder_stops_the_build_before_anything_is_written(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    module = out / "python" / "agent_tools" / "write_file.py"
    module.unlink()
    module.mkdir()
    (module / "inside.txt").write_text("x", encoding="utf-8")
    reworded(project, "echo_text")
    before = tree(out)
    code, stdout, stderr = run(project, "build")
    assert code == 1, stdout + stderr
    assert "TG134" in stderr and "generated/python/agent_tools/write_file.py" in stderr
    assert "internal error" not in stderr
    assert tree(out) == before


def test_a_file_where_a_folder_must_be_stops_the_build(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    out = project / "generated"
    for page in (out / "docs").iterdir():
        page.unlink()
    (out / "docs").rmdir()
    (out / "docs").write_text("a file, not a folder\n", encoding="utf-8")
    reworded(project, "echo_text")
    before = tree(out)
    code, stdout, stderr = run(project, "build")
    assert code == 1 and "TG134" in stderr and "generated/docs" in stderr, stdout + stderr
    assert tree(out) == before


def test_a_file_toolgen_never_wrote_is_refused_with_a_code(project: Path) -> None:
    two_tools(project)
    page = project / "generated" / "docs" / "echo_text.md"
    page.parent.mkdir(parents=True)
    page.write_text("hand written\n", encoding="utf-8")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG133" in stderr and "generated/docs/echo_text.md" in stderr
    assert page.read_text(encoding="utf-8") == "hand written\n"
    assert sorted(p.name for p in (project / "generated").rglob("*")) == ["docs", "echo_text.md"]


def test_refusals_are_json_records_with_format_json(project: Path) -> None:
    two_tools(project)
    assert run(project, "build")[0] == 0
    page = project / "generated" / "docs" / "echo_text.md"
    page.write_text("edited\n", encoding="utf-8")
    code, stdout, _ = run(project, "build", "--format", "json")
    assert code == 1
    document = json.loads(stdout)
    assert document["ok"] is False
    records = [r for r in document["diagnostics"] if r["severity"] == "error"]
    assert [(r["code"], r["file"]) for r in records] == [("TG132", "generated/docs/echo_text.md")]
