"""`Building.table`: one entry holds a small value per item; only the items it lacks are computed, and it
holds exactly the items of the last build. The docs pages' links are remembered in one."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.build_support import reworded, run, two_tools, unseal
from tests.factory import contract, write_json
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.render import docs, docs_index, python_models
from toolgen.render.units import Table

NAMES = ("echo_text", "write_file", "read_file")


def _table(
    items: Sequence[str], computed: list[str], decode: Any = str, store: cache.Store | None = None
) -> list[str]:
    def compute(todo: Sequence[str]) -> list[str]:
        computed.extend(todo)
        return [item.upper() for item in todo]

    units = Table("test-table", ("shared",), item_key=lambda i: i, make=compute, encode=str, decode=decode)
    return Building(Workers(1), store).table(units, items)


def _entry(root: Path) -> Any:
    [path] = (root / cache.CACHE_DIR).rglob("test-table/*/*")
    return json.loads(unseal(path.name, path.read_bytes()) or "null")


def test_only_the_items_the_table_lacks_are_computed(tmp_path: Path) -> None:
    computed: list[str] = []
    with cache.session(tmp_path) as store:
        assert _table(["a", "b"], computed, store=store) == ["A", "B"]
    with cache.session(tmp_path) as store:
        assert _table(["b", "c"], computed, store=store) == ["B", "C"]
    assert computed == ["a", "b", "c"]
    assert _entry(tmp_path) == {"b": "B", "c": "C"}  # exactly the items of the last build


def test_a_value_decode_refuses_is_computed_again(tmp_path: Path) -> None:
    computed: list[str] = []
    with cache.session(tmp_path) as store:
        _table(["a", "b"], computed, store=store)

    def decode(value: Any) -> str:
        if value == "A":
            raise ValueError("refused")
        return str(value)

    with cache.session(tmp_path) as store:
        assert _table(["a", "b"], computed, decode, store=store) == ["A", "B"]
    assert computed == ["a", "b", "a"]


def test_without_a_session_it_computes(tmp_path: Path) -> None:
    computed: list[str] = []
    assert _table(["a"], computed) == ["A"] and computed == ["a"]
    assert not (tmp_path / cache.CACHE_DIR).exists()


@pytest.fixture
def walked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The contracts whose texts the docs search for tool names."""
    names: list[str] = []
    real = docs_index.links_for

    def links_for(found: Any, catalog_names: frozenset[str]) -> dict[str, str]:
        names.append(found.name)
        return real(found, catalog_names)

    monkeypatch.setattr(docs, "links_for", links_for)
    return names


def test_one_changed_contract_is_the_only_one_searched_for_links(tmp_path: Path, walked: list[str]) -> None:
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    assert sorted(walked) == sorted(NAMES)
    walked.clear()
    reworded(tmp_path, "write_file", " See read_file.")
    assert run(tmp_path, "build")[0] == 0
    assert walked == ["write_file"]
    page = (tmp_path / "generated" / "docs" / "write_file.md").read_text(encoding="utf-8")
    assert "[read_file](read_file.md)" in page


def test_a_tool_that_comes_is_linked_from_the_pages_that_name_it(tmp_path: Path, walked: list[str]) -> None:
    two_tools(tmp_path, ("echo_text",))
    data = contract("write_file")
    data["description"] += " Check it with read_file."
    write_json(tmp_path, data)
    assert run(tmp_path, "build")[0] == 0
    page = tmp_path / "generated" / "docs" / "write_file.md"
    assert "(read_file.md)" not in page.read_text(encoding="utf-8")
    walked.clear()
    write_json(tmp_path, contract("read_file"))
    assert run(tmp_path, "build")[0] == 0
    assert sorted(walked) == sorted(NAMES)  # other names: every tool is searched again
    assert "[read_file](read_file.md)" in page.read_text(encoding="utf-8")


def test_a_page_is_made_again_when_only_its_declarations_change(tmp_path: Path) -> None:
    """A page is keyed on what decides its declarations (the providers' key of the tool), not their
    texts: a setting that changes only what a provider declares still makes it again."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    page = tmp_path / "generated" / "docs" / "echo_text.md"
    before = page.read_text(encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text('[providers.exclude]\ngemini = ["echo_text"]\n', encoding="utf-8")
    code, stdout, stderr = run(tmp_path, "build")
    assert code == 0, stdout + stderr
    after = page.read_text(encoding="utf-8")
    assert after != before and "left out of gemini.json" in after
    reference = tmp_path.parent / f"{tmp_path.name}-reference"
    for folder in ("contracts",):
        shutil.copytree(tmp_path / folder, reference / folder)
    shutil.copy(tmp_path / "toolgen.toml", reference / "toolgen.toml")
    assert run(reference, "build", "--no-cache")[0] == 0
    assert (reference / "generated" / "docs" / "echo_text.md").read_text(encoding="utf-8") == after


def test_one_changed_contract_is_the_only_one_whose_schemas_are_digested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The models of the modules a build leaves unread are kept by their schemas' digest, which is
    remembered by contract digest: one changed contract is the only one written out as JSON again."""
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    digested: list[str] = []
    real = python_models.schemas_digest

    def schemas_digest(found: Any) -> str:
        digested.append(found.name)
        return real(found)

    monkeypatch.setattr(python_models, "schemas_digest", schemas_digest)
    reworded(tmp_path, "write_file")
    assert run(tmp_path, "build")[0] == 0
    assert digested == ["write_file", "write_file"]  # the table's miss, and its module's models key


def test_one_changed_contract_is_the_only_row_of_the_index_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two_tools(tmp_path, NAMES)
    assert run(tmp_path, "build")[0] == 0
    made: list[str] = []
    real = docs.index_rows
    monkeypatch.setattr(docs, "index_rows", lambda found, links: made.append(found.name) or real(found, links))
    reworded(tmp_path, "write_file", " See read_file.")
    assert run(tmp_path, "build")[0] == 0
    assert made == ["write_file"]
    index = (tmp_path / "generated" / "docs" / "README.md").read_text(encoding="utf-8")
    reference = tmp_path.parent / f"{tmp_path.name}-plain"
    shutil.copytree(tmp_path / "contracts", reference / "contracts")
    assert run(reference, "build", "--no-cache")[0] == 0
    assert (reference / "generated" / "docs" / "README.md").read_text(encoding="utf-8") == index
