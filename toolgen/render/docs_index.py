"""The docs index (`docs/README.md`): tools grouped by tag, a permission matrix, the conventions
every tool shares and the standard error codes. Escaped here; `docs/README.md.jinja` only loops.

Also which other tools a contract's texts name (`links_for`), for the index and the tool pages."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from toolgen.catalog import PERMISSION_MEANINGS, STANDARD_ERROR_MEANINGS, STANDARD_ERRORS, Catalog, Contract
from toolgen.render import header_lines
from toolgen.render import markdown as md

UNTAGGED = "Other tools"
"""The index group of tools without tags."""

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def _texts(contract: Contract) -> list[str]:
    """Every text of a contract that may name another tool."""
    texts = [contract.description]
    if isinstance(contract.deprecated, str):
        texts.append(contract.deprecated)
    texts.extend(e.description for e in contract.errors)
    for schema in (contract.input_schema, contract.output_schema):
        _descriptions(schema, texts)
    return texts


_MAPS = (MappingProxyType, dict)
_LISTS = (tuple, list)


def _descriptions(node: Any, found: list[str]) -> None:
    """Append every `description` and `title` text anywhere in a schema to `found` (in no set order:
    a walk with a stack, which every docs build makes over every schema of the catalog, so the
    frozen catalog's own types are tested by identity before the slow `Mapping` check)."""
    stack = [node]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _LISTS:
            stack.extend(v for v in node if type(v) in _MAPS or isinstance(v, Mapping | tuple | list))
        elif kind in _MAPS or isinstance(node, Mapping):
            for key, value in node.items():
                if type(value) is str:
                    if key in {"description", "title"}:
                        found.append(value)
                elif type(value) in _MAPS or type(value) in _LISTS or isinstance(value, Mapping):
                    stack.append(value)


def links_for(contract: Contract, names: frozenset[str]) -> dict[str, str]:
    """The other tools this contract's texts name, each with its page."""
    return links_in(contract, _texts(contract), names)


def links_in(contract: Contract, texts: Sequence[str], names: frozenset[str]) -> dict[str, str]:
    """The other tools these texts of `contract` name, each with its page (`md.prose` links a name
    only where its text holds it as a word, so the texts a view shows are all it needs)."""
    found = set(_WORD.findall("\n".join(texts))) & names
    return {name: f"{name}.md" for name in sorted(found - {contract.name})}


def _index_row(contract: Contract, links: md.Links) -> list[str]:
    deprecated = "no"
    if contract.deprecated:
        deprecated = "yes" if contract.deprecated is True else md.prose(contract.deprecated, links=links)
    return [
        f"[{md.escape_inline(contract.name, line_start=False)}]({contract.name}.md)",
        md.code(contract.version),
        ", ".join(contract.permissions) or "none declared",
        md.prose(contract.summary, links=links),
        deprecated,
    ]


def _matrix_row(contract: Contract) -> list[str]:
    """`yes` under each permission the tool declares."""
    name = f"[{md.escape_inline(contract.name, line_start=False)}]({contract.name}.md)"
    return [name] + ["yes" if p in contract.permissions else " " for p in PERMISSION_MEANINGS]


Rows = tuple[list[str], list[str]]
"""A tool's row of the index and of the permission matrix."""


def index_rows(contract: Contract, links: md.Links) -> Rows:
    """What the index shows of one tool: its row (linking the tools in `links`) and its matrix row."""
    return _index_row(contract, links), _matrix_row(contract)


def index_view(
    catalog: Catalog, links: Mapping[str, md.Links] | None = None, rows: Mapping[str, Rows] | None = None
) -> dict[str, object]:
    """Everything `docs/README.md.jinja` prints: groups by tag, permissions, conventions, standard errors.

    `rows` is each tool's `index_rows`, and `links` each tool's `links_for`: computed here when
    not given."""
    names = frozenset(catalog.names)
    if rows is None:
        found = links if links is not None else {c.name: links_for(c, names) for c in catalog}
        rows = {c.name: index_rows(c, found[c.name]) for c in catalog}
    groups: dict[str, list[list[str]]] = {}
    for contract in catalog:
        row = rows[contract.name][0]
        for tag in contract.tags or (UNTAGGED,):
            groups.setdefault(tag, []).append(row)
    ordered = sorted(k for k in groups if k != UNTAGGED) + ([UNTAGGED] if UNTAGGED in groups else [])
    sources = f"{len(catalog)} tool{'s' * (len(catalog) != 1)}"
    return {
        "header": md.comment(" ".join(header_lines(sources))),
        "count": sources,
        "groups": [{"tag": md.heading(tag), "rows": groups[tag]} for tag in ordered],
        "permissions": list(PERMISSION_MEANINGS),
        "permission_meanings": [[md.code(p, in_table=False), md.cell(m)] for p, m in PERMISSION_MEANINGS.items()],
        "matrix": [rows[c.name][1] for c in catalog],
        "standard_errors": [
            [md.code(code), "yes" if retryable else "no", md.cell(STANDARD_ERROR_MEANINGS[code])]
            for code, retryable in STANDARD_ERRORS.items()
        ],
    }
