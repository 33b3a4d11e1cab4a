"""The writer's short diffs stay right (true line numbers) while costing only the changed span."""

from __future__ import annotations

import difflib
import random

import pytest

from toolgen.writer import write


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


_EDGES = {
    "first line changed": (["a", "b", "c", "d"], ["A", "b", "c", "d"]),
    "last line changed": (["a", "b", "c", "d"], ["a", "b", "c", "D"]),
    "inserted at the start": (["a", "b", "c"], ["new", "a", "b", "c"]),
    "appended at the end": (["a", "b", "c"], ["a", "b", "c", "new"]),
    "first line deleted": (["a", "b", "c"], ["b", "c"]),
    "last line deleted": (["a", "b", "c"], ["a", "b"]),
    "all changed": (["a", "b"], ["x", "y", "z"]),
    "was empty": ([], ["a", "b"]),
    "now empty": (["a", "b"], []),
    "second and last lines changed": (["a", "b", "c", "d"], ["a", "B", "c", "D"]),
    "a repeated line deleted": (["a", "a", "a"], ["a", "a"]),
    "a repeated line added": (["x", "x"], ["x", "x", "x"]),
    "two changes far apart": ([f"l{i}" for i in range(30)], [f"l{i}" if i not in (3, 26) else "X" for i in range(30)]),
}


@pytest.mark.parametrize("case", sorted(_EDGES))
def test_short_diff_is_right_at_the_edges_of_a_file(case: str) -> None:
    old, new = ("".join(f"{line}\n" for line in lines).encode() for lines in _EDGES[case])
    assert write._short_diff("f", old, new) == _reference("f", old, new)


def test_short_diff_gives_difflib_only_the_changed_span(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int]] = []
    real = difflib.unified_diff

    def spying(a: list[str], b: list[str], *args: object, **kwargs: object) -> object:
        seen.append((len(a), len(b)))
        return real(a, b, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib, "unified_diff", spying)
    old = [f"line {i}\n" for i in range(1000)]
    for at in (0, 1, 500, 998, 999):
        new = list(old)
        new[at] = "changed\n"
        diff = write._short_diff("f", "".join(old).encode(), "".join(new).encode())
        assert f"-line {at}\n+changed\n" in diff
    assert seen == [(2, 2), (3, 3), (3, 3), (3, 3), (2, 2)]


@pytest.mark.parametrize(("removed", "cut"), [(8, ""), (9, "... (1 more diff lines)\n")])
def test_short_diff_says_how_many_lines_it_cut_only_when_it_cut_some(removed: int, cut: str) -> None:
    old = "".join(f"old {i}\n" for i in range(removed)).encode()
    new = "".join(f"new {i}\n" for i in range(9)).encode()
    diff = write._short_diff("f", old, new)
    assert len(diff.splitlines()) == 20 + bool(cut)
    assert diff.endswith(cut or "+new 8\n")
