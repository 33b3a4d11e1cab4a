"""What a contract's `providers` table and the configuration's `[providers]` table may hold.

Both shape the provider files (`toolgen.render.providers`) and nothing else. A contract says, for
itself: which provider files leave it out (`exclude`), whether Anthropic and OpenAI Responses load
it only through tool search (`defer_loading`), which OpenAI Responses namespace holds it
(`namespace`), and for MCP: the name it is served under when that is not its name (`mcp_name`),
annotations stated outright (`annotations`), `execution`, `icons` and `_meta`. The configuration
says, for the catalog: which tools each provider file leaves out (`exclude`), the Anthropic
`cache_control` put on the last tool of `anthropic.json`, and each Responses namespace's
description (`namespaces`). Each field is one the provider documents (PROVIDERS.md,
"Corrections, 2026-12-01"; the SDK types of the pinned versions).
This module imports no other part of toolgen but diagnostics, so validation and configuration can
use it without an import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from toolgen import positions
from toolgen.diagnostics import Diagnostic, Severity

FILES: tuple[str, ...] = ("openai_chat", "openai_responses", "anthropic", "gemini", "mcp")
"""Provider file names without `.json`, as `exclude` names them."""

_NAMESPACE = {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"}
_ICON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["src"],
    "properties": {
        "src": {"type": "string", "minLength": 1, "description": "A URI (https: or data:) of the icon."},
        "mimeType": {"type": "string"},
        "sizes": {"type": "array", "items": {"type": "string"}},
        "theme": {"enum": ["light", "dark"]},
    },
}

MCP_NAME = "^[A-Za-z0-9._-]{1,128}$"
"""An MCP tool name (SEP-986, the SDK's `validate_tool_name`)."""

HINTS: tuple[str, ...] = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""MCP's four annotation hints, in the order the declaration writes them."""

_ANNOTATIONS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "minLength": 1, "description": "The display name MCP clients show."},
        **{hint: {"type": "boolean"} for hint in HINTS},
    },
    "description": "MCP: annotations stated outright; each replaces the one derived from the permissions "
    "(docs/contract.md, MCP annotations).",
}

CONTRACT_SCHEMA: Mapping[str, object] = {
    "type": "object",
    "additionalProperties": False,
    "description": "How the provider files declare this tool (docs/rules-providers.md).",
    "properties": {
        "exclude": {
            "type": "array",
            "uniqueItems": True,
            "items": {"enum": list(FILES)},
            "description": 'Provider files that leave this tool out, like ["openai_chat"].',
        },
        "defer_loading": {
            "type": "boolean",
            "description": "Anthropic and OpenAI Responses: load the tool only through tool search.",
        },
        "namespace": {**_NAMESPACE, "description": "OpenAI Responses: the namespace (from the configuration)."},
        "icons": {"type": "array", "items": _ICON, "description": "MCP: icons for the tool."},
        "_meta": {"type": "object", "description": "MCP: the tool's `_meta` object, as written."},
        "mcp_name": {
            "type": "string",
            "pattern": MCP_NAME,
            "description": "MCP: the name the tool is served under when it is not `name` (`-` and `.` allowed).",
        },
        "annotations": _ANNOTATIONS,
        "execution": {"type": "object", "description": "MCP: the tool's `execution` object, as written."},
    },
}
"""The schema of a contract's `providers` table (also in contract.schema.json)."""

CACHE_CONTROL = {
    "type": "object",
    "additionalProperties": False,
    "required": ["type"],
    "properties": {"type": {"const": "ephemeral"}, "ttl": {"enum": ["5m", "1h"]}},
}

CONFIG_SCHEMA: Mapping[str, object] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "exclude": {
            "type": "object",
            "additionalProperties": False,
            "properties": {f: {"type": "array", "items": {"type": "string"}} for f in FILES},
        },
        "anthropic_cache_control": CACHE_CONTROL,
        "namespaces": {
            "type": "object",
            "propertyNames": _NAMESPACE,
            "additionalProperties": {"type": "string", "minLength": 1},
        },
    },
}
"""The schema of the configuration's `[providers]` table."""


def problems(value: object, schema: Mapping[str, object], pointer: str) -> list[tuple[str, str]]:
    """Every way `value` breaks `schema`, as (JSON pointer, message), in document order.

    jsonschema is imported here, not with the module: reading the configuration must not cost its
    import (a tenth of a second) to a build that finds nothing changed and validates nothing."""
    from jsonschema import Draft202012Validator

    found = []
    for error in sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(map(str, e.path))):
        where = positions.join(pointer, *error.absolute_path)
        found.append((where, error.message))
    return found


def check_config(value: object, file: str, pointer: str) -> list[Diagnostic]:
    """TG100 for each problem of the configuration's `[providers]` table."""
    return [
        Diagnostic("TG100", Severity.ERROR, f"the providers table: {message}", file, where)
        for where, message in problems(value, CONFIG_SCHEMA, pointer)
    ]


class ProviderTable(TypedDict, total=False):
    """The configuration's `[providers]` table, as `CONFIG_SCHEMA` shapes it."""

    exclude: Mapping[str, list[str]]
    anthropic_cache_control: Mapping[str, str]
    namespaces: Mapping[str, str]


def config_table(value: Mapping[str, object]) -> ProviderTable:
    """The `[providers]` table `value`, in which `check_config` found no problem, as its type."""
    table = ProviderTable()
    exclude, control, namespaces = (value.get(key) for key in ("exclude", "anthropic_cache_control", "namespaces"))
    if isinstance(exclude, Mapping):
        table["exclude"] = {str(f): [str(n) for n in names] for f, names in exclude.items() if isinstance(names, list)}
    if isinstance(control, Mapping):
        table["anthropic_cache_control"] = {str(key): str(item) for key, item in control.items()}
    if isinstance(namespaces, Mapping):
        table["namespaces"] = {str(name): str(text) for name, text in namespaces.items()}
    return table


__all__ = [
    "CACHE_CONTROL",
    "CONFIG_SCHEMA",
    "CONTRACT_SCHEMA",
    "FILES",
    "HINTS",
    "MCP_NAME",
    "ProviderTable",
    "check_config",
    "config_table",
    "problems",
]
