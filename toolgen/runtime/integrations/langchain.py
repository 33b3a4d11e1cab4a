# The toolgen runtime's integrations/langchain.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as LangChain tools: `tools(registry)` -> a list of `StructuredTool`.

LangChain binds one tool list to any chat model, so the declaration is chosen explicitly with
`declaration=`:

- `"portable"` (the default): the MCP declaration (`providers/mcp.json`: the input schema without
  toolgen's `x-` annotations), which every family accepts as JSON Schema; use it for Anthropic and
  any model not listed here;
- `"openai"`: the OpenAI Responses declaration (`providers/openai_responses.json`), strict when the
  schema could be made strict (optional properties then arrive as `null`, which the registry
  drops); bind it with `strict=True` when its `strict` is true;
- `"gemini"`: the Gemini declaration's parameters (`providers/gemini.json`: `$ref`s inlined,
  `const` as `enum`, keywords outside Gemini's subset moved into the descriptions).

A tool with no declaration of the chosen kind (left out by `[providers]`) is left out. LangChain
passes a JSON-schema `args_schema`'s arguments through as the model sent them, without filling in
defaults, and the registry validates them. A success is the output's JSON text; a failure raises
`ToolException` with the error's JSON text, which the tool (`handle_tool_error=True`) turns into a
`ToolMessage` with `status="error"`. Sync `invoke` goes through `Registry.call`, `ainvoke` through
`Registry.acall`. What is offered is `offered`'s answer; LangChain has no approval flow of its own,
so an "ask" tool is decided by the registry's approver. The `langchain_core` package is imported
when `tools` is called.

Tools use `response_format="content_and_artifact"`. A result with content beyond JSON
(`Ok(data, content=[...])`) makes the `ToolMessage`'s content a list of LangChain's standard content
blocks: a `text` block with the data's JSON text, then an `image` block (base64 and `mime_type`, or
the `url` of an http(s) link to an image) or a `file` block (base64, `mime_type`, the name in
`extras.filename`, or the `url` of another http(s) link), which the chat model integrations convert
for their provider. A `ToolMessage` carries no audio block (`StructuredTool` would turn the whole
list into a string), so audio, and a link that is not http(s), become a `text` note saying what was
left out; every piece, audio included, is the message's `artifact` (the application sees it, the
model does not). A result without such content is the JSON text, with no artifact.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from .. import _content
from .._runtime import Err, Registry, ToolContract, ToolResult, thaw
from . import declared_input, offered

if TYPE_CHECKING:
    from langchain_core.tools import StructuredTool  # type: ignore[import-not-found,unused-ignore]

Declaration = Literal["portable", "openai", "gemini"]
"""Which of toolgen's declarations a LangChain tool carries."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def block(piece: _content.Content) -> dict[str, Any]:
    """The LangChain standard content block of one piece (a `text` note for what it cannot carry)."""
    if isinstance(piece, _content.Image):
        return {
            "type": "image",
            "base64": _b64(piece.data),
            "mime_type": piece.media_type,
        }
    if isinstance(piece, _content.File):
        extras = {"filename": piece.name}
        return {
            "type": "file",
            "base64": _b64(piece.data),
            "mime_type": piece.media_type,
            "extras": extras,
        }
    if isinstance(piece, _content.ResourceLink) and piece.uri.startswith(
        ("https://", "http://")
    ):
        media = piece.media_type or ""
        found: dict[str, Any] = {
            "type": "image" if media.startswith("image/") else "file",
            "url": piece.uri,
        }
        if media:
            found["mime_type"] = media
        return found
    why = "tool messages carry text, image and file blocks, no audio or non-web links"
    return {"type": "text", "text": _content.note(piece, "LangChain", why)}


def message(result: ToolResult[Any]) -> tuple[Any, Any]:
    """The `ToolMessage`'s content and artifact (see above); `ToolException` for an `Err`."""
    from langchain_core.tools import ToolException  # type: ignore[import-not-found,unused-ignore]

    if isinstance(result, Err):
        raise ToolException(result.text())
    if not result.pieces:
        return result.text(), None
    blocks = [{"type": "text", "text": result.text()}, *map(block, result.pieces)]
    return blocks, result.pieces


def declared(contract: ToolContract, declaration: Declaration) -> dict[str, Any] | None:
    """`description` and the `parameters` schema of the chosen declaration; None when it has none."""
    if declaration == "portable":
        found = declared_input(contract)
        return {"description": found["description"], "parameters": found["inputSchema"]}
    entry = contract.declarations.get(declaration)
    if entry is None:
        return None
    plain = thaw(entry)
    key = "parametersJsonSchema" if declaration == "gemini" else "parameters"
    return {"description": plain.get("description", ""), "parameters": plain[key]}


def tool(
    registry: Registry[Any],
    contract: ToolContract,
    declaration: Declaration = "portable",
) -> StructuredTool:
    """The `StructuredTool` of one tool of `registry` (`ValueError` when it lacks that declaration)."""
    from langchain_core.tools import StructuredTool  # type: ignore[import-not-found,unused-ignore]

    name = contract.name
    chosen = declared(contract, declaration)
    if chosen is None:
        raise ValueError(f"tool {name!r} has no {declaration} declaration")

    def run(**arguments: Any) -> tuple[Any, Any]:
        return message(registry.call(name, arguments))

    async def arun(**arguments: Any) -> tuple[Any, Any]:
        return message(await registry.acall(name, arguments))

    return StructuredTool(
        name=name,
        description=chosen["description"],
        args_schema=chosen["parameters"],
        func=run,
        coroutine=arun,
        handle_tool_error=True,
        response_format="content_and_artifact",
    )


def tools(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
    declaration: Declaration = "portable",
) -> list[StructuredTool]:
    """One `StructuredTool` per offered tool with the chosen declaration, sorted by name."""
    return [
        tool(registry, c, declaration)
        for c in offered(registry, tags, offer_all)
        if declared(c, declaration) is not None
    ]


__all__ = ["Declaration", "block", "declared", "message", "tool", "tools"]
