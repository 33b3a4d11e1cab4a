"""`Registry(spans=Spans(...))`: one `execute_tool {tool}` span per call (GenAI semantic conventions 1.38.0),
checked attribute by attribute with the SDK's in-memory exporter; no sensitive value in any span."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otel extra (opentelemetry-sdk) is not installed")

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from tests.agent_support import agent_package

PACKAGE = "span_tools"
SECRET = "sk-never-in-a-span"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("spans"), PACKAGE) as package:
        yield package


def _spans(pkg: ModuleType, **options: Any) -> tuple[Any, InMemorySpanExporter, list[Any]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    seen: list[Any] = []

    def lookup(arguments: Any, context: Any) -> Any:
        seen.append(context.trace_id)
        if arguments.word == "boom":
            return pkg.Err("UNKNOWN_WORD", f"no {arguments.word} for key {arguments.api_key}")
        return pkg.Ok({"definition": f"{arguments.word} ({arguments.api_key})"})

    registry = pkg.Registry(pkg.Policy(allow={"read"}), spans=pkg.Spans(provider, **options))
    registry.register("lookup_word", lookup)
    return registry, exporter, seen


def test_a_call_is_one_execute_tool_span_with_the_semconv_attributes(pkg: ModuleType) -> None:
    registry, exporter, seen = _spans(pkg)
    assert registry.call("lookup_word", {"word": "w", "api_key": SECRET}, call_id="call_7").ok
    (span,) = exporter.get_finished_spans()
    assert span.name == "execute_tool lookup_word" and span.kind is SpanKind.INTERNAL
    contract = pkg.CONTRACTS["lookup_word"]
    assert dict(span.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "lookup_word",
        "gen_ai.tool.call.id": "call_7",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.description": contract.description,
        "toolgen.contract.version": "1.0.0",
        "toolgen.contract.digest": contract.digest,
        "toolgen.permission": "granted",
        "toolgen.result.code": "OK",
        "toolgen.result.retryable": False,
    }
    assert span.status.status_code is StatusCode.UNSET
    assert seen == [f"{span.context.trace_id:032x}"]  # the context's trace id is the span's
    assert span.instrumentation_scope.schema_url == "https://opentelemetry.io/schemas/1.38.0"


def test_a_failure_sets_error_type_and_the_status(pkg: ModuleType) -> None:
    registry, exporter, _ = _spans(pkg)
    registry.call("lookup_word", {"word": "boom", "api_key": SECRET})
    asyncio.run(registry.acall("erase_word", {"word": "w"}))
    failed, unknown = exporter.get_finished_spans()
    assert (
        failed.attributes["error.type"] == "UNKNOWN_WORD" and failed.attributes["toolgen.result.code"] == "UNKNOWN_WORD"
    )
    assert failed.status.status_code is StatusCode.ERROR and failed.status.description == "UNKNOWN_WORD"
    assert unknown.name == "execute_tool erase_word" and unknown.attributes["error.type"] == "UNKNOWN_TOOL"
    assert unknown.attributes["toolgen.permission"] == "unchecked"


def test_arguments_and_results_only_when_asked_and_redacted(pkg: ModuleType) -> None:
    registry, exporter, _ = _spans(pkg)
    registry.call("lookup_word", {"word": "w", "api_key": SECRET})
    assert not {"gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} & set(
        exporter.get_finished_spans()[0].attributes
    )
    registry, exporter, _ = _spans(pkg, record_arguments=True, record_results=True)
    registry.call("lookup_word", {"word": "w", "api_key": SECRET})
    registry.call("lookup_word", {"word": "boom", "api_key": SECRET})
    ok, failed = exporter.get_finished_spans()
    assert json.loads(ok.attributes["gen_ai.tool.call.arguments"]) == {"word": "w", "api_key": "[REDACTED]"}
    assert json.loads(ok.attributes["gen_ai.tool.call.result"]) == {"definition": "w ([REDACTED])"}
    assert "[REDACTED]" in json.loads(failed.attributes["gen_ai.tool.call.result"])["error"]["message"]
    for span in exporter.get_finished_spans():
        assert SECRET not in json.dumps(dict(span.attributes)) + json.dumps(
            [dict(e.attributes or {}) for e in span.events]
        )


def test_the_package_imports_opentelemetry_only_when_spans_are_made(pkg: ModuleType) -> None:
    folder = str(next(iter(pkg.__path__))).rsplit("/", 1)[0]
    code = f"import sys, {PACKAGE}; r = {PACKAGE}.Registry(); print('opentelemetry' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr
