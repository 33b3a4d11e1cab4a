"""The contract format as a JSON Schema, shipped inside the package as `contract.schema.json`.

Editors use it to complete and check contracts as they are typed (`$schema` in JSON contracts, a taplo
`#:schema` line in TOML ones); `toolgen schema` prints it and the catalog target copies it into the
output folder. `toolgen validate` checks everything this schema says, and more.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_FILE = "contract.schema.json"
"""The file name, in the package and in the output folder."""


@cache
def schema_text() -> str:
    """The schema as shipped (UTF-8 JSON text with a trailing newline)."""
    return resources.files("toolgen").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The schema as a fresh, mutable dictionary."""
    data: dict[str, Any] = json.loads(schema_text())
    return data
