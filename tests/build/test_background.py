"""`Workers.background`: a result of any size comes back whole, and a failure is never a silent wait."""

from __future__ import annotations

import os
import threading

import pytest

from toolgen.build.parallel import Workers


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
