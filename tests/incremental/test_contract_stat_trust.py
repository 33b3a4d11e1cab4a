"""The no-change probe reads a contract only when its stat moved since the last build read it.

A build records, for each contract it read, the stat taken just before reading and the digest of
the bytes read, for files whose status had last changed well before the probe (`SETTLED_NS`); the
next probe takes that digest without reading a file whose stat is still the recorded one. Any write
moves the status change time, which no program sets back, so an edit keeping size and mtime is read."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

import toolgen
from benchmarks import synth_catalog
from tests.build_support import user_key
from toolgen.config import Settings, load_settings
from toolgen.incremental import cache, fastpath

FUTURE = 10**19
"""A `settled_before` later than any file's status change: every contract counts as settled."""

SETTLE_SECONDS = fastpath.SETTLED_NS / 1e9 + 0.1


@pytest.fixture(autouse=True)
def _fresh_fingerprints() -> None:
    cache.reset()


def _settings(root: Path, count: int = 4) -> Settings:
    synth_catalog.write_catalog(root, count)
    settings, problems = load_settings(root)
    assert not problems
    return settings


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    read: list[Path] = []
    original = fastpath.read_contract_bytes

    def counted(path: Path, *args: int) -> bytes:
        read.append(path)
        return original(path, *args)

    monkeypatch.setattr(fastpath, "read_contract_bytes", counted)
    return read


def _edit_keeping_size_and_mtime(path: Path) -> None:
    before = os.stat(path)
    data = path.read_bytes()
    first = re.search(rb'description"?\s*[:=]\s*"+(\w)', data)  # the description's first letter
    assert first is not None
    at = first.start(1)
    path.write_bytes(data[:at] + data[at : at + 1].swapcase() + data[at + 1 :])
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert path.read_bytes() != data
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def test_a_contract_whose_stat_is_recorded_is_not_read_and_gives_the_same_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(tmp_path)
    first = fastpath.probe(settings, settled_before=FUTURE)
    assert len(first.seen) == 4 and len(first.contents) == 4
    read = _counting_reads(monkeypatch)
    again = fastpath.probe(settings, first.seen)
    assert read == [] and again.contents == {}
    assert again.key == first.key is not None


def test_an_edit_keeping_size_and_mtime_is_read_and_changes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(tmp_path)
    first = fastpath.probe(settings, settled_before=FUTURE)
    rel = sorted(first.seen)[1]
    edited = settings.contracts_dir / rel
    _edit_keeping_size_and_mtime(edited)
    read = _counting_reads(monkeypatch)
    again = fastpath.probe(settings, first.seen)
    assert read == [edited]
    assert again.key != first.key
    assert again.key == fastpath.probe(settings).key  # the key of reading every file


def test_a_contract_changed_just_before_the_probe_vouches_for_nothing(tmp_path: Path) -> None:
    settings = _settings(tmp_path)  # every file was written a moment ago: within SETTLED_NS
    assert fastpath.probe(settings).seen == {}
    past = time.time_ns() - 3600 * 10**9
    assert fastpath.probe(settings, settled_before=past).seen == {}


def test_a_build_records_what_it_read_and_the_next_no_change_build_reads_no_contract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(tmp_path)
    assert toolgen.build_project(settings).ok
    first = fastpath.recorded(settings, user_key())
    assert first is not None and first.seen == {}  # every contract was written a moment ago
    time.sleep(SETTLE_SECONDS)  # the contracts settle (`SETTLED_NS`)
    assert toolgen.build_project(settings).fast  # the shortcut adds them to the record
    recorded = fastpath.recorded(settings, user_key())
    assert recorded is not None and len(recorded.seen) == 4
    assert recorded.written == first.written  # the record's time, by which outputs are racy, stays
    read = _counting_reads(monkeypatch)
    assert toolgen.build_project(settings).fast and read == []
    edited = settings.contracts_dir / sorted(recorded.seen)[0]
    _edit_keeping_size_and_mtime(edited)
    assert fastpath.probe(settings, recorded.seen).key != recorded.key and read == [edited]
    report = toolgen.build_project(settings)
    assert report.ok and not report.fast
    assert any(Path(rel).stem == edited.stem for rel in report.written)  # the edit reached the output
