"""The no-change shortcut vouches only for the bytes that were read to make the output.

A contract that changes after the shortcut's first look and is put back while the build runs must
not leave `generated/` holding the passing text while `build` and `check` answer "nothing changed".
The build loads the bytes the shortcut's probe read (`fastpath.Inputs.reader`), so the passing text
is never built: the output is the probed contract's, and `check` vouches for it rightly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.build_support import run, tree, two_tools
from tests.factory import contract
from toolgen import load


def test_a_contract_changed_and_put_back_during_a_build_is_not_taken_as_current(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = two_tools(project)
    assert run(project, "build")[0] == 0
    target = paths["echo_text"]
    original = target.read_bytes()
    passing = contract("echo_text")
    passing["description"] += " Only for a moment."
    real = load.load_file
    raced: list[Path] = []

    def racing(path: Path, settings: object, *parse: object) -> object:
        if path == target and not raced:  # the build's read sees the passing text ...
            raced.append(path)
            target.write_text(json.dumps(passing, indent=2), encoding="utf-8")
            try:
                return real(path, settings, *parse)  # type: ignore[arg-type]
            finally:
                target.write_bytes(original)  # ... then the file is as it was
        return real(path, settings, *parse)  # type: ignore[arg-type]

    (project / "contracts" / "write_file.json").write_text(  # so the build does not take the shortcut
        json.dumps({**contract("write_file"), "version": "1.0.1"}, indent=2), encoding="utf-8"
    )
    monkeypatch.setattr(load, "load_file", racing)
    assert run(project, "build")[0] == 0
    monkeypatch.undo()
    assert raced and "Only for a moment." not in (project / "generated" / "docs" / "echo_text.md").read_text()
    code, stdout, _ = run(project, "check")
    assert code == 0, stdout  # it holds what the contracts say, which check may vouch for
    code, stdout, _ = run(project, "build")
    assert code == 0 and "Only for a moment." not in (project / "generated" / "docs" / "echo_text.md").read_text()
    fresh = project.parent / "fresh"
    (fresh / "contracts").mkdir(parents=True)
    for path in (project / "contracts").iterdir():
        (fresh / "contracts" / path.name).write_bytes(path.read_bytes())
    assert run(fresh, "build", "--no-cache")[0] == 0
    assert tree(project / "generated") == tree(fresh / "generated")
