"""Independent checkers of provider declarations, one per provider, written from ../shared/PROVIDERS.md.

They do not import toolgen's lowering code: each rule is read from the document (the section is
cited beside it; "C" is the section "Corrections, 2026-12-01", which supersedes the rest). Each
function takes what the provider receives and returns findings, `"<where>: <rule broken>"`; an empty
list means the declaration keeps every documented rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

Findings = list[str]

LOOKAROUND = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")  # C: "regex lookaround is not supported", back-references too
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # C / 1.3
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")  # C (2.2: the generator keeps to 64)
GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")  # C / 3.2
MCP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")  # C / 4.2
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}  # C
ANTHROPIC_FORMATS = STRICT_FORMATS | {"uri"}  # C: "the 9 formats above plus uri"
OPENAI_STRICT_KEYWORDS = {  # C: supported in strict mode (1.5 item 5: description, title)
    "type", "enum", "const", "anyOf", "$defs", "$ref", "pattern", "format", "multipleOf", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "properties", "required",
    "additionalProperties", "items", "description", "title",
}  # fmt: skip
GEMINI_KEYWORDS = {  # C: the documented keyword list
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties",
    "required", "propertyOrdering",
}  # fmt: skip
ANTHROPIC_TOOL_KEYS = {  # C: "A tool takes strict, input_examples, cache_control, defer_loading, ..."
    "name", "description", "input_schema", "strict", "input_examples", "cache_control", "defer_loading",
    "allowed_callers", "eager_input_streaming", "type",
}  # fmt: skip
MCP_TOOL_KEYS = {"name", "title", "description", "icons", "inputSchema", "outputSchema", "annotations", "_meta"}  # C
MCP_TOOL_KEYS |= {"execution"}  # 2025-11-25, kept as the contract states it (issue 29)
MCP_HINTS = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}  # 8: set all four
COMPOSITION = {"anyOf", "oneOf", "allOf"}

_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_ONES = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
_ONES += ("unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def nodes(schema: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in `schema` with its pointer (values such as `enum` or `default` are not entered)."""
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key in _MAPS:
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                yield from nodes(sub, f"{pointer}/{key}/{name}")
    for key in _ONES:
        yield from nodes(schema.get(key), f"{pointer}/{key}")
    for key in _LISTS:
        for index, sub in enumerate(schema.get(key) or [] if isinstance(schema.get(key), list) else []):
            yield from nodes(sub, f"{pointer}/{key}/{index}")


def _kinds(node: dict[str, Any]) -> list[Any]:
    kind = node.get("type")
    return kind if isinstance(kind, list) else [kind]


def _resolves(root: dict[str, Any], ref: str) -> bool:
    node: Any = root
    for raw in ref.removeprefix("#").split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
    return isinstance(node, dict)


def _object_root(schema: Any, where: str) -> Findings:
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return [f"{where}: the root must be type object"]  # 1.4, 2.3, C (MCP)
    return []


def _cycles(schema: dict[str, Any]) -> bool:
    """True when a `#/$defs/...` reference reaches itself."""
    defs = schema.get("$defs") or {}
    edges = {
        n: {s["$ref"].split("/")[-1] for _, s in nodes(d) if isinstance(s.get("$ref"), str)} for n, d in defs.items()
    }
    for start, targets in edges.items():
        todo, seen = list(targets), set()
        while todo:
            name = todo.pop()
            if name == start:
                return True
            if name not in seen:
                seen.add(name)
                todo.extend(edges.get(name, ()))
    return any(s.get("$ref") == "#" for _, s in nodes(schema))


# --- OpenAI ---------------------------------------------------------------------------------------


def _openai_schema(schema: Any, where: str, strict: bool) -> Findings:
    found = _object_root(schema, where)
    if found:
        return found
    if COMPOSITION & set(schema):
        found.append(f"{where}: root anyOf/oneOf/allOf")  # 1.5 item 3, 2.3
    for pointer, node in nodes(schema):
        at = f"{where}{pointer}"
        if "object" in _kinds(node) and "properties" not in node:
            found.append(f"{at}: object schema missing properties")  # C, both APIs
        if "array" in _kinds(node) and "items" not in node:
            found.append(f"{at}: array schema missing items")  # 1.4
        if strict:
            found += _openai_strict_node(schema, node, at)
    if strict:
        found += _openai_limits(schema, where)
    return found


def _openai_strict_node(root: dict[str, Any], node: dict[str, Any], at: str) -> Findings:
    found = [f"{at}: keyword {k} outside the strict subset" for k in sorted(set(node) - OPENAI_STRICT_KEYWORDS)]
    if "object" in _kinds(node) or "properties" in node:
        if node.get("additionalProperties") is not False:
            found.append(f"{at}: additionalProperties must be false")  # 1.5 item 1
        if sorted(node.get("required") or []) != sorted(node.get("properties") or {}):
            found.append(f"{at}: required must list every property")  # 1.5 item 2
    if "array" in _kinds(node) and not (isinstance(node.get("items"), dict) and node["items"]):
        found.append(f"{at}: array without an items schema")  # 1.5 item 7 (items: {})
    if not any(k in node for k in ("type", "anyOf", "$ref", "enum", "const")):
        found.append(f"{at}: no type")
    if "format" in node and node["format"] not in STRICT_FORMATS:
        found.append(f"{at}: format {node['format']}")  # C
    if isinstance(node.get("pattern"), str) and LOOKAROUND.search(node["pattern"]):
        found.append(f"{at}: pattern with lookaround")  # C
    ref = node.get("$ref")
    if isinstance(ref, str):
        if not re.match(r"^#/\$defs/[^/]+$", ref):
            found.append(f"{at}: $ref {ref} does not point at a root $defs entry")  # C
        elif not _resolves(root, ref):
            found.append(f"{at}: dangling $ref {ref}")
        if set(node) - {"$ref", "title", "description"}:
            found.append(f"{at}: keywords beside $ref")  # 1.5 item 5
    return found


def _openai_limits(schema: dict[str, Any], where: str) -> Findings:
    properties = enums = 0
    for _, node in nodes(schema):  # 1.5 item 8
        properties += len(node.get("properties") or {})
        enums += len(node.get("enum") or []) if isinstance(node.get("enum"), list) else 0
    found = []
    if properties > 5000:
        found.append(f"{where}: more than 5,000 properties")
    if enums > 1000:
        found.append(f"{where}: more than 1,000 enum values")
    return found


def openai_chat(tool: Any) -> Findings:
    """A Chat Completions tool: `{"type": "function", "function": {...}}` (1.1, 1.3, 1.4, 1.5, C)."""
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return ["tool: not {type: function, function: {...}}"]
    function = tool["function"]
    name = function.get("name", "")
    found = [] if OPENAI_NAME.match(str(name)) else [f"{name}: name breaks ^[a-zA-Z0-9_-]{{1,64}}$"]
    if len(function.get("description") or "") > 1024:
        found.append(f"{name}: description over 1,024 characters")  # 1.3
    if not isinstance(function.get("strict"), bool):
        found.append(f"{name}: strict is not written")  # 1.2 rule, applied to both
    return found + _openai_schema(function.get("parameters"), f"{name}/parameters", function.get("strict") is True)


def openai_responses(tool: Any) -> Findings:
    """A Responses tool: a flat function tool, or a namespace of them (1.2, C)."""
    if isinstance(tool, dict) and tool.get("type") == "namespace":
        found = [] if tool.get("description") else [f"{tool.get('name')}: namespace without a description"]
        return found + [f for sub in tool.get("tools") or [] for f in openai_responses(sub)]
    if not isinstance(tool, dict) or tool.get("type") != "function":
        return ["tool: not a function tool"]
    name = tool.get("name", "")
    found = [] if OPENAI_NAME.match(str(name)) else [f"{name}: name breaks ^[a-zA-Z0-9_-]{{1,64}}$"]
    if not isinstance(tool.get("strict"), bool):
        found.append(f"{name}: strict must be written explicitly on Responses")  # 1.2
    if "defer_loading" in tool and not isinstance(tool["defer_loading"], bool):
        found.append(f"{name}: defer_loading is not a boolean")  # C
    return found + _openai_schema(tool.get("parameters"), f"{name}/parameters", tool.get("strict") is True)


def openai_file(tools: Any, chat: bool) -> Findings:
    """A whole OpenAI file; at most 128 tools per request is a request limit, not a file limit (C)."""
    check = openai_chat if chat else openai_responses
    return [f for tool in tools for f in check(tool)] if isinstance(tools, list) else ["file: not a list"]


# --- Anthropic ------------------------------------------------------------------------------------


def anthropic(tool: Any) -> Findings:
    """One Anthropic tool (2.1, 2.3, 2.4, C)."""
    if not isinstance(tool, dict):
        return ["tool: not an object"]
    name = str(tool.get("name", ""))
    found = [] if ANTHROPIC_NAME.match(name) else [f"{name}: name breaks ^[a-zA-Z0-9_-]{{1,128}}$"]
    found += [f"{name}: unknown tool key {k}" for k in sorted(set(tool) - ANTHROPIC_TOOL_KEYS)]
    cache = tool.get("cache_control")
    if cache is not None and (not isinstance(cache, dict) or cache.get("type") != "ephemeral"):
        found.append(f"{name}: cache_control must be {{type: ephemeral}}")  # 2.1
    schema = tool.get("input_schema")
    found += _object_root(schema, f"{name}/input_schema")
    if found or not isinstance(schema, dict):
        return found
    if COMPOSITION & set(schema):
        found.append(f"{name}/input_schema: oneOf/anyOf/allOf at the top level")  # C, 2.3
    if tool.get("strict") is True:
        found += _anthropic_strict(schema, f"{name}/input_schema")
    return found


def _anthropic_strict(schema: dict[str, Any], where: str) -> Findings:
    found = [f"{where}: recursive schema"] if _cycles(schema) else []  # C: not supported: recursion
    for pointer, node in nodes(schema):
        at = f"{where}{pointer}"
        if ("object" in _kinds(node) or "properties" in node) and node.get("additionalProperties") is not False:
            found.append(f"{at}: additionalProperties must be false")  # C
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
            if key in node:
                found.append(f"{at}: numeric bound {key}")  # C
        for key in ("minLength", "maxLength", "maxItems"):
            if key in node:
                found.append(f"{at}: {key}")  # C
        if isinstance(node.get("minItems"), int) and node["minItems"] > 1:
            found.append(f"{at}: minItems over 1")  # C
        if "format" in node and node["format"] not in ANTHROPIC_FORMATS:
            found.append(f"{at}: format {node['format']}")
        if "allOf" in node and ("$ref" in node or any("$ref" in b for b in node["allOf"] if isinstance(b, dict))):
            found.append(f"{at}: allOf together with $ref")  # C
        if isinstance(node.get("enum"), list) and any(isinstance(v, dict | list) for v in node["enum"]):
            found.append(f"{at}: enum with non-primitive values")  # C
        if isinstance(node.get("pattern"), str) and LOOKAROUND.search(node["pattern"]):
            found.append(f"{at}: pattern with lookaround")  # C (UNVERIFIED, assumed)
    return found


def anthropic_file(tools: Any) -> Findings:
    """The whole `anthropic.json`; strict tools against the per-request limits (C: 20 strict tools)."""
    if not isinstance(tools, list):
        return ["file: not a list"]
    found = [f for tool in tools for f in anthropic(tool)]
    if sum(1 for t in tools if isinstance(t, dict) and t.get("strict") is True) > 20:
        found.append("file: more than 20 strict tools")
    return found


# --- Gemini ---------------------------------------------------------------------------------------


def _gemini_schema(schema: Any, where: str) -> Findings:
    found = _object_root(schema, where)
    if found:
        return found
    for pointer, node in nodes(schema):
        at = f"{where}{pointer}"
        found += [f"{at}: keyword {k} Gemini does not document" for k in sorted(set(node) - GEMINI_KEYWORDS)]
        enum = node.get("enum")
        if isinstance(enum, list) and not all(
            (isinstance(v, str) and v) or (isinstance(v, int | float) and not isinstance(v, bool)) for v in enum
        ):
            found.append(f"{at}: enum values must be strings or numbers")  # C: "for strings and numbers"
        if "$ref" in node:
            if any(not k.startswith("$") for k in node):
                found.append(f"{at}: a non-$ key beside $ref")  # C
            if not _resolves(schema, node["$ref"]):
                found.append(f"{at}: dangling $ref")
    return found


def gemini_declaration(declaration: Any) -> Findings:
    """One function declaration (3.1, 3.2, C)."""
    if not isinstance(declaration, dict):
        return ["declaration: not an object"]
    name = str(declaration.get("name", ""))
    found = [] if GEMINI_NAME.match(name) else [f"{name}: name breaks the Gemini rule"]
    if "parameters" in declaration and "parametersJsonSchema" in declaration:
        found.append(f"{name}: parameters and parametersJsonSchema are mutually exclusive")  # C
    for key in ("parametersJsonSchema", "responseJsonSchema"):
        if key in declaration:
            found += _gemini_schema(declaration[key], f"{name}/{key}")
    return found


def gemini_file(document: Any) -> Findings:
    """The whole `gemini.json`: a list holding one Tool of function declarations."""
    if not isinstance(document, list) or len(document) != 1 or not isinstance(document[0], dict):
        return ["file: not [{functionDeclarations: [...]}]"]
    declarations = document[0].get("functionDeclarations") or []
    return [f for d in declarations for f in gemini_declaration(d)]


# --- MCP ------------------------------------------------------------------------------------------


def mcp_tool(tool: Any) -> Findings:
    """One MCP `Tool` of revision 2026-07-28 (C, 4.1)."""
    if not isinstance(tool, dict):
        return ["tool: not an object"]
    name = str(tool.get("name", ""))
    found = [] if MCP_NAME.match(name) else [f"{name}: name breaks ^[A-Za-z0-9_.-]{{1,128}}$"]
    found += [f"{name}: unknown Tool key {k}" for k in sorted(set(tool) - MCP_TOOL_KEYS)]
    found += _object_root(tool.get("inputSchema"), f"{name}/inputSchema")
    if set(tool.get("annotations") or {}) - {"title"} != MCP_HINTS:
        found.append(f"{name}: annotations must set all four hints")  # 8
    if "title" in tool and not tool["title"]:
        found.append(f"{name}: empty title")  # no title is made up (issue 29): clients show the name
    for icon in tool.get("icons") or []:
        if not isinstance(icon, dict) or not isinstance(icon.get("src"), str):
            found.append(f"{name}: icon without src")
    for key in ("inputSchema", "outputSchema"):
        for pointer, node in nodes(tool.get(key)):
            for extra in (k for k in node if k.startswith("x-") and k != "x-mcp-header"):
                found.append(f"{name}/{key}{pointer}: toolgen annotation {extra} left in")
            if "x-mcp-header" in node and (node.get("type") not in ("string", "integer", "boolean")):
                found.append(f"{name}/{key}{pointer}: x-mcp-header on a non-primitive or number")  # C / 4.1
    return found


def mcp_file(document: Any) -> Findings:
    """The whole `mcp.json`: a `tools/list` result."""
    if not isinstance(document, dict) or not isinstance(document.get("tools"), list):
        return ["file: not {tools: [...]}"]
    return [f for tool in document["tools"] for f in mcp_tool(tool)]


def all_files(files: dict[str, Any]) -> Findings:
    """Every finding over the five provider files (`{file name: parsed JSON}`)."""
    return [
        *(f"openai_chat: {f}" for f in openai_file(files["openai_chat.json"], chat=True)),
        *(f"openai_responses: {f}" for f in openai_file(files["openai_responses.json"], chat=False)),
        *(f"anthropic: {f}" for f in anthropic_file(files["anthropic.json"])),
        *(f"gemini: {f}" for f in gemini_file(files["gemini.json"])),
        *(f"mcp: {f}" for f in mcp_file(files["mcp.json"])),
    ]
