"""Shared test helpers: golden files and small project fixtures.

Golden files are regenerated with one command: `.venv/bin/pytest --update-golden`, then reviewed as a
git diff. A failing golden comparison prints that command.
"""

from __future__ import annotations

import difflib
import functools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from benchmarks import corpora_dir

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_COMMAND = ".venv/bin/pytest --update-golden"


CORPORA = corpora_dir()
"""Use this (not an absolute path) in every test that reads the shared corpora; mark such a test `corpus`."""
CORPORA_MISSING = (
    f"needs the shared tool corpora, which are not in the repository: none at {CORPORA} "
    "(put them in ../shared/corpora beside the checkout, or set TOOLGEN_CORPORA=DIR)"
)

CORPUS_SAMPLE = Path(__file__).resolve().parent / "data" / "corpus_sample"
"""Licence-clean records of the corpora, copied into the repository (see its NOTICE.md), one folder, same
file names: what the default tier reads instead of the corpora."""
CORPUS_SOURCES = [
    pytest.param(CORPUS_SAMPLE, id="sample"),
    pytest.param(CORPORA, id="corpora", marks=pytest.mark.corpus),
]
"""Parametrize a test over `source` with these: the sample by default, the whole corpora with `-m corpus`."""


def corpus_file(source: Path, name: str) -> Path:
    """The corpora's file `name` (such as `other/taubench_tools.jsonl`) in `source`; the sample is flat."""
    return CORPUS_SAMPLE / Path(name).name if source == CORPUS_SAMPLE else source / name


LOADED = (HealthCheck.too_slow,)
"""Slow generation of examples on a shared, loaded machine is the machine's, not a failure of the code."""
settings.register_profile("default", suppress_health_check=LOADED)
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, suppress_health_check=LOADED)
"""CI: the same examples on every run and no example database, so no run depends on an earlier one."""
ON_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if ON_CI else "default"))


@pytest.fixture(scope="session", autouse=True)
def black_remembered() -> Iterator[None]:
    """Black's two entry points toolgen calls, remembered per (text, mode) for this test process.

    Black is a pure function of its text and mode, and most builds in the suite format the same texts
    again (the shared runtime modules of every package, the factory's contracts): a fresh project has a
    cold build cache, so each build used to pay for black from scratch (most of the CPU time of the
    default tier). Every call still goes through toolgen's own code down to black's function; only a
    text black already formatted in this process is answered from memory. `TOOLGEN_TEST_BLACK=fresh`
    turns it off.
    """
    if os.environ.get("TOOLGEN_TEST_BLACK") == "fresh":
        yield
        return
    import black

    with pytest.MonkeyPatch.context() as patch:
        for name in ("format_str", "_format_str_once"):
            patch.setattr(black, name, _remembered(getattr(black, name)))
        yield


def _remembered(function: Callable[..., str]) -> Callable[..., str]:
    seen: dict[tuple[str, object], str] = {}

    @functools.wraps(function)
    def remembered(src_contents: str, *, mode: Any, lines: Any = ()) -> str:
        if lines:  # a line range (black's --line-ranges): not what toolgen asks, so not remembered
            return function(src_contents, mode=mode, lines=lines)
        key = (src_contents, mode)
        if key not in seen:
            seen[key] = function(src_contents, mode=mode)
        return seen[key]

    return remembered


def pytest_configure(config: pytest.Config) -> None:
    """The suite never reads or writes the real user's configuration: the build cache's key file
    (`toolgen.incremental.cachekey`) goes to a configuration folder of this test process (inherited by
    every toolgen it starts), and a TOOLGEN_CACHE_KEY set by whoever runs the suite is ignored."""
    folder = tempfile.mkdtemp(prefix="toolgen-tests-config-")
    config.stash[_CONFIG_HOME] = folder
    os.environ["XDG_CONFIG_HOME"] = folder
    os.environ.pop("TOOLGEN_CACHE_KEY", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CONFIG_HOME, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_CONFIG_HOME = pytest.StashKey[str]()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A `corpus` test skips, saying where the data comes from, when the corpora are not there."""
    if item.get_closest_marker("corpus") is not None and not CORPORA.is_dir():
        pytest.skip(CORPORA_MISSING)


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
