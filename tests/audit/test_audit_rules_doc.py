"""docs/rules.md documents every TG5xx code (`toolgen audit`, `replay`) with a failing and a fixed example.

Every rule of the TG5xx family in toolgen's rule table must have both (an empty set of cases fails);
a failing example must produce its code, a fixed example must produce neither its code nor any other
TG5xx error or warning. A Python example is audited (its first line may set the contract's
permissions); a JSON Lines example is a trace file, replayed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from toolgen import rules
from toolgen.cli import main

TEXT = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
BASE = re.search(r"```toml\n(name = \"lookup_word\".*?)```", TEXT, re.DOTALL)
BLOCK = re.compile(r"```(?:python|jsonl) (failing|fixed)\n(.*?)```", re.DOTALL)
PERMISSIONS = re.compile(r"^# permissions = (\[.*\])\n")
CODES = sorted(rule.code for rule in rules.all_rules() if rule.code.startswith("TG5"))


def examples(code: str) -> dict[str, str]:
    parts = re.split(r"^## (TG\d{3}):", TEXT, flags=re.MULTILINE)
    sections = {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}
    return dict(BLOCK.findall(sections.get(code, "")))


def audit(tmp_path: Path, source: str) -> list[tuple[str, str]]:
    """The TG5xx codes (with their level) that the example gives: audited, or replayed for TG53x."""
    assert BASE is not None
    contract = BASE.group(1)
    found = PERMISSIONS.match(source)
    if found:
        contract = re.sub(r"^permissions = .*$", f"permissions = {found.group(1)}", contract, flags=re.MULTILINE)
    (tmp_path / "contracts").mkdir(parents=True)
    (tmp_path / "contracts" / "lookup_word.toml").write_text(contract)
    if source.startswith("{"):
        (tmp_path / "traces.jsonl").write_text(source)
        arguments = ["replay", str(tmp_path / "traces.jsonl")]
    else:
        (tmp_path / "impl.py").write_text(source)
        arguments = ["audit"]
    result = CliRunner().invoke(main, ["-C", str(tmp_path), *arguments])
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    return re.findall(r": (TG5\d\d)(?: \((warning|info)\))?", result.stdout)


def test_the_family_is_documented() -> None:
    assert len(CODES) >= 8
    assert BASE is not None


@pytest.mark.parametrize("code", CODES)
def test_every_rule_has_a_true_failing_and_fixed_example(tmp_path: Path, code: str) -> None:
    pair = examples(code)
    assert set(pair) == {"failing", "fixed"}, f"{code} needs a failing and a fixed example in docs/rules.md"
    failing = audit(tmp_path / "failing", pair["failing"])
    assert code in [c for c, _ in failing]
    fixed = audit(tmp_path / "fixed", pair["fixed"])
    assert code not in [c for c, _ in fixed]
    assert [c for c, level in fixed if level != "info"] == []
