"""The `catalog` target: `catalog.json`, the normalized snapshot of every contract with its digest.

It is the review surface of a change and the base that `toolgen diff` compares against. JSON allows
no comments, so the header lives in a `generated_by` key; keys follow `CONTRACT_KEYS` order and
schemas keep the author's key order (property order is meaningful to models). The contract-format
schema (`contract.schema.json`) is copied beside it: contracts point their `$schema` / `#:schema` at it.
"""

from __future__ import annotations

import itertools

from toolgen import __version__
from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.formatschema import SCHEMA_FILE, schema_text
from toolgen.render import Artifact, RenderResult, jsontext
from toolgen.render.context import PLAIN_CONTEXT, RenderContext


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render `catalog.json`, and `contract.schema.json` beside it so editors can check contracts."""
    # the tools are made one at a time as the text is written (`jsontext`): never all at once as data
    tools = (contract.to_json() for contract in catalog)
    document = {"generated_by": f"toolgen {__version__}; do not edit by hand", **catalog.json_head(), "tools": tools}
    catalog_file = Artifact.streamed("catalog.json", itertools.chain(jsontext.pieces(document), ["\n"]))
    return RenderResult(artifacts=(catalog_file, Artifact(SCHEMA_FILE, schema_text())))
