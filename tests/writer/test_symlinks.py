"""Nothing is read or written through a symlink that leaves the project.

The output folder must be a real folder inside the project (TG130); a symlink inside it is never
followed for a write, a delete or a comparison (TG134); contract files and folders linked from outside
the project are not read (TG101); a cache folder linked elsewhere is not used.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.build_support import add_to_manifest, reworded, run, sha, tree, two_tools
from tests.factory import contract


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project with two tools, and a folder beside it (outside the project)."""
    project = tmp_path / "project"
    (project / "contracts").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    two_tools(project)
    return project, outside


def _link_docs_outside(project: Path, outside: Path) -> Path:
    assert run(project, "build")[0] == 0
    docs = project / "generated" / "docs"
    docs.rename(outside / "docs")
    docs.symlink_to(outside / "docs", target_is_directory=True)
    return outside / "docs"


def test_a_linked_docs_folder_outside_the_project_is_never_written(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    linked = _link_docs_outside(project, outside)
    reworded(project, "echo_text")
    before = tree(outside)
    code, stdout, stderr = run(project, "build")
    assert code == 1, stdout + stderr
    assert "TG134" in stderr and "generated/docs" in stderr
    assert tree(outside) == before
    assert "Reworded." not in (linked / "echo_text.md").read_text(encoding="utf-8")


def test_orphans_are_never_pruned_through_a_link(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    linked = _link_docs_outside(project, outside)
    (project / "contracts" / "write_file.json").unlink()
    before = tree(outside)
    code, _, stderr = run(project, "build")
    assert (linked / "write_file.md").is_file()
    assert tree(outside) == before
    assert code == 1 and "TG134" in stderr


def test_an_output_folder_that_is_a_symlink_is_refused(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (project / "generated").symlink_to(outside, target_is_directory=True)
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG130" in stderr and "symlink" in stderr
    assert list(outside.iterdir()) == []


def test_an_output_folder_below_a_linked_folder_is_refused(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (project / "build").symlink_to(outside, target_is_directory=True)
    (project / "toolgen.toml").write_text('output = "build/generated"\n', encoding="utf-8")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG130" in stderr
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("where", ["../sibling", "ABSOLUTE"])
def test_an_output_folder_outside_the_project_is_refused(layout: tuple[Path, Path], where: str) -> None:
    project, outside = layout
    target = (outside / "abs").as_posix() if where == "ABSOLUTE" else where
    (project / "toolgen.toml").write_text(f"output = {json.dumps(target)}\n", encoding="utf-8")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG130" in stderr and "toolgen.toml" in stderr
    assert not (project.parent / "sibling").exists() and not (outside / "abs").exists()


def test_a_manifest_entry_behind_a_symlink_is_never_deleted(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    assert run(project, "build")[0] == 0
    out = project / "generated"
    victim = outside / "victim.md"
    victim.write_bytes(b"precious\n")
    (out / "link").symlink_to(outside, target_is_directory=True)
    add_to_manifest(out, {"link/victim.md": sha(b"precious\n")})  # even with the right digest
    run(project, "build")
    assert victim.read_bytes() == b"precious\n"


def test_a_generated_file_replaced_by_a_symlink_is_not_followed(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    assert run(project, "build")[0] == 0
    secret = outside / "secret.json"
    secret.write_text('{"secret": true}\n', encoding="utf-8")
    catalog = project / "generated" / "catalog.json"
    catalog.unlink()
    catalog.symlink_to(secret)
    reworded(project, "echo_text")
    code, _, stderr = run(project, "build")
    assert code == 1 and "TG134" in stderr and "generated/catalog.json" in stderr
    assert secret.read_text(encoding="utf-8") == '{"secret": true}\n'
    assert catalog.is_symlink()
    code, stdout, stderr = run(project, "check")
    assert code == 1 and "secret" not in stdout + stderr, "check must not read through the link"


def test_a_cache_folder_linked_outside_the_project_is_not_written(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (project / ".toolgen-cache").symlink_to(outside, target_is_directory=True)
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert list(outside.iterdir()) == []


def test_a_contract_linked_from_outside_the_project_is_not_read(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    elsewhere = outside / "lookup_word.json"
    elsewhere.write_text(json.dumps(contract("lookup_word")), encoding="utf-8")
    os.symlink(elsewhere, project / "contracts" / "lookup_word.json")
    code, _, stderr = run(project, "validate")
    assert code == 1 and "TG101" in stderr and "contracts/lookup_word.json" in stderr
    assert "outside the project" in stderr
    code, _, stderr = run(project, "build")
    assert code == 1 and not (project / "generated").exists()


def test_a_contract_folder_linked_from_outside_the_project_is_not_read(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (outside / "lookup_word.json").write_text(json.dumps(contract("lookup_word")), encoding="utf-8")
    (project / "contracts" / "shared").symlink_to(outside, target_is_directory=True)
    code, _, stderr = run(project, "validate")
    assert code == 1 and "TG101" in stderr and "contracts/shared" in stderr and "outside the project" in stderr


def test_links_that_stay_inside_the_project_still_work(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    shared = project / "shared"
    shared.mkdir()
    (shared / "lookup_word.json").write_text(json.dumps(contract("lookup_word")), encoding="utf-8")
    os.symlink(shared / "lookup_word.json", project / "contracts" / "lookup_word.json")
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert (project / "generated" / "docs" / "lookup_word.md").is_file()
    code, stdout, _ = run(project, "build")
    assert code == 0 and "nothing changed" in stdout
