"""Short unified diffs of a generated file against the file on disk, as `check` prints them."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def short_diff(path: str, old: bytes, new: bytes, limit: int = 20) -> str:
    """A unified diff of `old` (on disk) against `new` (expected), at most `limit` lines of it."""
    try:
        old_lines = old.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return "(binary content differs)\n"
    new_lines = new.decode("utf-8").splitlines(keepends=True)
    # difflib is quadratic in the lines it is given: give it only the span between the common
    # head and tail (plus one line of context), then put the true line numbers back in the hunks.
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < min(len(old_lines), len(new_lines)) - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    skip = max(head - 1, 0)
    old_span, new_span = (
        old_lines[skip : len(old_lines) - max(tail - 1, 0)],
        new_lines[skip : len(new_lines) - max(tail - 1, 0)],
    )
    lines = list(difflib.unified_diff(old_span, new_span, f"{path} (on disk)", f"{path} (expected)", n=1))
    lines = [_shift_hunk(line, skip) for line in lines]
    more = len(lines) - limit
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:limit])
    return shown + (f"... ({more} more diff lines)\n" if more > 0 else "")


_HUNK_RE = re.compile(r"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")


def _shift_hunk(line: str, offset: int) -> str:
    """A hunk header with its line numbers moved down by `offset` (other lines unchanged)."""
    match = _HUNK_RE.match(line) if offset and line.startswith("@@") else None
    if match is None:
        return line
    old_start, old_len, new_start, new_len = match.groups()
    shifted = f"@@ -{_moved(old_start, old_len, offset)}{old_len} +{_moved(new_start, new_len, offset)}{new_len} @@"
    return shifted + line[match.end() :]


def _moved(start: str, length: str, offset: int) -> int:
    # an empty range (",0") names the line before it; it moves all the same
    return int(start) + offset if int(start) or length != ",0" else offset


class LazyDiffs(Mapping[str, str]):
    """Short diffs by path, computed only when read: a build never pays for them, `check` does.

    Neither side is held meanwhile: the old bytes are read from the output folder again, the new
    ones made from the files of the plan.
    """

    def __init__(self, paths: Iterable[str], files: Mapping[str, bytes], output_dir: Path) -> None:
        self._paths = list(paths)
        self._files = files
        self._output_dir = output_dir
        self._done: dict[str, str] = {}

    def __getitem__(self, path: str) -> str:
        if path not in self._done:
            if path not in self._paths:
                raise KeyError(path)
            old = _read(self._output_dir / path) or b""
            self._done[path] = short_diff(path, old, self._files[path])
        return self._done[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)
