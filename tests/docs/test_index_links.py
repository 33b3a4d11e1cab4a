"""The docs index renders with the links of the texts it shows (summary, deprecation note) alone,
as it does with every tool's full links: a name only some schema description mentions changes no row,
and a name the summary holds as a word or as a code span is linked either way."""

from __future__ import annotations

import pytest

from tests.factory import contract
from toolgen.catalog import Catalog, build_catalog, contract_from_document
from toolgen.render import docs
from toolgen.render.docs_index import index_view, links_for, links_in

NAMES = ("echo_text", "write_file", "read_file", "run-report")


def _catalog(texts: dict[str, tuple[str, str | bool]]) -> Catalog:
    made = []
    for name in NAMES:
        description, deprecated = texts.get(name, ("A tool.", False))
        data = contract(name, description=description, deprecated=deprecated)
        data["input_schema"]["properties"]["text"]["description"] = "Pass what write_file and read_file return."
        made.append(contract_from_document(data, f"contracts/{name}.json"))
    return build_catalog(made)


@pytest.mark.parametrize(
    "texts",
    [
        {"echo_text": ("Echo what read_file gives. Then call write_file.", False)},
        {"echo_text": ("Like `write_file`, but echoes. Also echo_text itself.", "Use `run-report` instead.")},
        {"read_file": ("Reads. See echo_text", "Replaced by write_file, see read_file.")},
        {},
    ],
)
def test_the_index_is_the_same_with_the_links_it_shows(texts: dict[str, tuple[str, str | bool]]) -> None:
    catalog = _catalog(texts)
    names = frozenset(catalog.names)
    full = {c.name: links_for(c, names) for c in catalog}
    shown = {c.name: links_in(c, docs._shown_in_index(c), names) for c in catalog}
    assert index_view(catalog, full) == index_view(catalog, shown)
    assert any(full[n] != shown[n] for n in full), "a schema text names tools the index does not show"
