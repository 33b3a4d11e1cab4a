""" "Did you mean" costs what the findings cost: a clean catalog asks difflib nothing (TG213, TG217).

The TG217 check ran `difflib.get_close_matches` twice on every key of every schema object (about 22,000
calls in a cold build of 300 contracts); a JSON Schema keyword can never be a misspelt annotation, so
only the keys that are not keywords are compared, and the suggestion is still given for those.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.synth_catalog import write_catalog
from tests.factory import contract, write_json
from toolgen.config import load_settings
from toolgen.diagnostics import Diagnostic
from toolgen.pipeline.targetchecks import target_diagnostics
from toolgen.validate import validate_paths
from toolgen.validate.schemarules import looks_like_annotation
from toolgen.validate.schemawalk import KEYWORDS


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count every `difflib.get_close_matches` call (the word each was asked about)."""
    asked: list[str] = []
    real: Callable[..., list[str]] = difflib.get_close_matches

    def counted(word: str, *args: Any, **kwargs: Any) -> list[str]:
        asked.append(word)
        return real(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    return asked


def _validate(project: Path) -> list[Diagnostic]:
    (project / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    settings, problems = load_settings(project)
    assert not problems
    return validate_paths(settings, [], target_diagnostics)


def test_a_clean_catalog_asks_difflib_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_catalog(project, 12)
    asked = _counting(monkeypatch)
    problems = _validate(project)
    assert [d for d in problems if d.code in ("TG213", "TG217")] == []
    assert asked == []


def test_a_misspelt_annotation_is_the_only_word_compared(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = contract()
    data["input_schema"]["properties"]["text"]["x-sensitve"] = True
    write_json(project, data)
    asked = _counting(monkeypatch)
    problems = _validate(project)
    assert [(d.code, d.pointer) for d in problems] == [("TG217", "/input_schema/properties/text/x-sensitve")]
    assert "did you mean 'x-sensitive'?" in problems[0].message
    assert set(asked) <= {"x-sensitve", "x-x-sensitve"}
    assert "x-sensitve" in asked


def test_no_json_schema_keyword_looks_like_an_annotation() -> None:
    """Skipping the keywords changes no finding: none of them is close to an annotation."""
    assert [key for key in sorted(KEYWORDS) if looks_like_annotation(key)] == []
    assert all(looks_like_annotation(key) for key in ("x-sensitve", "x_sensitive", "sensitive", "X-Sensitive"))
