"""`notify.Waiter`: on Linux a wait ends when a file in a watched folder is written and closed,
moved, made or deleted (and a folder made later is watched once asked); elsewhere, or once closed,
every wait lasts its timeout."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from toolgen.pipeline.notify import Waiter

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def _later(action: Callable[[], object]) -> threading.Timer:
    timer = threading.Timer(0.2, action)
    timer.start()
    return timer


@linux
def test_a_wait_ends_when_a_file_is_written_and_closed_not_at_its_timeout(tmp_path: Path) -> None:
    waiter = Waiter()
    try:
        assert waiter.notified
        waiter.watch([str(tmp_path)])
        assert waiter.wait(0) is False  # nothing happened yet
        _later(lambda: (tmp_path / "a.json").write_text("{}", encoding="utf-8"))
        assert waiter.wait(60) is True
        assert waiter.wait(0) is False  # the events were drained
        _later((tmp_path / "a.json").unlink)
        assert waiter.wait(60) is True
    finally:
        waiter.close()


@linux
def test_a_folder_made_later_is_watched_once_it_is_asked_for(tmp_path: Path) -> None:
    waiter = Waiter()
    try:
        waiter.watch([str(tmp_path)])
        (tmp_path / "group").mkdir()
        assert waiter.wait(60) is True  # the folder itself was made in a watched folder
        waiter.watch([str(tmp_path), str(tmp_path / "group")])
        _later(lambda: os.replace(tmp_path / "x", tmp_path / "group" / "b.toml"))
        (tmp_path / "x").write_text("", encoding="utf-8")
        assert waiter.wait(60) is True
        waiter.wait(0)
        _later(lambda: (tmp_path / "group" / "b.toml").write_text("name = 'b'\n", encoding="utf-8"))
        assert waiter.wait(60) is True  # a write inside the folder made later
    finally:
        waiter.close()


def test_a_closed_waiter_waits_its_timeout_and_says_nothing_changed(tmp_path: Path) -> None:
    waiter = Waiter()
    waiter.close()
    assert not waiter.notified
    waiter.watch([str(tmp_path)])
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    assert waiter.wait(0.01) is False
