"""docs/rules.md's TG45x sections (the rules `toolgen import` adds to validation) have true examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.validate.test_validate_rules_doc import BLOCK, TEXT, diagnose
from toolgen import rules

SECTIONS = dict(re.findall(r"^## (TG45\d):.*?\n(.*?)(?=^#{1,2} |\Z)", TEXT, flags=re.MULTILINE | re.DOTALL))
VALIDATION_CODES = ["TG450"]


def test_the_validation_rules_of_import_are_documented() -> None:
    assert sorted(SECTIONS) == VALIDATION_CODES
    assert all(rules.get(code) is not None for code in VALIDATION_CODES)


@pytest.mark.parametrize("code", VALIDATION_CODES)
def test_examples(code: str, tmp_path: Path) -> None:
    blocks = list(BLOCK.finditer(SECTIONS[code]))
    assert {m.group(2) for m in blocks} == {"failing", "fixed"}
    for index, match in enumerate(blocks):
        lang, outcome, kind, body = match.groups()
        root = tmp_path / str(index)
        root.mkdir()
        found = diagnose(root, lang, kind or "", body)
        if outcome == "failing":
            assert code in found, sorted(found)
        else:
            assert found == set(), sorted(found)
