"""What the adapters and the MCP server offer (registered, not denied, by tag; `offer_all` keeps the old lists),
the same in every one, and how "ask" reaches each framework: openai-agents `needs_approval`, pydantic-ai's
approval-required tools, MCP elicitation, else the registry's approver (granted, refused, timed out)."""

from __future__ import annotations

import asyncio
import importlib
import json
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import anyio
import pytest

from tests.agent_support import agent_contracts
from tests.python_support import imported

PACKAGE = "offer_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    found = agent_contracts()
    found["lookup_word"]["tags"] = ["glossary"]
    found["erase_word"]["tags"] = ["glossary", "destructive"]
    with imported(found, tmp_path_factory.mktemp("offer"), PACKAGE) as package:
        yield package


def adapter(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.integrations.{name}")


def _registry(pkg: ModuleType, approver: Any = None, traces: list[Any] | None = None, **policy: Any) -> Any:
    registry = pkg.Registry(
        pkg.Policy(**policy), traces.append if traces is not None else None, approver=approver, approval_timeout_s=0.3
    )
    registry.register("lookup_word", lambda arguments: pkg.Ok({"definition": arguments.word}))
    registry.register("erase_word", lambda arguments: pkg.Ok({}))
    return registry  # `pause` stays unregistered


async def _mcp_names(server: Any) -> list[str]:
    from mcp import Client

    async with Client(server) as client:
        return [t.name for t in (await client.list_tools()).tools]


def _names(pkg: ModuleType, registry: Any, **options: Any) -> dict[str, list[str]]:
    return {
        "openai_agents": [t.name for t in adapter("openai_agents").tools(registry, **options)],
        "pydantic_ai": [t.name for t in adapter("pydantic_ai").tools(registry, **options)],
        "langchain": [t.name for t in adapter("langchain").tools(registry, **options)],
        "tools/list": [t["name"] for t in adapter("mcp").tools_list(registry, **options)["tools"]],
        "mcp client": anyio.run(_mcp_names, adapter("mcp").server(registry, **options)),
    }


@pytest.mark.parametrize(
    ("policy", "options", "offered"),
    [
        ({"allow": {"read"}}, {}, ["lookup_word"]),
        ({"allow": {"read"}, "ask": {"write"}}, {}, ["erase_word", "lookup_word"]),
        ({"allow": {"read", "write"}}, {"tags": ["destructive"]}, ["erase_word"]),
        ({}, {}, []),
    ],
)
def test_every_adapter_and_tools_list_offer_the_same_callable_tools(
    pkg: ModuleType, policy: dict[str, Any], options: dict[str, Any], offered: list[str]
) -> None:
    names = _names(pkg, _registry(pkg, **policy), **options)
    assert names == dict.fromkeys(names, offered)


def test_offer_all_keeps_the_earlier_lists(pkg: ModuleType) -> None:
    names = _names(pkg, _registry(pkg, allow={"read"}), offer_all=True)
    assert names.pop("tools/list") == names.pop("mcp client") == ["erase_word", "lookup_word", "pause"]
    assert names == {key: ["erase_word", "lookup_word"] for key in names}


# --- OpenAI Agents SDK ------------------------------------------------------------------------------------


def _agents_run(registry: Any, decide: str | None, **options: Any) -> tuple[Any, Any]:
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    model = ScriptedModel(
        [[function_call("erase_word", {"word": "w"}, call_id="c_erase")], [assistant_message("Done.")]]
    )
    agent = Agent(name="glossary", model=model, tools=adapter("openai_agents").tools(registry, **options))
    config = RunConfig(tracing_disabled=True)
    result = asyncio.run(Runner.run(agent, "Erase w.", run_config=config))
    if decide is None:
        return result, model
    assert [i.name for i in result.interruptions] == ["erase_word"]
    state = result.to_state()
    if decide == "approve":
        state.approve(result.interruptions[0])
    else:
        state.reject(result.interruptions[0], rejection_message="the owner said no")
    return asyncio.run(Runner.run(agent, state, run_config=config)), model


def _outputs(model: Any) -> dict[str, str]:
    return {i["call_id"]: i["output"] for i in model.calls[-1].input if i.get("type") == "function_call_output"}


def test_openai_agents_needs_approval_granted_and_rejected(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = _registry(
        pkg, lambda request: pytest.fail("the registry's approver was asked"), traces, allow={"read"}, ask={"write"}
    )
    erase = adapter("openai_agents").tools(registry)[0]
    assert (erase.name, erase.needs_approval) == ("erase_word", True)
    result, model = _agents_run(registry, "approve")
    assert result.final_output == "Done." and json.loads(_outputs(model)["c_erase"]) == {}
    assert traces[-1].approval == {
        "granted": True,
        "reason": "approved in the OpenAI Agents SDK run",
        "by": "openai-agents",
    }
    count = len(traces)
    result, model = _agents_run(registry, "reject")
    assert "the owner said no" in _outputs(model)["c_erase"] and len(traces) == count  # never reached the registry


@pytest.mark.parametrize(("answer", "code"), [(True, None), (False, "APPROVAL_DENIED"), ("slow", "APPROVAL_DENIED")])
def test_openai_agents_with_the_registrys_approver(pkg: ModuleType, answer: Any, code: str | None) -> None:
    def approver(request: Any) -> bool:
        if answer == "slow":
            time.sleep(1)
        return answer is True

    registry = _registry(pkg, approver, allow={"read"}, ask={"write"})
    erase = adapter("openai_agents").tools(registry, approval="registry")[0]
    assert erase.needs_approval is False
    _, model = _agents_run(registry, None, approval="registry")
    output = json.loads(_outputs(model)["c_erase"])
    assert (output.get("error") or {}).get("code") == code


# --- pydantic-ai ------------------------------------------------------------------------------------------


def _pydantic_agent(registry: Any, **options: Any) -> Any:
    from pydantic_ai import Agent, DeferredToolRequests
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def script(messages: list[Any], info: AgentInfo) -> ModelResponse:
        answered = [p for m in messages for p in m.parts if isinstance(p, ToolReturnPart)]
        if answered:
            return ModelResponse(parts=[TextPart(f"tool said {answered[-1].content}")])
        return ModelResponse(parts=[ToolCallPart("erase_word", {"word": "w"}, tool_call_id="c_erase")])

    tools = adapter("pydantic_ai").tools(registry, **options)
    return Agent(FunctionModel(script), tools=tools, output_type=[str, DeferredToolRequests])


def test_pydantic_ai_approval_required_granted_and_denied(pkg: ModuleType) -> None:
    from pydantic_ai import DeferredToolRequests, DeferredToolResults, ToolDenied

    traces: list[Any] = []
    registry = _registry(pkg, lambda request: pytest.fail("asked"), traces, allow={"read"}, ask={"write"})
    agent = _pydantic_agent(registry)
    first = agent.run_sync("Erase w.")
    assert isinstance(first.output, DeferredToolRequests)
    assert [c.tool_call_id for c in first.output.approvals] == ["c_erase"] and traces == []
    granted = agent.run_sync(
        message_history=first.all_messages(), deferred_tool_results=DeferredToolResults(approvals={"c_erase": True})
    )
    assert granted.output == "tool said {}"
    assert (traces[-1].approval["by"], traces[-1].call_id) == ("pydantic-ai", "c_erase")
    denied = agent.run_sync(
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={"c_erase": ToolDenied("the owner said no")}),
    )
    assert "the owner said no" in denied.output and len(traces) == 1


@pytest.mark.parametrize(
    ("answer", "says"), [(True, "tool said {}"), (False, "APPROVAL_DENIED"), ("slow", "no answer")]
)
def test_pydantic_ai_with_the_registrys_approver(pkg: ModuleType, answer: Any, says: str) -> None:
    async def approver(request: Any) -> bool:
        if answer == "slow":
            await asyncio.sleep(1)
        return answer is True

    registry = _registry(pkg, approver, allow={"read"}, ask={"write"})
    result = _pydantic_agent(registry, approval="registry").run_sync("Erase w.")
    assert says in str(result.output)


# --- LangChain (no approval flow of its own: the registry's approver) -------------------------------------


@pytest.mark.parametrize(("answer", "code"), [(True, None), (False, "APPROVAL_DENIED"), ("slow", "APPROVAL_DENIED")])
def test_langchain_uses_the_registrys_approver(pkg: ModuleType, answer: Any, code: str | None) -> None:
    def approver(request: Any) -> bool:
        if answer == "slow":
            time.sleep(1)
        return answer is True

    registry = _registry(pkg, approver, allow={"read"}, ask={"write"})
    erase = adapter("langchain").tools(registry)[0]
    for text in (erase.invoke({"word": "w"}), asyncio.run(erase.ainvoke({"word": "w"}))):
        assert (json.loads(text).get("error") or {}).get("code") == code


# --- MCP: elicitation when the client can, else the approver -----------------------------------------------


async def _mcp_call(server: Any, elicit: Any, mode: str) -> Any:
    from mcp import Client

    async with Client(server, elicitation_callback=elicit, mode=mode) as client:  # type: ignore[arg-type]
        return await client.call_tool("erase_word", {"word": "w"})


def _error_code(result: Any) -> str | None:
    """The error code of an MCP `CallToolResult`: an error result carries the error as JSON text."""
    if not result.is_error:
        return None
    assert result.structured_content is None  # an error never claims to match the output schema
    return str(json.loads(result.content[0].text)["error"]["code"])


@pytest.mark.parametrize(
    ("action", "approve", "code"),
    [("accept", True, None), ("accept", False, "APPROVAL_DENIED"), ("decline", None, "APPROVAL_DENIED")],
)
def test_mcp_asks_through_elicitation(pkg: ModuleType, action: str, approve: Any, code: str | None) -> None:
    import mcp_types

    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        content = {"approve": approve, "reason": "checked"} if approve is not None else None
        return mcp_types.ElicitResult(action=action, content=content)

    traces: list[Any] = []
    registry = _registry(pkg, lambda request: pytest.fail("asked the approver"), traces, allow={"read"}, ask={"write"})
    result = anyio.run(_mcp_call, adapter("mcp").server(registry), elicit, "legacy")
    assert _error_code(result) == code
    assert asked == ['Approve the call of erase_word (permission write)? Input: {"word": "w"}']
    assert traces[-1].approval["by"] == "mcp-elicitation"


def test_mcp_without_a_back_channel_for_elicitation_asks_the_approver(pkg: ModuleType) -> None:
    async def elicit(context: Any, params: Any) -> Any:
        raise AssertionError("not reachable on this connection")

    traces: list[Any] = []
    registry = _registry(pkg, lambda request: pkg.Approval(True, "ok", "alice"), traces, allow={"read"}, ask={"write"})
    result = anyio.run(_mcp_call, adapter("mcp").server(registry), elicit, "auto")
    assert result.is_error is False and traces[-1].approval["by"] == "alice"


@pytest.mark.parametrize(("answer", "code"), [(True, None), (False, "APPROVAL_DENIED"), ("slow", "APPROVAL_DENIED")])
def test_mcp_without_elicitation_uses_the_registrys_approver(pkg: ModuleType, answer: Any, code: str | None) -> None:
    async def approver(request: Any) -> bool:
        if answer == "slow":
            await asyncio.sleep(1)
        return answer is True

    registry = _registry(pkg, approver, allow={"read"}, ask={"write"})
    result = anyio.run(_mcp_call, adapter("mcp").server(registry), None, "auto")
    assert _error_code(result) == code


# --- LangChain: the declaration each model family gets ------------------------------------------------------


def test_langchain_gives_the_declaration_chosen_for_the_model_family(pkg: ModuleType) -> None:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    registry = _registry(pkg, allow={"read"})
    contract = pkg.CONTRACTS["lookup_word"]
    expected = {
        "portable": pkg.thaw(contract.declarations["mcp"]["inputSchema"]),
        "openai": pkg.thaw(contract.declarations["openai"]["parameters"]),
        "gemini": pkg.thaw(contract.declarations["gemini"]["parametersJsonSchema"]),
    }
    for declaration, schema in expected.items():
        (lookup,) = adapter("langchain").tools(registry, declaration=declaration)
        assert lookup.args_schema == schema, declaration
        assert convert_to_openai_tool(lookup)["function"]["parameters"] == schema
    assert expected["openai"]["required"] == ["word", "limit", "api_key"]  # strict: optional ones nullable
    assert "required" not in expected["portable"] or expected["portable"]["required"] == ["word"]
    strict = adapter("langchain").tools(registry, declaration="openai")[0]
    assert json.loads(strict.invoke({"word": "w", "limit": None, "api_key": None})) == {"definition": "w"}
