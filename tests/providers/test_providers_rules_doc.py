"""docs/rules-providers.md stays true: every failing example gives its code, every fixed one no TG3xx.

Each example runs through the real pipeline in a temporary project, so it must also be a valid contract.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolgen import pipeline
from toolgen.config import load_settings
from toolgen.render.providers import codes

DOC = REPO / "docs" / "rules-providers.md"
SECTION = re.compile(r"^## (TG3\d\d): ", re.MULTILINE)
BLOCK = re.compile(r"^```json (failing|fixed)( anthropic_strict)?\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _base() -> dict[str, object]:
    text = DOC.read_text(encoding="utf-8")
    first = re.search(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert first is not None
    base: dict[str, object] = json.loads(first.group(1))
    return base


def _examples() -> list[tuple[str, str, bool, str]]:
    text = DOC.read_text(encoding="utf-8")
    found = []
    sections = list(SECTION.finditer(text))
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        for block in BLOCK.finditer(text, section.end(), end):
            found.append((section.group(1), block.group(1), bool(block.group(2)), block.group(3)))
    return found


def test_every_provider_rule_has_a_section() -> None:
    documented = SECTION.findall(DOC.read_text(encoding="utf-8"))
    assert documented == [rule.code for rule in codes.PROVIDER_RULES]


@pytest.mark.parametrize(("code", "kind", "anthropic_strict", "fragment"), _examples())
def test_example(tmp_path: Path, code: str, kind: str, anthropic_strict: bool, fragment: str) -> None:
    contract = {**_base(), **json.loads(fragment)}
    (tmp_path / "contracts").mkdir()
    (tmp_path / "contracts" / "lookup_word.json").write_text(json.dumps(contract), encoding="utf-8")
    config = 'targets = ["providers"]\n' + ("anthropic_strict = true\n" if anthropic_strict else "")
    (tmp_path / "toolgen.toml").write_text(config, encoding="utf-8")
    settings, problems = load_settings(tmp_path)
    assert problems == []
    result = pipeline.generate(settings)
    assert not [d for d in result.diagnostics if d.code.startswith("TG1")], result.diagnostics
    provider_codes = sorted({d.code for d in result.diagnostics if d.code.startswith("TG3")})
    if kind == "failing":
        assert code in provider_codes
    else:
        assert provider_codes == []
