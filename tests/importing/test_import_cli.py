"""`toolgen import` on the command line: overwriting, permissions, formats, bad input, diagnostics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tests.importing.test_import_shapes import DESCRIPTION, WEATHER, read_contract, run_import
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.importing.update import PLACEHOLDER
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths
from toolgen.validate.lint import MIN_DESCRIPTION, UNCONFIRMED_TAG

TOOL = {"name": "get_weather", "description": DESCRIPTION, "parameters": WEATHER}


def codes(project: Path) -> dict[str, set[str]]:
    """Validation codes per contract file."""
    settings, _ = load_settings(project)
    found: dict[str, set[str]] = {}
    for diagnostic in validate_paths(settings, [], target_diagnostics):
        found.setdefault(diagnostic.file, set()).add(diagnostic.code)
    return found


def test_default_permissions_are_all_four_and_unconfirmed(project: Path) -> None:
    result = run_import(project, [TOOL], "openai")
    assert result.exit_code == 0, result.output
    data = read_contract(project, "get_weather")
    assert data["permissions"] == ["execute", "network", "read", "write"]
    assert data["tags"] == [UNCONFIRMED_TAG]
    assert "marked unconfirmed (TG212)" in result.stderr
    assert "TG212" in codes(project)["contracts/get_weather.toml"]


def test_permissions_option_sets_them_confirmed(project: Path) -> None:
    result = run_import(project, [TOOL], "openai", "--permissions", "network,read")
    assert result.exit_code == 0, result.output
    data = read_contract(project, "get_weather")
    assert data["permissions"] == ["network", "read"]
    assert "tags" not in data
    assert "TG212" not in codes(project).get("contracts/get_weather.toml", set())


def test_permissions_none_gives_a_pure_tool(project: Path) -> None:
    result = run_import(project, [TOOL], "openai", "--permissions", "none")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "get_weather")["permissions"] == []


def test_unknown_permission_is_a_usage_error(project: Path) -> None:
    result = run_import(project, [TOOL], "openai", "--permissions", "read,admin")
    assert result.exit_code == 2
    assert "unknown admin; choose from execute, network, read, write or none" in result.output
    assert not list((project / "contracts").iterdir())


def test_never_overwrites_without_force(project: Path) -> None:
    existing = project / "contracts" / "nested" / "get_weather.json"
    existing.parent.mkdir()
    existing.write_text('{"hand": "written"}\n', encoding="utf-8")
    other = dict(TOOL, name="get_time")
    result = run_import(project, [TOOL, other], "openai")
    assert result.exit_code == 1
    assert existing.read_text(encoding="utf-8") == '{"hand": "written"}\n'
    assert (
        "TG109 record #/0 (get_weather): a contract named 'get_weather' already exists "
        "(contracts/nested/get_weather.json); pass --update to rewrite what changed, or --force to overwrite it "
        "[at /0/name]" in result.stderr
    )
    assert (project / "contracts" / "get_time.toml").exists()
    assert not (project / "contracts" / "get_weather.toml").exists()


def test_force_overwrites_in_place_and_keeps_the_files_format(project: Path) -> None:
    existing = project / "contracts" / "nested" / "get_weather.json"
    existing.parent.mkdir()
    existing.write_text('{"hand": "written"}\n', encoding="utf-8")
    result = run_import(project, [TOOL], "openai", "--force")
    assert result.exit_code == 0, result.output
    assert json.loads(existing.read_text(encoding="utf-8"))["input_schema"] == WEATHER
    assert not (project / "contracts" / "get_weather.toml").exists()
    assert "-> contracts/nested/get_weather.json" in result.stdout


def test_reimport_is_refused_then_forced(project: Path) -> None:
    assert run_import(project, [TOOL], "openai").exit_code == 0
    path = project / "contracts" / "get_weather.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("1.0.0", "1.1.0"), encoding="utf-8")
    again = run_import(project, [TOOL], "openai")
    assert again.exit_code == 1
    assert read_contract(project, "get_weather")["version"] == "1.1.0"
    assert run_import(project, [TOOL], "openai", "--force").exit_code == 0
    assert read_contract(project, "get_weather")["version"] == "1.0.0"


def test_json_format(project: Path) -> None:
    result = run_import(project, [TOOL], "openai", "--format", "json")
    assert result.exit_code == 0, result.output
    text = (project / "contracts" / "get_weather.json").read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert json.loads(text)["input_schema"] == WEATHER


def test_null_values_fall_back_to_json_with_a_note(project: Path) -> None:
    schema = {"type": "object", "properties": {"x": {"type": ["string", "null"], "default": None}}}
    result = run_import(project, [dict(TOOL, parameters=schema)], "openai")
    assert result.exit_code == 0, result.output
    assert not (project / "contracts" / "get_weather.toml").exists()
    assert read_contract(project, "get_weather")["input_schema"] == schema
    assert "note: written as JSON: TOML has no null" in result.stdout


def test_missing_description_gets_a_placeholder_that_validation_flags(project: Path) -> None:
    assert len(PLACEHOLDER) < MIN_DESCRIPTION
    result = run_import(project, [{"name": "get_weather", "parameters": WEATHER}], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "get_weather")["description"] == PLACEHOLDER
    assert "note: the source has no description: a placeholder was written (TG201)" in result.stdout
    found = codes(project)["contracts/get_weather.toml"]
    assert "TG201" in found
    assert "TG111" not in found


def test_malformed_json_is_a_diagnostic_with_position(project: Path) -> None:
    result = run_import(project, '[{"name": "x",\n  oops]', "openai")
    assert result.exit_code == 1
    assert "tools.json:2:3: TG102 malformed JSON: Expecting property name enclosed in double quotes" in result.stderr
    assert "Traceback" not in result.output


def test_bad_jsonl_lines_are_reported_and_good_ones_imported(project: Path) -> None:
    text = json.dumps(TOOL) + "\n{broken\n" + json.dumps([1, "two", None]) + "\n" + '{"description": "x"}\n'
    result = run_import(project, text, "openai", name="tools.jsonl")
    assert result.exit_code == 1
    err = result.stderr
    assert "tools.jsonl:2: TG102 malformed JSON line" in err
    assert "tools.jsonl:3: TG106 line 3 #/0: the declaration is int, not an object [at /0]" in err
    assert "tools.jsonl:3: TG106 line 3 #/2: the declaration is NoneType, not an object [at /2]" in err
    assert "tools.jsonl:4: TG105 line 4: the declaration has no name (a non-empty string) [at /name]" in err
    assert "5 declarations: 1 imported, 4 rejected" in err
    assert (project / "contracts" / "get_weather.toml").exists()


def test_unreadable_file_and_missing_file(project: Path) -> None:
    binary = project / "tools.json"
    binary.write_bytes(b"\xff\xfe\x00bad")
    result = CliRunner().invoke(main, ["-C", str(project), "import", str(binary), "--from", "mcp"])
    assert result.exit_code == 1
    assert "TG101 cannot read the file" in result.stderr
    missing = CliRunner().invoke(main, ["-C", str(project), "import", str(project / "nope.json"), "--from", "mcp"])
    assert missing.exit_code == 2
    assert "does not exist" in missing.output


def test_from_is_required(project: Path) -> None:
    (project / "tools.json").write_text("[]", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(project), "import", str(project / "tools.json")])
    assert result.exit_code == 2
    assert "Missing option '--from'" in result.output


def nested(depth: int) -> str:
    """A declaration whose schema nests `depth` objects deep, as JSON text (built without recursion)."""
    schema = '{"type": "object", "properties": {"a": ' * depth + '{"type": "object"}' + "}}" * depth
    return f'[{{"name": "deep", "description": "{DESCRIPTION}", "parameters": {schema}}}]'


def test_deep_schema_is_rejected_not_crashed(project: Path) -> None:
    result = run_import(project, nested(300), "openai", "--repair")
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    assert "TG127 record #/0 (deep): nested too deeply to import" in result.stderr


def test_too_deep_to_parse_is_a_diagnostic(project: Path) -> None:
    result = run_import(project, nested(20000), "openai", "--repair")
    assert result.exit_code == 1, result.output
    assert "TG102 malformed JSON: nested too deeply to read" in result.stderr


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    (tmp_path / "contracts").mkdir()
    source = tmp_path / "tools.jsonl"
    source.write_text(json.dumps(dict(TOOL, name="Get-Weather")) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "toolgen", "import", "tools.jsonl", "--from", "openai", "--repair"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "line 1 (Get-Weather) -> contracts/get_weather.toml" in run.stdout
    assert "repaired /name: name 'Get-Weather' is not snake_case" in run.stdout
    build = subprocess.run(
        [sys.executable, "-m", "toolgen", "build"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "generated" / "providers" / "openai_chat.json").exists()
