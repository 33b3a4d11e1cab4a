"""What `cache.source_digest` reads of toolgen's own folder: every code, data and template file at
any depth, nothing in `__pycache__`, nothing else; a changed, added or removed one changes it."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolgen
from toolgen.incremental import cache


def _tree(root: Path) -> None:
    for rel, text in {
        "__init__.py": "x = 1\n",
        "render/providers/lower.py": "y = 2\n",
        "render/providers_extra.json": "{}\n",
        "templates/docs/tool.md.jinja": "{{ tool }}\n",
        "__pycache__/cache.cpython-311.pyc": "compiled",
        "render/__pycache__/lower.py": "a stray copy",
        "notes.txt": "not read",
        "render/README.md": "not read",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "render" / "gone.py").mkdir()  # a folder named like a source file is not one


def test_every_source_file_is_listed_sorted_and_nothing_else(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert cache._source_files(str(tmp_path)) == [
        "__init__.py",
        "render/providers/lower.py",
        "render/providers_extra.json",
        "templates/docs/tool.md.jinja",
    ]


@pytest.mark.parametrize("change", ["edit", "add", "remove"])
def test_a_changed_source_file_changes_the_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    _tree(tmp_path)
    monkeypatch.setattr(toolgen, "__file__", str(tmp_path / "__init__.py"))
    cache.reset()
    before = cache.source_digest()
    target = tmp_path / "render/providers/lower.py"
    if change == "edit":
        target.write_text("y = 3\n")
    elif change == "add":
        (tmp_path / "render/new.py").write_text("")
    else:
        target.unlink()
    (tmp_path / "__pycache__/other.pyc").write_text("not read")
    cache.reset()
    try:
        assert cache.source_digest() != before
    finally:
        monkeypatch.undo()
        cache.reset()
