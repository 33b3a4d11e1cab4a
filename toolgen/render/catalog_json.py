"""The `catalog` target: `catalog.json`, the normalized snapshot of every contract with its digest.

It is the review surface of a change and the base that `toolgen diff` compares against. JSON allows
no comments, so the header lives in a `generated_by` key; keys follow `CONTRACT_KEYS` order and
schemas keep the author's key order (property order is meaningful to models). The contract-format
schema (`contract.schema.json`) is copied beside it: contracts point their `$schema` / `#:schema` at it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from toolgen import __version__
from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.formatschema import SCHEMA_FILE, schema_text
from toolgen.render import Artifact, RenderResult, jsontext
from toolgen.render.context import PLAIN_CONTEXT, RenderContext
from toolgen.render.units import Either, Values, as_text, batch


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render `catalog.json`, and `contract.schema.json` beside it so editors can check contracts."""
    document = {
        "generated_by": f"toolgen {__version__}; do not edit by hand",
        **catalog.json_head(),
        "tools": _tools(catalog, context),
    }
    catalog_file = context.executor.joined("catalog.json", chain(jsontext.pieces(document), ("\n",)))
    return RenderResult(artifacts=(catalog_file, Artifact(SCHEMA_FILE, schema_text())))


def _tools(catalog: Catalog, context: RenderContext) -> Iterable[object]:
    """Each tool's entry, one of two ways (the executor takes one): made one at a time as the text is
    written (`jsontext`), never all at once as data; or as units, each entry's encoded text made from
    its contract (its file and digest), so where they are remembered a one-contract change encodes
    one entry."""
    return context.executor.either(
        Either(
            whole=lambda: (contract.to_json() for contract in catalog),
            by_units=lambda: [jsontext.Raw(text) for text in context.executor.run(ENTRIES, list(catalog))],
        )
    )


ENTRIES: Values[Contract, str] = Values(
    "catalog",
    depends_on=lambda c: (c.source, c.digest),
    make=batch(lambda c: jsontext.encode(c.to_json()).text),
    encode=str,
    decode=as_text,
    raw=True,
    resident=True,
)
"""A tool's entry of catalog.json as encoded text: made from its contract (its file and digest)."""
