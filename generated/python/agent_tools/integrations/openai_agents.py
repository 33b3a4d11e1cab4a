# The toolgen runtime's integrations/openai_agents.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as OpenAI Agents SDK tools: `tools(registry)` -> a list of `agents.FunctionTool`.

Each tool's `params_json_schema` is the OpenAI Responses declaration toolgen built
(`providers/openai_responses.json`), `strict_json_schema` its `strict` flag. The SDK's invocation
hands the model's argument text to `Registry.acall` unchanged (the registry drops the nulls strict
mode sends for left-out optional properties); the tool's output is the result's JSON text: the
data, or `{"error": {...}}` for a failure (policy denial and invalid input included), which the SDK
gives the model as the tool's output. The `agents` package is imported when `tools` is called.

A result with content beyond JSON (`Ok(data, content=[...])`) is a list of the SDK's own output
types, which it sends as a Responses `function_call_output` list: `ToolOutputText` with the data's
JSON text first, then `ToolOutputImage` for an image (a data URL) or an http(s) link to one,
`ToolOutputFileContent` for a file (a data URL and its name) or an http(s) link to another file.
The SDK has no audio output type: audio, and a link that is not http(s), become a `ToolOutputText`
note saying what was left out (kind, media type, size), as in `to_openai_responses`.

`tools(registry, tags=None, offer_all=False, approval="framework")` offers what `offered` says. A
tool the policy answers "ask" for gets `needs_approval=True` with `approval="framework"`: the run
stops with an interruption, the application approves or rejects it (`state.approve(item)` /
`state.reject(item)`), and only an approved call reaches the registry, as
`Approval(True, ..., by="openai-agents")` (a rejected one never runs). With `approval="registry"`
the registry's approver decides inside the call. The SDK's tool call id is the call's `call_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .. import _content
from .._approval import Approval
from .._runtime import Registry, ToolContract, ToolResult, thaw
from . import ApprovalMode, asks, offered

if TYPE_CHECKING:
    from agents import FunctionTool  # type: ignore[import-not-found,unused-ignore]

FRAMEWORK = Approval(True, "approved in the OpenAI Agents SDK run", "openai-agents")
"""What the registry is told about a call the SDK's approval flow let through."""


def output(result: ToolResult[Any]) -> Any:
    """What the SDK gets from the tool: the JSON text, or a list of its output types (see above)."""
    if not result.pieces:
        return result.text()
    from agents import ToolOutputFileContent, ToolOutputImage, ToolOutputText  # type: ignore[import-not-found,unused-ignore]

    found: list[Any] = [ToolOutputText(text=result.text())]
    for piece in result.pieces:
        part = _content.openai_responses(piece)
        if part["type"] == "input_image":
            found.append(ToolOutputImage(image_url=part["image_url"]))
        elif part["type"] == "input_file":
            fields = {k: v for k, v in part.items() if k != "type"}
            found.append(ToolOutputFileContent(**fields))
        else:
            found.append(ToolOutputText(text=part["text"]))
    return found


def _invoker(registry: Registry[Any], name: str, approved: Approval | None) -> Any:
    async def invoke(context: Any, arguments: str) -> Any:
        options: dict[str, Any] = {}
        call_id = getattr(context, "tool_call_id", None)
        if isinstance(call_id, str):
            options["call_id"] = call_id
        result = await registry.acall(
            name, arguments or "{}", approval=approved, **options
        )
        return output(result)

    invoke.__name__ = f"invoke_{name}"
    return invoke


def tool(
    registry: Registry[Any],
    contract: ToolContract,
    approval: ApprovalMode = "framework",
) -> FunctionTool:
    """The `FunctionTool` of one tool of `registry`."""
    from agents import FunctionTool  # type: ignore[import-not-found,unused-ignore]

    declared = thaw(contract.declarations["openai"])
    framework = approval == "framework" and asks(registry, contract)
    return FunctionTool(
        name=declared["name"],
        description=declared["description"],
        params_json_schema=declared["parameters"],
        on_invoke_tool=_invoker(
            registry, contract.name, FRAMEWORK if framework else None
        ),
        strict_json_schema=bool(declared["strict"]),
        needs_approval=framework,
    )


def tools(
    registry: Registry[Any],
    tags: Iterable[str] | None = None,
    offer_all: bool = False,
    approval: ApprovalMode = "framework",
) -> list[FunctionTool]:
    """One `FunctionTool` per offered tool, sorted by name (a tool that `[providers]` leaves out of
    `openai_responses.json` has no OpenAI declaration and is left out).
    """
    return [
        tool(registry, c, approval)
        for c in offered(registry, tags, offer_all)
        if "openai" in c.declarations
    ]


__all__ = ["FRAMEWORK", "output", "tool", "tools"]
