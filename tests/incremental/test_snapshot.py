"""The snapshot of the loaded contracts (`toolgen.incremental.snapshot`): a file it knows with the same
text is taken as its contract (not parsed, checked nor made again), anything else is loaded as before, a
few changed files rewrite only the overlay, and no one without the cache key can make it build anything
but a contract."""

from __future__ import annotations

import dataclasses
import io
import os
import pickle
from pathlib import Path

import pytest

from benchmarks import synth_catalog
from tests.build_support import count_loading, user_key
from toolgen.catalog import Catalog
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic
from toolgen.incremental import cache, sealing, snapshot
from toolgen.pipeline import stages as pipeline
from toolgen.thresholds import Thresholds


@pytest.fixture(autouse=True)
def _fresh_fingerprints() -> None:
    cache.reset()


def _settings(root: Path, overlay_max: int = 64) -> Settings:
    settings, problems = load_settings(root)
    assert not problems
    return dataclasses.replace(settings, thresholds=Thresholds(snapshot_overlay=overlay_max))


def _load(root: Path, *, overlay_max: int = 64, read_only: bool = False) -> tuple[Catalog | None, list[Diagnostic]]:
    with cache.session(root) as store:
        assert store is not None
        store.read_only = read_only
        catalog, found, _ = pipeline.load_catalog(_settings(root, overlay_max), store=store)
    return catalog, found


def _cold(root: Path) -> Catalog:
    catalog, found, _ = pipeline.load_catalog(_settings(root))
    assert catalog is not None, found
    return catalog


def _files(root: Path) -> Path:
    return root / cache.CACHE_DIR / cache.FORMAT


def _held(root: Path, name: str) -> dict[str, snapshot.Known]:
    with cache.session(root) as store:
        assert store is not None
        return snapshot._read(store, name)


def _edit(root: Path, index: int) -> Path:
    path = sorted((root / "contracts").rglob("*.*"))[index]
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace('description = "', 'description = "New. ', 1)
        .replace('"description": "', '"description": "New. ', 1),
        encoding="utf-8",
    )
    return path


def test_every_known_file_is_taken_as_its_contract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synth_catalog.write_catalog(tmp_path, 8)
    first, _ = _load(tmp_path)
    assert set(_held(tmp_path, snapshot.BASE)) == {c.source for c in _cold(tmp_path)}
    calls = count_loading(monkeypatch, "toml", "check", "made")
    again, found = _load(tmp_path)
    assert calls == {"toml": 0, "check": 0, "made": 0}
    assert again == first == _cold(tmp_path) and not [d for d in found if d.severity == "error"]


def test_an_edited_file_is_loaded_again_and_only_the_overlay_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synth_catalog.write_catalog(tmp_path, 8)
    _load(tmp_path)
    whole = (_files(tmp_path) / snapshot.BASE).read_bytes()
    edited = _edit(tmp_path, 3)
    calls = count_loading(monkeypatch, "toml", "check", "made")
    again, _ = _load(tmp_path)
    assert calls["check"] == 1 and calls["made"] == 1
    assert again == _cold(tmp_path)
    assert (_files(tmp_path) / snapshot.BASE).read_bytes() == whole
    overlay = _held(tmp_path, snapshot.OVERLAY)
    assert list(overlay) == [tmp_path.joinpath(edited).relative_to(tmp_path).as_posix()]
    assert "New. " in overlay[next(iter(overlay))].contract.description
    calls.update(check=0, made=0)
    assert _load(tmp_path)[0] == again and calls["made"] == 0  # the overlay is read over the whole


def test_past_the_overlay_limit_the_whole_is_written_again(tmp_path: Path) -> None:
    synth_catalog.write_catalog(tmp_path, 8)
    _load(tmp_path, overlay_max=2)
    for index in (1, 2):
        _edit(tmp_path, index)
        _load(tmp_path, overlay_max=2)
    assert len(_held(tmp_path, snapshot.OVERLAY)) == 2
    removed = sorted((tmp_path / "contracts").rglob("*.*"))[5]
    removed.unlink()
    _edit(tmp_path, 4)
    catalog, _ = _load(tmp_path, overlay_max=2)
    assert _held(tmp_path, snapshot.OVERLAY) == {}
    whole = _held(tmp_path, snapshot.BASE)
    assert catalog is not None and sorted(whole) == sorted(c.source for c in catalog)  # the removed file is gone
    assert catalog == _cold(tmp_path)


def test_a_catalog_with_an_error_and_a_read_only_store_leave_no_snapshot(tmp_path: Path) -> None:
    synth_catalog.write_catalog(tmp_path, 4)
    _load(tmp_path, read_only=True)
    assert not (_files(tmp_path) / snapshot.BASE).exists()
    broken = sorted((tmp_path / "contracts").rglob("*.json"))[0]
    broken.write_text('{"name": "x"}', encoding="utf-8")
    catalog, found = _load(tmp_path)
    assert catalog is None and found
    assert not (_files(tmp_path) / snapshot.BASE).exists()


class _Runs:
    """What a forged snapshot asks the unpickler to call: `os.system` writing a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def _forge(root: Path, value: object, secret: bytes) -> None:
    stream = io.BytesIO()
    snapshot._Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    body = snapshot._version() + b"\n" + stream.getvalue()
    (_files(root) / snapshot.BASE).write_bytes(sealing._header(snapshot.BASE, body, secret) + b"\n" + body)


def test_a_sealed_snapshot_naming_a_function_builds_nothing(tmp_path: Path) -> None:
    """Even under the user's own key a snapshot can name only a contract's classes: the forged one
    that would run a command is no snapshot, and the load is the cold one."""
    synth_catalog.write_catalog(tmp_path, 4)
    first, _ = _load(tmp_path)
    assert first is not None
    marker = tmp_path / "ran"
    known = _held(tmp_path, snapshot.BASE)
    _forge(tmp_path, {rel: _Runs(marker) for rel in known}, user_key())
    again, _ = _load(tmp_path)
    assert not marker.exists()
    assert again == _cold(tmp_path)


def test_a_snapshot_sealed_without_the_key_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot with a changed contract, sealed with another key (or a plain digest anyone can
    compute), is not read: the file's own contract is loaded."""
    synth_catalog.write_catalog(tmp_path, 4)
    _load(tmp_path)
    known = _held(tmp_path, snapshot.BASE)
    forged = {
        rel: dataclasses.replace(item, contract=dataclasses.replace(item.contract, description="Forged."))
        for rel, item in known.items()
    }
    _forge(tmp_path, forged, b"another user's key")
    calls = count_loading(monkeypatch, "toml", "check", "made")
    again, _ = _load(tmp_path)
    assert again is not None and all(c.description != "Forged." for c in again)
    assert calls["made"] == 4 and again == _cold(tmp_path)
    _forge(tmp_path, forged, user_key())  # the user's own key: read, so the forgery above was refused by the seal
    assert all(c.description == "Forged." for c in _load(tmp_path)[0] or ())


def test_a_snapshot_of_another_version_is_not_unpickled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synth_catalog.write_catalog(tmp_path, 4)
    _load(tmp_path)
    monkeypatch.setattr(snapshot, "_version", lambda: b"0" * 64)
    loads: list[object] = []

    def load(self: object) -> None:
        loads.append(self)

    monkeypatch.setattr(snapshot._Unpickler, "load", load)
    cold = _cold(tmp_path)
    calls = count_loading(monkeypatch, "toml", "check", "made")
    assert _load(tmp_path)[0] == cold
    assert loads == [] and calls["made"] == 4


def test_a_snapshot_entry_under_another_path_is_none(tmp_path: Path) -> None:
    """Each item must be the contract of the file it is filed under."""
    synth_catalog.write_catalog(tmp_path, 4)
    _load(tmp_path)
    known = _held(tmp_path, snapshot.BASE)
    rels = sorted(known)
    _forge(tmp_path, {rels[0]: known[rels[1]], **{r: known[r] for r in rels[1:]}}, user_key())
    assert _held(tmp_path, snapshot.BASE) == {}


def test_a_sealed_stream_is_sealed_as_a_sealed_file_and_never_held_whole(tmp_path: Path) -> None:
    """What `write_sealed_stream` writes reads back as the body (a text body: exactly what `seal`
    makes of it), and 8 MB written in pieces are never held at once."""
    import tracemalloc

    piece = b"0123456789abcdef" * 4096  # 64 kB
    with cache.session(tmp_path) as store:
        assert store is not None
        store.write_sealed_stream("streamed", lambda out: out.write(b"some text"))
        assert (store.folder / "streamed").read_bytes() == sealing.seal("streamed", "some text", store.secret)
        tracemalloc.start()
        try:
            store.write_sealed_stream("large", lambda out: [out.write(piece) for _ in range(128)])
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 1_000_000
        body = store.read_sealed_bytes("large")
        assert body is not None and len(body) == 128 * len(piece) and bytes(body[: len(piece)]) == piece


def test_a_sealed_stream_that_fails_leaves_nothing_and_a_read_only_store_writes_none(tmp_path: Path) -> None:
    def failing(out: sealing.Sealing) -> None:
        out.write(b"half")
        raise pickle.PicklingError("cannot")

    with cache.session(tmp_path) as store:
        assert store is not None
        with pytest.raises(pickle.PicklingError):
            store.write_sealed_stream("broken", failing)
        assert not (store.folder / "broken").exists()
        assert [p.name for p in store.folder.iterdir() if p.name.startswith(".tmp-")] == []
        store.read_only = True
        store.write_sealed_stream("quiet", lambda out: out.write(b"x"))
        assert not (store.folder / "quiet").exists()


def _load_with_jobs(root: Path, jobs: int) -> Catalog | None:
    with cache.session(root) as store:
        settings = dataclasses.replace(_settings(root), jobs=jobs)
        catalog, _, _ = pipeline.load_catalog(settings, store=store)
    return catalog


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_whole_is_written_in_a_forked_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """Pickling the whole keeps a memo of every object: with workers it is done in a process of its
    own, whose heap no later fork inherits; with one job, here."""
    synth_catalog.write_catalog(tmp_path, 4)
    pids = tmp_path / "pids"
    real = snapshot._write

    def noted(store: cache.Store, name: str, known: dict[str, snapshot.Known]) -> None:
        with pids.open("a", encoding="utf-8") as out:
            out.write(f"{name} {os.getpid()}\n")
        real(store, name, known)

    monkeypatch.setattr(snapshot, "_write", noted)
    assert _load_with_jobs(tmp_path, jobs) == _cold(tmp_path)
    written = dict(line.split() for line in pids.read_text(encoding="utf-8").splitlines())
    assert (written[snapshot.BASE] != str(os.getpid())) == (jobs > 1)
    assert written[snapshot.OVERLAY] == str(os.getpid())
    assert set(_held(tmp_path, snapshot.BASE)) == {c.source for c in _cold(tmp_path)}


def test_a_forked_writer_that_dies_leaves_no_snapshot_and_fails_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synth_catalog.write_catalog(tmp_path, 4)
    monkeypatch.setattr(snapshot, "_write", lambda store, name, known: os._exit(9) if name == snapshot.BASE else None)
    assert _load_with_jobs(tmp_path, 2) == _cold(tmp_path)
    assert not (_files(tmp_path) / snapshot.BASE).exists()
