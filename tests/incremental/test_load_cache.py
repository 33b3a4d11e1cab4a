"""Loading through the build cache (`toolgen.incremental.loadcache`) gives the catalog a cold load gives:
a TOML file's data is read back, not parsed again, no file is checked and no contract digested twice; a damaged
entry is a miss; data JSON cannot hold exactly is never stored."""

from __future__ import annotations

import datetime
import math
from pathlib import Path

import pytest

from benchmarks import synth_catalog
from tests.build_support import count_loading
from toolgen.catalog import Catalog, Contract
from toolgen.config import load_settings
from toolgen.incremental import cache, loadcache, snapshot
from toolgen.pipeline import stages as pipeline


@pytest.fixture(autouse=True)
def _fresh_fingerprints() -> None:
    cache.reset()


def _catalog(root: Path, *, cached: bool = True) -> tuple[Catalog, cache.Store | None]:
    settings, problems = load_settings(root)
    assert not problems
    with cache.session(root, enabled=cached) as store:
        catalog, found, _ = pipeline.load_catalog(settings, store=store)
    assert catalog is not None, found
    return catalog, store


def test_a_second_load_parses_no_toml_and_digests_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synth_catalog.write_catalog(tmp_path, 8)
    assert any(tmp_path.rglob("*.toml")) and any(tmp_path.rglob("*.json"))
    cold, _ = _catalog(tmp_path, cached=False)
    first, store = _catalog(tmp_path)
    assert store is not None and store.missed == {"contract": 8}
    calls = count_loading(monkeypatch, "toml", "digest", "check")
    again, store = _catalog(tmp_path)
    assert calls == {"toml": 0, "digest": 0, "check": 0}
    assert store is not None and store.misses == 0
    assert cold == first == again  # every field of every contract, digests included


def test_a_changed_file_is_parsed_and_digested_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synth_catalog.write_catalog(tmp_path, 8)
    _catalog(tmp_path)
    toml = sorted(tmp_path.rglob("*.toml"))[0]
    toml.write_text(toml.read_text(encoding="utf-8").replace('description = "', 'description = "New. ', 1))
    calls = count_loading(monkeypatch, "toml", "digest", "check")
    again, _ = _catalog(tmp_path)
    assert calls == {"toml": 1, "digest": 1, "check": 1}
    assert again == _catalog(tmp_path, cached=False)[0]


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    synth_catalog.write_catalog(tmp_path, 4)
    cold, _ = _catalog(tmp_path, cached=False)
    _catalog(tmp_path)
    (tmp_path / cache.CACHE_DIR / cache.FORMAT / snapshot.BASE).unlink()  # else the entries are not read
    for entry in (tmp_path / cache.CACHE_DIR / cache.FORMAT / loadcache.NAMESPACE).rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes().replace(b"sha256:", b"sha256:0", 1))
    again, store = _catalog(tmp_path)
    assert store is not None and store.missed.get(loadcache.NAMESPACE) == 4
    assert again == cold


@pytest.mark.parametrize(
    "data", [{"when": datetime.date(2026, 1, 1)}, {"x": math.nan}, {"x": [math.inf]}, {"t": datetime.time(1, 2)}]
)
def test_data_json_cannot_hold_exactly_is_not_stored(data: dict[str, object]) -> None:
    assert not loadcache._exact_json(data)


def test_plain_data_is_stored() -> None:
    assert loadcache._exact_json({"a": [1, 2.5, -0.0, True, None, "é"], "b": {"c": ""}})


def test_data_nested_past_json_recursion_is_not_stored() -> None:
    """A TOML contract nested deeper than json can write (validation refuses it, TG2xx) must not
    turn the build into an internal error while the loader decides whether to remember its data."""
    from toolgen.incremental.loadcache import _exact_json

    deep: dict[str, object] = {"type": "string"}
    for _ in range(5000):
        deep = {"properties": {"a": deep}}
    assert _exact_json(deep) is False
    assert _exact_json({"input_schema": {"type": "object"}}) is True


def test_a_file_known_to_pass_is_parsed_frozen_and_taken_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose entry holds its checks and its contract's digest is parsed read-only, and its
    contract takes the parsed schemas as they are (no second copy); the catalog is the cold one.
    (Without the snapshot of the loaded contracts, which would give the contract itself.)"""
    synth_catalog.write_catalog(tmp_path, 8)
    cold, _ = _catalog(tmp_path, cached=False)
    _, store = _catalog(tmp_path)
    assert store is not None
    (store.folder / snapshot.BASE).unlink()
    made: list[bool] = []
    real = pipeline.contract_from_document

    def spied(data: object, source: str, digest: str | None = None, *, frozen: bool = False) -> Contract:
        made.append(frozen)
        contract = real(data, source, digest, frozen=frozen)  # type: ignore[arg-type]
        if frozen:
            assert contract.input_schema is data["input_schema"]  # type: ignore[index]
        return contract

    monkeypatch.setattr(pipeline, "contract_from_document", spied)
    again, _ = _catalog(tmp_path)
    assert made == [True] * 8
    assert again == cold


def test_a_name_taken_by_a_known_file_and_a_new_one_is_refused(tmp_path: Path) -> None:
    """The known file's data is read-only now; its name still counts against a new file's."""
    synth_catalog.write_catalog(tmp_path, 3)
    _catalog(tmp_path)
    known = sorted(tmp_path.rglob("*.json"))[0]
    (known.parent / "copy_of_it.json").write_text(known.read_text(encoding="utf-8"), encoding="utf-8")
    settings, _ = load_settings(tmp_path)
    with cache.session(tmp_path) as store:
        catalog, found, _ = pipeline.load_catalog(settings, store=store)
    assert catalog is None
    assert sum(d.code == "TG109" for d in found) == 2
