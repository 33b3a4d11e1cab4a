"""The `catalog` target: `catalog.json`, the normalized snapshot of every contract with its digest.

It is the review surface of a change and the base that `toolgen diff` compares against. JSON allows
no comments, so the header lives in a `generated_by` key; keys follow `CONTRACT_KEYS` order and
schemas keep the author's key order (property order is meaningful to models). The contract-format
schema (`contract.schema.json`) is copied beside it: contracts point their `$schema` / `#:schema` at it.
"""

from __future__ import annotations

import json

from toolgen import __version__
from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.formatschema import SCHEMA_FILE, schema_text
from toolgen.render import Artifact, RenderResult


def render(catalog: Catalog, settings: Settings) -> RenderResult:
    """Render `catalog.json`, and `contract.schema.json` beside it so editors can check contracts."""
    document = {"generated_by": f"toolgen {__version__}; do not edit by hand", **catalog.to_json()}
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return RenderResult(artifacts=(Artifact("catalog.json", text), Artifact(SCHEMA_FILE, schema_text())))
