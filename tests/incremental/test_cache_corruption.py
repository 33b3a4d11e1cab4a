"""A cache entry that is not exactly what toolgen stored under its key is a miss: never output, never a crash.

Every kind of entry (loaded and validated contracts, the snapshot of them and its overlay, models,
tool modules, shared modules, black, docs pages and their links, provider entries and runs, the
no-change record `state.json` and the file record that lets a build skip unchanged pages and
modules unread) is corrupted each way: edited
so it stays valid JSON, truncated, replaced by an entry of another kind (foreign), swapped with
another entry of its kind, given values of the wrong types, made binary, emptied. The build and
`check` must then say and write exactly what a `--no-cache` build does.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.build_support import run as run_once
from tests.build_support import seal, tree
from tests.factory import contract, write_json
from toolgen.incremental import cache, executor, pruning, snapshot

CACHE = ".toolgen-cache"


def run(project: Path, *args: str) -> tuple[int, str, str]:
    """A run of the command (no memo lives in the process between runs: every cache entry is read
    from disk)."""
    return run_once(project, *args)


def _split(data: bytes) -> tuple[bytes, bytes]:
    """(header, JSON body) of an entry: whatever precedes the JSON value on its first line, and the value."""
    try:
        json.loads(data)
    except ValueError:
        head, _, body = data.partition(b"\n")
        return head + b"\n", body
    return b"", data


def _edited(value: object) -> tuple[object, bool]:
    """`value` with its first text changed (a warning added to an empty list of findings, or the
    diagnostics of the no-change record dropped)."""
    if isinstance(value, str):
        return value.replace("e", "E", 1) + " (edited)", True
    if isinstance(value, dict):
        if value.get("diagnostics"):  # the no-change record: say nothing of its warnings
            return {**value, "diagnostics": []}, True
        if value.get("found") == []:
            warning = {"file": "contracts/x.json", "pointer": "", "line": None, "column": None}
            return {**value, "found": [{**warning, "code": "TG201", "severity": "warning", "message": "forged"}]}, True
        for key, item in value.items():
            changed, done = _edited(item)
            if done:
                return {**value, key: changed}, True
    if isinstance(value, list):
        for index, item in enumerate(value):
            changed, done = _edited(item)
            if done:
                return [*value[:index], changed, *value[index + 1 :]], True
    return value, False


def _kind(path: Path) -> str:
    """An entry's kind: its namespace; `state` for the no-change record, `record` for the file record,
    `used` for the list pruning reads, the snapshot's two files by their names."""
    named = {"state.json": "state", cache.RECORD: "record", pruning.USED: "used"}
    named |= {snapshot.BASE: snapshot.BASE, snapshot.OVERLAY: snapshot.OVERLAY}
    return named.get(path.name, path.parent.parent.name)


def _entries(root: Path) -> dict[str, list[Path]]:
    """Every cache entry by kind (`_kind`)."""
    kinds: dict[str, list[Path]] = {}
    for path in sorted((root / CACHE).rglob("*")):
        if path.is_file() and path.name != ".gitignore":
            kinds.setdefault(_kind(path), []).append(path)
    return kinds


def _rewrite_body(path: Path, change: Callable[[bytes], bytes]) -> None:
    head, body = _split(path.read_bytes())
    path.write_bytes(head + change(body))


def _edit(paths: list[Path], others: dict[str, list[Path]]) -> None:
    for path in paths:
        _rewrite_body(path, _edited_body)


def _edited_body(body: bytes) -> bytes:
    """The body with its first text changed: a value of JSON data, a raw text (`executor.RAW`), or
    one byte of the snapshot's pickle."""
    if _pickled(body):
        middle = len(body) // 2
        return body[:middle] + bytes([body[middle] ^ 1]) + body[middle + 1 :]
    if body.startswith(executor.RAW.encode()):
        return body.replace(b"e", b"E", 1) + b" (edited)"
    value, done = _edited(json.loads(body))
    if not done and isinstance(value, dict) and value:  # no text in it (a table of empty lists): a key
        first = next(iter(value))
        value = {f"{first} (edited)": value[first], **{k: v for k, v in value.items() if k != first}}
    return json.dumps(value).encode()


def _pickled(body: bytes) -> bool:
    """Whether an entry's body is the snapshot's: a version line, then a pickle."""
    line, newline, rest = body.partition(b"\n")
    return bool(newline) and len(line) == 64 and rest.startswith(b"\x80")


def _truncate(paths: list[Path], others: dict[str, list[Path]]) -> None:
    for path in paths:
        _rewrite_body(path, lambda body: body[: len(body) // 2])


def _foreign(paths: list[Path], others: dict[str, list[Path]]) -> None:
    kind = _kind(paths[0])
    donor = next(p for k, group in sorted(others.items()) if k != kind for p in group)
    for path in paths:
        path.write_bytes(donor.read_bytes())


def _swap(paths: list[Path], others: dict[str, list[Path]]) -> None:
    if len(paths) < 2:
        _wrong_types(paths, others)
        return
    contents = [p.read_bytes() for p in paths]
    for path, data in zip(paths, contents[1:] + contents[:1], strict=True):
        path.write_bytes(data)


def _wrong_types(paths: list[Path], others: dict[str, list[Path]]) -> None:
    for index, path in enumerate(paths):
        shape = [b'{"a": 1}', b"null", b'[1, "x"]', b"42", b'{"key": 1, "stats": []}'][index % 5]
        _rewrite_body(path, lambda body, shape=shape: shape)  # type: ignore[misc]


def _forged(paths: list[Path], others: dict[str, list[Path]]) -> None:
    """Values of the wrong shape under a seal that matches them (as toolgen seals an entry): a decode
    that does not check shapes would crash or write garbage."""
    for index, path in enumerate(paths):
        shape = ['{"a": 1}', "null", '[1, "x"]', "42", '{"OpenAI": {"entries": 1}}'][index % 5]
        path.write_bytes(seal(path.name, shape))


def _binary(paths: list[Path], others: dict[str, list[Path]]) -> None:
    for path in paths:
        path.write_bytes(b"\xff\xfe\x00\x81not text")


def _empty(paths: list[Path], others: dict[str, list[Path]]) -> None:
    for path in paths:
        path.write_bytes(b"")


WAYS = {
    "edited": _edit,
    "truncated": _truncate,
    "foreign": _foreign,
    "swapped": _swap,
    "wrong-types": _wrong_types,
    "forged": _forged,
    "binary": _binary,
    "empty": _empty,
}
KINDS = [
    "contract",
    snapshot.BASE,
    snapshot.OVERLAY,
    "models",
    "module",
    "black",
    "docs",
    "providers",
    "catalog",
    "state",
    "record",
    "used",
    "black-pass",
    "docs-links",
    "provider-runs",
    "schemas",
    "docs-index",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], str]:
    """A project built with the cache; the output and the diagnostics of a `--no-cache` build of it."""
    root = tmp_path_factory.mktemp("cached")
    write_json(root, contract("echo_text", description="Echo text."))  # a TG201 warning
    write_json(root, contract("write_file"))
    write_json(root, contract("read_file"))
    code, _, stderr = run(root, "build")
    assert code == 0
    assert "TG201" in stderr
    assert set(_entries(root)) == set(KINDS)
    reference = tmp_path_factory.mktemp("reference")
    shutil.copytree(root / "contracts", reference / "contracts")
    code, _, expected_stderr = run(reference, "build", "--no-cache")
    assert code == 0 and expected_stderr == stderr
    return root, tree(reference / "generated"), expected_stderr


DIAGONAL = {(way, KINDS[index % len(KINDS)]) for index, way in enumerate(WAYS)}
"""The default tier's cases: every way and every kind at least once; the whole matrix is `slow`."""
CASES = [
    pytest.param(way, kind, id=f"{way}-{kind}", marks=() if (way, kind) in DIAGONAL else pytest.mark.slow)
    for way in WAYS
    for kind in KINDS
]


@pytest.mark.parametrize(("way", "kind"), CASES)
def test_a_corrupt_entry_is_a_miss(
    built: tuple[Path, dict[str, bytes], str], tmp_path: Path, way: str, kind: str
) -> None:
    source, expected, expected_stderr = built
    root = tmp_path / "p"
    shutil.copytree(source, root)
    assert run(root, "build")[0] == 0  # the copy's own no-change record (new inodes)
    code, stdout, _ = run(root, "check")
    assert code == 0 and "no input changed" in stdout
    entries = _entries(root)
    WAYS[way](entries[kind], entries)
    if kind == "models":  # read only when a tool module is made again
        for path in entries["module"]:
            path.unlink()
    if kind == "contract":  # read only for a file the snapshot does not know
        entries[snapshot.BASE][0].unlink()
    if kind != "state":
        (root / CACHE / "state.json").unlink()
    code, stdout, stderr = run(root, "check")
    assert (code, stderr) == (0, expected_stderr), stdout + stderr
    if kind != "state":
        WAYS[way](_entries(root)[kind], _entries(root))  # check rewrote nothing, but be sure
        shutil.rmtree(root / "generated")
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr
    assert stderr == expected_stderr
    assert tree(root / "generated") == expected
    code, stdout, stderr = run(root, "build")
    assert (code, stderr) == (0, expected_stderr) and "nothing changed" in stdout
