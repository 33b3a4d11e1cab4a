"""A fresh clone runs its tests anywhere: no machine's absolute path in the repository, and the tests
that need the shared corpora skip without them, saying where the data comes from."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import REPO

MACHINE_PATH = re.compile(r"(?<![\w.~])/(?:work|home|Users|root|mnt|opt/pypi)/[\w.-]+")
"""A path that only exists on one machine (a workspace, a home folder)."""
ON_PURPOSE = (
    "docs/rules.md",  # TG206's failing example is such a path in a description
    "tests/cases/invalid/warnings_secrets_and_paths/",  # TG206's case
    "tests/pipeline/test_checkout_portable.py",  # this test's own examples
)


def _tracked_text_files() -> list[str]:
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [name for name in done.stdout.decode().split("\0") if name]


def test_no_file_names_a_machines_absolute_path() -> None:
    offenders = []
    for name in _tracked_text_files():
        if name.startswith(ON_PURPOSE):
            continue
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        offenders += [f"{name}: {m.group()}" for m in MACHINE_PATH.finditer(text)]
    assert offenders == []


def test_the_pattern_finds_what_it_must() -> None:
    machine_folder = "/".join(["", "work", "shared", "corpora"])  # assembled, so the repo holds no such path
    assert MACHINE_PATH.search(f'Path("{machine_folder}")')
    assert MACHINE_PATH.search("see /home/ann/corpora")
    assert not MACHINE_PATH.search("../shared/corpora and https://example.com/work/x and ~/work/x")


def test_corpus_tests_skip_with_where_the_data_comes_from_when_it_is_absent() -> None:
    env = {**os.environ, "TOOLGEN_CORPORA": str(REPO / "no-such-corpora")}
    test = "tests/compat/test_compat_corpora.py"
    # -n0: one process is enough for three skips (the addopts' -n auto would start a worker per core)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n0", "-q", "-rs", "-m", "corpus", test]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b3 skipped\b", done.stdout), done.stdout
    assert "../shared/corpora beside the checkout, or set TOOLGEN_CORPORA" in done.stdout
    assert "passed" not in done.stdout and "failed" not in done.stdout
