"""The mutation script judges each group with tests that exist, in one pytest process.

A test file moved to a stage folder once left its group's old path behind; the script dropped the
missing file silently and mutated the modules against fewer tests than it listed.
"""

from __future__ import annotations

import sys
import tomllib

import pytest

from benchmarks import mutation


def test_every_group_names_existing_test_files() -> None:
    assert mutation.missing_tests() == []
    for group in mutation.GROUPS.values():
        assert group.tests, group
        assert mutation._selected(group, ()) == list(group.tests)


def test_a_missing_test_file_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    group = mutation.Group(("toolgen/compat/schema.py",), ("tests/compat/test_no_such_file.py",))
    monkeypatch.setitem(mutation.GROUPS, "ghost", group)
    monkeypatch.setattr(sys, "argv", ["mutation.py", "ghost"])
    with pytest.raises(SystemExit) as raised:
        mutation.main()
    assert raised.value.code == 2
    assert "tests/compat/test_no_such_file.py" in capsys.readouterr().err


def test_mutmut_runs_the_selection_in_one_process() -> None:
    """The default addopts spread tests over xdist workers, where mutmut's trampoline records nothing."""
    config = mutation._mutmut_config(mutation.GROUPS["compat-schema"], ("tests/compat/test_compat_properties.py",))
    settings = tomllib.loads(config)["tool"]["mutmut"]
    assert "-n0" in settings["pytest_add_cli_args"], "every run mutmut makes (stats, each mutant) is in one process"
    assert settings["pytest_add_cli_args_test_selection"] == [
        "tests/compat/test_compat_schema_stated.py",
        "tests/compat/test_compat_keywords_stated.py",
        "tests/compat/test_compat_rules_stated.py",
        "tests/compat/test_compat_schema.py",
        "tests/compat/test_compat_table.py",
    ]
