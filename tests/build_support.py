"""Helpers for the tests of the pipeline, the writer and the cache.

Used by tests/pipeline/, tests/writer/ and tests/incremental/ (and the command tests)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from click.testing import CliRunner

from tests.factory import contract, write_json
from toolgen import validate
from toolgen.catalog import Contract
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.incremental import cache, cachekey, pruning
from toolgen.pipeline import stages as pipeline

T = TypeVar("T")


def run(project: Path, *args: str) -> tuple[int, str, str]:
    """`toolgen -C project ARGS` in this process: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, ["-C", str(project), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (hidden ones included) by relative path, and every folder as b"<dir>"."""
    if not folder.exists():
        return {}
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = b"<link to " + str(path.readlink()).encode() + b">"
        elif path.is_dir():
            found[rel] = b"<dir>"
        else:
            found[rel] = path.read_bytes()
    return found


def two_tools(project: Path, names: tuple[str, ...] = ("echo_text", "write_file")) -> dict[str, Path]:
    """Write a valid contract per name; the paths by name."""
    return {name: write_json(project, contract(name)) for name in names}


def reworded(project: Path, name: str, suffix: str = " Reworded.") -> None:
    """Change the description of contract `name` (every file made from it changes)."""
    data = contract(name)
    data["description"] += suffix
    write_json(project, data)


def sha(data: bytes) -> str:
    """A manifest digest."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def manifest(output: Path) -> dict[str, str]:
    """The files of the manifest in `output`."""
    files: dict[str, str] = json.loads((output / ".toolgen-manifest.json").read_text(encoding="utf-8"))["files"]
    return files


def add_to_manifest(output: Path, entries: dict[str, str]) -> None:
    """Add entries to the manifest on disk, as a person or a tool might."""
    path = output / ".toolgen-manifest.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["files"].update(entries)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def user_key() -> bytes:
    """This user's cache key (the suite's own, in the configuration folder tests/conftest.py sets)."""
    secret = cachekey.load().secret
    assert secret is not None
    return secret


def seal(name: str, text: str) -> bytes:
    """`text` sealed as toolgen seals it under `name` with this user's cache key: what a test that
    forges a well-formed entry writes."""
    return cache.seal(name, text, user_key())


def unseal(name: str, data: bytes) -> str | None:
    """The text of an entry or record toolgen sealed under `name` with this user's key; None if not intact."""
    return cache.unseal(name, data, user_key())


def generate_counting(root: Path, *, prune: bool = False) -> cache.Store:
    """Generate in memory inside a cache session (pruned after, as `toolgen build` prunes, with
    `prune`); the store says what was reused."""
    settings, problems = load_settings(root)
    assert not problems
    with cache.session(root) as store:
        assert pipeline.generate(settings, store=store).ok
        assert store is not None
        if prune:
            pruning.prune(store)
    return store


def cache_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The namespace of every cache entry read (`cache.Store.get`) from now on."""
    seen: list[str] = []
    real = cache.Store.get

    def get(self: cache.Store, namespace: str, key: str) -> str | None:
        seen.append(namespace)
        return real(self, namespace, key)

    monkeypatch.setattr(cache.Store, "get", get)
    return seen


def count_loading(monkeypatch: pytest.MonkeyPatch, *kinds: str) -> dict[str, int]:
    """How often this process, from now on, does each of `kinds` of loading work: parses TOML
    (`toml`), digests a contract (`digest`), checks a document (`check`), makes a contract from a
    document's data (`made`)."""
    calls = dict.fromkeys(kinds, 0)
    targets = {
        "toml": (tomllib, "loads"),
        "digest": (Contract, "compute_digest"),
        "check": (validate, "check_document"),
        "made": (pipeline, "contract_from_document"),
    }
    for kind in kinds:
        owner, name = targets[kind]
        monkeypatch.setattr(owner, name, _counted(getattr(owner, name), calls, kind))
    return calls


def _counted(real: Callable[..., T], calls: dict[str, int], kind: str) -> Callable[..., T]:
    def counted(*args: object, **kwargs: object) -> T:
        calls[kind] += 1
        return real(*args, **kwargs)

    return counted
