"""Provider round trips: a recorded response of each SDK's own types, answered, then validated as the next
request's message param of that SDK (tests/data/roundtrip, made with the SDKs' model classes)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import anthropic.types
import google.genai.types as genai
import openai.types.chat
import openai.types.responses
import pydantic
import pytest

from tests.agent_support import Glossary, agent_package
from tests.conftest import REPO

PACKAGE = "trip_tools"
DATA = REPO / "tests" / "data" / "roundtrip"


def recorded(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("trips"), PACKAGE) as package:
        yield package


@pytest.fixture
def glossary(pkg: ModuleType) -> Glossary:
    return Glossary(pkg)


def exact(param: Any, value: Any) -> Any:
    """`value` validated as the SDK's TypedDict `param`, with nothing dropped on the way (dumping
    consumes the SDK's lazily validated `Iterable` fields, so their items are validated too)."""
    adapter = pydantic.TypeAdapter(param)
    dumped = adapter.dump_python(adapter.validate_python(value), mode="json", exclude_unset=True)
    assert dumped == value
    return dumped


def codes(texts: list[str]) -> list[str]:
    return [json.loads(t).get("error", {}).get("code", "OK") for t in texts]


def test_openai_chat(pkg: ModuleType, glossary: Glossary) -> None:
    completion = openai.types.chat.ChatCompletion.model_validate(recorded("openai_chat"))
    traces: list[Any] = []
    registry = glossary.registry(traces.append)
    for given in (completion.choices[0].message, completion, recorded("openai_chat")["choices"][0]["message"]):
        answer = registry.answer_openai_chat(given)
        assert [m["tool_call_id"] for m in answer] == ["call_ok", "call_denied", "call_bad_json", "call_unknown"]
        assert codes([m["content"] for m in answer]) == ["OK", "PERMISSION_DENIED", "INVALID_INPUT", "UNKNOWN_TOOL"]
        assert json.loads(answer[0]["content"]) == {"definition": "catalog x1"}  # strict nulls dropped, default applied
        assistant = completion.choices[0].message.model_dump(exclude_none=True)
        exact(list[openai.types.chat.ChatCompletionMessageParam], [assistant, *answer])
        for message in answer:
            exact(openai.types.chat.ChatCompletionToolMessageParam, message)
    assert [s[0] for s in glossary.seen] == ["lookup_word"] * 3  # denied and broken calls never ran
    assert len(traces) == 12
    assert asyncio.run(registry.aanswer_openai_chat(completion)) == registry.answer_openai_chat(completion)


def test_openai_responses(pkg: ModuleType, glossary: Glossary) -> None:
    response = openai.types.responses.Response.model_validate(recorded("openai_responses"))
    registry = glossary.registry()
    for given in (response.output, response, recorded("openai_responses")["output"]):
        answer = registry.answer_openai_responses(given)
        assert [i["call_id"] for i in answer] == ["call_ok", "call_denied", "call_bad_json", "call_unknown"]
        assert {i["type"] for i in answer} == {"function_call_output"}
        assert codes([i["output"] for i in answer]) == ["OK", "PERMISSION_DENIED", "INVALID_INPUT", "UNKNOWN_TOOL"]
        exact(openai.types.responses.ResponseInputParam, answer)
    async_answer = asyncio.run(registry.aanswer_openai_responses(response.output))
    assert async_answer == registry.answer_openai_responses(response.output)


def test_anthropic(pkg: ModuleType, glossary: Glossary) -> None:
    message = anthropic.types.Message.model_validate(recorded("anthropic"))
    registry = glossary.registry()
    for given in (message.content, message, recorded("anthropic")["content"]):
        answer = registry.answer_anthropic(given)
        assert answer is not None and answer["role"] == "user"
        blocks = answer["content"]
        assert [b["tool_use_id"] for b in blocks] == ["toolu_ok", "toolu_denied", "toolu_bad_json", "toolu_unknown"]
        assert [b["is_error"] for b in blocks] == [False, True, True, True]
        assert codes([b["content"] for b in blocks]) == ["OK", "PERMISSION_DENIED", "INVALID_INPUT", "UNKNOWN_TOOL"]
        exact(anthropic.types.MessageParam, answer)
        for block in blocks:
            exact(anthropic.types.ToolResultBlockParam, block)
    assert registry.answer_anthropic([{"type": "text", "text": "no tools"}]) is None
    assert asyncio.run(registry.aanswer_anthropic(message)) == registry.answer_anthropic(message)


def test_gemini(pkg: ModuleType, glossary: Glossary) -> None:
    response = genai.GenerateContentResponse.model_validate(recorded("gemini"))
    registry = glossary.registry()
    content = response.candidates[0].content
    for given in (content, response, recorded("gemini")["candidates"][0]["content"]):
        answer = registry.answer_gemini(given)
        assert answer is not None and answer["role"] == "user"
        responses = [p["function_response"] for p in answer["parts"]]
        assert [r.get("id") for r in responses] == ["fc_ok", None, "fc_bad", "fc_unknown"]
        assert [r["name"] for r in responses] == ["lookup_word", "erase_word", "lookup_word", "translate_word"]
        assert responses[0]["response"] == {"output": {"definition": "catalog x1"}}
        assert [r["response"].get("error", {}).get("code") for r in responses[1:]] == [
            "PERMISSION_DENIED",
            "INVALID_INPUT",
            "UNKNOWN_TOOL",
        ]
        exact(genai.ContentDict, answer)
        genai.Content.model_validate(answer)
    camel = {"role": "model", "parts": [{"functionCall": {"name": "lookup_word", "args": {"word": "x"}}}]}
    answered = registry.answer_gemini(camel)
    assert answered is not None and answered["parts"][0]["function_response"]["response"]["output"]
    assert asyncio.run(registry.aanswer_gemini(content)) == registry.answer_gemini(content)


def test_malformed_calls_are_error_results_in_their_place(pkg: ModuleType, glossary: Glossary) -> None:
    registry = glossary.registry()
    message = copy.deepcopy(recorded("openai_chat")["choices"][0]["message"])
    del message["tool_calls"][0]["id"]
    message["tool_calls"][1]["function"]["arguments"] = "[1, 2]"
    del message["tool_calls"][2]["function"]["name"]
    answer = registry.answer_openai_chat(message)
    assert [m["tool_call_id"] for m in answer] == ["", "call_denied", "call_bad_json", "call_unknown"]
    errors = [json.loads(m["content"])["error"] for m in answer]
    assert [e["code"] for e in errors] == ["INVALID_INPUT", "PERMISSION_DENIED", "UNKNOWN_TOOL", "UNKNOWN_TOOL"]
    assert "no id" in errors[0]["message"]
    assert glossary.seen == []  # the call without an id was not run
    allowed = glossary.registry(allow=("read", "write"))
    assert json.loads(allowed.answer_openai_chat(message)[1]["content"])["error"]["code"] == "INVALID_INPUT"
    assert registry.answer_openai_chat({"role": "assistant", "content": "hi"}) == []
    assert registry.answer_openai_responses([]) == [] and registry.answer_gemini({"parts": []}) is None


def test_async_twins_run_the_calls_concurrently_and_keep_their_order(pkg: ModuleType) -> None:
    import time

    async def lookup(arguments: Any) -> Any:
        await asyncio.sleep(0.3 if arguments.word == "slow" else 0.0)
        return pkg.Ok({"definition": arguments.word})

    registry = pkg.Registry(policy=pkg.Policy(allow={"read"}))
    registry.register("lookup_word", lookup)
    calls = [{"type": "function_call", "call_id": f"c{i}", "name": "lookup_word",
              "arguments": json.dumps({"word": "slow" if i % 2 == 0 else f"w{i}"})} for i in range(10)]  # fmt: skip
    began = time.perf_counter()
    answer = asyncio.run(registry.aanswer_openai_responses(calls))
    assert time.perf_counter() - began < 2.0  # five slow calls of 0.3 s, at once
    assert [i["call_id"] for i in answer] == [f"c{i}" for i in range(10)]
    assert [json.loads(i["output"])["definition"] for i in answer][:2] == ["slow", "w1"]


def test_custom_tool_calls_are_answered_with_their_name_never_dropped(pkg: ModuleType, glossary: Glossary) -> None:
    """Chat Completions `custom` tool calls and Responses `custom_tool_call` items get an answer each."""
    registry = glossary.registry()
    chat = openai.types.chat.ChatCompletionMessage.model_validate(
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "call_grammar", "type": "custom", "custom": {"name": "run_sql", "input": "SELECT 1"}},
                {"id": "call_known", "type": "custom", "custom": {"name": "lookup_word", "input": '{"word": "a"}'}},
            ],
        }
    )
    answer = registry.answer_openai_chat(chat)
    assert [m["tool_call_id"] for m in answer] == ["call_grammar", "call_known"]
    errors = [json.loads(m["content"]).get("error") for m in answer]
    assert errors[0]["code"] == "UNKNOWN_TOOL" and "'run_sql'" in errors[0]["message"]
    assert errors[1] is None and json.loads(answer[1]["content"]) == {"definition": "a x1"}
    exact(list[openai.types.chat.ChatCompletionMessageParam], [chat.model_dump(exclude_none=True), *answer])
    output = [
        {"type": "custom_tool_call", "call_id": "ctc_grammar", "name": "run_sql", "input": "SELECT 1"},
        {"type": "function_call", "call_id": "fc_known", "name": "lookup_word", "arguments": '{"word": "b"}'},
        {"type": "custom_tool_call", "call_id": "ctc_known", "name": "lookup_word", "input": '{"word": "c"}'},
    ]
    parsed = [openai.types.responses.ResponseCustomToolCall.model_validate(output[0])]
    for given in (output, [*parsed, *output[1:]]):
        items = registry.answer_openai_responses(given)
        assert [(i["type"], i["call_id"]) for i in items] == [
            ("custom_tool_call_output", "ctc_grammar"),
            ("function_call_output", "fc_known"),
            ("custom_tool_call_output", "ctc_known"),
        ]
        unknown = json.loads(items[0]["output"])["error"]
        assert unknown["code"] == "UNKNOWN_TOOL" and "'run_sql'" in unknown["message"]
        assert codes([i["output"] for i in items]) == ["UNKNOWN_TOOL", "OK", "OK"]
        exact(openai.types.responses.ResponseInputParam, items)
    assert asyncio.run(registry.aanswer_openai_responses(output)) == registry.answer_openai_responses(output)
