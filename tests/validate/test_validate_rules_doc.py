"""docs/rules.md documents every TG1xx/TG2xx code, and its examples are true.

A failing example must produce its code; a fixed example must produce no diagnostic at all. Fragments
are merged over the base contract shown at the top of the document (tables merge, the rest replaces).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from toolgen import rules
from toolgen.config import load_settings
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths

DOC = REPO / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCK = re.compile(r"```(toml|json) (failing|fixed)( whole| config)?\n(.*?)```", re.DOTALL)
BASE = re.search(r"```toml\n(name = \"lookup_word\".*?)```", TEXT, re.DOTALL)
NOT_AS_FILES = {
    "TG101",
    "TG109",
    "TG127",
    "TG202",
    "TG241",
    "TG132",
    "TG133",
    "TG134",
    "TG135",
    "TG136",
    "TG138",
    "TG139",
}
"""Codes whose examples need more than one contract file or a build (described in prose, tested in
the corpus and in tests/pipeline/ and tests/writer/; TG241 compares two versions and is tested with the compatibility
table)."""


def sections() -> dict[str, str]:
    """Code -> the text of its section."""
    parts = re.split(r"^## (TG\d{3}):", TEXT, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2) if parts[i][:3] in ("TG1", "TG2")}


def merge(base: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """Tables merge recursively; every other value (arrays included) replaces."""
    out = dict(base)
    for key, value in fragment.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def toml_dump(data: dict[str, Any]) -> str:
    """Just enough TOML for contracts: everything written as inline values under dotted-free keys."""
    import json

    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return json.dumps(v)
        return str(v)

    return "".join(f"{json.dumps(k)} = {value(v)}\n" for k, v in data.items())


def diagnose(tmp_path: Path, lang: str, kind: str, body: str) -> set[str]:
    """Write the example as `contracts/lookup_word.<lang>` (or the config) and validate; the codes."""
    (tmp_path / "contracts").mkdir(exist_ok=True)
    assert BASE is not None
    base_text = BASE.group(1)
    if kind == " config":  # the configuration's own problems, else what it says about the contracts
        (tmp_path / "toolgen.toml").write_text(body, encoding="utf-8")
        (tmp_path / "contracts" / "lookup_word.toml").write_text(base_text, encoding="utf-8")
        settings, problems = load_settings(tmp_path)
        return {d.code for d in problems or validate_paths(settings, [], target_diagnostics)}
    text = body if kind == " whole" else toml_dump(merge(tomllib.loads(base_text), tomllib.loads(body)))
    (tmp_path / "contracts" / f"lookup_word.{lang}").write_text(text, encoding="utf-8")
    settings, problems = load_settings(tmp_path)
    assert not problems
    return {d.code for d in validate_paths(settings, [], target_diagnostics)}


def test_every_rule_is_documented() -> None:
    documented = set(sections())
    codes = {r.code for r in rules.all_rules() if r.code[:3] in ("TG1", "TG2")}
    assert codes - documented == set(), "add these codes to docs/rules.md"
    assert documented - codes == set(), "docs/rules.md documents codes toolgen does not have"


def test_base_contract_is_clean(tmp_path: Path) -> None:
    assert BASE is not None
    assert diagnose(tmp_path, "toml", "fixed", "") == set()


EXAMPLES = [
    pytest.param(code, match.groups(), id=f"{code}-{match.group(2)}-{i}")
    for code, body in sorted(sections().items())
    for i, match in enumerate(BLOCK.finditer(body))
]


def test_every_rule_has_examples() -> None:
    with_blocks = {p.values[0] for p in EXAMPLES}
    for code, body in sections().items():
        if code in NOT_AS_FILES:
            assert "Failing:" in body and "Fixed:" in body, code
        else:
            assert code in with_blocks, f"{code} has no failing/fixed example blocks"
            kinds = {m.group(2) for m in BLOCK.finditer(body)}
            assert kinds == {"failing", "fixed"}, code


@pytest.mark.parametrize(("code", "block"), EXAMPLES)
def test_documented_example(code: str, block: tuple[str, str, str | None, str], tmp_path: Path) -> None:
    lang, outcome, kind, body = block
    found = diagnose(tmp_path, lang, kind or "", body)
    if outcome == "failing":
        assert code in found, f"the failing example of {code} gives {sorted(found)}"
    else:
        assert found == set(), f"the fixed example of {code} still gives {sorted(found)}"
