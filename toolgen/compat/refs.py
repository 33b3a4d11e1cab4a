"""`$ref` resolution for the schema walk: JSON pointers and plain-name anchors, and sibling keywords."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from toolgen.compat import keywords as kw
from toolgen.compat.canonical import conflicts
from toolgen.positions import escape, unescape

STRUCTURE = frozenset({"$defs", "definitions", "$ref", "$anchor", "$dynamicAnchor"})
"""Keywords that arrange a schema without constraining values: never a change by themselves."""


def lookup(root: Any, fragment: str) -> tuple[Any, str] | None:
    """The node a `$ref` fragment names (a JSON pointer or a plain-name `$anchor`) and its pointer."""
    if fragment and not fragment.startswith("/"):
        return _anchor(root, unquote(fragment), "")
    node, pointer = root, ""
    for raw in unquote(fragment).split("/")[1:]:
        token = unescape(raw)
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, Sequence) and not isinstance(node, str) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        pointer += "/" + escape(token)
    return node, pointer


def _anchor(node: Any, name: str, pointer: str) -> tuple[Any, str] | None:
    if isinstance(node, Mapping):
        if name in (node.get("$anchor"), node.get("$dynamicAnchor")):
            return node, pointer
        children: Any = sorted(node.items())
    elif isinstance(node, Sequence) and not isinstance(node, str):
        children = [(str(i), v) for i, v in enumerate(node)]
    else:
        return None
    for key, child in children:
        found = _anchor(child, name, f"{pointer}/{escape(key)}")
        if found is not None:
            return found
    return None


def merge(target: Any, siblings: dict[str, Any]) -> Any:
    """A `$ref` with sibling keywords: both apply (2020-12); merged when that keeps the meaning
    (`canonical.conflicts`), else an `allOf`."""
    if not siblings or target is False:
        return target
    if not isinstance(target, Mapping):
        return siblings
    constraints = {k: siblings[k] for k in siblings if not kw.is_annotation(k) and k not in STRUCTURE}
    if conflicts(target, constraints):
        return {"allOf": [target, constraints]}
    return {**target, **siblings}
