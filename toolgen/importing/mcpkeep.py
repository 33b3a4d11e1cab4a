"""What an MCP `Tool` carries beyond its schemas, kept on import in the contract's `providers` table.

The served name when it is not snake_case (`mcp_name`: MCP allows `-` and `.`), the annotations
exactly as given (`title` and each hint present; none filled in, none changed), `execution`, `icons`
and `_meta`, so the declaration toolgen builds from the contract is the one imported. A value the
contract format cannot hold is left out with a note naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from toolgen import provideroptions
from toolgen.catalog import normalize_text

WIRE_NAME = re.compile(provideroptions.MCP_NAME)
"""An MCP tool name (SEP-986): the contract may be served under it."""

KEPT = ("execution", "icons", "_meta")
"""`Tool` keys copied into `providers` as they are."""


def _annotations(decl: Mapping[str, object]) -> dict[str, object]:
    given = decl.get("annotations")
    if not isinstance(given, dict):
        return {}
    keys = ("title", *provideroptions.HINTS)
    return {k: given[k] for k in keys if k in given}


def mcp_providers(decl: Mapping[str, object], served_as: str | None, notes: list[str]) -> dict[str, object]:
    """The `providers` entries that keep what `decl` says beyond its schemas (notes for any dropped).

    `served_as` is the MCP name when the contract's name had to differ from it."""
    found: dict[str, object] = {}
    if served_as is not None:
        found["mcp_name"] = served_as
    annotations = _annotations(decl)
    if annotations:
        found["annotations"] = annotations
    found.update({k: decl[k] for k in KEPT if k in decl})
    dropped: dict[str, str] = {}
    for where, message in provideroptions.problems(found, provideroptions.CONTRACT_SCHEMA, ""):
        dropped.setdefault(where.split("/")[1], message)
    for key, message in dropped.items():
        del found[key]
        source = "annotations" if key == "annotations" else key
        notes.append(f"`{source}` is left out: the contract format cannot hold it ({message})")
    execution = found.get("execution")
    if isinstance(execution, dict) and execution.get("taskSupport") == "required":
        notes.append(
            "execution.taskSupport is 'required': toolgen's servers do not run tasks, and the TypeScript "
            "SDK client calls such a tool only as a task"
        )
    return found


def _descriptions(node: object) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _descriptions(item)


def whitespace_note(decl: Mapping[str, object], notes: list[str]) -> None:
    """A note when toolgen's text normalization (trim, dedent, LF) changes any description."""
    changed = sum(1 for text in _descriptions(decl) if normalize_text(text) != text)
    if changed:
        notes.append(
            f"{changed} description{'s' * (changed != 1)} trimmed and dedented (surrounding blank lines, "
            "trailing spaces, CR line ends): the declarations toolgen builds carry the normalized text"
        )


__all__ = ["KEPT", "WIRE_NAME", "mcp_providers", "whitespace_note"]
