"""Configuration: defaults, both file locations, validation of every key."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolgen.config import ALL_TARGETS, load_settings
from toolgen.diagnostics import Severity


def test_defaults_need_no_file(tmp_path: Path) -> None:
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.contracts_dir == tmp_path.resolve() / "contracts"
    assert settings.output_dir == tmp_path.resolve() / "generated"
    assert settings.targets == ALL_TARGETS
    assert settings.python_package == "agent_tools"
    assert settings.config_file is None


def test_toolgen_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\noutput = "from_pyproject"\n')
    (tmp_path / "toolgen.toml").write_text('output = "from_toolgen"\n')
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.output_dir.name == "from_toolgen"
    assert settings.config_file == "toolgen.toml"


def test_pyproject_without_a_toolgen_table_means_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    settings, problems = load_settings(tmp_path)
    assert problems == [] and settings.config_file is None


def test_rule_severities_are_parsed(tmp_path: Path) -> None:
    (tmp_path / "toolgen.toml").write_text('rules = { TG203 = "off", TG204 = "error" }\n')
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.rule_severities == {"TG203": Severity.OFF, "TG204": Severity.ERROR}


@pytest.mark.parametrize(
    ("text", "pointer", "needle"),
    [
        ('contract = "c"\n', "/contract", "did you mean 'contracts'"),
        ('targets = ["pdf"]\n', "/targets", "drawn from"),
        ('python_package = "Agent-Tools"\n', "/python_package", "Python identifier"),
        ('rules = { TG999 = "off" }\n', "/rules/TG999", "unknown rule code"),
        ('rules = { TG203 = "loud" }\n', "/rules/TG203", "error, warning, off"),
        ("anthropic_strict = 1\n", "/anthropic_strict", "true or false"),
        ("output = [\n", "", "cannot read the configuration"),
    ],
)
def test_bad_configuration_is_a_tg100_diagnostic(tmp_path: Path, text: str, pointer: str, needle: str) -> None:
    (tmp_path / "toolgen.toml").write_text(text)
    _, problems = load_settings(tmp_path)
    assert len(problems) == 1
    (problem,) = problems
    assert problem.code == "TG100" and problem.file == "toolgen.toml"
    assert problem.pointer == pointer
    assert needle in problem.message


def test_mocks_target_brings_the_python_package(tmp_path: Path) -> None:
    (tmp_path / "toolgen.toml").write_text('targets = ["mocks"]\n')
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.targets == ("python", "mocks")


def test_pyproject_pointers_point_into_the_tool_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\noutptu = "x"\n')
    _, problems = load_settings(tmp_path)
    assert [p.pointer for p in problems] == ["/tool/toolgen/outptu"]


def test_the_providers_table_comes_back_as_written(tmp_path: Path) -> None:
    (tmp_path / "toolgen.toml").write_text(
        '[providers]\nanthropic_cache_control = { type = "ephemeral", ttl = "1h" }\n'
        '[providers.exclude]\ngemini = ["read_text", "write_text"]\n'
        '[providers.namespaces]\nfiles = "File tools."\n'
    )
    settings, problems = load_settings(tmp_path)
    assert problems == []
    assert settings.providers == {
        "exclude": {"gemini": ["read_text", "write_text"]},
        "anthropic_cache_control": {"type": "ephemeral", "ttl": "1h"},
        "namespaces": {"files": "File tools."},
    }


def test_bad_names_are_each_reported_in_order_and_replaced_by_their_defaults(tmp_path: Path) -> None:
    (tmp_path / "toolgen.toml").write_text(
        'contracts = ""\noutput = 3\npython_package = "Agent-Tools"\n'
        'python_distribution = "-x"\npython_version = "one"\n'
    )
    settings, problems = load_settings(tmp_path)
    pointers = ["/contracts", "/output", "/python_package", "/python_distribution", "/python_version"]
    assert [p.pointer for p in problems] == pointers
    assert (settings.contracts_dir.name, settings.output_dir.name) == ("contracts", "generated")
    assert (settings.python_package, settings.python_distribution) == ("agent_tools", None)
    assert settings.python_version is None
