# The toolgen runtime's integrations/openai_agents.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The registry as OpenAI Agents SDK tools: `tools(registry)` -> a list of `agents.FunctionTool`.

Each tool's `params_json_schema` is the OpenAI Responses declaration toolgen built
(`providers/openai_responses.json`), `strict_json_schema` its `strict` flag. The SDK's invocation
hands the model's argument text to `Registry.acall` unchanged (the registry drops the nulls strict
mode sends for left-out optional properties); the tool's output is the result's JSON text: the
data, or `{"error": {...}}` for a failure (policy denial and invalid input included), which the SDK
gives the model as the tool's output. The `agents` package is imported when `tools` is called.

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

from .._approval import Approval
from .._runtime import Registry, ToolContract, thaw
from . import ApprovalMode, asks, offered

if TYPE_CHECKING:
    from agents import FunctionTool  # type: ignore[import-not-found,unused-ignore]

FRAMEWORK = Approval(True, "approved in the OpenAI Agents SDK run", "openai-agents")
"""What the registry is told about a call the SDK's approval flow let through."""


def _invoker(registry: Registry[Any], name: str, approved: Approval | None) -> Any:
    async def invoke(context: Any, arguments: str) -> str:
        options: dict[str, Any] = {}
        call_id = getattr(context, "tool_call_id", None)
        if isinstance(call_id, str):
            options["call_id"] = call_id
        result = await registry.acall(
            name, arguments or "{}", approval=approved, **options
        )
        return result.text()

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


__all__ = ["FRAMEWORK", "tool", "tools"]
