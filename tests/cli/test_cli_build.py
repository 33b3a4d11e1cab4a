"""`toolgen build` and `toolgen check` through the real entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from factory import contract, write_json

from toolgen.cli import main
from toolgen.writer import write


def run(project: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["-C", str(project), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_then_nothing_changed_then_check(project: Path) -> None:
    write_json(project, contract("echo_text"))
    code, out, _ = run(project, "build")
    assert code == 0, out
    assert "files written" in out
    catalog = json.loads((project / "generated" / "catalog.json").read_text())
    assert [t["name"] for t in catalog["tools"]] == ["echo_text"]
    assert catalog["tools"][0]["digest"].startswith("sha256:")
    mtimes = {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*") if p.is_file()}
    code, out, _ = run(project, "build")
    assert code == 0 and "nothing changed" in out
    assert mtimes == {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*") if p.is_file()}
    code, out, _ = run(project, "check")
    assert code == 0 and "up to date" in out


def test_check_names_edited_deleted_and_orphaned_files(project: Path) -> None:
    write_json(project, contract("echo_text"))
    write_json(project, contract("other_tool"))
    assert run(project, "build")[0] == 0
    generated = project / "generated"
    catalog = generated / "catalog.json"
    catalog.write_text(catalog.read_text().replace("echo_text", "echo_txet"))
    code, out, err = run(project, "check")
    assert code == 1
    assert "generated/catalog.json: stale" in out and "echo_txet" in out
    assert "run `toolgen build`" in err
    catalog.unlink()
    code, out, _ = run(project, "check")
    assert code == 1 and "generated/catalog.json: missing" in out


def test_check_reports_files_left_from_a_removed_contract(project: Path) -> None:
    write_json(project, contract("echo_text"))
    extra = write_json(project, contract("other_tool"))
    assert run(project, "build")[0] == 0
    owned = json.loads((project / "generated" / ".toolgen-manifest.json").read_text())["files"]
    per_tool = [p for p in owned if "other_tool" in p]
    extra.unlink()
    code, out, _ = run(project, "check")
    assert code == 1
    for path in per_tool:
        assert f"generated/{path}: orphaned" in out
    code, _, _ = run(project, "build")
    assert code == 0
    assert not any((project / "generated" / p).exists() for p in per_tool)


def test_failed_build_writes_nothing(project: Path) -> None:
    write_json(project, contract("echo_text"))
    assert run(project, "build")[0] == 0
    before = snapshot(project / "generated")
    write_json(project, contract("broken_tool", input_schema={"type": "array"}))
    code, _, err = run(project, "build")
    assert code == 1
    assert "nothing was written" in err
    assert "contracts/broken_tool.json" in err
    assert snapshot(project / "generated") == before


def test_a_build_failing_in_a_target_writes_nothing(project: Path) -> None:
    """A provider error stops the build after validation passed: TG304 (a description over OpenAI's
    1,024 characters), which this project raised from a warning to an error."""
    (project / "toolgen.toml").write_text('[rules]\nTG304 = "error"\n', encoding="utf-8")
    write_json(project, contract("echo_text"))
    assert run(project, "build")[0] == 0
    before = snapshot(project / "generated")
    write_json(project, contract("another_tool"))
    write_json(project, contract("long_tool", description="Echo the text back. " * 60))
    code, _, err = run(project, "build")
    assert code == 1
    assert "TG304" in err and "contracts/long_tool.json" in err and "nothing was written" in err
    assert snapshot(project / "generated") == before


def test_a_build_failing_while_writing_its_files_writes_nothing(project: Path, monkeypatch: Any) -> None:
    """A file of the plan that fails to stream, after others were written, leaves the folder as it was."""
    write_json(project, contract("echo_text"))
    assert run(project, "build")[0] == 0
    before = snapshot(project / "generated")
    write_json(project, contract("another_tool"))
    plain_chunks, plain_apply = write.Files.chunks, write.apply
    applying: list[bool] = []
    written: list[str] = []

    def chunks(self: write.Files, path: str) -> Iterator[bytes]:
        if applying and len(written) == 3:
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        if applying:
            written.append(path)
        yield from plain_chunks(self, path)

    def apply(change: write.Plan, *, force: bool = False) -> None:
        applying.append(True)
        plain_apply(change, force=force)

    monkeypatch.setattr(write.Files, "chunks", chunks)
    monkeypatch.setattr(write, "apply", apply)
    code, _, err = run(project, "build", "--no-cache")
    assert code == 3 and "internal error" in err
    assert len(written) == 3, "the plan failed before any file was written"
    assert snapshot(project / "generated") == before
    assert [p.name for p in (project / "generated").iterdir() if p.name.startswith(".toolgen-staging")] == []


def test_user_file_in_output_folder_survives_builds(project: Path) -> None:
    write_json(project, contract("echo_text"))
    (project / "generated").mkdir()
    (project / "generated" / "NOTES.md").write_text("my notes")
    assert run(project, "build")[0] == 0
    assert run(project, "check")[0] == 0
    (project / "contracts" / "echo_text.json").unlink()
    assert run(project, "build")[0] == 0
    assert (project / "generated" / "NOTES.md").read_text() == "my notes"


def test_empty_contracts_folder_builds_an_empty_catalog(project: Path) -> None:
    code, _, _ = run(project, "build")
    assert code == 0
    assert json.loads((project / "generated" / "catalog.json").read_text())["tools"] == []


def test_missing_contracts_folder_is_a_diagnostic_not_a_traceback(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "build")
    assert code == 1
    assert "contracts" in err and "does not exist" in err
    assert "Traceback" not in err


def test_configuration_in_pyproject_is_used(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.toolgen]\noutput = "out"\ntargets = ["catalog"]\n')
    write_json(project, contract("echo_text"))
    assert run(project, "build")[0] == 0
    assert (project / "out" / "catalog.json").is_file()
    assert not (project / "generated").exists()


def test_bad_configuration_is_reported_with_the_file(project: Path) -> None:
    (project / "toolgen.toml").write_text('outptu = "x"\ntargets = ["pythn"]\n')
    code, _, err = run(project, "build")
    assert code == 1
    assert "toolgen.toml" in err and "did you mean 'output'" in err
    assert "targets" in err


def test_usage_error_exits_2(project: Path) -> None:
    assert run(project, "build", "--no-such-flag")[0] == 2


def test_python_dash_m_works_like_the_script(project: Path) -> None:
    write_json(project, contract("echo_text"))
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "build"], cwd=project, capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert (project / "generated" / "catalog.json").is_file()
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "check"], cwd=project, capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
