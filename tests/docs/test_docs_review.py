"""The docs read back as a reviewer reads them: nothing invented, nothing hidden.

`review_page` (tests/docs_review_support.py) runs over the repo's own contracts and the golden
catalogs; tests/docs/test_docs_defects.py holds the repro of each defect of the docs issue.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.docs_review_support import (
    catalog_of,
    docs_project,
    expected_constraints,
    review_page,
    reviewed_pages,
    shapes_tool,
)
from tests.docs_support import edge_catalog


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(REPO / "contracts", root / "contracts")
    (root / "toolgen.toml").write_text('targets = ["docs"]\n', encoding="utf-8")
    return root


def test_every_page_of_the_repo_catalog_holds_up_to_review(repo_copy: Path) -> None:
    reviewed = reviewed_pages(repo_copy)
    assert len(reviewed) == 14
    assert {name: found for name, found in reviewed.items() if found} == {}


def test_the_repo_generated_docs_hold_up_to_review() -> None:
    tools = catalog_of(REPO)
    for name, tool in tools.items():
        text = (REPO / "generated" / "docs" / f"{name}.md").read_text(encoding="utf-8")
        assert review_page(text, tool) == [], name


def _golden_catalogs() -> dict[str, dict[str, dict[str, Any]]]:
    from tests.python_support import basic_contracts, hostile_contracts, secret_contract

    return {
        "docs": edge_catalog(),
        "python-basic": basic_contracts(),
        "python-hostile": hostile_contracts(),
        "secret": {"secret_store": secret_contract()},
        "mixed": {"shapes": shapes_tool()},
    }


@pytest.mark.parametrize("catalog", ["docs", "mixed", "python-basic", "python-hostile", "secret"])
def test_every_page_of_the_golden_catalogs_holds_up_to_review(tmp_path: Path, catalog: str) -> None:
    reviewed = reviewed_pages(docs_project(tmp_path, _golden_catalogs()[catalog]))
    assert {name: found for name, found in reviewed.items() if found} == {}


def test_the_provider_edge_project_holds_up_to_review(tmp_path: Path) -> None:
    shutil.copytree(REPO / "tests" / "data" / "providers" / "edge_project", tmp_path, dirs_exist_ok=True)
    text = (tmp_path / "toolgen.toml").read_text(encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text(re.sub(r"(?m)^targets\s*=.*$", 'targets = ["docs"]', text), encoding="utf-8")
    reviewed = reviewed_pages(tmp_path)
    assert reviewed and {name: found for name, found in reviewed.items() if found} == {}


def test_the_reviewer_check_finds_what_it_looks_for() -> None:
    """The checker itself: a hidden constraint, a forced break, an invented meaning are each found."""
    tool = next(iter(catalog_of(REPO).values()))
    assert any("forced line break" in p for p in review_page("# x\n\nline one\\\nline two\n", tool))
    assert any("is not shown" in p for p in review_page("# x\n", tool)) or not expected_constraints(tool.input_schema)
    errors = "## Errors\n\n| Code | Retryable | Meaning |\n| --- | --- | --- |\n"
    errors += "".join(f"| {c} | maybe | Change the arguments. |\n" for c in tool.error_order)
    found = review_page(errors, tool)
    assert tool.errors and any("retryable shown as 'maybe'" in p for p in found)
    assert any("is not the contract's" in p or "marked as standard" in p for p in found)
