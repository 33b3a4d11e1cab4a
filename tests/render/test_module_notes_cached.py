"""The python target's notes about a contract (TG353, TG354) are remembered with its tool module:
a build that reads the module from the cache reports exactly what a build without a cache reports."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.factory import contract, write_json
from toolgen.config import load_settings
from toolgen.incremental import cache
from toolgen.pipeline import stages as pipeline
from toolgen.thresholds import DEFAULT, Thresholds


def _project(root: Path) -> Path:
    noted = contract("noted_tool")
    noted["input_schema"]["properties"].update(
        {
            "\uff58": {"type": "string", "description": "A fullwidth x (TG354)."},
            "where": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "default": {"city": "Oslo"},
                "description": "An object default (TG353).",
            },
        }
    )
    write_json(root, noted)
    write_json(root, contract("plain_tool"))
    (root / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")
    return root


def _notes(
    root: Path, *, cached: bool, thresholds: Thresholds = DEFAULT
) -> tuple[list[tuple[str, str, str]], cache.Store | None]:
    settings, problems = load_settings(root)
    assert not problems
    settings = dataclasses.replace(settings, thresholds=thresholds)
    with cache.session(root, enabled=cached) as store:
        result = pipeline.generate(settings, store=store)
    assert result.catalog is not None  # valid contracts: the python target ran (TG354 is its error)
    found = [(d.code, d.file, d.pointer) for d in result.diagnostics if d.code.startswith("TG35")]
    return found, store


@pytest.mark.parametrize("together", [False, True], ids=["stage-by-stage", "together-in-workers"])
def test_notes_come_back_with_the_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, together: bool) -> None:
    thresholds = Thresholds(together_min=1) if together else DEFAULT
    if together:
        monkeypatch.setenv("TOOLGEN_JOBS", "2")
    root = _project(tmp_path)
    expected, _ = _notes(root, cached=False, thresholds=thresholds)
    assert {code for code, _, _ in expected} == {"TG353", "TG354"}
    first, _ = _notes(root, cached=True, thresholds=thresholds)
    again, store = _notes(root, cached=True, thresholds=thresholds)
    assert store is not None and store.missed == {}  # the module, and its notes, read back
    assert first == again == expected
