"""`Workers.background`: a result of any size comes back whole, and a failure is never a silent wait."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from tests.factory import contract
from toolgen.catalog import build_catalog, contract_from_document
from toolgen.config import Settings
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Background, Workers
from toolgen.pipeline import stages as pipeline
from toolgen.thresholds import Thresholds


def test_a_large_result_comes_back_whole() -> None:
    big = bytes(range(256)) * (80 * 1024)  # 20 MB: far more than a pipe holds
    back = Workers(2).background(lambda: (big, "é" * 1000)).result()
    assert back == (big, "é" * 1000)


def test_a_result_that_cannot_be_sent_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="could not be sent"):
        Workers(2).background(threading.Lock).result()


def test_a_process_that_dies_without_a_result_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="ended with code 7"):
        Workers(2).background(lambda: os._exit(7)).result()


def test_its_exception_is_raised_here() -> None:
    with pytest.raises(ZeroDivisionError):
        Workers(2).background(lambda: 1 // 0).result()


def test_a_stopped_process_is_ended_and_reaped() -> None:
    started = Workers(2).background(lambda: time.sleep(60))
    pid = started._pid
    assert pid is not None
    began = time.monotonic()
    started.stop()
    assert time.monotonic() - began < 30  # killed, not waited for
    with pytest.raises(ChildProcessError):  # reaped: no such child is left
        os.waitpid(pid, os.WNOHANG)


def test_the_forked_process_does_not_write_what_this_one_buffered(capfd: pytest.CaptureFixture[str]) -> None:
    print("said once", end="")  # buffered in this process when it forks
    assert Workers(2).background(lambda: 42).result() == 42
    assert capfd.readouterr().out == "said once"


def test_a_failed_render_stops_the_forked_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    stopped: list[bool] = []
    real = Background.stop

    def stop(self: Background) -> None:
        stopped.append(True)
        real(self)

    monkeypatch.setattr(Background, "stop", stop)

    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError

    monkeypatch.setattr(pipeline, "_first_parts", broken)
    catalog = build_catalog([contract_from_document(contract("echo_text"), "echo_text.json")])
    here = Path.cwd()
    settings = Settings(root=here, contracts_dir=here, output_dir=here, jobs=2, thresholds=Thresholds(apart_min=1))
    with pytest.raises(ZeroDivisionError):
        pipeline._render_targets(catalog, settings, Building(Workers(2)), lambda step: None)
    assert stopped == [True]
