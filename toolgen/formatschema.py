"""The contract format as a JSON Schema, shipped inside the package as `contract.schema.json`.

Editors use it to complete and check contracts as they are typed (`$schema` in JSON contracts, a taplo
`#:schema` line in TOML ones); `toolgen schema` prints it and the catalog target copies it into the
output folder. `toolgen validate` checks everything this schema says, and more.

It is self-contained, so an editor offline (taplo, check-jsonschema) never has to fetch anything: the
draft 2020-12 metaschema that `input_schema` and `output_schema` must satisfy is bundled as
`$defs/jsonSchema` (the one-schema form `toolgen.validate.schemacheck` validates with, `metaschema_def()`;
a test holds the shipped file equal to it).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

SCHEMA_FILE = "contract.schema.json"

METASCHEMA_DEF = "jsonSchema"
"""Where the bundled metaschema lives, under `$defs`."""
"""The file name, in the package and in the output folder."""


@cache
def schema_text() -> str:
    """The schema as shipped (UTF-8 JSON text with a trailing newline)."""
    return resources.files("toolgen").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict[str, object]:
    """The schema as a fresh, mutable dictionary."""
    data: dict[str, object] = json.loads(schema_text())
    return data


def metaschema_def() -> dict[str, object]:
    """The draft 2020-12 metaschema as one schema, its references rewritten to sit at `#/$defs/jsonSchema`."""
    from toolgen.validate.schemacheck import flat_metaschema

    here = f"#/$defs/{METASCHEMA_DEF}"

    def moved(node: object) -> object:
        if isinstance(node, dict):
            out = {k: moved(v) for k, v in node.items()}
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                out["$ref"] = here + ref[1:]
            return out
        if isinstance(node, list):
            return [moved(v) for v in node]
        return node

    bundled = moved(flat_metaschema())
    if not isinstance(bundled, dict):  # the metaschema is one object: moving keeps it one
        raise TypeError("the draft 2020-12 metaschema is not an object")
    return bundled
