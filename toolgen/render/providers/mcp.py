"""Model Context Protocol: `mcp.json`, the result of `tools/list`.

Mapping decisions:
- The file is `{"tools": [...]}`; each tool is `{name, title, description, inputSchema,
  outputSchema?, annotations}`. `title` is the contract's title, or the name with `_` turned into
  spaces and the first letter capitalised when the contract has none.
- The target is the current revision, 2026-07-28 (PROVIDERS.md corrections, MCP): `inputSchema`
  and `outputSchema` are the contract's schemas (draft 2020-12, object roots, which 2025-11-25 also
  requires) with toolgen's `x-` keys removed; MCP takes every other keyword as it is. `x-mcp-header`
  is a keyword that revision defines (a property's value mirrored into an `Mcp-Param-*` HTTP
  header): it is kept on string, integer and boolean properties, and left out with a TG311 warning
  elsewhere. `icons` and `_meta` come from the contract's `providers` table. `execution.taskSupport`
  (2025-11-25 only) is not emitted.
- All four annotation hints are set explicitly, because MCP's defaults are pessimistic:
  `readOnlyHint` = neither `write` nor `execute`; `destructiveHint` = `write` or `execute`;
  `idempotentHint` = the contract's `idempotent`; `openWorldHint` = `network`.
- The name is checked against `^[A-Za-z0-9._-]{1,128}$` (SEP-986, the SDK's `validate_tool_name`).
"""

from __future__ import annotations

from functools import partial

from toolgen.catalog import Contract
from toolgen.config import Settings
from toolgen.frozen import thaw
from toolgen.render.providers import codes
from toolgen.render.providers.common import (
    ProviderResult,
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


def hints(contract: Contract) -> dict[str, bool]:
    """The four MCP hints, from the permissions and `idempotent`."""
    changes = bool({"write", "execute"} & set(contract.permissions))
    return {
        "readOnlyHint": not changes,
        "destructiveHint": changes,
        "idempotentHint": contract.idempotent,
        "openWorldHint": "network" in contract.permissions,
    }


def title(contract: Contract) -> str:
    """The display title: the contract's, or one made from the name."""
    if contract.title:
        return contract.title
    words = contract.name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


HEADER = "x-mcp-header"
HEADER_TYPES = frozenset({"string", "integer", "boolean"})
"""The types a property carrying `x-mcp-header` may have (primitives, not `number`)."""


def _with_headers(contract: Contract, out: ProviderResult) -> Schema:
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


def tool(contract: Contract, out: ProviderResult) -> dict[str, object]:
    """The `Tool` object of one contract."""
    entry: dict[str, object] = {
        "name": contract.name,
        "title": title(contract),
        "description": description(contract),
        "inputSchema": _with_headers(contract, out),
    }
    schema = output_schema(contract)
    if schema is not None:
        entry["outputSchema"] = schema
    entry["annotations"] = hints(contract)
    for key in ("icons", "_meta"):
        if key in contract.providers:
            entry[key] = thaw(contract.providers[key])
    return entry


def tool_entries(settings: Settings, contract: Contract, out: ProviderResult) -> dict[str, object]:
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
