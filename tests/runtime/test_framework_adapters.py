"""The generated framework adapters, each driven offline by the real framework: the OpenAI Agents SDK (its
`ScriptedModel`), pydantic-ai (`FunctionModel`, `TestModel`) and LangChain (its fake chat model).

Each test checks that the call reached the implementation with the validated input, that a policy denial
and INVALID_INPUT reach the framework as tool errors, and that the registry traced every call.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.agent_support import Glossary, agent_package

PACKAGE = "frame_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("frames"), PACKAGE) as package:
        yield package


def adapter(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.integrations.{name}")


def test_importing_the_package_and_its_adapters_imports_no_framework(pkg: ModuleType) -> None:
    import subprocess
    import sys

    folder = str(next(iter(pkg.__path__))).rsplit("/", 1)[0]
    code = (
        "import sys; import frame_tools\n"
        "from frame_tools.integrations import openai_agents, pydantic_ai, langchain, mcp\n"
        "frameworks = ('agents', 'pydantic_ai', 'langchain_core', 'mcp', 'mcp_types')\n"
        "loaded = sorted(m for m in frameworks if m in sys.modules)\n"
        "print(loaded)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


# --- OpenAI Agents SDK -------------------------------------------------------------------------------


def test_openai_agents_tools_declare_what_toolgen_built(pkg: ModuleType) -> None:
    agents_tools = adapter("openai_agents").tools(Glossary(pkg).registry(), offer_all=True)
    assert [t.name for t in agents_tools] == ["erase_word", "lookup_word"]
    lookup = agents_tools[1]
    declared = pkg.CONTRACTS["lookup_word"].declarations["openai"]
    assert lookup.strict_json_schema is True and declared["strict"] is True
    assert lookup.params_json_schema == pkg.thaw(declared["parameters"])
    assert lookup.params_json_schema["required"] == ["word", "limit", "api_key"]  # strict: optional ones nullable


def test_openai_agents_run_with_a_scripted_model(pkg: ModuleType) -> None:
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    glossary = Glossary(pkg)
    traces: list[Any] = []
    registry = glossary.registry(traces.append)
    model = ScriptedModel(
        [
            [
                function_call("lookup_word", {"word": "catalog", "limit": None, "api_key": None}, call_id="c_ok"),
                function_call("erase_word", {"word": "catalog"}, call_id="c_denied"),
                function_call("lookup_word", {"word": "", "limit": None, "api_key": None}, call_id="c_invalid"),
            ],
            [assistant_message("Done.")],
        ]
    )
    agent = Agent(name="glossary", model=model, tools=adapter("openai_agents").tools(registry, offer_all=True))
    result = asyncio.run(Runner.run(agent, "Define catalog.", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "Done."
    outputs = {
        i["call_id"]: json.loads(i["output"]) for i in model.calls[1].input if i.get("type") == "function_call_output"
    }
    assert outputs["c_ok"] == {"definition": "catalog x1"}
    assert outputs["c_denied"]["error"]["code"] == "PERMISSION_DENIED"
    assert outputs["c_invalid"]["error"]["code"] == "INVALID_INPUT"
    assert [(name, args.word, args.limit) for name, args in glossary.seen] == [("lookup_word", "catalog", 1)]
    assert sorted(t.code for t in traces) == ["INVALID_INPUT", "OK", "PERMISSION_DENIED"]


def test_openai_agents_on_invoke_tool_passes_the_model_text_to_the_registry(pkg: ModuleType) -> None:
    glossary = Glossary(pkg)
    traces: list[Any] = []
    lookup = adapter("openai_agents").tools(glossary.registry(traces.append), offer_all=True)[1]
    text = asyncio.run(lookup.on_invoke_tool(None, '{"word": "x", "limit": 3, "api_key": "sk-1"}'))  # type: ignore[arg-type]
    assert json.loads(text) == {"definition": "x x3"}
    assert traces[0].input == {"word": "x", "limit": 3, "api_key": "[REDACTED]"}
    broken = asyncio.run(lookup.on_invoke_tool(None, "{not json"))  # type: ignore[arg-type]
    assert json.loads(broken)["error"]["code"] == "INVALID_INPUT"


# --- pydantic-ai --------------------------------------------------------------------------------------


def _parts(messages: list[Any]) -> list[Any]:
    return [part for message in messages for part in message.parts]


def test_pydantic_ai_run_with_a_function_model(pkg: ModuleType) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    glossary = Glossary(pkg)
    traces: list[Any] = []
    registry = glossary.registry(traces.append)
    seen: list[list[Any]] = []

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        if len(seen) == 1:
            assert {t.name for t in info.function_tools} == {"erase_word", "lookup_word"}
            declared = next(t for t in info.function_tools if t.name == "lookup_word").parameters_json_schema
            assert declared == pkg.thaw(pkg.CONTRACTS["lookup_word"].declarations["mcp"]["inputSchema"])
            return ModelResponse(
                parts=[
                    ToolCallPart("lookup_word", {"word": "catalog"}, tool_call_id="p_ok"),
                    ToolCallPart("erase_word", {"word": "catalog"}, tool_call_id="p_denied"),
                    ToolCallPart("lookup_word", {"word": 7}, tool_call_id="p_invalid"),
                ]
            )
        return ModelResponse(parts=[TextPart("Done.")])

    agents_tools = adapter("pydantic_ai").tools(registry, offer_all=True)
    result = Agent(FunctionModel(model), tools=agents_tools).run_sync("Define catalog.")
    assert result.output == "Done."
    answered = {getattr(p, "tool_call_id", None): p for p in _parts(seen[1])}
    assert isinstance(answered["p_ok"], ToolReturnPart) and answered["p_ok"].content == {"definition": "catalog x1"}
    invalid, denied = answered["p_invalid"], answered["p_denied"]
    assert (invalid.outcome, invalid.retry.cause) == ("retried", "model_retry")  # ModelRetry: fix the arguments
    assert "INVALID_INPUT" in invalid.model_response_str()
    assert "PERMISSION_DENIED" in denied.model_response_str() and denied.outcome == "failed"  # ToolFailed
    assert [(name, args.word) for name, args in glossary.seen] == [("lookup_word", "catalog")]
    assert sorted(t.code for t in traces) == ["INVALID_INPUT", "OK", "PERMISSION_DENIED"]


def test_pydantic_ai_test_model_calls_the_tool_through_the_registry(pkg: ModuleType) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    glossary = Glossary(pkg)
    traces: list[Any] = []
    registry = glossary.registry(traces.append)
    Agent(TestModel(call_tools=["lookup_word"]), tools=adapter("pydantic_ai").tools(registry)).run_sync("Go.")
    assert glossary.seen and glossary.seen[0][0] == "lookup_word"
    assert type(glossary.seen[0][1]).__name__ == "LookupWordInput"
    assert traces and traces[0].tool == "lookup_word"


# --- LangChain ----------------------------------------------------------------------------------------


def _langchain_loop(tools: list[Any], calls: list[dict[str, Any]], asynchronous: bool) -> list[Any]:
    """One turn of the usual LangChain tool loop: the fake model asks for `calls`, each tool answers."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    model = GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=calls)]))
    reply = model.invoke("Define catalog.")
    by_name = {t.name: t for t in tools}
    if asynchronous:

        async def answer() -> list[Any]:
            return [await by_name[c["name"]].ainvoke(c) for c in reply.tool_calls]

        return asyncio.run(answer())
    return [by_name[c["name"]].invoke(c) for c in reply.tool_calls]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["invoke", "ainvoke"])
def test_langchain_tools_in_a_fake_chat_model_loop(pkg: ModuleType, asynchronous: bool) -> None:
    glossary = Glossary(pkg)
    traces: list[Any] = []
    tools = adapter("langchain").tools(glossary.registry(traces.append), offer_all=True)
    calls = [
        {"name": "lookup_word", "args": {"word": "catalog"}, "id": "l_ok", "type": "tool_call"},
        {"name": "erase_word", "args": {"word": "catalog"}, "id": "l_denied", "type": "tool_call"},
        {"name": "lookup_word", "args": {"word": "catalog", "limit": 0}, "id": "l_invalid", "type": "tool_call"},
    ]
    ok, denied, invalid = _langchain_loop(tools, calls, asynchronous)
    assert (ok.tool_call_id, ok.status, json.loads(ok.content)) == ("l_ok", "success", {"definition": "catalog x1"})
    assert denied.status == "error" and json.loads(denied.content)["error"]["code"] == "PERMISSION_DENIED"
    assert invalid.status == "error" and json.loads(invalid.content)["error"]["code"] == "INVALID_INPUT"
    assert [(name, args.word, args.limit) for name, args in glossary.seen] == [("lookup_word", "catalog", 1)]
    # the registry got the arguments as the model sent them: LangChain filled in no default
    assert [t.input for t in traces] == [{"word": "catalog"}, {"word": "catalog"}, {"word": "catalog", "limit": 0}]
    assert [t.code for t in traces] == ["OK", "PERMISSION_DENIED", "INVALID_INPUT"]


def test_a_tool_left_out_of_a_provider_is_left_out_of_its_adapter(tmp_path: Any) -> None:
    from tests.agent_support import agent_contracts
    from tests.python_support import build, write_project

    contracts = agent_contracts()
    contracts["erase_word"]["providers"] = {"exclude": ["mcp", "openai_responses"]}
    root = write_project(tmp_path, contracts, "left_tools")
    (root / "toolgen.toml").write_text('targets = ["python", "providers"]\npython_package = "left_tools"\n')
    files = build(root)
    module = files["python/left_tools/erase_word.py"]
    assert '"openai"' not in module and '"mcp"' not in module
    mcp_document = json.loads(files["providers/mcp.json"])
    assert [t["name"] for t in mcp_document["tools"]] == ["lookup_word", "pause"]
    assert '"openai"' in files["python/left_tools/lookup_word.py"]
