"""Shared test helpers: golden files and small project fixtures.

Golden files are regenerated with one command: `.venv/bin/pytest --update-golden`, then reviewed as a
git diff. A failing golden comparison prints that command.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_COMMAND = ".venv/bin/pytest --update-golden"


def _find_corpora() -> Path:
    """The shared corpora: `shared/corpora` beside the checkout (as on CI), else /work/shared/corpora."""
    for candidate in (REPO.parent / "shared" / "corpora", Path("/work/shared/corpora")):
        if candidate.is_dir():
            return candidate
    raise RuntimeError("the shared corpora folder is missing: expected ../shared/corpora beside the checkout")


CORPORA = _find_corpora()
"""Use this (not an absolute path) for every test that reads ../shared/corpora."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden files from the current output instead of comparing (review with git diff).",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def assert_golden(path: Path, actual: str, update: bool) -> None:
    """Compare `actual` with the golden file at `path`, or rewrite it when updating."""
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="\n")
        return
    if not path.exists():
        pytest.fail(f"golden file {path.relative_to(REPO)} is missing; create it with: {UPDATE_COMMAND}")
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"{path.relative_to(REPO)} (golden)",
                "actual",
            )
        )
        pytest.fail(f"output differs from the golden file; if the change is intended run: {UPDATE_COMMAND}\n{diff}")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project: a `contracts/` folder in a temporary directory."""
    (tmp_path / "contracts").mkdir()
    return tmp_path


@pytest.fixture
def repo_contracts(tmp_path: Path) -> Path:
    """A copy of the repository's own contracts in a fresh project folder."""
    shutil.copytree(REPO / "contracts", tmp_path / "contracts")
    return tmp_path
