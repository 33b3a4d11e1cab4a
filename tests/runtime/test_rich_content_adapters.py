"""Results beyond JSON through the framework adapters: each framework receives an image as its own image
type (checked with the framework's own types), the JSON data intact beside it, and a text note for a kind
it cannot carry (never a silent loss). Offline, with the real frameworks as in test_framework_adapters."""

from __future__ import annotations

import asyncio
import base64
import importlib
import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import openai.types.chat
import openai.types.responses
import pydantic
import pytest

from tests.python_support import imported
from tests.runtime.test_rich_content import PDF, PNG, WAV, contracts

PACKAGE = "content_frames"
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
LINK = "https://example.com/page.png"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported(contracts(), tmp_path_factory.mktemp("content_frames"), PACKAGE) as package:
        yield package


def adapter(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.integrations.{name}")


def _registry(pkg: ModuleType, *extra: Any) -> Any:
    content = [
        pkg.Image(PNG, "image/png"),
        pkg.Audio(WAV, "audio/wav"),
        pkg.File(PDF, "application/pdf", "page.pdf"),
        pkg.ResourceLink(LINK, "page.png", "image/png"),
        *extra,
    ]
    registry = pkg.Registry(pkg.Policy())
    registry.register("snapshot", lambda arguments: pkg.Ok({"page": arguments.page}, content=content))
    return registry


# --- OpenAI Agents SDK -------------------------------------------------------------------------------


def test_openai_agents_tool_output_is_the_sdks_image_and_file_types(pkg: ModuleType) -> None:
    from agents import ToolOutputFileContent, ToolOutputImage, ToolOutputText

    snapshot = adapter("openai_agents").tools(_registry(pkg))[0]
    output = asyncio.run(snapshot.on_invoke_tool(None, '{"page": "home"}'))  # type: ignore[arg-type]
    assert [type(p) for p in output] == [
        ToolOutputText, ToolOutputImage, ToolOutputText, ToolOutputFileContent, ToolOutputImage,
    ]  # fmt: skip
    assert json.loads(output[0].text) == {"page": "home"}
    assert output[1].image_url == PNG_URL
    assert "audio content (audio/wav, 16 bytes) left out" in output[2].text
    pdf_url = "data:application/pdf;base64," + base64.b64encode(PDF).decode()
    assert (output[3].filename, output[3].file_data) == ("page.pdf", pdf_url)
    assert output[4].image_url == LINK


def test_openai_agents_run_gives_the_model_an_input_image(pkg: ModuleType) -> None:
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    model = ScriptedModel([[function_call("snapshot", {"page": "home"}, call_id="c_1")], [assistant_message("Seen.")]])
    agent = Agent(name="pages", model=model, tools=adapter("openai_agents").tools(_registry(pkg)))
    result = asyncio.run(Runner.run(agent, "Look.", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "Seen."
    item = next(i for i in model.calls[1].input if i.get("type") == "function_call_output")
    pydantic.TypeAdapter(openai.types.responses.ResponseInputItemParam).validate_python(item)
    kinds = [p["type"] for p in item["output"]]
    assert kinds == ["input_text", "input_image", "input_text", "input_file", "input_image"]
    assert json.loads(item["output"][0]["text"]) == {"page": "home"}
    assert item["output"][1]["image_url"] == PNG_URL


def test_openai_agents_error_output_stays_json_text(pkg: ModuleType) -> None:
    snapshot = adapter("openai_agents").tools(_registry(pkg))[0]
    text = asyncio.run(snapshot.on_invoke_tool(None, '{"page": 7}'))  # type: ignore[arg-type]
    assert json.loads(text)["error"]["code"] == "INVALID_INPUT"


# --- pydantic-ai --------------------------------------------------------------------------------------


def _pydantic_ai_return(registry: Any, tools: list[Any]) -> Any:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    seen: list[list[Any]] = []

    def model(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        if len(seen) == 1:
            return ModelResponse(parts=[ToolCallPart("snapshot", {"page": "home"}, tool_call_id="p_1")])
        return ModelResponse(parts=[TextPart("Seen.")])

    assert Agent(FunctionModel(model), tools=tools).run_sync("Look.").output == "Seen."
    parts = [p for m in seen[1] for p in m.parts if isinstance(p, ToolReturnPart)]
    assert len(parts) == 1
    return seen[1], parts[0]


def test_pydantic_ai_tool_return_carries_binary_image_and_links(pkg: ModuleType) -> None:
    from pydantic_ai.messages import BinaryContent, BinaryImage, ImageUrl, ModelMessagesTypeAdapter, ToolReturnPart

    registry = _registry(pkg)
    messages, part = _pydantic_ai_return(registry, adapter("pydantic_ai").tools(registry))
    data, image, audio, pdf, link = part.content
    assert data == {"page": "home"}
    assert isinstance(image, BinaryImage) and (image.data, image.media_type) == (PNG, "image/png")
    assert isinstance(audio, BinaryContent) and audio.is_audio and audio.data == WAV
    assert isinstance(pdf, BinaryContent) and pdf.is_document and pdf.media_type == "application/pdf"
    assert isinstance(link, ImageUrl) and (link.url, link.media_type) == (LINK, "image/png")
    # pydantic-ai's own message types keep every piece through a JSON round trip
    again = ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(messages))
    returned = next(p for m in again for p in m.parts if isinstance(p, ToolReturnPart))
    assert isinstance(returned.content[1], BinaryImage) and returned.content[1].data == PNG


def test_pydantic_ai_reports_a_link_it_cannot_carry(pkg: ModuleType) -> None:
    registry = _registry(pkg, pkg.ResourceLink("s3://bucket/page.png", "page.png", "image/png"))
    _, part = _pydantic_ai_return(registry, adapter("pydantic_ai").tools(registry))
    assert part.content[0] == {"page": "home"} and len(part.content) == 6
    assert "[resource_link s3://bucket/page.png (image/png) not attached: pydantic-ai" in part.content[5]


# --- LangChain ----------------------------------------------------------------------------------------


def _langchain_message(pkg: ModuleType, asynchronous: bool) -> Any:
    snapshot = adapter("langchain").tools(_registry(pkg))[0]
    call = {"name": "snapshot", "args": {"page": "home"}, "id": "l_1", "type": "tool_call"}
    return asyncio.run(snapshot.ainvoke(call)) if asynchronous else snapshot.invoke(call)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["invoke", "ainvoke"])
def test_langchain_tool_message_has_image_and_file_blocks(pkg: ModuleType, asynchronous: bool) -> None:
    from langchain_core.messages import ToolMessage
    from langchain_core.messages.block_translators.openai import convert_to_openai_data_block
    from langchain_core.messages.content import FileContentBlock, ImageContentBlock, is_data_content_block

    message = _langchain_message(pkg, asynchronous)
    assert isinstance(message, ToolMessage) and message.status == "success"
    kinds = [b["type"] for b in message.content]
    assert kinds == ["text", "image", "text", "file", "image"]
    assert json.loads(message.content[0]["text"]) == {"page": "home"}
    image, pdf, link = message.content[1], message.content[3], message.content[4]
    pydantic.TypeAdapter(ImageContentBlock).validate_python(image)
    pydantic.TypeAdapter(FileContentBlock).validate_python(pdf)
    assert all(is_data_content_block(b) for b in (image, pdf, link))
    assert (image["base64"], image["mime_type"]) == (base64.b64encode(PNG).decode(), "image/png")
    assert link["url"] == LINK
    openai_image = convert_to_openai_data_block(image)
    pydantic.TypeAdapter(openai.types.chat.ChatCompletionContentPartImageParam).validate_python(openai_image)
    assert openai_image["image_url"]["url"] == PNG_URL
    assert convert_to_openai_data_block(pdf)["file"]["filename"] == "page.pdf"
    assert [b["type"] for b in message.content_blocks] == kinds


def test_langchain_reports_audio_and_keeps_every_piece_as_the_artifact(pkg: ModuleType) -> None:
    message = _langchain_message(pkg, False)
    assert "audio content (audio/wav, 16 bytes) left out: LangChain" in message.content[2]["text"]
    assert [p.kind for p in message.artifact] == ["image", "audio", "file", "resource_link"]
    assert message.artifact[1].data == WAV


def test_langchain_json_only_result_is_still_text(pkg: ModuleType) -> None:
    registry = pkg.Registry(pkg.Policy())
    registry.register("snapshot", lambda arguments: pkg.Ok({"page": arguments.page}))
    snapshot = adapter("langchain").tools(registry)[0]
    message = snapshot.invoke({"name": "snapshot", "args": {"page": "x"}, "id": "l_2", "type": "tool_call"})
    assert json.loads(message.content) == {"page": "x"} and message.artifact is None
    assert json.loads(snapshot.invoke({"page": "y"})) == {"page": "y"}
