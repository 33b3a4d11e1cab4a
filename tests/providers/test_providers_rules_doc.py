"""docs/rules-providers.md stays true: every failing example gives its code, every fixed one no TG3xx.

Each example runs through the real pipeline in a temporary project, so it must also be a valid contract.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from toolgen.catalog import build_catalog, contract_from_document
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic
from toolgen.pipeline import stages as pipeline
from toolgen.render import providers
from toolgen.render.providers import codes

DOC = REPO / "docs" / "rules-providers.md"
SECTION = re.compile(r"^## (TG3\d\d): ", re.MULTILINE)
FENCE = re.compile(r"^```(json\S*)[ \n]", re.MULTILINE)
BLOCK = re.compile(
    r"^```json (failing|fixed)( anthropic_strict)?( unvalidated)?(?: copies=(\d+))?\n(.*?)^```",
    re.MULTILINE | re.DOTALL,
)


def _base() -> dict[str, object]:
    text = DOC.read_text(encoding="utf-8")
    first = re.search(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert first is not None
    base: dict[str, object] = json.loads(first.group(1))
    return base


def _examples() -> list[tuple[str, str, bool, str, int | None, bool]]:
    text = DOC.read_text(encoding="utf-8")
    found = []
    sections = list(SECTION.finditer(text))
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        for block in BLOCK.finditer(text, section.end(), end):
            copies = int(block.group(4)) if block.group(4) else None
            found.append(
                (section.group(1), block.group(1), bool(block.group(2)), block.group(5), copies, bool(block.group(3)))
            )
    return found


def test_every_provider_rule_has_a_section() -> None:
    documented = SECTION.findall(DOC.read_text(encoding="utf-8"))
    assert documented == [rule.code for rule in codes.PROVIDER_RULES]


def test_every_provider_rule_has_a_failing_and_a_fixed_example() -> None:
    """The rules come from toolgen's table, not the doc: a rule without examples fails here."""
    have = {(e[0], e[1]) for e in _examples()}
    rules = [rule.code for rule in codes.PROVIDER_RULES]
    missing = [f"{code} {kind}" for code in rules for kind in ("failing", "fixed") if (code, kind) not in have]
    assert missing == [], "docs/rules-providers.md lacks these examples"


def test_every_json_fence_after_the_base_is_an_example_the_test_reads() -> None:
    """A fence whose info string the test does not read (`jsonc failing`, a typo) would be skipped."""
    text = DOC.read_text(encoding="utf-8")
    start = SECTION.search(text)
    assert start is not None
    fences = FENCE.findall(text, start.start())
    assert len(fences) == len(_examples()), f"fences {fences}, examples read {len(_examples())}"


@pytest.mark.parametrize(("code", "kind", "example"), [(e[0], e[1], e) for e in _examples()])
def test_example(tmp_path: Path, code: str, kind: str, example: tuple[str, str, bool, str, int | None, bool]) -> None:
    _, _, anthropic_strict, fragment, copies, unvalidated = example
    contract = {**_base(), **json.loads(fragment)}
    if unvalidated:
        diagnostics = _project_in_code(tmp_path, contract)
    else:
        diagnostics = _build(tmp_path, contract, anthropic_strict, copies)
    provider_codes = sorted({d.code for d in diagnostics if d.code.startswith("TG3")})
    if kind == "failing":
        assert code in provider_codes
    else:
        assert provider_codes == []


def _build(tmp_path: Path, contract: dict[str, Any], anthropic_strict: bool, copies: int | None) -> list[Diagnostic]:
    (tmp_path / "contracts").mkdir()
    names = [contract["name"]] if copies is None else [f"{contract['name']}_{i:03}" for i in range(copies)]
    for name in names:
        text = json.dumps({**contract, "name": name})
        (tmp_path / "contracts" / f"{name}.json").write_text(text, encoding="utf-8")
    config = 'targets = ["providers"]\n' + ("anthropic_strict = true\n" if anthropic_strict else "")
    (tmp_path / "toolgen.toml").write_text(config, encoding="utf-8")
    settings, problems = load_settings(tmp_path)
    assert problems == []
    result = pipeline.generate(settings)
    assert not [d for d in result.diagnostics if d.code.startswith("TG1")], result.diagnostics
    return list(result.diagnostics)


def _project_in_code(tmp_path: Path, contract: dict[str, Any]) -> list[Diagnostic]:
    """A catalog built in code (no validation), as TG303 describes."""
    built = contract_from_document(contract, f"contracts/{contract['name']}.json")
    settings = Settings(root=tmp_path, contracts_dir=tmp_path / "contracts", output_dir=tmp_path / "generated")
    return list(providers.project(build_catalog([built]), settings).diagnostics)
