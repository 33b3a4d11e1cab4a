"""docs/python.md stays true: each TG35x failing example gives its code through `toolgen validate`, each
fixed one no TG35x (and no error)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.factory import contract, write_json
from toolgen.config import load_settings
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths

TEXT = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
SECTION = re.compile(r"^### (TG35\d): ", re.MULTILINE)
BLOCK = re.compile(r"^```json (failing|fixed)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, str, str]]:
    sections = list(SECTION.finditer(TEXT))
    found = []
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(TEXT)
        found += [(section.group(1), b.group(1), b.group(2)) for b in BLOCK.finditer(TEXT, section.end(), end)]
    return found


def test_new_python_rules_have_both_examples() -> None:
    kinds: dict[str, set[str]] = {}
    for code, kind, _ in examples():
        kinds.setdefault(code, set()).add(kind)
    assert {"TG351", "TG353", "TG354"} <= set(kinds) and all(k == {"failing", "fixed"} for k in kinds.values())
    rows = set(re.findall(r"^\| (TG35\d) \|", TEXT, re.MULTILINE))
    assert set(kinds) <= rows


@pytest.mark.parametrize(("code", "kind", "body"), examples())
def test_example(tmp_path: Path, code: str, kind: str, body: str) -> None:
    data = contract()
    data["input_schema"]["properties"].update(json.loads(body))
    (tmp_path / "contracts").mkdir()
    write_json(tmp_path, data)
    (tmp_path / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")
    settings, problems = load_settings(tmp_path)
    assert problems == []
    found = validate_paths(settings, [], target_diagnostics)
    python_codes = {d.code for d in found if d.code.startswith("TG35")}
    if kind == "failing":
        assert code in python_codes, found
    else:
        assert python_codes == set() and not any(d.is_error for d in found), found
