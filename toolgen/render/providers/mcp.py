"""Model Context Protocol: `mcp.json`, the result of `tools/list`.

Mapping decisions:
- The file is `{"tools": [...]}`; each tool is `{name, title?, description, inputSchema,
  outputSchema?, annotations, execution?, icons?, _meta?}`. `name` is the contract's
  `providers.mcp_name` when it has one (the name an imported tool was served under: `-` and `.`
  are legal in MCP), else its name. `title` is the contract's title; none is made up (clients
  show `annotations.title`, else the name).
- The target is the current revision, 2026-07-28 (PROVIDERS.md corrections, MCP): `inputSchema`
  and `outputSchema` are the contract's schemas (draft 2020-12, object roots, which 2025-11-25 also
  requires) with toolgen's `x-` keys removed; MCP takes every other keyword as it is. `x-mcp-header`
  is a keyword that revision defines (a property's value mirrored into an `Mcp-Param-*` HTTP
  header): it is kept on string, integer and boolean properties, and left out with a TG311 warning
  elsewhere. `execution`, `icons` and `_meta` come from the contract's `providers` table as written.
- All four annotation hints are set explicitly, because MCP's defaults are pessimistic, and each
  claims only what the permissions prove (docs/contract.md, "MCP annotations"): `readOnlyHint` =
  no permission but `read`; `destructiveHint` = not read-only (permissions cannot prove a change
  harmless, and a stated `readOnlyHint` decides it); `idempotentHint` = the contract's
  `idempotent`; `openWorldHint` = `network`. A hint or `title` in the contract's
  `providers.annotations` replaces the derived one (validation holds it to the permissions, TG141).
- The name is checked against `^[A-Za-z0-9._-]{1,128}$` (SEP-986, the SDK's `validate_tool_name`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from toolgen.catalog import Contract
from toolgen.config import Settings
from toolgen.frozen import thaw
from toolgen.render.providers import codes
from toolgen.render.providers.common import (
    Output,
    Spec,
    always,
    check_name,
    description,
    included,
    input_schema,
    no_catalog_check,
    output_schema,
)
from toolgen.render.providers.lower import Schema, render_value, transform, walk

PROVIDER = "MCP"


def derived_hints(permissions: tuple[str, ...], idempotent: bool, read_only: bool | None = None) -> dict[str, bool]:
    """The four MCP hints that the permissions and `idempotent` prove (`read_only` when stated)."""
    if read_only is None:
        read_only = set(permissions) <= {"read"}
    return {
        "readOnlyHint": read_only,
        "destructiveHint": not read_only,
        "idempotentHint": idempotent,
        "openWorldHint": "network" in permissions,
    }


def tool_annotations(contract: Contract) -> dict[str, Any]:
    """The `annotations`: a stated title first, then each hint, stated or derived."""
    stated = thaw(contract.providers.get("annotations", {}))
    found: dict[str, Any] = {"title": stated["title"]} if "title" in stated else {}
    derived = derived_hints(contract.permissions, contract.idempotent, stated.get("readOnlyHint"))
    for hint, value in derived.items():
        found[hint] = stated.get(hint, value)
    return found


def wire_name(contract: Contract) -> str:
    """The name the tool is served under over MCP."""
    name = contract.providers.get("mcp_name", contract.name)
    return str(name)


HEADER = "x-mcp-header"
HEADER_TYPES = frozenset({"string", "integer", "boolean"})
"""The types a property carrying `x-mcp-header` may have (primitives, not `number`)."""


def _with_headers(contract: Contract, out: Output) -> Schema:
    """The input schema without `x-` keys but `x-mcp-header` on a primitive property (TG311 otherwise)."""
    original = thaw(contract.input_schema)
    headers = {pointer: node[HEADER] for pointer, node in walk(original, "/input_schema") if HEADER in node}

    def restore(node: Schema, pointer: str) -> Schema:
        if pointer not in headers:
            return node
        kind = node.get("type")
        if isinstance(kind, str) and kind in HEADER_TYPES:
            return {**node, HEADER: headers[pointer]}
        message = (
            f"has {HEADER} on a property of type {render_value(kind)}; MCP takes it only on string, "
            "integer or boolean properties, so it is left out"
        )
        out.diagnostics.append(codes.diagnostic(codes.MCP_HEADER, contract, PROVIDER, f"{pointer}/{HEADER}", message))
        return node

    schema: Schema = transform(input_schema(contract), restore, "/input_schema")
    return schema


def tool(contract: Contract, out: Output) -> dict[str, Any]:
    """The `Tool` object of one contract."""
    entry: dict[str, Any] = {"name": wire_name(contract)}
    if contract.title:
        entry["title"] = contract.title
    entry["description"] = description(contract)
    entry["inputSchema"] = _with_headers(contract, out)
    schema = output_schema(contract)
    if schema is not None:
        entry["outputSchema"] = schema
    entry["annotations"] = tool_annotations(contract)
    for key in ("execution", "icons", "_meta"):
        if key in contract.providers:
            entry[key] = thaw(contract.providers[key])
    return entry


def tool_entries(settings: Settings, contract: Contract, out: Output) -> dict[str, Any]:
    """One tool's `Tool` object (none when the tool is left out of MCP)."""
    if not included(contract, settings, "mcp", out):
        return {}
    out.diagnostics.extend(check_name(contract, PROVIDER))
    return {"mcp.json": tool(contract, out)}


SPEC = Spec(
    name=PROVIDER,
    files=("mcp.json",),
    tools=lambda settings: partial(tool_entries, settings),
    wrap=lambda _settings, _file, entries: {"tools": entries},
    check=no_catalog_check,
    independent=always,
)
