"""The generated runtime: every registry path, policy, traces with redaction, provider conversions."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import anthropic.types
import google.genai.types
import mcp.types
import openai.types.chat
import openai.types.responses.response_input_param as responses_param
import pydantic
import pytest

from tests.python_support import HOSTILE, hostile_contracts, imported

PACKAGE = "reg_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The hostile catalog, generated and imported in this process as `reg_tools`."""
    with imported(hostile_contracts(), tmp_path_factory.mktemp("registry"), PACKAGE) as package:
        yield package


def tool(pkg: ModuleType, module: str) -> ModuleType:
    """One generated tool module."""
    return importlib.import_module(f"{PACKAGE}.{module}")


def ok_class(arguments: Any) -> Any:
    """An implementation of `class` that echoes `from`."""
    return sys.modules[PACKAGE].Ok({"from": arguments.from_, "ok": True})


def registry(pkg: ModuleType, traces: list[Any] | None = None, allow: set[str] | None = None) -> Any:
    """A registry with the given grants, recording traces."""
    policy = pkg.Policy(allow=allow or set())
    return pkg.Registry(policy=policy, tracer=traces.append if traces is not None else None)


def test_exports_and_catalog(pkg: ModuleType) -> None:
    for name in ("Registry", "Policy", "ToolResult", "Ok", "Err", "TraceRecord", "CATALOG", "CONTRACTS"):
        assert name in pkg.__all__ and hasattr(pkg, name)
    names = [c.name for c in pkg.CATALOG]
    assert names == sorted(names) and "class" in names and "mocks" in names
    assert pkg.CONTRACTS["class"] is tool(pkg, "class_").CONTRACT
    assert tool(pkg, "mocks__").CONTRACT.name == "mocks" and tool(pkg, "mocks_").CONTRACT.name == "mocks_"
    assert [c.name for c in pkg.Registry().contracts] == names


def test_contract_record_is_frozen_and_keeps_hostile_text(pkg: ModuleType) -> None:
    contract = pkg.CONTRACTS["class"]
    assert contract.title == HOSTILE and contract.deprecated == HOSTILE
    assert contract.examples[0]["input"]["from"] == HOSTILE
    assert contract.errors[0].description == HOSTILE and contract.retryable("BROKEN_THING") is True
    assert contract.retryable("TIMEOUT") is True and contract.retryable("NOT_FOUND") is False
    with pytest.raises(TypeError):
        contract.input_schema["type"] = "array"
    with pytest.raises(AttributeError):
        contract.name = "other"
    assert "BROKEN_THING" in contract.error_codes and "UNKNOWN_TOOL" in contract.error_codes


def test_aliases_keep_wire_names(pkg: ModuleType) -> None:
    module = tool(pkg, "class_")
    model = module.ClassInput.model_validate({"from": "a", "Content-Type": "b", "2fa": "c", "model_config": "d"})
    assert (model.from_, model.Content_Type, model.field_2fa, model.model_config_) == ("a", "b", "c", "d")
    assert model.model_dump(by_alias=True, exclude_unset=True) == {
        "from": "a",
        "Content-Type": "b",
        "2fa": "c",
        "model_config": "d",
    }
    with pytest.raises(pydantic.ValidationError):
        module.ClassInput.model_validate({"from": "a"})
    assert module.ClassInput.model_fields["mode"].description == HOSTILE


def test_register_rejects_unknown_and_duplicate(pkg: ModuleType) -> None:
    reg = registry(pkg)
    with pytest.raises(KeyError, match="nope"):
        reg.register("nope", ok_class)
    reg.register("class", ok_class)
    with pytest.raises(ValueError, match="already registered"):
        reg.register("class", ok_class)
    assert reg.registered == ("class",)


def test_unknown_and_unregistered_tools(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})
    reg.register("class", ok_class)
    missing = reg.call("nope", {"q": "secret-value"})
    assert isinstance(missing, pkg.Err) and missing.code == "UNKNOWN_TOOL" and not missing.ok
    assert "class" in missing.message
    assert reg.call("import", {}).code == "UNKNOWN_TOOL"
    assert traces[0].tool == "nope" and traces[0].version is None and "secret-value" not in repr(traces[0])


def test_policy(pkg: ModuleType) -> None:
    assert pkg.Policy().allow == frozenset()
    assert pkg.Policy.allow_all().allow == frozenset({"read", "write", "execute", "network"})
    assert pkg.Policy(allow={"read"}).missing(["read", "write"]) == ("write",)
    with pytest.raises(ValueError, match="raed"):
        pkg.Policy(allow={"raed"})


def test_default_policy_denies_and_pure_tools_pass(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = pkg.Registry(tracer=traces.append)
    reg.register("class", ok_class)
    reg.register("import", lambda a: pkg.Ok({"q": a.q}))
    denied = reg.call("class", {"from": "x", "Content-Type": "y"})
    assert denied.code == "PERMISSION_DENIED" and "read" in denied.message and denied.retryable is False
    assert traces[-1].permission == "denied" and traces[-1].missing_permissions == ("read",)
    assert reg.call("import", {"q": "a"}).data == {"q": "a"}
    assert traces[-1].permission == "granted" and traces[-1].code == "OK"


def test_success_with_json_text_and_bytes(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})
    reg.register("class", ok_class)
    for arguments in ('{"from": "a", "Content-Type": "b"}', b'{"from": "a", "Content-Type": "b"}'):
        result = reg.call("class", arguments)
        assert result.ok is True and isinstance(result.data, tool(pkg, "class_").ClassOutput)
        assert result.payload() == {"from": "a", "ok": True}
    record = traces[-1]
    assert (record.tool, record.version, record.code, record.retryable) == ("class", "1.0.0", "OK", False)
    assert record.digest == pkg.CONTRACTS["class"].digest and record.duration_ms >= 0


@pytest.mark.parametrize(
    ("arguments", "paths"),
    [
        ("{not json", [""]),
        ("[1, 2]", [""]),
        (42, [""]),
        ({"from": 1, "Content-Type": "b", "extra": True}, ["", "/from"]),
        ({"from": "a", "Content-Type": "b", "items": [{"x": "no"}], "mode": "zzz"}, ["/items/0/x", "/mode"]),
    ],
)
def test_invalid_input_lists_every_failing_path(pkg: ModuleType, arguments: Any, paths: list[str]) -> None:
    reg = registry(pkg, None, {"read"})
    reg.register("class", ok_class)
    result = reg.call("class", arguments)
    assert result.code == "INVALID_INPUT" and result.retryable is False
    assert [e["path"] for e in result.details["errors"]] == paths


def test_internal_errors_are_sanitized(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})

    def explode(arguments: Any) -> Any:
        raise RuntimeError("db password hunter2 at /srv/secret/path")

    reg.register("class", explode)
    result = reg.call("class", {"from": "a", "Content-Type": "b"})
    assert result.code == "INTERNAL" and "hunter2" not in json.dumps(result.to_mcp())
    assert "/srv" not in result.message and "RuntimeError" not in result.message
    assert "hunter2" in traces[-1].traceback and traces[-1].code == "INTERNAL"


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (lambda pkg: "not a result", "INTERNAL"),
        (lambda pkg: pkg.Ok({"ok": "yes"}), "INTERNAL"),
        (lambda pkg: pkg.Ok({"from": "a"}), "INTERNAL"),
        (lambda pkg: pkg.Err("MADE_UP", "x"), "INTERNAL"),
        (lambda pkg: pkg.CONTRACTS["class"].error("BROKEN_THING", "try later"), "BROKEN_THING"),
        (lambda pkg: pkg.Err("NOT_FOUND", "no such thing", retryable=True), "NOT_FOUND"),
        (lambda pkg: pkg.Err("BROKEN_THING", "the contract says retryable"), "BROKEN_THING"),
    ],
)
def test_results_are_checked(pkg: ModuleType, answer: Any, code: str) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})
    reg.register("class", lambda arguments: answer(pkg))
    result = reg.call("class", {"from": "a", "Content-Type": "b"})
    assert result.code == code and traces[-1].code == code
    assert result.retryable is (code == "BROKEN_THING")
    if code == "INTERNAL":
        assert result.message == "The tool failed unexpectedly; the details are in the trace."
        assert traces[-1].traceback


def test_output_without_schema_must_be_json(pkg: ModuleType) -> None:
    reg = registry(pkg)
    reg.register("import", lambda a: pkg.Ok(object()))
    assert reg.call("import", {}).code == "INTERNAL"


def test_none_in_an_optional_output_field_means_absent(pkg: ModuleType) -> None:
    module = tool(pkg, "class_")
    reg = registry(pkg, None, {"read"})
    reg.register("class", lambda a: pkg.Ok(module.ClassOutput.model_validate({"from": None, "ok": True})))
    assert reg.call("class", {"from": "z", "Content-Type": "b"}).payload() == {"ok": True}
    reg = registry(pkg, None, {"read"})
    reg.register("class", lambda a: pkg.Ok({"from": "x", "ok": None}))
    assert reg.call("class", {"from": "z", "Content-Type": "b"}).code == "INTERNAL"


def test_output_model_instance_is_accepted(pkg: ModuleType) -> None:
    module = tool(pkg, "class_")
    reg = registry(pkg, None, {"read"})
    reg.register("class", lambda a: pkg.Ok(module.ClassOutput.model_validate({"from": a.from_, "ok": False})))
    assert reg.call("class", {"from": "z", "Content-Type": "b"}).payload() == {"from": "z", "ok": False}


def test_broken_tracer_does_not_change_the_result(pkg: ModuleType) -> None:
    def tracer(record: Any) -> None:
        raise RuntimeError("tracer bug")

    reg = pkg.Registry(policy=pkg.Policy(), tracer=tracer)
    reg.register("import", lambda a: pkg.Ok({}))
    assert reg.call("import", {}).ok is True


SECRETS = ["sk-live-0123456789", "pw-alpha", "pw-beta", "4242", "hdr-secret", "blob-secret"]


def test_sensitive_values_are_redacted_at_any_depth(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"write", "network"})
    reg.register("secret_store", lambda a: pkg.Ok({"receipt": "r1"}))
    arguments = {
        "api_key": SECRETS[0],
        "label": "visible-label",
        "creds": [{"user": "ann", "password": SECRETS[1]}],
        "nested": {"deeper": {"pin": 4242}},
        "either": {"user": "bob", "password": SECRETS[2]},
        "headers": {"Authorization": SECRETS[4]},
        "blob": {"x": SECRETS[5]},
    }
    assert reg.call("secret_store", arguments).ok
    shown = repr(traces[-1])
    assert "visible-label" in shown and "ann" in shown and "bob" in shown
    for secret in SECRETS:
        assert secret not in shown
    assert traces[-1].input["nested"] == {"deeper": {"pin": "[REDACTED]"}}
    assert arguments["api_key"] == SECRETS[0]


def test_invalid_sensitive_value_is_not_echoed(pkg: ModuleType) -> None:
    reg = registry(pkg, [], {"write", "network"})
    reg.register("secret_store", lambda a: pkg.Ok({"receipt": "r1"}))
    result = reg.call("secret_store", {"api_key": "shorty"})
    assert result.code == "INVALID_INPUT" and "shorty" not in json.dumps(result.payload())


def test_redact_helper_with_defs(pkg: ModuleType) -> None:
    schema = pkg.CONTRACTS["class"].input_schema
    value = {"items": [{"x": 1, "token": "t0k"}], "from": "a"}
    assert pkg._runtime.redact(value, schema) == {"items": [{"x": 1, "token": "[REDACTED]"}], "from": "a"}


def _conversions(result: Any) -> None:
    chat = result.to_openai_chat("call_1")
    pydantic.TypeAdapter(openai.types.chat.ChatCompletionToolMessageParam).validate_python(chat)
    assert chat["tool_call_id"] == "call_1" and json.loads(chat["content"]) == result.payload()
    item = result.to_openai_responses("call_1")
    pydantic.TypeAdapter(responses_param.FunctionCallOutput).validate_python(item)
    assert item["type"] == "function_call_output" and json.loads(item["output"]) == result.payload()
    block = result.to_anthropic("toolu_1")
    pydantic.TypeAdapter(anthropic.types.ToolResultBlockParam).validate_python(block)
    assert block["is_error"] is (not result.ok)
    gemini = google.genai.types.FunctionResponse.model_validate(result.to_gemini("class", "c1"))
    assert gemini.name == "class" and gemini.id == "c1"
    assert ("error" in gemini.response) is (not result.ok) and ("output" in gemini.response) is result.ok
    mcp_result = mcp.types.CallToolResult.model_validate(result.to_mcp())
    assert mcp_result.is_error is (not result.ok)
    assert mcp_result.structured_content == result.payload()
    assert json.loads(mcp_result.content[0].text) == result.payload()


def test_provider_conversions_validate_against_sdk_types(pkg: ModuleType) -> None:
    reg = registry(pkg, None, {"read"})
    reg.register("class", ok_class)
    good = reg.call("class", {"from": HOSTILE, "Content-Type": "b"})
    assert good.ok and good.payload()["from"] == HOSTILE
    _conversions(good)
    bad = reg.call("class", {"from": 1})
    assert bad.code == "INVALID_INPUT"
    _conversions(bad)
    assert bad.payload()["error"]["details"]["errors"]
    _conversions(pkg.Err("TIMEOUT", "slow", True))


def test_hostile_arguments_never_raise(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})
    reg.register("class", ok_class)
    deep: Any = {}
    for _ in range(5000):
        deep = {"a": deep}
    nested_text = "[" * 100000 + "]" * 100000
    for arguments in (nested_text, {"from": "a", "Content-Type": "b", "items": [deep]}, b"\xff\xfe", {1: object()}):
        result = reg.call("class", arguments)
        assert result.code == "INVALID_INPUT", result
    assert len(traces) == 4 and all(t.code == "INVALID_INPUT" for t in traces)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_text_must_be_strict_json(pkg: ModuleType, constant: str) -> None:
    reg = registry(pkg, allow={"read"})
    reg.register("class", ok_class)
    fine = reg.call("class", '{"from": "a", "Content-Type": "b", "items": [{"x": 1.5}]}')
    assert fine.ok is True
    result = reg.call("class", f'{{"from": "a", "Content-Type": "b", "items": [{{"x": {constant}}}]}}')
    assert result.code == "INVALID_INPUT" and "not valid JSON text" in result.message


def test_registry_over_chosen_contracts(pkg: ModuleType) -> None:
    reg = pkg.Registry(contracts=[pkg.CONTRACTS["import"]])
    assert [c.name for c in reg.contracts] == ["import"]
    with pytest.raises(KeyError):
        reg.register("class", ok_class)
    reg.register("import", lambda a: pkg.Ok(None))
    result = reg.call("import", {"q": "x"})
    assert result.ok and result.payload() is None
    message = result.to_mcp()
    assert "structuredContent" not in message and mcp.types.CallToolResult.model_validate(message).is_error is False
    assert repr(pkg.Policy(allow={"write", "read"})) == "Policy(allow=['read', 'write'])"


def test_trace_shortens_long_strings_and_gemini_id_is_optional(pkg: ModuleType) -> None:
    traces: list[Any] = []
    reg = registry(pkg, traces, {"read"})
    reg.register("class", ok_class)
    result = reg.call("class", {"from": "y" * 1000, "Content-Type": "b"})
    assert result.ok and result.payload()["from"] == "y" * 1000
    shown = traces[-1].input["from"]
    assert shown.startswith("y" * 200) and shown.endswith("(1000 characters)") and len(shown) < 300
    assert "id" not in result.to_gemini("class")
