"""The no-change benchmark times the snapshot it names, not the checkout it is run from.

`python -m toolgen` puts the working folder first on `sys.path`, ahead of `PYTHONPATH`: a child run
from the checkout imported the checkout's own toolgen whatever snapshot it was given, so every
"before/after" pair compared one code with itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks import REPO, bench_nochange

FAKE_MAIN = """\
import sys
from pathlib import Path
project = Path(sys.argv[sys.argv.index("-C") + 1])
(project / "ran-from").write_text(str(Path(__file__).resolve().parent.parent), encoding="utf-8")
print("no input changed")
"""


def test_the_child_imports_the_snapshot_even_from_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = tmp_path / "snapshot"
    (snapshot / "toolgen").mkdir(parents=True)
    (snapshot / "toolgen" / "__init__.py").write_text("", encoding="utf-8")
    (snapshot / "toolgen" / "__main__.py").write_text(FAKE_MAIN, encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(REPO)  # where the docstring's command runs it; the checkout has its own toolgen/
    assert (Path.cwd() / "toolgen" / "__main__.py").is_file()

    seconds = bench_nochange.timed(project, snapshot, "build")

    assert seconds > 0
    assert (project / "ran-from").read_text(encoding="utf-8") == str(snapshot.resolve()), sys.path
