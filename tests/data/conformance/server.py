"""The conformance suite's reference server, made of the generated registry (conformance_tools).

Run with the generated package on the path: `python server.py PORT`. Serves on 127.0.0.1 with
`integrations.mcp.serve_http`. Each reference tool is an ordinary implementation: rich content is
`Ok(data, content=[...])`, logging and progress go through the call's `ToolContext`. The tools that
need what the runtime does not offer (sampling the client's model, asking the user for input through
elicitation) answer UNAVAILABLE; baseline.yml lists their scenarios with the reason.
"""

from __future__ import annotations

import asyncio
import struct
import sys
import zlib
from typing import Any

import anyio
from conformance_tools import Audio, Err, File, Image, Ok, Policy, Registry, ToolContext
from conformance_tools.integrations.mcp import serve_http

EMBEDDED = b"This is an embedded resource content."

NOT_OFFERED = {
    "test_sampling": "sampling requests to the client",
    "test_elicitation": "elicitation requests to the client for input",
}


def red_pixel_png() -> bytes:
    """A 1x1 red PNG, made here so the repository holds no binary file."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def short_wav() -> bytes:
    """Ten milliseconds of silence as 8 kHz 8-bit mono WAV."""
    samples = b"\x80" * 80
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 8000, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
    return b"RIFF" + struct.pack("<I", len(body)) + body


def unavailable(what: str) -> Any:
    def implementation(arguments: Any) -> Err:
        return Err("UNAVAILABLE", f"toolgen's runtime does not offer {what}", False)

    return implementation


async def with_logging(arguments: Any, context: ToolContext[None]) -> Ok[str]:
    context.log("info", "Tool execution started")
    await asyncio.sleep(0.05)
    context.log("info", "Tool processing data")
    await asyncio.sleep(0.05)
    context.log("info", "Tool execution completed")
    return Ok("Logging tool finished: three messages sent.")


async def with_progress(arguments: Any, context: ToolContext[None]) -> Ok[str]:
    for done in (0, 50, 100):
        context.progress(done, 100)
        if done < 100:
            await asyncio.sleep(0.05)
    return Ok("Progress tool finished: 0, 50 and 100 of 100 reported.")


def registry() -> Registry:
    served = Registry(Policy(allow=set()))
    served.register("test_simple_text", lambda _: Ok("This is a simple text response for testing."))
    served.register(
        "test_error_handling",
        lambda _: Err("INTENTIONAL", "This tool intentionally returns an error for testing", False),
    )
    served.register("json_schema_2020_12_tool", lambda arguments: Ok({"accepted": True}))
    served.register("test_image_content", lambda _: Ok("A red pixel.", content=[Image(red_pixel_png(), "image/png")]))
    served.register("test_audio_content", lambda _: Ok("Silence.", content=[Audio(short_wav(), "audio/wav")]))
    served.register(
        "test_embedded_resource",
        lambda _: Ok("A text file.", content=[File(EMBEDDED, "text/plain", "embedded.txt")]),
    )
    served.register(
        "test_multiple_content_types",
        lambda _: Ok(
            "Multiple content types test:",
            content=[
                Image(red_pixel_png(), "image/png"),
                File(b'{"test":"data","value":123}', "application/json", "mixed.json"),
            ],
        ),
    )
    served.register("test_tool_with_logging", with_logging)
    served.register("test_tool_with_progress", with_progress)
    for name, what in NOT_OFFERED.items():
        served.register(name, unavailable(what))
    return served


if __name__ == "__main__":
    anyio.run(lambda: serve_http(registry(), "mcp-conformance-test-server", "1.0.0", port=int(sys.argv[1])))
