# The toolgen runtime's integrations/pydantic_ai.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as pydantic-ai tools: `tools(registry)` -> a list of `pydantic_ai.Tool`.

Each tool is made with `Tool.from_schema` from the declared JSON schema (the input schema with
toolgen's `x-` annotations removed, as `providers/mcp.json` declares it), so pydantic-ai validates
nothing itself: the arguments go to `Registry.acall` as the model sent them. A success returns the
output as plain JSON data. A failure raises what pydantic-ai turns into a failed tool result the
model sees: `INVALID_INPUT` raises `ModelRetry` (the model is asked to correct the arguments; it
counts against the tool's retries), every other error `ToolFailed` with the error's JSON text
(policy denial included). The `pydantic_ai` package is imported when `tools` is called.

A result with content beyond JSON (`Ok(data, content=[...])`) returns a list, which pydantic-ai
keeps as the tool return's content and sends to the model as files where the model supports them:
the data first, then pydantic-ai's own types, `BinaryImage` for an image, `BinaryContent` for audio
and files (its media type says which), and for an http(s) link with a media type `ImageUrl`,
`AudioUrl`, `VideoUrl` or `DocumentUrl` (a tool return's link needs its media type). A link
without a media type or not http(s) becomes a text note saying what was not attached.

`tools(registry, tags=None, offer_all=False, approval="framework")` offers what `offered` says. A
tool the policy answers "ask" for is, with `approval="framework"`, one of pydantic-ai's
approval-required tools: an unapproved call raises `ApprovalRequired` (the run ends with
`DeferredToolRequests`; the application answers with `DeferredToolResults(approvals=...)`), and an
approved one reaches the registry as `Approval(True, ..., by="pydantic-ai")` (a denied one never
runs). With `approval="registry"` the registry's approver decides. The run's `deps` are the call's
`deps` and its tool call id the call's `call_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .. import _content
from .._approval import Approval
from .._runtime import Err, Ok, Registry, ToolContract
from . import ApprovalMode, asks, declared_input, offered

if TYPE_CHECKING:
    from pydantic_ai import Tool  # type: ignore[import-not-found,unused-ignore]

FRAMEWORK = Approval(True, "approved in the pydantic-ai run", "pydantic-ai")
"""What the registry is told about a call pydantic-ai's approval flow let through."""


def _link(piece: _content.ResourceLink) -> Any:
    from pydantic_ai.messages import AudioUrl, DocumentUrl, ImageUrl, VideoUrl  # type: ignore[import-not-found,unused-ignore]

    media = piece.media_type
    if media is None or not piece.uri.startswith(("https://", "http://")):
        why = "tool returns carry a link only as an http(s) URL with a media type"
        return _content.note(piece, "pydantic-ai", why)
    kinds = {"image/": ImageUrl, "audio/": AudioUrl, "video/": VideoUrl}
    made = next(
        (k for prefix, k in kinds.items() if media.startswith(prefix)), DocumentUrl
    )
    return made(piece.uri, media_type=media)


def output(result: Ok[Any]) -> Any:
    """What pydantic-ai gets from a success: the data, or a list of it and the content (see above)."""
    if not result.pieces:
        return result.payload()
    from pydantic_ai.messages import BinaryContent  # type: ignore[import-not-found,unused-ignore]

    found: list[Any] = [result.payload()]
    for piece in result.pieces:
        if isinstance(piece, _content.ResourceLink):
            found.append(_link(piece))
        else:
            blob = BinaryContent(piece.data, media_type=piece.media_type)
            found.append(BinaryContent.narrow_type(blob))
    return found


def _function(registry: Registry[Any], name: str, framework: bool) -> Any:
    from pydantic_ai import ApprovalRequired, ModelRetry, ToolFailed  # type: ignore[import-not-found,unused-ignore]

    async def call(ctx: Any, **arguments: Any) -> Any:
        approval = None
        if framework:
            if not ctx.tool_call_approved:
                raise ApprovalRequired()
            approval = FRAMEWORK
        options: dict[str, Any] = {"approval": approval}
        if ctx.deps is not None:
            options["deps"] = ctx.deps
        if ctx.tool_call_id is not None:
            options["call_id"] = ctx.tool_call_id
        result = await registry.acall(name, arguments, **options)
        if isinstance(result, Err):
            if result.code == "INVALID_INPUT":
                raise ModelRetry(result.text())
            raise ToolFailed(result.text())
        return output(result)

    call.__name__ = name
    return call


def tool(
    registry: Registry[Any],
    contract: ToolContract,
    approval: ApprovalMode = "framework",
) -> Tool[Any]:
    """The pydantic-ai `Tool` of one tool of `registry`."""
    from pydantic_ai import Tool  # type: ignore[import-not-found,unused-ignore]

    declared = declared_input(contract)
    framework = approval == "framework" and asks(registry, contract)
    return Tool.from_schema(
        _function(registry, contract.name, framework),
        name=contract.name,
        description=declared["description"],
        json_schema=declared["inputSchema"],
        takes_ctx=True,
    )


def tools(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
    approval: ApprovalMode = "framework",
) -> list[Tool[Any]]:
    """One `Tool` per offered tool, sorted by name."""
    return [tool(registry, c, approval) for c in offered(registry, tags, offer_all)]


__all__ = ["FRAMEWORK", "output", "tool", "tools"]
