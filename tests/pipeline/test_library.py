"""The library entry point, used as a user would: `toolgen.build_project` builds and checks a
project as `toolgen build` and `toolgen check` do, and bad input is a report, never an exception."""

from __future__ import annotations

import json
from pathlib import Path

import toolgen
from tests.build_support import reworded, tree, two_tools
from tests.factory import contract, write_json


def test_build_then_check_then_stale_after_an_edit(tmp_path: Path) -> None:
    two_tools(tmp_path)
    built = toolgen.build_project(tmp_path)
    assert built.ok and built.failed == "" and built.contracts == 2 and not built.fast
    output = tmp_path / "generated"
    assert "python/agent_tools/echo_text.py" in built.written
    assert (output / "python" / "agent_tools" / "echo_text.py").is_file()
    assert (output / ".toolgen-manifest.json").is_file()

    current = toolgen.build_project(tmp_path, check=True)
    assert current.ok and current.up_to_date and current.unchanged == len(built.written)  # the manifest too

    again = toolgen.build_project(tmp_path)  # nothing changed: the shortcut answers, nothing is written
    assert again.ok and again.fast and again.written == () and again.contracts == 2

    reworded(tmp_path, "echo_text")
    stale = toolgen.build_project(tmp_path, check=True)
    assert not stale.ok and not stale.up_to_date and stale.failed == ""
    assert stale.plan is not None and "python/agent_tools/echo_text.py" in stale.plan.write

    rebuilt = toolgen.build_project(tmp_path)
    assert rebuilt.ok and "python/agent_tools/echo_text.py" in rebuilt.written
    assert toolgen.build_project(tmp_path, check=True).up_to_date


def test_the_library_and_the_cli_write_the_same_bytes(tmp_path: Path) -> None:
    from tests.build_support import run

    library, command = tmp_path / "library", tmp_path / "command"
    for root in (library, command):
        two_tools(root)
    assert toolgen.build_project(library, use_cache=False).ok
    assert run(command, "build", "--no-cache")[0] == 0
    assert tree(library / "generated") == tree(command / "generated")


def test_a_bad_contract_is_a_report_and_nothing_is_written(tmp_path: Path) -> None:
    two_tools(tmp_path)
    bad = contract("broken_tool")
    bad["input_schema"] = {"type": "object", "properties": {"x": {"type": "no-such-type"}}}
    write_json(tmp_path, bad)
    report = toolgen.build_project(tmp_path)
    assert not report.ok and report.failed == "contracts"
    assert any(d.is_error and "broken_tool" in d.file for d in report.diagnostics)
    assert not (tmp_path / "generated").exists()
    checked = toolgen.build_project(tmp_path, check=True)
    assert not checked.ok and checked.failed == "contracts"


def test_a_refused_write_is_a_report_and_nothing_is_written(tmp_path: Path) -> None:
    two_tools(tmp_path)
    assert toolgen.build_project(tmp_path).ok
    edited = tmp_path / "generated" / "python" / "agent_tools" / "echo_text.py"
    edited.write_text("# mine\n", encoding="utf-8")
    reworded(tmp_path, "write_file")
    before = tree(tmp_path / "generated")
    report = toolgen.build_project(tmp_path)
    assert not report.ok and report.failed == "write"
    assert [d.code for d in report.refusals] == ["TG132"]
    assert tree(tmp_path / "generated") == before
    assert toolgen.build_project(tmp_path, force=True).ok


def test_bad_settings_are_a_report(tmp_path: Path) -> None:
    two_tools(tmp_path)
    (tmp_path / "toolgen.toml").write_text('targets = "python"\n', encoding="utf-8")
    report = toolgen.build_project(tmp_path)
    assert not report.ok and report.failed == "settings" and any(d.is_error for d in report.diagnostics)


def test_the_report_names_what_the_json_document_names(tmp_path: Path) -> None:
    """The command's JSON document is made from the report: the same counts."""
    from tests.build_support import run

    two_tools(tmp_path)
    report = toolgen.build_project(tmp_path, use_cache=False)
    code, stdout, _ = run(tmp_path, "build", "--no-cache", "--format", "json")
    document = json.loads(stdout)
    assert code == 0 and document["contracts"] == report.contracts == 2
    assert document["unchanged"] == len(report.written) + report.unchanged  # the same files, now current
