"""`<package>.replay(records, registry)`: recorded calls made again through a registry.

Calls are recorded by a tracer against one implementation, then replayed through a registry whose
implementation changed: the report must give each call's recorded and new code, say when the new
output fails the output schema, and skip (and count) calls whose recorded input was redacted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.factory import contract
from tests.python_support import imported

PACKAGE = "replay_pkg"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    echo = contract("echo_text")
    echo["input_schema"]["properties"]["token"] = {"type": "string", "x-sensitive": True, "description": "A secret."}
    echo["errors"] = [{"code": "TOO_LOUD", "description": "The text is shouted.", "retryable": False}]
    with imported({"echo_text": echo}, tmp_path_factory.mktemp("replay_pkg"), PACKAGE) as package:
        yield package


def registry(pkg: ModuleType, answer: Any, traces: list[Any] | None = None) -> Any:
    tools = pkg.Registry(policy=None, tracer=traces.append if traces is not None else None)
    tools.register("echo_text", answer)
    return tools


def recorded(pkg: ModuleType) -> list[Any]:
    traces: list[Any] = []
    tools = registry(pkg, lambda args: pkg.Ok({"text": args.text}), traces)
    tools.call("echo_text", {"text": "hello"})
    tools.call("echo_text", {"text": "HELLO"})
    tools.call("echo_text", {"text": "psst", "token": "hunter2"})
    tools.call("echo_text", {"text": 5})
    return traces


def shouting(pkg: ModuleType) -> Any:
    def answer(args: Any) -> Any:
        if args.text.isupper():
            return pkg.Err("TOO_LOUD", "no shouting")
        if args.text == "hello":
            return pkg.Ok({"words": 1})  # fails the output schema
        return pkg.Ok({"text": args.text})

    return answer


def test_each_call_is_made_again_and_compared(pkg: ModuleType) -> None:
    report = pkg.replay(recorded(pkg), registry(pkg, shouting(pkg)))
    rows = [(c.recorded_code, c.new_code, c.output_valid, c.skipped is not None) for c in report.calls]
    assert rows == [
        ("OK", "INTERNAL", False, False),
        ("OK", "TOO_LOUD", None, False),
        ("OK", None, None, True),
        ("INVALID_INPUT", "INVALID_INPUT", None, False),
    ]
    assert [c.recorded_code for c in report.changed] == ["OK", "OK"]
    assert report.skipped == 1


def test_the_same_implementation_changes_nothing(pkg: ModuleType) -> None:
    report = pkg.replay(recorded(pkg), registry(pkg, lambda args: pkg.Ok({"text": args.text})))
    assert report.changed == ()
    assert [c.output_valid for c in report.calls if c.skipped is None] == [True, True, None]


def test_records_in_their_json_form_replay_too(pkg: ModuleType) -> None:
    records = [
        {"tool": "echo_text", "input": {"text": "hello"}, "code": "OK"},
        {"tool": "echo_text", "input": {"text": "x" * 200 + "... (900 characters)"}, "code": "OK"},
        {"tool": "gone_tool", "input": {}, "code": "OK"},
    ]
    report = pkg.replay(json.loads(json.dumps(records)), registry(pkg, lambda args: pkg.Ok({"text": args.text})))
    assert [(c.new_code, c.skipped is not None) for c in report.calls] == [
        ("OK", False),
        (None, True),
        ("UNKNOWN_TOOL", False),
    ]


def test_the_registry_tracer_still_sees_the_replayed_calls(pkg: ModuleType) -> None:
    traces: list[Any] = []
    pkg.replay(recorded(pkg)[:1], registry(pkg, lambda args: pkg.Ok({"text": args.text}), traces))
    assert [t.code for t in traces] == ["OK"]
