"""While the targets render, what was alive before is out of the cycle collector's reach; after the
build (even a failed one) the collector has it back, so a library caller's garbage is collected."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tests.build_support import two_tools
from toolgen.config import load_settings
from toolgen.pipeline import stages as pipeline
from toolgen.render import catalog_json


def test_the_render_runs_settled_and_the_collector_gets_everything_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two_tools(tmp_path)
    settings, _ = load_settings(tmp_path)
    seen: list[int] = []
    real = catalog_json.render
    monkeypatch.setattr(catalog_json, "render", lambda *a, **k: seen.append(gc.get_freeze_count()) or real(*a, **k))
    assert gc.get_freeze_count() == 0
    assert pipeline.generate(settings).ok
    assert seen and seen[0] > 10_000  # the modules and the catalog, at least
    assert gc.get_freeze_count() == 0


def test_a_target_that_fails_still_gives_everything_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    two_tools(tmp_path)
    settings, _ = load_settings(tmp_path)

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug in a target")

    monkeypatch.setattr(catalog_json, "render", broken)
    with pytest.raises(RuntimeError, match="a bug in a target"):
        pipeline.generate(settings)
    assert gc.get_freeze_count() == 0
