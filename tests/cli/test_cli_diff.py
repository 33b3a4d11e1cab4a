"""`toolgen diff` through the real entry point, against a real temporary git repository.

A project with `targets = ["catalog"]` is built and committed; each test edits the contracts and
runs `toolgen diff --base HEAD` (or `--base-file`), checking exit code and output.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from factory import contract, write_json

from tests.conftest import REPO
from toolgen.cli import main

GIT = ["git", "-c", "user.name=toolgen tests", "-c", "user.email=tests@example.invalid", "-c", "commit.gpgsign=false"]


def git(root: Path, *args: str) -> str:
    """Run git in `root` and return its output (raises on failure)."""
    done = subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def run(root: Path, *args: str) -> Result:
    """`toolgen -C root ARGS` through click."""
    return CliRunner().invoke(main, ["-C", str(root), *args])


def write(root: Path, **overrides: Any) -> Path:
    """Write the test contract with `overrides`."""
    return write_json(root, contract(**overrides))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one contract and its catalog.json committed on `main`."""
    (tmp_path / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    write(tmp_path, owners=["@echo-team"], permissions=["read"])
    built = run(tmp_path, "build")
    assert built.exit_code == 0, built.output
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    return tmp_path


def _with_optional(extra: str = "lang") -> dict[str, Any]:
    schema = contract()["input_schema"]
    schema["properties"][extra] = {"type": "string", "description": "An optional extra."}
    return schema


def test_unchanged_contracts_are_compatible(repo: Path) -> None:
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 0, result.output
    assert "1 tool compared, 0 changed" in result.output and result.output.rstrip().endswith("compatible")


def test_a_change_without_a_version_bump_fails_and_the_right_bump_passes(repo: Path) -> None:
    write(repo, owners=["@echo-team"], permissions=["read"], input_schema=_with_optional())
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1
    assert "TG420 input minor: optional property `lang` added" in result.output
    assert "at   /input_schema -> /input_schema/properties/lang" in result.output
    assert "echo_text: changes need a minor bump, version 1.0.0 -> 1.0.0 is none" in result.output
    write(repo, owners=["@echo-team"], permissions=["read"], input_schema=_with_optional(), version="1.1.0")
    assert run(repo, "diff", "--base", "HEAD").exit_code == 0


def test_a_version_that_goes_down_fails(repo: Path) -> None:
    write(repo, owners=["@echo-team"], permissions=["read"], version="0.9.0")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1
    assert "version went down (1.0.0 -> 0.9.0)" in result.output


def test_a_new_content_kind_needs_a_major_bump(repo: Path) -> None:
    write(repo, owners=["@echo-team"], permissions=["read"], content_kinds=["image"], version="1.1.0")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1, result.output
    assert "TG413 output major: content kind `image` added: callers may not handle it" in result.output
    assert "echo_text: changes need a major bump, version 1.0.0 -> 1.1.0 is minor" in result.output
    write(repo, owners=["@echo-team"], permissions=["read"], content_kinds=["image"], version="2.0.0")
    assert run(repo, "diff", "--base", "HEAD").exit_code == 0
    assert run(repo, "build").exit_code == 0
    git(repo, "commit", "-qam", "image")
    write(repo, owners=["@echo-team"], permissions=["read"], version="2.1.0")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 0, result.output
    assert "TG414 output minor: content kind `image` removed" in result.output


def test_escalation_is_reported_with_owners_and_needs_the_flag(repo: Path) -> None:
    write(repo, owners=["@echo-team"], permissions=["read", "network"], version="2.0.0")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1
    assert "Permission escalations (exit 1 unless --allow-escalation):" in result.output
    assert "echo_text: gains network; owners: @echo-team" in result.output
    allowed = run(repo, "diff", "--base", "HEAD", "--allow-escalation")
    assert allowed.exit_code == 0, allowed.output
    assert "allowed by --allow-escalation" in allowed.output


def test_removed_tool_needs_the_flag(repo: Path) -> None:
    (repo / "contracts" / "echo_text.json").unlink()
    write_json(repo, contract("other_tool"))
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1
    assert "echo_text: tool removed" in result.output and "other_tool 1.0.0: added" in result.output
    assert run(repo, "diff", "--base", "HEAD", "--allow-removal").exit_code == 0


def test_json_markdown_and_github_formats(repo: Path) -> None:
    schema = contract()["output_schema"]
    schema["properties"]["text"]["type"] = ["string", "null"]
    write(repo, owners=["@echo-team"], permissions=["read"], output_schema=schema, version="1.1.0")
    document = json.loads(run(repo, "diff", "--base", "HEAD", "--format", "json").output)
    assert document["compatible"] is False
    [tool] = document["tools"]
    assert (tool["needed"], tool["made"], tool["status"]) == ("major", "minor", "bump-too-small")
    [change] = tool["changes"]
    assert change["rule"] == "TG425" and change["direction"] == "output" and change["bump"] == "major"
    assert change["old"] == "string" and change["new"] == ["string", "null"]
    assert change["base_pointer"] == change["head_pointer"] == "/output_schema/properties/text/type"
    markdown = run(repo, "diff", "--base", "HEAD", "--format", "markdown").output
    assert markdown.startswith("## toolgen diff: ❌ not compatible")
    assert "| `echo_text` | 1.0.0 → 1.1.0 | major | minor | ❌ bump too small |" in markdown
    github = run(repo, "diff", "--base", "HEAD", "--format", "github").output.splitlines()
    assert github[0].startswith("::error file=contracts/echo_text.json,line=3,title=TG404::echo_text: changes need a")
    assert github[1].startswith("::warning file=contracts/echo_text.json,line=")
    assert ",title=TG425::echo_text: output `text`: type widened (needs major)" in github[1]


def test_base_file(repo: Path, tmp_path: Path) -> None:
    base = repo / "generated" / "catalog.json"
    write(repo, owners=["@echo-team"], permissions=["read"], description="Echo the text back; reworded for tests.")
    result = run(repo, "diff", "--base-file", str(base))
    assert result.exit_code == 1
    assert "TG407 metadata patch: description changed" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give exactly one of --base REF and --base-file PATH"),
        (("--base", "HEAD", "--base-file", "x.json"), "give exactly one of --base REF and --base-file PATH"),
        (("--base", "no-such-branch"), "unknown git ref 'no-such-branch'"),
        (("--base", "--oops"), "invalid git ref '--oops'"),
        (("--base-file", "missing.json"), "cannot read missing.json"),
        (("--format", "yaml", "--base", "HEAD"), "Invalid value for '--format'"),
    ],
)
def test_usage_errors_exit_2(repo: Path, args: tuple[str, ...], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    result = run(repo, "diff", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_ref_without_a_catalog_is_a_usage_error(repo: Path) -> None:
    git(repo, "rm", "-q", "-r", "generated")
    git(repo, "commit", "-q", "-m", "no generated files")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 2
    assert "generated/catalog.json does not exist at HEAD" in result.output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"tools": 3}', "not a toolgen catalog.json"),
        ('{"catalog_version": 9, "tools": []}', "catalog_version 9 is not supported"),
        ('{"tools": [{"name": "x"}]}', "tools[0]: `version` is missing"),
    ],
)
def test_a_malformed_base_file_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "contracts").mkdir()
    write_json(tmp_path, contract())
    (tmp_path / "base.json").write_text(text, encoding="utf-8")
    result = run(tmp_path, "diff", "--base-file", str(tmp_path / "base.json"))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_outside_a_git_repository(tmp_path: Path) -> None:
    write_json(tmp_path, contract())
    result = run(tmp_path, "diff", "--base", "HEAD")
    assert result.exit_code == 2
    assert "is not inside a git repository" in result.output


def test_invalid_contracts_exit_1_with_diagnostics(repo: Path) -> None:
    write(repo, version="one")
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 1
    assert "TG110" in result.output and "contracts are invalid" in result.output


def test_python_m_toolgen_runs_the_same_command(repo: Path) -> None:
    write(repo, owners=["@echo-team"], permissions=["read"], input_schema=_with_optional(), version="1.1.0")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "toolgen", "-C", str(repo), "diff", "--base", "HEAD", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["compatible"] is True
    assert [c["rule"] for c in document["tools"][0]["changes"]] == ["TG420"]


def test_removed_tool_annotation_points_at_the_committed_catalog(repo: Path) -> None:
    (repo / "contracts" / "echo_text.json").unlink()
    write_json(repo, contract("other_tool"))
    lines = run(repo, "diff", "--base", "HEAD", "--format", "github").output.splitlines()
    assert "::error file=generated/catalog.json,title=TG401::tool echo_text 1.0.0 removed" in lines


def test_the_pre_commit_hook_runs(repo: Path) -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    hook = hooks["toolgen-diff"]
    assert hook["entry"] == "toolgen diff" and hook["pass_filenames"] is False
    git(repo, "branch", "-q", "-m", "main")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    assert run(repo, "diff", *hook["args"]).exit_code == 0
    write(repo, owners=["@echo-team"], permissions=["read", "write"], version="2.0.0")
    assert run(repo, "diff", *hook["args"]).exit_code == 1


def test_the_ci_recipe_commands_parse_and_run(repo: Path) -> None:
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text.split("```yaml\n", 1)[1].split("```", 1)[0])
    commands = [
        step["run"]
        for step in workflow["jobs"]["contracts"]["steps"]
        if str(step.get("run", "")).startswith("toolgen ")
    ]
    assert any(c.startswith("toolgen check") for c in commands)
    assert any(c.startswith('toolgen diff --base "origin/$BASE_REF"') for c in commands)
    for command in commands:
        line = command.split(" >>")[0].replace('"origin/$BASE_REF"', "HEAD").replace(" $ALLOW", "")
        result = run(repo, *shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result.output)


def test_a_project_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    project = tmp_path / "tools" / "agent"
    project.mkdir(parents=True)
    (project / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    write(project)
    assert run(project, "build").exit_code == 0
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    write(project, version="0.9.0")
    result = run(project, "diff", "--base", "main")
    assert result.exit_code == 1, result.output
    assert "version went down (1.0.0 -> 0.9.0)" in result.output


def test_rules_turned_off_in_the_configuration_need_no_bump_but_gates_stay_on(repo: Path) -> None:
    reworded = "Echo the text back unchanged; reworded, and the rule for doc changes is off."
    write(repo, owners=["@echo-team"], permissions=["read"], description=reworded)
    assert run(repo, "diff", "--base", "HEAD").exit_code == 1
    (repo / "toolgen.toml").write_text('targets = ["catalog"]\nrules = { TG407 = "off", TG405 = "off" }\n')
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 0, result.output
    assert "TG407" not in result.output
    write(repo, owners=["@echo-team"], permissions=["read", "write"], description=reworded, version="2.0.0")
    escalated = run(repo, "diff", "--base", "HEAD")
    assert escalated.exit_code == 1 and "TG405" in escalated.output


def test_a_contract_can_turn_a_rule_off_for_itself(repo: Path) -> None:
    reworded = "Echo the text back unchanged; reworded, and this contract turns TG407 off."
    write(repo, owners=["@echo-team"], permissions=["read"], description=reworded, rules={"TG407": "off"})
    result = run(repo, "diff", "--base", "HEAD")
    assert result.exit_code == 0, result.output
