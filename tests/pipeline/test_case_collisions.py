"""Two generated paths that differ only in case are a build error naming both (TG136).

On macOS and Windows one would overwrite the other; toolgen refuses on every system, so a project
builds the same everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build_support import run
from tests.factory import contract, write_json
from toolgen.render import Artifact
from toolgen.writer import write


def test_a_tool_named_like_the_docs_index_is_refused(project: Path) -> None:
    write_json(project, contract("echo_text"))
    write_json(project, contract("readme"))
    code, _, stderr = run(project, "build")
    assert code == 1
    assert "TG136" in stderr and "docs/readme.md" in stderr and "docs/README.md" in stderr
    assert "contracts/readme.json" in stderr and "`readme`" in stderr
    assert "nothing was written" in stderr
    assert not (project / "generated").exists()


def test_the_writer_refuses_paths_that_differ_only_in_case(tmp_path: Path) -> None:
    artifacts = [Artifact("docs/Guide.md", "one"), Artifact("docs/guide.md", "two"), Artifact("x.md", "three")]
    with pytest.raises(write.WriteError, match="differ only in case") as raised:
        write.plan(artifacts, tmp_path / "generated")
    assert "docs/Guide.md" in str(raised.value) and "docs/guide.md" in str(raised.value)
    assert not (tmp_path / "generated").exists()


def test_paths_in_folders_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    artifacts = [Artifact("Docs/a.md", "one"), Artifact("docs/b.md", "two")]
    with pytest.raises(write.WriteError, match="differ only in case"):
        write.plan(artifacts, tmp_path / "generated")
