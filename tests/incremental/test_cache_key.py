"""The cache key: where it lives, how it is made (once, privately, even by two builds at once), the
environment variable for a cache shared on purpose, and a build without a usable key (no cache, one
note, never a failure)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.build_support import generate_counting, run, two_tools
from toolgen.incremental import cache, cachekey

SHARED = "a-secret-every-ci-job-of-this-project-sets"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A configuration folder of this test's own (XDG_CONFIG_HOME)."""
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.delenv(cachekey.ENV, raising=False)
    return folder


def test_the_key_file_is_made_once_private_and_outside_the_project(config: Path) -> None:
    first = cachekey.load()
    path = config / "toolgen" / "cache-key"
    assert first.secret is not None and first.problem is None and first.source == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(first.secret) == 64 and int(first.secret, 16) >= 0  # 32 random bytes as hex
    assert cachekey.load() == first
    assert [p.name for p in path.parent.iterdir()] == ["cache-key"]  # no temporary file left


def test_without_xdg_config_home_the_key_is_under_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv(cachekey.ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cachekey.load().secret is not None
    assert (tmp_path / ".config" / "toolgen" / "cache-key").is_file()


def test_two_builds_making_the_key_at_once_share_one(config: Path) -> None:
    """Processes started together, each finding no key file: every one reads the key that won."""
    code = (
        "import sys, time\nfrom toolgen.incremental import cachekey\n"
        "time.sleep(max(0.0, float(sys.argv[1]) - time.time()))\nprint(cachekey.load().secret.decode())"
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
    at = str(time.time() + 2.0)  # every process loads the key at that moment, none before
    command = [sys.executable, "-c", code, at]
    started = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) for _ in range(6)]
    keys = {process.communicate()[0].strip() for process in started}
    assert all(process.returncode == 0 for process in started)
    assert len(keys) == 1 and keys == {(config / "toolgen" / "cache-key").read_text().strip()}


def test_the_environment_variable_is_the_key(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cachekey.ENV, SHARED)
    assert cachekey.load() == cachekey.Key(SHARED.encode(), cachekey.ENV)
    assert not config.exists()  # the user's key file is neither read nor made
    monkeypatch.setenv(cachekey.ENV, "short")
    key = cachekey.load()
    assert key.secret is None and key.problem is not None and "32 characters" in key.problem


@pytest.mark.parametrize("mode", [0o644, 0o620])
def test_a_key_file_others_may_read_or_write_is_not_used(config: Path, mode: int) -> None:
    assert cachekey.load().secret is not None
    path = config / "toolgen" / "cache-key"
    path.chmod(mode)
    key = cachekey.load()
    assert key.secret is None and key.problem is not None and "chmod 600" in key.problem


def test_a_cache_shared_with_the_environment_variable_is_read_by_another_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two users (two configuration folders) with the same TOOLGEN_CACHE_KEY read each other's
    entries; with another key, or with their own key files, every entry is a miss."""
    two_tools(tmp_path)
    monkeypatch.setenv(cachekey.ENV, SHARED)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "first"))
    assert generate_counting(tmp_path).hits == 0
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "second"))
    shared = generate_counting(tmp_path)
    assert shared.misses == 0 and shared.hits > 0
    monkeypatch.setenv(cachekey.ENV, SHARED + "-but-another")
    assert generate_counting(tmp_path).hits == 0
    monkeypatch.delenv(cachekey.ENV)
    assert generate_counting(tmp_path).hits == 0  # the second user's own key file


def test_without_a_usable_key_the_build_runs_without_the_cache_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "config"
    blocked.write_text("a file where the configuration folder should be\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    monkeypatch.delenv(cachekey.ENV, raising=False)
    project = tmp_path / "project"
    two_tools(project)
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    assert stderr.count("running without the build cache") == 1
    assert str(blocked / "toolgen" / "cache-key") in stderr and cachekey.ENV in stderr
    assert (project / "generated" / "python").is_dir()
    assert not (project / ".toolgen-cache").exists()
    code, stdout, stderr = run(project, "check")
    assert code == 0 and stderr.count("running without the build cache") == 1, stdout + stderr


def test_an_empty_key_never_seals() -> None:
    """A plain digest is what an empty key would give: refused, not used."""
    with pytest.raises(ValueError, match="empty"):
        cache.seal("name", "text", b"")


def test_the_suite_never_touches_the_real_users_key() -> None:
    """tests/conftest.py gives the whole run (and every toolgen it starts) a configuration folder
    of its own, and drops a TOOLGEN_CACHE_KEY of whoever runs it."""
    real = Path(os.path.expanduser("~")) / ".config"
    assert cachekey.ENV not in os.environ
    assert not cachekey.key_file().is_relative_to(real)
    assert "toolgen-tests-config-" in os.environ["XDG_CONFIG_HOME"]
