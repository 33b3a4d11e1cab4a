"""TG151: a name in the configuration's `[providers] exclude` that no contract has is a warning at its
place in the configuration file, from `validate` and `build` alike (it used to be ignored silently)."""

from __future__ import annotations

from pathlib import Path

from tests.build_support import run
from tests.factory import contract, write_json
from toolgen.config import load_settings
from toolgen.diagnostics import Severity
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths

TOOLGEN_TOML = '[providers]\nexclude = { openai_chat = ["echo_text", "wirte_file"], gemini = ["gone"] }\n'


def _project(project: Path, config: str, file: str = "toolgen.toml") -> Path:
    write_json(project, contract("echo_text"))
    write_json(project, contract("write_file"))
    (project / file).write_text(config, encoding="utf-8")
    return project


def test_each_unmatched_name_is_a_warning_at_its_place(project: Path) -> None:
    settings, problems = load_settings(_project(project, TOOLGEN_TOML))
    assert problems == []
    found = [d for d in validate_paths(settings, [], target_diagnostics) if d.code == "TG151"]
    assert [(d.file, d.pointer, d.line, d.column, d.severity) for d in found] == [
        ("toolgen.toml", "/providers/exclude/openai_chat/1", 2, 41, Severity.WARNING),
        ("toolgen.toml", "/providers/exclude/gemini/0", 2, 66, Severity.WARNING),
    ]
    line = TOOLGEN_TOML.splitlines()[1]
    assert line[40:].startswith('"wirte_file"') and line[65:].startswith('"gone"')
    assert "'wirte_file'" in found[0].message and "did you mean 'write_file'?" in found[0].message
    assert "providers.exclude.gemini" in found[1].message and "did you mean" not in found[1].message


def test_in_pyproject_the_place_is_under_tool_toolgen(project: Path) -> None:
    config = '[project]\nname = "x"\n\n[tool.toolgen.providers.exclude]\nanthropic = ["nope"]\n'
    settings, problems = load_settings(_project(project, config, "pyproject.toml"))
    assert problems == []
    found = [d for d in validate_paths(settings, [], None) if d.code == "TG151"]
    assert [(d.file, d.pointer, d.line) for d in found] == [
        ("pyproject.toml", "/tool/toolgen/providers/exclude/anthropic/0", 5)
    ]


def test_names_that_match_give_nothing(project: Path) -> None:
    config = '[providers]\nexclude = { openai_chat = ["echo_text"], mcp = ["write_file", "echo_text"] }\n'
    settings, _ = load_settings(_project(project, config))
    assert [d for d in validate_paths(settings, [], None) if d.code == "TG151"] == []


def test_build_reports_it_and_still_builds(project: Path) -> None:
    _project(project, TOOLGEN_TOML)
    code, _, err = run(project, "build")
    assert code == 0, err
    assert "toolgen.toml:2:41: TG151" in err and "toolgen.toml:2:66: TG151" in err


def test_it_can_be_made_an_error_not_turned_off(project: Path) -> None:
    settings, _ = load_settings(_project(project, TOOLGEN_TOML + '\n[rules]\nTG151 = "error"\n'))
    found = [d for d in validate_paths(settings, [], None) if d.code == "TG151"]
    assert {d.severity for d in found} == {Severity.ERROR}
    settings, _ = load_settings(_project(project, TOOLGEN_TOML + '\n[rules]\nTG151 = "off"\n'))
    found = validate_paths(settings, [], None)
    assert {d.code for d in found} >= {"TG151", "TG128"}  # TG128: a TG1xx code cannot be turned down
