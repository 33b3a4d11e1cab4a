"""docs/rules-providers.md stays true: every TG3xx rule has a failing and a fixed example, every
failing example gives its code and every fixed one no TG3xx.

Each example runs through the real pipeline in a temporary project, so it must also be a valid
contract; `in_code` examples are built into a catalog in code and projected without validation.
The list of rules is toolgen's own table (`codes.PROVIDER_RULES`), not the doc's headings, so a rule
without examples, or examples lost to a renamed fence, fail here instead of vanishing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from toolgen import pipeline
from toolgen.catalog import build_catalog, contract_from_document
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic
from toolgen.render import providers
from toolgen.render.providers import codes

DOC = REPO / "docs" / "rules-providers.md"
SECTION = re.compile(r"^## (TG3\d\d): ", re.MULTILINE)
BLOCK = re.compile(r"^```json (failing|fixed)((?: [a-z_]+(?:=\d+)?)*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
FENCE = re.compile(r"^```(json\S*)[ \n]", re.MULTILINE)
OPTIONS = re.compile(r"^(anthropic_strict|in_code|tools=\d+)$")
RULES = [rule.code for rule in codes.PROVIDER_RULES]


def _base() -> dict[str, object]:
    text = DOC.read_text(encoding="utf-8")
    first = re.search(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert first is not None
    base: dict[str, object] = json.loads(first.group(1))
    return base


def _examples() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(code, failing or fixed, the options after it, the fragment) for every example block."""
    text = DOC.read_text(encoding="utf-8")
    found = []
    sections = list(SECTION.finditer(text))
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        for block in BLOCK.finditer(text, section.end(), end):
            found.append((section.group(1), block.group(1), tuple(block.group(2).split()), block.group(3)))
    return found


EXAMPLES = _examples()


def test_every_provider_rule_has_a_section() -> None:
    documented = SECTION.findall(DOC.read_text(encoding="utf-8"))
    assert documented == RULES


def test_every_provider_rule_has_a_failing_and_a_fixed_example() -> None:
    have = {(code, kind) for code, kind, _, _ in EXAMPLES}
    missing = [f"{code} {kind}" for code in RULES for kind in ("failing", "fixed") if (code, kind) not in have]
    assert missing == [], "docs/rules-providers.md lacks these examples"


def test_every_json_fence_after_the_base_is_an_example_the_test_reads() -> None:
    """A fence whose info string the test does not read (`json failed`, a typo) would be skipped."""
    text = DOC.read_text(encoding="utf-8")
    start = SECTION.search(text)
    assert start is not None
    fences = FENCE.findall(text, start.start())
    assert len(fences) == len(EXAMPLES), f"fences {fences}, examples read {len(EXAMPLES)}"
    for _, _, options, _ in EXAMPLES:
        assert all(OPTIONS.match(option) for option in options), options


def _count(options: tuple[str, ...]) -> int:
    counts = [int(o.removeprefix("tools=")) for o in options if o.startswith("tools=")]
    return counts[0] if counts else 1


def _diagnostics(tmp_path: Path, contract: dict[str, Any], options: tuple[str, ...]) -> list[Diagnostic]:
    strict = "anthropic_strict" in options
    if "in_code" in options:
        settings = Settings(
            root=tmp_path, contracts_dir=tmp_path / "contracts", output_dir=tmp_path / "out", anthropic_strict=strict
        )
        catalog = build_catalog([contract_from_document(contract, "contracts/example.json")])
        return list(providers.project(catalog, settings).diagnostics)
    (tmp_path / "contracts").mkdir()
    count = _count(options)
    for index in range(1, count + 1):
        name = contract["name"] if count == 1 else f"{contract['name']}_{index:03}"
        text = json.dumps({**contract, "name": name})
        (tmp_path / "contracts" / f"{name}.json").write_text(text, encoding="utf-8")
    config = 'targets = ["providers"]\n' + ("anthropic_strict = true\n" if strict else "")
    (tmp_path / "toolgen.toml").write_text(config, encoding="utf-8")
    settings, problems = load_settings(tmp_path)
    assert problems == []
    result = pipeline.generate(settings)
    assert not [d for d in result.diagnostics if d.code.startswith("TG1")], result.diagnostics
    return list(result.diagnostics)


@pytest.mark.parametrize(
    ("code", "kind", "options", "fragment"),
    EXAMPLES,
    ids=[f"{code}-{kind}" for code, kind, _, _ in EXAMPLES],
)
def test_example(tmp_path: Path, code: str, kind: str, options: tuple[str, ...], fragment: str) -> None:
    contract = {**_base(), **json.loads(fragment)}
    provider_codes = sorted({d.code for d in _diagnostics(tmp_path, contract, options) if d.code.startswith("TG3")})
    if kind == "failing":
        assert code in provider_codes
    else:
        assert provider_codes == []
