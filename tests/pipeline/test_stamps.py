"""A watch's look at its inputs: a rewrite of the same size within one tick of the clock leaves the
stat as it was, so a file changed too recently for its stat to vouch for it is compared by its
bytes; a settled file is never read."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from tests.build_support import two_tools
from toolgen.config import load_settings
from toolgen.pipeline import stamps
from toolgen.pipeline.stamps import Stamp, changed, inputs

LATER = 10**19
"""A `settled_before` no status change time reaches: every file has settled."""


def _project(tmp_path: Path) -> tuple[Path, Path]:
    two_tools(tmp_path)
    return tmp_path, tmp_path / "contracts" / "echo_text.json"


def _stat(path: Path) -> tuple[int, int, int, int]:
    info = os.stat(path)
    return (info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns)


def _as_if_before_a_same_tick_rewrite(root: Path, path: Path, old: bytes) -> dict[str, Stamp]:
    """The look before a rewrite of `path` that kept its stat: every input as it is, but `path` with
    this stat, the old bytes' digest, unsettled."""
    found = inputs(root, load_settings(root)[0])
    found[str(path)] = Stamp(_stat(path), hashlib.sha256(old).hexdigest(), unsettled=True)
    return found


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    digest = stamps._digest

    def counted(path: str) -> str:
        read.append(path)
        return digest(path)

    monkeypatch.setattr(stamps, "_digest", counted)
    return read


def test_a_rewrite_that_kept_the_stat_is_seen_by_its_bytes_while_the_file_is_fresh(tmp_path: Path) -> None:
    root, path = _project(tmp_path)
    old = path.read_bytes()
    path.write_bytes(old.replace(b"Echo", b"ECHO"))
    settings = load_settings(root)[0]
    earlier = _as_if_before_a_same_tick_rewrite(root, path, old)
    assert changed(earlier, inputs(root, settings, earlier=earlier), root) == ("contracts/echo_text.json",)


def test_it_is_seen_even_when_the_file_settled_during_a_long_build(tmp_path: Path) -> None:
    root, path = _project(tmp_path)
    old = path.read_bytes()
    path.write_bytes(old.replace(b"Echo", b"ECHO"))
    settings = load_settings(root)[0]
    earlier = _as_if_before_a_same_tick_rewrite(root, path, old)
    now = inputs(root, settings, earlier=earlier, settled_before=LATER)
    assert changed(earlier, now, root) == ("contracts/echo_text.json",)


def test_an_unchanged_file_is_read_once_after_it_settles_then_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path)[0]
    settings = load_settings(root)[0]
    read = _reads(monkeypatch)
    fresh = inputs(root, settings, settled_before=time.time_ns() - 60 * 10**9)
    assert sorted(read) == sorted(fresh) and all(stamp.unsettled for stamp in fresh.values())
    read.clear()
    settled = inputs(root, settings, earlier=fresh, settled_before=LATER)
    assert sorted(read) == sorted(fresh) and changed(fresh, settled, root) == ()
    read.clear()
    again = inputs(root, settings, earlier=settled, settled_before=LATER)
    assert read == [] and changed(settled, again, root) == ()


def test_a_stat_that_moved_is_a_change_whatever_the_bytes(tmp_path: Path) -> None:
    root, path = _project(tmp_path)
    settings = load_settings(root)[0]
    before = inputs(root, settings, settled_before=LATER)
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)  # the same bytes in a new file: another inode
    after = inputs(root, settings, earlier=before, settled_before=LATER)
    assert changed(before, after, root) == ("contracts/echo_text.json",)
    (root / "contracts" / "write_file.json").unlink()
    assert "contracts/write_file.json" in changed(after, inputs(root, settings, earlier=after), root)
