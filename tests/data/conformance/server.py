"""The conformance suite's reference server, made of the generated registry (conformance_tools).

Run with the generated package on the path: `python server.py PORT`. Serves on 127.0.0.1 with
`integrations.mcp.serve_http`. The tools that need what the runtime does not offer yet (rich
content, the call context for logging and progress, sampling, elicitation) answer UNAVAILABLE;
baseline.yml lists their scenarios with the reason.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from conformance_tools import Err, Ok, Policy, Registry
from conformance_tools.integrations.mcp import serve_http

NOT_YET = {
    "test_image_content": "image content",
    "test_audio_content": "audio content",
    "test_embedded_resource": "embedded resources",
    "test_multiple_content_types": "image and resource content",
    "test_tool_with_logging": "log notifications from a tool",
    "test_tool_with_progress": "progress notifications from a tool",
    "test_sampling": "sampling requests to the client",
    "test_elicitation": "elicitation requests to the client",
}


def unavailable(what: str) -> Any:
    def implementation(arguments: Any) -> Err:
        return Err("UNAVAILABLE", f"toolgen's runtime does not offer {what} yet", False)

    return implementation


def registry() -> Registry:
    served = Registry(Policy(allow=set()))
    served.register("test_simple_text", lambda _: Ok("This is a simple text response for testing."))
    served.register(
        "test_error_handling",
        lambda _: Err("INTENTIONAL", "This tool intentionally returns an error for testing", False),
    )
    served.register("json_schema_2020_12_tool", lambda arguments: Ok({"accepted": True}))
    for name, what in NOT_YET.items():
        served.register(name, unavailable(what))
    return served


if __name__ == "__main__":
    anyio.run(
        lambda: serve_http(registry(), "mcp-conformance-test-server", "1.0.0", port=int(sys.argv[1]))
    )
