"""Results beyond JSON: `Ok(data, content=[Image, Audio, File, ResourceLink])`, the contract's `content_kinds`,
and each provider's tool-result shape validated by the pinned SDK's own types (MCP, Anthropic, OpenAI
Responses and Chat Completions, Gemini), through the registry and a real MCP client."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anthropic.types
import anyio
import google.genai.types as genai
import mcp_types
import openai.types.chat
import openai.types.responses
import pydantic
import pytest

from tests.agent_support import agent_contracts
from tests.python_support import build, imported, write_project
from toolgen.config import load_settings
from toolgen.validate import validate_paths

PACKAGE = "content_tools"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n"
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


def contracts() -> dict[str, dict[str, Any]]:
    found = agent_contracts()
    snap = {
        "name": "snapshot",
        "version": "1.0.0",
        "description": "Take a picture of the page and return it with its sound, its PDF and a link.",
        "permissions": [],
        "content_kinds": ["image", "audio", "file", "resource_link"],
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"page": {"type": "string", "description": "Which page."}},
            "required": ["page"],
        },
        "output_schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"page": {"type": "string", "description": "The page."}},
            "required": ["page"],
        },
    }
    return {**found, "snapshot": snap}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported(contracts(), tmp_path_factory.mktemp("content"), PACKAGE) as package:
        yield package


def _content(pkg: ModuleType) -> list[Any]:
    return [
        pkg.Image(PNG, "image/png"),
        pkg.Audio(WAV, "audio/wav"),
        pkg.File(PDF, "application/pdf", "page.pdf"),
        pkg.File(b"plain words", "text/plain", "page.txt"),
        pkg.ResourceLink("https://example.com/page.png", "page.png", "image/png"),
    ]


def _registry(pkg: ModuleType, traces: list[Any] | None = None) -> Any:
    registry = pkg.Registry(pkg.Policy(), traces.append if traces is not None else None)
    registry.register("snapshot", lambda arguments: pkg.Ok({"page": arguments.page}, content=_content(pkg)))
    return registry


def exact(param: Any, value: Any) -> Any:
    adapter = pydantic.TypeAdapter(param)
    dumped = adapter.dump_python(adapter.validate_python(value), mode="json", exclude_unset=True)
    assert dumped == value
    return dumped


def test_the_contract_key_reaches_the_record_and_the_result_keeps_its_content(pkg: ModuleType) -> None:
    assert pkg.CONTRACTS["snapshot"].content_kinds == ("image", "audio", "file", "resource_link")
    assert pkg.CONTRACTS["pause"].content_kinds == ()
    result = _registry(pkg).call("snapshot", {"page": "home"})
    assert result.ok and result.data.page == "home"
    assert [p.kind for p in result.content] == ["image", "audio", "file", "file", "resource_link"]


def test_mcp_blocks_validate_as_call_tool_result(pkg: ModuleType) -> None:
    answer = _registry(pkg).call("snapshot", {"page": "home"}).to_mcp()
    parsed = mcp_types.CallToolResult.model_validate(answer)
    kinds = [block.type for block in parsed.content]
    assert kinds == ["text", "image", "audio", "resource", "resource", "resource_link"]
    assert base64.b64decode(answer["content"][1]["data"]) == PNG
    assert answer["content"][3]["resource"]["mimeType"] == "application/pdf"
    assert base64.b64decode(answer["content"][3]["resource"]["blob"]) == PDF
    assert answer["structuredContent"] == {"page": "home"}


def test_anthropic_tool_result_has_image_and_document_blocks(pkg: ModuleType) -> None:
    block = _registry(pkg).call("snapshot", {"page": "home"}).to_anthropic("toolu_1")
    exact(anthropic.types.ToolResultBlockParam, block)
    exact(anthropic.types.MessageParam, {"role": "user", "content": [block]})
    kinds = [b["type"] for b in block["content"]]
    assert kinds == ["text", "image", "text", "document", "document", "image"]
    assert block["content"][1]["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": base64.b64encode(PNG).decode(),
    }
    assert "audio content (audio/wav, 16 bytes) left out: Anthropic" in block["content"][2]["text"]
    assert block["content"][4]["source"] == {"type": "text", "media_type": "text/plain", "data": "plain words"}
    assert block["content"][5]["source"] == {"type": "url", "url": "https://example.com/page.png"}


def test_openai_responses_output_has_image_and_file_parts(pkg: ModuleType) -> None:
    item = _registry(pkg).call("snapshot", {"page": "home"}).to_openai_responses("call_1")
    exact(openai.types.responses.ResponseInputItemParam, item)
    kinds = [p["type"] for p in item["output"]]
    assert kinds == ["input_text", "input_image", "input_text", "input_file", "input_file", "input_image"]
    assert item["output"][1]["image_url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert item["output"][3]["filename"] == "page.pdf"
    assert "left out: OpenAI" in item["output"][2]["text"]


def test_openai_chat_tool_message_says_what_it_cannot_carry(pkg: ModuleType) -> None:
    message = _registry(pkg).call("snapshot", {"page": "home"}).to_openai_chat("call_1")
    exact(openai.types.chat.ChatCompletionToolMessageParam, message)
    texts = [p["text"] for p in message["content"]]
    assert json.loads(texts[0]) == {"page": "home"} and len(texts) == 6
    assert all("OpenAI Chat Completions tool messages carry text only" in t for t in texts[1:])


def test_gemini_function_response_has_inline_data_parts(pkg: ModuleType) -> None:
    response = _registry(pkg).call("snapshot", {"page": "home"}).to_gemini("snapshot", "fc_1")
    parsed = genai.FunctionResponse.model_validate_json(json.dumps(response))
    assert parsed.parts is not None and len(parsed.parts) == 5
    assert parsed.parts[0].inline_data is not None and parsed.parts[0].inline_data.data == PNG
    assert parsed.parts[2].inline_data is not None and parsed.parts[2].inline_data.display_name == "page.pdf"
    assert parsed.parts[4].file_data is not None and parsed.parts[4].file_data.file_uri.endswith("page.png")
    genai.Content.model_validate_json(json.dumps({"role": "user", "parts": [{"function_response": response}]}))


def test_content_of_an_undeclared_kind_is_internal_with_a_note(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = pkg.Registry(pkg.Policy(), traces.append)
    registry.register("pause", lambda arguments: pkg.Ok({"waited_ms": 0}, content=[pkg.Image(PNG, "image/png")]))
    result = registry.call("pause", {"ms": 0})
    assert result.code == "INTERNAL"
    assert "returned content of kind(s) image; its contract declares none" in traces[0].traceback


def test_content_is_checked_when_made(pkg: ModuleType) -> None:
    with pytest.raises(ValueError, match="image/\\* media type"):
        pkg.Image(PNG, "text/plain")
    with pytest.raises(TypeError, match="content must be Image, Audio, File or ResourceLink, not str"):
        pkg.Ok({}, content=["a picture"])


def test_an_mcp_client_receives_the_image(pkg: ModuleType) -> None:
    import importlib

    from mcp import Client

    server = importlib.import_module(f"{PACKAGE}.integrations.mcp").server(_registry(pkg))

    async def talk() -> Any:
        async with Client(server) as client:
            return await client.call_tool("snapshot", {"page": "home"})

    result = anyio.run(talk)
    assert [c.type for c in result.content][:2] == ["text", "image"]
    assert base64.b64decode(result.content[1].data) == PNG


def test_an_unknown_content_kind_is_tg106_at_its_place(tmp_path: Path) -> None:
    snap = contracts()["snapshot"]
    snap["content_kinds"] = ["image", "video"]
    root = write_project(tmp_path, {"snapshot": snap})
    settings, problems = load_settings(root)
    assert not problems
    found = [(d.code, d.pointer, d.message) for d in validate_paths(settings, []) if d.is_error]
    assert found == [
        ("TG106", "/content_kinds/1", "unknown content kind 'video'; use one of image, audio, file, resource_link")
    ]


def test_the_docs_page_says_what_content_a_result_may_carry(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"snapshot": contracts()["snapshot"]})
    (root / "toolgen.toml").write_text('targets = ["python", "docs"]\npython_package = "snap"\n', encoding="utf-8")
    page = build(root)["docs/snapshot.md"]
    assert "a result may carry `image`, `audio`, `file`, `resource_link` besides its data" in page
