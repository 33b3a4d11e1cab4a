"""What validation accepts, the generated runtime keeps: the rules that close each gap, and validate = build.

Each test reproduces an item of the issue from outside: a contract the build or the generated package
used to judge differently from `toolgen validate`.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.factory import contract, write_json
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.diagnostics import Diagnostic, Severity, format_github, format_text
from toolgen.pipeline.stages import generate
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths


def with_property(prop: str, schema: dict[str, Any], **more: Any) -> dict[str, Any]:
    data = contract(**more)
    data["input_schema"]["properties"][prop] = {"description": "A property under test.", **schema}
    return data


def diagnose(project: Path, *contracts: dict[str, Any], targets: str = '["python"]') -> list[Diagnostic]:
    (project / "contracts").mkdir(exist_ok=True)
    for data in contracts:
        write_json(project, data)
    (project / "toolgen.toml").write_text(f"targets = {targets}\n", encoding="utf-8")
    settings, problems = load_settings(project)
    assert not problems
    return validate_paths(settings, [], target_diagnostics)


def found(project: Path, *contracts: dict[str, Any]) -> set[tuple[str, str, Severity]]:
    return {(d.code, d.pointer, d.severity) for d in diagnose(project, *contracts)}


E, W = Severity.ERROR, Severity.WARNING
P = "/input_schema/properties/secret"


@pytest.mark.parametrize("value", ["yes", 1, "true", None])
def test_x_sensitive_must_be_a_boolean(project: Path, value: Any) -> None:
    assert found(project, with_property("secret", {"type": "string", "x-sensitive": value})) == {
        ("TG216", P + "/x-sensitive", E)
    }


@pytest.mark.parametrize("key", ["x-sensitve", "x_sensitive", "sensitive", "X-Sensitive"])
def test_a_misspelled_annotation_is_a_warning_with_did_you_mean(project: Path, key: str) -> None:
    problems = diagnose(project, with_property("secret", {"type": "string", key: True}))
    assert [(d.code, d.pointer, d.severity) for d in problems] == [("TG217", f"{P}/{key}", W)]
    assert "did you mean 'x-sensitive'?" in problems[0].message


def test_own_x_annotations_pass(project: Path) -> None:
    assert found(project, with_property("secret", {"type": "string", "x-sensitive": True, "x-owner": "me"})) == set()


@pytest.mark.parametrize(
    "dialect",
    ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema", "urn:custom"],
)
def test_another_dialect_is_refused_with_the_fix(project: Path, dialect: str) -> None:
    data = contract()
    data["input_schema"]["$schema"] = dialect
    problems = diagnose(project, data)
    assert [(d.code, d.pointer, d.severity) for d in problems] == [("TG218", "/input_schema/$schema", E)]
    assert "https://json-schema.org/draft/2020-12/schema" in problems[0].message


def test_the_2020_12_dialect_is_accepted(project: Path) -> None:
    data = contract()
    data["input_schema"]["$schema"] = "https://json-schema.org/draft/2020-12/schema#"
    assert found(project, data) == set()


@pytest.mark.parametrize(
    ("schema", "example"),
    [
        ({"type": "integer", "default": "ten"}, None),
        ({"type": "string", "format": "date-time", "default": "yesterday"}, None),
        ({"type": "string", "format": "time", "default": "25:00:00Z"}, None),
        ({"type": "string", "format": "duration", "default": "3 days"}, None),
        ({"type": "string", "format": "date-time"}, "yesterday"),
    ],
)
def test_defaults_and_examples_are_judged_with_formats(
    project: Path, schema: dict[str, Any], example: str | None
) -> None:
    data = with_property("secret", schema)
    if example is not None:
        data["examples"][0]["input"]["secret"] = example
    codes = found(project, data)
    want = ("TG119", "/examples/0/input/secret", E) if example else ("TG214", P + "/default", E)
    assert codes == {want}


def test_a_wrong_default_fails_the_build_and_cannot_be_turned_down(project: Path) -> None:
    data = with_property("secret", {"type": "integer", "default": "ten"}, rules={"TG214": "warning"})
    assert found(project, data) == {("TG214", P + "/default", E), ("TG128", "/rules/TG214", E)}
    settings, _ = load_settings(project)
    assert not generate(settings).ok


@pytest.mark.parametrize(
    "bounds",
    [
        {"type": "integer", "minimum": 10, "maximum": 1},
        {"type": "string", "minLength": 10, "maxLength": 1},
        {"type": "array", "minItems": 3, "maxItems": 2},
        {"type": "object", "minProperties": 2, "maxProperties": 1},
        {"type": "array", "contains": {"type": "string"}, "minContains": 2, "maxContains": 1},
        {"type": "number", "exclusiveMinimum": 1, "maximum": 1},
        {"type": "number", "minimum": 2, "exclusiveMaximum": 2},
        {"type": "number", "exclusiveMinimum": 5, "exclusiveMaximum": 5},
    ],
)
def test_bounds_no_value_can_meet_are_errors(project: Path, bounds: dict[str, Any]) -> None:
    codes = found(project, with_property("secret", bounds))
    assert {c for c, _, s in codes if s is E} == {"TG219"}


@pytest.mark.parametrize(
    "bounds",
    [{"minimum": 1, "maximum": 1}, {"exclusiveMinimum": 1, "maximum": 1.5}, {"minLength": 2, "maxLength": 2}],
)
def test_bounds_that_leave_a_value_pass(project: Path, bounds: dict[str, Any]) -> None:
    assert "TG219" not in {c for c, _, _ in found(project, with_property("secret", bounds))}


def test_an_unknown_format_is_a_warning_and_tg351_does_not_claim_it_is_enforced(project: Path) -> None:
    problems = diagnose(project, with_property("secret", {"type": "string", "format": "date-tim"}))
    by_code = {d.code: d for d in problems}
    assert set(by_code) == {"TG220", "TG351"} and by_code["TG220"].severity is W
    assert "did you mean 'date-time'?" in by_code["TG220"].message
    assert "still enforces" not in by_code["TG351"].message and "TG220" in by_code["TG351"].message


@pytest.mark.parametrize(
    ("names", "flagged"),
    [(["ｘ"], ["ｘ"]), (["ﬁle", "file"], ["ﬁle", "file"]), (["ｉｆ"], ["ｉｆ"]), (["ﬁ b"], []), (["café"], [])],
)
def test_names_unicode_normalization_changes_are_errors(project: Path, names: list[str], flagged: list[str]) -> None:
    data = contract()
    for name in names:
        data["input_schema"]["properties"][name] = {"type": "string", "description": "d"}
    problems = [d for d in diagnose(project, data) if d.code == "TG354"]
    assert sorted(d.pointer for d in problems) == sorted(f"/input_schema/properties/{n}" for n in flagged)
    assert all(d.severity is E for d in problems)
    if len(flagged) == 2:
        assert all("'ﬁle'" in d.message and "'file'" in d.message for d in problems)


def test_what_build_rejects_validate_rejects_with_the_same_diagnostic(project: Path) -> None:
    huge = with_property("secret", {"type": "string", "maxLength": 1e300})  # jsonschema takes 1e300 as an integer
    problems = diagnose(project, huge)
    assert [(d.code, d.pointer) for d in problems] == [("TG350", P + "/maxLength")]
    assert "exceeded maximum size (the value 1e+300)" in problems[0].message and "\n" not in problems[0].message
    settings, _ = load_settings(project)
    assert [d.code for d in generate(settings).diagnostics] == ["TG350"]
    assert set(generate(settings).diagnostics) == set(problems)


def awkward_catalog() -> list[dict[str, Any]]:
    free_map = with_property("headers", {"type": "object", "additionalProperties": {"type": "string"}})
    weaker = with_property("url", {"type": "string", "format": "uri", "maxLength": 500}, name="fetch")
    default = with_property(
        "opts", {"type": "object", "properties": {"a": {"type": "string", "description": "a"}}, "default": {}}
    )
    return [free_map, weaker, default | {"name": "opts_tool"}]


def test_validate_reports_every_diagnostic_the_build_reports(project: Path) -> None:
    problems = diagnose(project, *awkward_catalog(), targets='["catalog", "providers", "python", "docs", "mocks"]')
    assert {"TG301", "TG351", "TG353"} <= {d.code for d in problems}
    settings, _ = load_settings(project)
    assert sorted(generate(settings).diagnostics, key=Diagnostic.sort_key) == problems
    assert not (project / ".toolgen-cache").exists() and not (project / "generated").exists()


def test_validate_strict_fails_on_a_build_warning(project: Path) -> None:
    diagnose(project, *awkward_catalog()[:1], targets='["providers"]')
    result = CliRunner().invoke(main, ["-C", str(project), "validate", "--strict"])
    assert result.exit_code == 1 and "TG301" in result.output


def test_validate_reads_a_warm_build_cache(project: Path) -> None:
    diagnose(project, *awkward_catalog())
    assert CliRunner().invoke(main, ["-C", str(project), "build"]).exit_code == 0
    before = sorted(p.name for p in (project / ".toolgen-cache").rglob("*"))
    settings, _ = load_settings(project)
    assert {d.code for d in validate_paths(settings, [], target_diagnostics)} == {"TG351", "TG353"}
    assert sorted(p.name for p in (project / ".toolgen-cache").rglob("*")) == before


def test_diagnostics_quote_control_characters_from_property_names(project: Path) -> None:
    data = contract()
    data["input_schema"]["properties"]["a\nb\x1b[31m\u202e"] = {"type": "strin"}
    problems = diagnose(project, copy.deepcopy(data))
    assert problems
    for diagnostic in problems:
        for line in (format_text(diagnostic), format_github(diagnostic)):
            assert "\n" not in line and "\x1b" not in line and "\u202e" not in line, line
            assert "\\x1b[31m" in line
