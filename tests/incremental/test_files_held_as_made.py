"""A target's files are made a chunk at a time and, in a build that holds its files packed, packed
as each chunk comes (`Building.files`): only one chunk's plain texts are ever held at once, where
a cold build of 10,000 contracts held every docs page plain until the docs target returned."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.render import Artifact
from toolgen.render.context import Executor
from toolgen.render.units import Files
from toolgen.thresholds import Thresholds
from toolgen.writer.outputs import Packed

PAGE = 40_000
"""Characters of each file made (different per file, so nothing is shared between them)."""


def _units(chunks: list[int]) -> Files[int]:
    def make(todo: Sequence[int]) -> list[tuple[str, None]]:
        chunks.append(len(todo))
        return [(f"{n:08d}" * (PAGE // 8) + "\n", None) for n in todo]

    return Files("test-held", depends_on=lambda n: (str(n),), path_of=lambda n: f"held/{n}.txt", make=make)


@pytest.fixture(params=[True, False], ids=["with the cache", "without it"])
def building(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Building]:
    limits = Thresholds(render_chunk=7, pack_many=20)
    if not request.param:
        yield Building(Workers(1), None, thresholds=limits)
        return
    with cache.session(tmp_path) as store:
        assert store is not None
        yield Building(Workers(1), store, thresholds=limits)


def test_files_are_made_a_chunk_at_a_time_and_packed_as_made(building: Building) -> None:
    chunks: list[int] = []
    made = building.files(_units(chunks), list(range(30)))
    assert chunks == [7, 7, 7, 7, 2]
    assert all(isinstance(f, Packed) for f, _ in made)
    assert [f.path for f, _ in made] == [f"held/{n}.txt" for n in range(30)]
    assert all(f.text == f"{n:08d}" * (PAGE // 8) + "\n" for n, (f, _) in enumerate(made))


def test_a_few_files_in_a_small_build_stay_plain(building: Building) -> None:
    made = building.files(_units([]), list(range(12)))  # under pack_many, under pack_from
    assert all(type(f) is Artifact for f, _ in made)


def test_a_large_build_packs_even_a_few_files() -> None:
    limits = Thresholds(render_chunk=7, pack_many=20, pack_from=100)
    made = Building(Workers(1), None, thresholds=limits, contracts=100).files(_units([]), list(range(3)))
    assert all(isinstance(f, Packed) for f, _ in made)


def test_only_one_chunk_of_plain_text_is_held_at_once(building: Building) -> None:
    count = 120  # 4.8 MB of plain text in all
    tracemalloc.start()
    try:
        made = building.files(_units([]), list(range(count)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(made) == count
    assert peak < 12 * PAGE * 4  # a few chunks' worth (7 files, plus the entries' JSON), never all 120


def _pieces(count: int) -> Iterator[str]:
    """A large file's text a piece at a time, as the providers write theirs (no final newline)."""
    for n in range(count):
        yield f'  {{"tool": "{n:08d}", "text": "{"x" * 400}"}},\n'
    yield "]"


def test_a_file_joined_in_a_large_build_is_packed_as_its_pieces_come() -> None:
    limits = Thresholds(pack_from=100)
    large = Building(Workers(1), None, thresholds=limits, contracts=100)
    count = 10_000  # about 4.3 MB of text
    tracemalloc.start()
    try:
        file = large.joined("providers/big.json", _pieces(count))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(file, Packed)
    plain = Artifact("providers/big.json", "".join(_pieces(count)))
    assert file.path == plain.path and file.data() == plain.data() and file.text == plain.text
    assert peak < len(plain.text) // 2  # the joined text (or its bytes) was never held whole


def test_a_file_joined_in_a_small_build_or_without_one_is_its_plain_text() -> None:
    small = Building(Workers(1), None, thresholds=Thresholds(pack_from=100), contracts=99)
    for executor in (small, Executor()):
        file = executor.joined("providers/small.json", _pieces(3))
        assert type(file) is Artifact and file.text == "".join(_pieces(3))
