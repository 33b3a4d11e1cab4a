"""The writer's short diffs stay right (true line numbers) while costing only the changed span."""

from __future__ import annotations

import difflib
import random

import pytest

from toolgen.build import write


def _reference(path: str, old: bytes, new: bytes) -> str:
    lines = list(
        difflib.unified_diff(
            old.decode().splitlines(keepends=True),
            new.decode().splitlines(keepends=True),
            f"{path} (on disk)",
            f"{path} (expected)",
            n=1,
        )
    )
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:20])
    return shown + (f"... ({len(lines) - 20} more diff lines)\n" if len(lines) > 20 else "")


@pytest.mark.parametrize("seed", range(40))
def test_short_diff_equals_a_full_difflib_diff(seed: int) -> None:
    rng = random.Random(seed)
    old = [f"line {i} {rng.randrange(10)}\n" for i in range(rng.randrange(1, 120))]
    new = list(old)
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(new) + 1)
        choice = rng.randrange(3)
        if choice == 0:
            new.insert(at, f"inserted {rng.random()}\n")
        elif choice == 1 and at < len(new):
            del new[at]
        elif at < len(new):
            new[at] = f"changed {rng.random()}\n"
    if new == old:
        new.append("tail\n")
    a, b = "".join(old).encode(), "".join(new).encode()
    assert write._short_diff("f", a, b) == _reference("f", a, b)


def test_a_one_line_change_in_a_huge_file_is_cheap_and_numbered_right() -> None:
    old = [f'  "key_{i}": {i},\n' for i in range(200_000)]
    new = list(old)
    new[150_000] = '  "key_150000": -1,\n'
    diff = write._short_diff("catalog.json", "".join(old).encode(), "".join(new).encode())
    assert "@@ -150000,3 +150000,3 @@" in diff
    assert '-  "key_150000": 150000,' in diff and '+  "key_150000": -1,' in diff


def test_plan_computes_diffs_only_when_read(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    from toolgen.render import Artifact

    out = Path(str(tmp_path))
    (out / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    change = write.plan([Artifact("a.txt", "one\n2\n")], out)
    assert isinstance(change.diffs, write.LazyDiffs) and list(change.diffs) == ["a.txt"]
    assert "-two" in change.diffs["a.txt"] and "+2" in change.diffs["a.txt"]
