"""The docs' view of the providers' declarations keeps no copy of what it hands out: in a cold
build each tool's declarations are cut from the cached runs when its page asks, and a copy kept per
tool until the last page was the largest part of the peak memory past 2,000 contracts."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator, Mapping

from toolgen.render import jsontext
from toolgen.render.providers import _Pairs

NAMES = [f"tool_{i:04d}" for i in range(400)]


class _Cutting(Mapping[str, jsontext.Raw]):
    """Like the cached runs' entries: each look-up cuts a fresh text out of one long run text."""

    def __init__(self, file: str) -> None:
        self._run = "".join(f'{{"name": "{n}", "description": "{file} {"x" * 4000}"}}' for n in NAMES)
        self._width = len(self._run) // len(NAMES)

    def __getitem__(self, name: str) -> jsontext.Raw:
        start = NAMES.index(name) * self._width
        return jsontext.Raw(self._run[start : start + self._width])

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


def test_each_tool_is_cut_when_asked_and_nothing_is_kept() -> None:
    files = [("mcp.json", _Cutting("mcp.json")), ("openai_chat.json", _Cutting("openai_chat.json"))]
    pairs = _Pairs(NAMES, files)
    first = pairs["tool_0007"]
    assert [file for file, _ in first] == ["openai_chat.json", "mcp.json"]  # FILES order
    assert first == pairs["tool_0007"] and '"tool_0007"' in first[1][1]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for name in NAMES:
            assert len(pairs[name]) == 2
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    every_text = 2 * len(NAMES) * 4000
    assert held < every_text / 20, f"{held} bytes kept after reading {every_text} bytes of declarations"
