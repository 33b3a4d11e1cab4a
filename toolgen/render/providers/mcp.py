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

from toolgen.catalog import Contract
from toolgen.render.providers.common import (
    Output,
    Spec,
    always,
    check_name,
    description,
    input_schema,
    no_catalog_check,
    output_schema,
)

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


def tool_entries(contract: Contract, out: Output) -> dict[str, Any]:
    """One tool's `Tool` object."""
    out.diagnostics.extend(check_name(contract, PROVIDER))
    return {"mcp.json": tool(contract)}


SPEC = Spec(
    name=PROVIDER,
    files=("mcp.json",),
    tools=lambda _settings: tool_entries,
    wrap=lambda _file, entries: {"tools": entries},
    check=no_catalog_check,
    independent=always,
)
