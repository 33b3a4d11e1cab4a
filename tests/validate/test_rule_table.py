"""One static rule table: every family's rules are known without importing the module that emits them."""

from __future__ import annotations

import subprocess
import sys

from toolgen import rules
from toolgen.compat.table import _TOOL, DECISIONS
from toolgen.render import python_checks as python
from toolgen.render.providers.codes import PROVIDER_RULES


def test_every_family_is_known_on_a_fresh_import() -> None:
    code = (
        "from toolgen import rules\n"
        "print(sorted({r.code[:3] for r in rules.all_rules()}))\n"
        "print(rules.get('TG301').title, '|', rules.get('TG350').title, '|', rules.get('TG401').title)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    families, titles = done.stdout.splitlines()
    assert families == "['TG1', 'TG2', 'TG3', 'TG4', 'TG5']"
    openai, python_models, removed = titles.split(" | ")
    assert openai == "OpenAI declaration falls back to strict: false"
    assert python_models == "python target cannot make models for a schema"
    assert removed == "tool removed"


def test_the_compat_table_agrees_with_the_rule_table() -> None:
    severities = {code: severity for code, _, _, severity, _, _ in _TOOL}
    for code, decision in DECISIONS.items():
        rule = rules.RULES[code]
        assert rule.title == decision.title, code
        assert rule.severity == severities.get(code, rule.severity), code
    assert {c for c in rules.RULES if c[:3] == "TG4" and c[:4] != "TG45"} == set(DECISIONS) - {"TG241"}


def test_emitting_modules_take_their_rules_from_the_table() -> None:
    assert all(rules.RULES[r.code] is r for r in PROVIDER_RULES)
    assert {r.code for r in PROVIDER_RULES} == {c for c in rules.RULES if "TG300" < c < "TG350"}
    found = (python.MODELS_FAILED, python.MODEL_WEAKER, python.TEMPLATE_FAILED, python.OBJECT_DEFAULT)
    assert [r.code for r in found] == ["TG350", "TG351", "TG352", "TG353"] and python.NORMALIZED_NAME.code == "TG354"
    assert not hasattr(rules, "register"), "rules are not added at run time"
