"""A cache no one else can write: an entry forged by someone without the key is a miss.

The repro of issue 32: a tool module's entry with code added after the `__future__` import, the
file record's digest changed to match and every seal recomputed as a plain sha256 (all anyone could
compute before entries were keyed), then the next build. It must write what a `--no-cache` build
writes, and `check` must see the truth. The same holds for a poisoned `.toolgen-cache/` restored
into a clean checkout (a shared CI cache), and for the no-change record (`state.json`).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tests.build_support import run, tree, two_tools
from toolgen.incremental import cache, fastpath

NAMES = ("echo_text", "read_file")
INJECTED = "import os; os.environ['TOOLGEN_PWNED'] = '1'"
MODULE = "python/agent_tools/read_file.py"


def _plain_seal(name: str, text: str) -> bytes:
    """What anyone can compute without the key: the header of an unkeyed seal over the text."""
    body = text.encode("utf-8")
    return f"toolgen-cache {cache.FORMAT} {name} sha256:{hashlib.sha256(body).hexdigest()}".encode() + b"\n" + body


def _payload(data: bytes) -> str:
    """The text of an entry, read past its header line whatever the seal."""
    return data.partition(b"\n")[2].decode("utf-8")


def _poison(root: Path) -> None:
    """Rewrite the cache as an attacker without the key can: the read_file module's entry with code
    after the `__future__` import, the record's digest of it recomputed, every seal a plain sha256."""
    folder = root / ".toolgen-cache" / cache.FORMAT
    record = json.loads(_payload((folder / cache.RECORD).read_bytes()))
    poisoned = 0
    for entry in (folder / "module").rglob("*"):
        if not entry.is_file() or entry.name.startswith("."):
            continue
        value = json.loads(_payload(entry.read_bytes()))
        if not isinstance(value, dict) or "The `read_file` tool" not in str(value.get("text", "")):
            continue
        future = "from __future__ import annotations\n"
        text = value["text"].replace(future, f"{future}{INJECTED}\n", 1)
        entry.write_bytes(_plain_seal(entry.name, json.dumps({**value, "text": text})))
        record[entry.name][0] = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
        poisoned += 1
    assert poisoned >= 1
    (folder / cache.RECORD).write_bytes(_plain_seal(cache.RECORD, json.dumps(record)))


def _reference(root: Path, tmp: Path) -> dict[str, bytes]:
    reference = tmp / "reference"
    shutil.copytree(root / "contracts", reference / "contracts")
    assert run(reference, "build", "--no-cache")[0] == 0
    return tree(reference / "generated")


def test_a_forged_module_entry_with_a_recomputed_plain_seal_is_a_miss(tmp_path: Path) -> None:
    root = tmp_path / "project"
    two_tools(root, NAMES)
    assert run(root, "build")[0] == 0
    _poison(root)
    (root / ".toolgen-cache" / fastpath.STATE).unlink()  # or any change: the next build is a full one
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr
    assert INJECTED not in (root / "generated" / MODULE).read_text(encoding="utf-8")
    assert tree(root / "generated") == _reference(root, tmp_path)
    code, stdout, stderr = run(root, "check")
    assert code == 0, stdout + stderr


def test_a_poisoned_cache_restored_into_a_clean_checkout_is_a_miss(tmp_path: Path) -> None:
    """A shared cache restored beside a fresh checkout (its own files, the same contracts)."""
    root = tmp_path / "project"
    two_tools(root, NAMES)
    assert run(root, "build")[0] == 0
    _poison(root)
    clean = tmp_path / "clean"
    shutil.copytree(root / "contracts", clean / "contracts")
    shutil.copytree(root / "generated", clean / "generated")
    shutil.copytree(root / ".toolgen-cache", clean / ".toolgen-cache")
    (clean / "generated" / MODULE).unlink()  # the checkout's file differs: the build must write it
    assert run(clean, "build")[0] == 0
    assert INJECTED not in (clean / "generated" / MODULE).read_text(encoding="utf-8")
    assert tree(clean / "generated") == _reference(root, tmp_path)


def test_a_forged_no_change_record_is_not_believed(tmp_path: Path) -> None:
    """state.json says "nothing changed" only under the key: a record re-sealed without it, vouching
    for a module edited by hand, does not make `check` say up to date."""
    root = tmp_path / "project"
    two_tools(root, NAMES)
    assert run(root, "build")[0] == 0
    state = root / ".toolgen-cache" / fastpath.STATE
    document = json.loads(_payload(state.read_bytes()))
    module = root / "generated" / MODULE
    module.write_text(module.read_text(encoding="utf-8") + INJECTED + "\n", encoding="utf-8")
    stat = module.stat()
    document["stats"][MODULE] = [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns]
    state.write_bytes(_plain_seal(fastpath.STATE, json.dumps(document)))
    code, stdout, stderr = run(root, "check")
    assert code == 1, stdout + stderr
    assert "read_file.py" in stdout + stderr


@pytest.mark.parametrize("seal_with", ["plain", "another key"])
def test_an_entry_sealed_without_this_key_is_a_miss(tmp_path: Path, seal_with: str) -> None:
    store = cache.Store(tmp_path / ".toolgen-cache", b"k" * 32)
    store.put("ns", "ab" * 32, "the value")
    assert store.get("ns", "ab" * 32) == "the value"
    path = Path(store.entry_file("ns", "ab" * 32))
    path.write_bytes(
        _plain_seal("ab" * 32, "forged") if seal_with == "plain" else cache.seal("ab" * 32, "forged", b"x" * 32)
    )
    assert store.get("ns", "ab" * 32) is None
