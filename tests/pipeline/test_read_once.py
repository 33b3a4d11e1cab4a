"""A build reads each contract file once: the no-change probe's bytes are the ones it loads.

The probe reads and digests every contract to know whether anything changed; the build that follows
loads those same bytes (`fastpath.Inputs.reader`) instead of reading each file again, so what it
builds is exactly what the key it records names, even when a file changes while it runs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.build_support import reworded, run, two_tools
from toolgen import load
from toolgen.incremental import fastpath
from toolgen.pipeline import stages as pipeline

NAMES = ("echo_text", "write_file", "read_file")


def _counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    reads: Counter[str] = Counter()
    real = load.read_contract_bytes

    def read(path: Path, limit: int = load.MAX_FILE_BYTES) -> bytes:
        reads[path.name] += 1
        return real(path, limit)

    for module in (load, fastpath):
        monkeypatch.setattr(module, "read_contract_bytes", read)
    return reads


def test_a_build_after_a_change_reads_each_contract_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    reworded(tmp_path, "write_file")
    reads = _counted(monkeypatch)
    code, stdout, stderr = run(tmp_path, "build")
    assert code == 0, stdout + stderr
    assert reads == Counter({f"{name}.json": 1 for name in NAMES})
    assert "Reworded." in (tmp_path / "generated" / "docs" / "write_file.md").read_text(encoding="utf-8")


def test_an_edit_while_the_build_runs_is_built_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build makes what the probe read; the edit made after it is not mixed in, and since the
    record names the probed bytes, the next build sees the edit and makes it."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    reworded(tmp_path, "write_file")
    real = pipeline.load_catalog

    def edited_meanwhile(*args: object, **kwargs: object) -> object:
        reworded(tmp_path, "write_file", " Reworded twice.")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "load_catalog", edited_meanwhile)
        assert run(tmp_path, "build")[0] == 0
    page = tmp_path / "generated" / "docs" / "write_file.md"
    assert "Reworded." in page.read_text(encoding="utf-8") and "twice" not in page.read_text(encoding="utf-8")
    code, stdout, _ = run(tmp_path, "build")
    assert code == 0 and "no input changed" not in stdout
    assert "Reworded twice." in page.read_text(encoding="utf-8")
