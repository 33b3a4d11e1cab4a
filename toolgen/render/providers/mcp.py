"""Model Context Protocol: `mcp.json`, the result of `tools/list`.

Mapping decisions:
- The file is `{"tools": [...]}`; each tool is `{name, title, description, inputSchema,
  outputSchema?, annotations}`. `title` is the contract's title, or the name with `_` turned into
  spaces and the first letter capitalised when the contract has none.
- `inputSchema` and `outputSchema` are the contract's schemas (draft 2020-12, object roots, as the
  2025-11-25 revision requires) with `x-` keys removed; MCP takes every other keyword as it is.
- All four annotation hints are set explicitly, because MCP's defaults are pessimistic:
  `readOnlyHint` = neither `write` nor `execute`; `destructiveHint` = `write` or `execute`;
  `idempotentHint` = the contract's `idempotent`; `openWorldHint` = `network`.
- The name is checked against `^[A-Za-z0-9._-]{1,128}$` (SEP-986, the SDK's `validate_tool_name`).
"""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.render.providers.common import Output, Payload, check_name, description, input_schema, output_schema

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


def tool(contract: Contract) -> dict[str, Any]:
    """The `Tool` object of one contract."""
    out: dict[str, Any] = {
        "name": contract.name,
        "title": title(contract),
        "description": description(contract),
        "inputSchema": input_schema(contract),
    }
    schema = output_schema(contract)
    if schema is not None:
        out["outputSchema"] = schema
    out["annotations"] = hints(contract)
    return out


def build(catalog: Catalog, settings: Settings) -> Output:
    """The MCP payload for the catalog, with its diagnostics."""
    out = Output()
    tools: dict[str, Any] = {}
    for contract in catalog:
        out.diagnostics.extend(check_name(contract, PROVIDER))
        tools[contract.name] = tool(contract)
    out.payloads.append(Payload("mcp.json", {"tools": list(tools.values())}, tools))
    return out
