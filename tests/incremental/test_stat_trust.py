"""The writer trusts an output file without reading it only as git trusts its index: the last
recorded build verified its bytes, its stat (size, mtime, inode, status change time) has not moved,
and it was not changed in the record's own timestamp granule ("racy"). An edit that keeps size and
mtime still moves the status change time, so build and check both catch it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import synth_catalog
from tests.build_support import seal, unseal, user_key
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.incremental import cache, fastpath
from toolgen.pipeline import stages as pipeline
from toolgen.writer import write


def _invoke(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    return result.exit_code, result.output


def _project(root: Path, count: int = 3) -> Path:
    synth_catalog.write_catalog(root, count)
    code, output = _invoke(root, "build")
    assert code == 0, output
    return root


def _page(root: Path) -> Path:
    return next((root / "generated" / "docs").glob("*_00001.md"))


def _same_size_edit_keeping_mtime(path: Path) -> None:
    before = os.lstat(path)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"#", b"!", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.lstat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


@pytest.fixture(autouse=True)
def _fresh_fingerprints() -> None:
    cache.reset()


def test_an_edit_keeping_size_and_mtime_is_caught_by_check_and_build(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    page = _page(root)
    original = page.read_bytes()
    _same_size_edit_keeping_mtime(page)
    code, output = _invoke(root, "check")
    assert code == 1 and "stale" in output and "no input changed" not in output
    code, output = _invoke(root, "build")
    assert code == 1 and "TG132" in output
    assert page.read_bytes() != original  # the edit is kept


def test_an_edit_keeping_size_and_mtime_is_caught_after_a_contract_changed(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    page = _page(root)
    _same_size_edit_keeping_mtime(page)
    other = synth_catalog.contract(2)
    other["description"] += " Reworded."
    next((root / "contracts").rglob(f"{other['name']}.json")).write_text(json.dumps(other), encoding="utf-8")
    code, output = _invoke(root, "build")
    assert code == 1 and "TG132" in output and page.name in output


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    real = write.Files.same_on_disk

    def counting(self: write.Files, path: str, target: Path) -> bool:
        read.append(path)
        return real(self, path, target)

    monkeypatch.setattr(write.Files, "same_on_disk", counting)
    return read


def test_one_changed_contract_reads_only_what_changed_and_matches_a_cold_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p", 4)
    doc = synth_catalog.contract(1)
    doc["description"] += " Reworded."
    next((root / "contracts").rglob(f"{doc['name']}.json")).write_text(json.dumps(doc), encoding="utf-8")
    read = _count_reads(monkeypatch)
    code, output = _invoke(root, "build")
    assert code == 0, output
    total = len(write.read_manifest(root / "generated"))
    # the files that changed (compared, then verified once written) and the manifest, not all of them
    assert {"catalog.json", write.MANIFEST, "python/agent_tools/__init__.py"} <= set(read), read
    assert len(set(read)) < total / 2, read
    fresh = tmp_path / "fresh"
    shutil.copytree(root / "contracts", fresh / "contracts")
    assert _invoke(fresh, "build", "--no-cache")[0] == 0
    tree = {p.relative_to(fresh).as_posix(): p.read_bytes() for p in (fresh / "generated").rglob("*") if p.is_file()}
    built = {p.relative_to(root).as_posix(): p.read_bytes() for p in (root / "generated").rglob("*") if p.is_file()}
    assert built == tree


def _rerecord(root: Path, rel: str, written_ns: int) -> None:
    """Record the current stat of `rel` in the fast-path state, as a build that took it at that
    moment would, and give the record the modification time `written_ns`."""
    path = root / cache.CACHE_DIR / fastpath.STATE
    text = unseal(fastpath.STATE, path.read_bytes())
    assert text is not None
    document = json.loads(text)
    document["stats"][rel] = list(write.file_stat(root / "generated" / rel))
    path.write_bytes(seal(fastpath.STATE, json.dumps(document)))
    os.utime(path, ns=(written_ns, written_ns))


def test_a_no_change_build_reads_a_racy_file_again(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    page = _page(root)
    rel = page.relative_to(root / "generated").as_posix()
    original = page.read_bytes()
    page.write_bytes(original.replace(b"#", b"!", 1))
    _rerecord(root, rel, os.lstat(page).st_ctime_ns)  # recorded in the edit's own granule
    code, output = _invoke(root, "check")
    assert code == 1 and "stale" in output
    page.write_bytes(original)
    _rerecord(root, rel, os.lstat(page).st_ctime_ns)  # racy, but holding the recorded bytes
    code, output = _invoke(root, "check")
    assert code == 0 and "no input changed" in output


def test_a_racy_file_is_read_again(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    page = _page(root)
    rel = page.relative_to(root / "generated").as_posix()
    page.write_bytes(page.read_bytes().replace(b"#", b"!", 1))
    changed = os.lstat(page).st_ctime_ns
    settings = load_settings(root)[0]
    # recorded in the same granule as the edit: racy, so not trusted, and the build finds the edit
    _rerecord(root, rel, changed)
    assert rel not in fastpath.trusted(settings, user_key()) and fastpath.trusted(settings, user_key())
    code, output = _invoke(root, "build")
    assert code == 1 and "TG132" in output
    # recorded after it: the stat vouches for the bytes the record saw (which is what git does)
    _rerecord(root, rel, changed + 1)
    assert rel in fastpath.trusted(settings, user_key())


def test_trust_follows_the_recorded_manifest_bytes(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    settings = load_settings(root)[0]
    manifest = root / "generated" / write.MANIFEST
    digests = write.read_manifest(root / "generated")
    found = fastpath.trusted(settings, user_key())
    assert found and all(digest == digests[rel] for rel, (_, digest) in found.items())
    manifest.write_bytes(manifest.read_bytes())  # the same bytes, written again: still the record's
    assert fastpath.trusted(settings, user_key()) == found
    manifest.write_bytes(manifest.read_bytes().replace(b"sha256:", b"sha256:0", 1))  # claims other digests
    assert fastpath.trusted(settings, user_key()) == {}


def test_a_damaged_record_trusts_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    settings = load_settings(root)[0]
    path = root / cache.CACHE_DIR / fastpath.STATE
    path.write_bytes(path.read_bytes().replace(b'"stats"', b'"stat!"', 1))
    assert fastpath.trusted(settings, user_key()) == {}


def _reworded(root: Path, index: int) -> None:
    doc = synth_catalog.contract(index)
    doc["description"] += " Reworded."
    next((root / "contracts").rglob(f"{doc['name']}.json")).write_text(json.dumps(doc), encoding="utf-8")


def test_a_trusted_file_the_build_changes_is_planned_without_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose stat still vouches for the bytes the last build wrote is known to differ from a
    new artifact by its digest alone; the plan names what it held (for the journal) all the same."""
    root = _project(tmp_path / "p", 4)
    _reworded(root, 1)
    settings, _ = load_settings(root)
    with cache.session(root) as store:
        result = pipeline.generate(settings, store=store)
    trusted = fastpath.trusted(settings, user_key())
    before = {rel: write.file_digest(root / "generated" / rel) for rel in trusted}
    read = _count_reads(monkeypatch)
    digests: list[Path] = []
    real = write.file_digest
    monkeypatch.setattr(write, "file_digest", lambda path: digests.append(path) or real(path))
    change = write.plan(result.artifacts, settings.output_dir, trusted=trusted)
    assert "catalog.json" in change.write and "catalog.json" in trusted
    manifest = root / "generated" / write.MANIFEST
    assert (read, digests) == ([write.MANIFEST], [manifest])  # only the manifest, which no record vouches for
    assert {rel: change.before[rel] for rel in change.write if rel in trusted} == {
        rel: before[rel] for rel in change.write if rel in trusted
    }
    assert change.edited == () and change.foreign == ()


def test_an_edit_keeping_size_and_mtime_of_a_file_the_build_changes_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    catalog = root / "generated" / "catalog.json"
    _same_size_edit_keeping_mtime(catalog)
    edited = catalog.read_bytes()
    _reworded(root, 2)
    code, output = _invoke(root, "build")
    assert code == 1 and "TG132" in output and "catalog.json" in output
    assert catalog.read_bytes() == edited
