"""A sentinel secret planted on every path a schema can route a value through never leaves the registry.

Each case plants a unique sentinel where the contract marks `x-sensitive` and makes the call fail (or
succeed) in the way that used to echo it; every byte of the result (its payload and each provider
conversion) and of the trace record (repr and JSON) is scanned for the sentinel.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.python_support import imported

PACKAGE = "sentinel_tools"
SECRET = "hunter2SECRET"
SENSITIVE = {"type": "string", "x-sensitive": True}


def _object(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "properties": properties, **more}


def vault_contract() -> dict[str, Any]:
    """Secrets behind every routing keyword: properties, patterns, additional, items, prefixItems, $ref, unions."""
    schema = _object(
        {
            "api_key": {**SENSITIVE, "maxLength": 64},
            "tokens": {"type": "array", "items": SENSITIVE, "maxItems": 2, "uniqueItems": True},
            "login": {
                "type": "object",
                "properties": {"user": {"type": "string"}, "email": {"type": "string"}, "password": SENSITIVE},
                "anyOf": [{"required": ["user"]}, {"required": ["email"]}],
            },
            "headers": {"type": "object", "additionalProperties": SENSITIVE, "maxProperties": 1},
            "env": {"type": "object", "patternProperties": {"^SECRET_": SENSITIVE}, "minProperties": 2},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, SENSITIVE], "maxItems": 1},
            "either": {"oneOf": [{"$ref": "#/$defs/key"}, {"type": "integer"}]},
            "both": {"allOf": [{"$ref": "#/$defs/key"}], "maxLength": 30},
            "deep": {"type": "array", "items": {"$ref": "#/$defs/holder"}, "maxItems": 1},
            "pin": {"type": "integer", "x-sensitive": True, "maximum": 9999},
            "label": {"type": "string"},
        },
        required=["label"],
    )
    schema["$defs"] = {
        "key": {**SENSITIVE, "minLength": 5, "pattern": "^[A-Za-z0-9]+$"},
        "holder": _object({"inner": {"anyOf": [{"$ref": "#/$defs/key"}, {"type": "null"}]}}),
    }
    return {
        "name": "vault",
        "version": "1.0.0",
        "description": "Stores credentials in the vault and returns a receipt for them.",
        "permissions": [],
        "input_schema": schema,
        "output_schema": _object({"receipt": {"type": "string"}, "api_key": {**SENSITIVE, "maxLength": 20}}),
        "errors": [{"code": "SEALED", "description": "The vault is sealed.", "retryable": True}],
    }


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported({"vault": vault_contract()}, tmp_path_factory.mktemp("sentinel"), PACKAGE) as package:
        yield package


# What the runtime makes up on every call and no input reaches: a timing and a random call id. Their
# digits would match a numeric secret by chance (0.4573219994 holds 73219), so they are blanked first.
VOLATILE = re.compile(r"(duration_ms\"?[=:] ?)[0-9.e-]+|call_[0-9a-f]{32}")


def everything(result: Any, trace: Any) -> str:
    """Every text a caller can see from a call: the result, its conversions and the trace record."""
    texts = [repr(result), json.dumps(result.payload(), ensure_ascii=False), json.dumps(result.payload())]
    texts += [json.dumps(m) for m in (result.to_mcp(), result.to_anthropic("t"), result.to_gemini("vault"))]
    texts += [repr(trace), json.dumps(dataclasses.asdict(trace), default=str)]
    texts += [json.dumps(dataclasses.asdict(trace), default=str, ensure_ascii=False)]
    return VOLATILE.sub(r"\1<volatile>", "\n".join(texts))


def test_only_the_timing_and_the_call_id_are_blanked() -> None:
    text = 'duration_ms=0.4573219994, "duration_ms": 1.5e-05, call_c8302c2f478b4a60859f21b250358d55 pin=73219'
    assert VOLATILE.sub(r"\1<volatile>", text) == (
        'duration_ms=<volatile>, "duration_ms": <volatile>, <volatile> pin=73219'
    )


def call(pkg: ModuleType, arguments: Any, implementation: Callable[[Any], Any] | None = None) -> tuple[Any, Any]:
    traces: list[Any] = []
    registry = pkg.Registry(tracer=traces.append)
    registry.register("vault", implementation or (lambda a: pkg.Ok({"receipt": "r-1"})))
    result = registry.call("vault", arguments)
    assert len(traces) == 1
    return result, traces[0]


S = SECRET
INVALID = [
    pytest.param({"api_key": S + "x" * 80}, "/api_key", id="own-path"),
    pytest.param({"tokens": [S + "1", S + "2", S + "3"]}, "/tokens", id="array-maxItems"),
    pytest.param({"tokens": [S, S]}, "/tokens", id="array-uniqueItems"),
    pytest.param({"login": {"password": S}}, "/login", id="anyOf-on-parent"),
    pytest.param({"headers": {"a": S + "a", "b": S + "b"}}, "/headers", id="maxProperties"),
    pytest.param({"env": {"SECRET_A": S}}, "/env", id="patternProperties-minProperties"),
    pytest.param({"pair": ["visible", S]}, "/pair", id="prefixItems"),
    pytest.param({"either": S + "-!"}, "/either", id="oneOf-ref-fails"),
    pytest.param({"either": [S]}, "/either", id="oneOf-ref-wrong-type"),
    pytest.param({"both": S * 3}, "/both", id="allOf-ref"),
    pytest.param({"deep": [{"inner": S}, {"inner": S + "b"}]}, "/deep", id="ref-array-anyOf"),
    pytest.param({"pin": 73219}, "/pin", id="integer"),
]


@pytest.mark.parametrize(("arguments", "path"), INVALID)
def test_invalid_input_never_echoes_a_secret(pkg: ModuleType, arguments: dict[str, Any], path: str) -> None:
    result, trace = call(pkg, {"label": "shown-label", **arguments})
    assert result.code == "INVALID_INPUT", result
    assert path in [e["path"] for e in result.details["errors"]]
    shown = everything(result, trace)
    assert SECRET not in shown and "73219" not in shown
    assert "shown-label" in repr(trace.input)


def test_every_path_is_redacted_in_a_successful_trace(pkg: ModuleType) -> None:
    arguments = {
        "label": "shown-label",
        "api_key": S + "k",
        "tokens": [S + "t"],
        "login": {"user": "ann", "password": S + "p"},
        "headers": {"Authorization": S + "h"},
        "env": {"SECRET_A": S + "e", "SECRET_B": S + "f"},
        "pair": ["visible"],
        "either": S + "o",
        "deep": [{"inner": S + "d"}],
        "pin": 4242,
    }
    result, trace = call(pkg, {**arguments, "both": S + "b"})
    assert result.ok, result
    shown = everything(result, trace)
    assert SECRET not in shown and "4242" not in shown
    assert "shown-label" in shown and "ann" in shown and "visible" in shown


def test_exception_text_of_the_implementation_is_scrubbed(pkg: ModuleType) -> None:
    def explode(arguments: Any) -> Any:
        raise ValueError(f"bad token {arguments.api_key} for pin {arguments.pin}")

    result, trace = call(pkg, {"label": "l", "api_key": S, "pin": 5150}, explode)
    assert result.code == "INTERNAL"
    assert "ValueError: bad token [REDACTED] for pin [REDACTED]" in trace.traceback
    shown = everything(result, trace)
    assert SECRET not in shown and "5150" not in shown


def test_output_schema_failure_does_not_show_a_sensitive_output(pkg: ModuleType) -> None:
    answer = {"receipt": "r-9", "api_key": S + "x" * 30}
    result, trace = call(pkg, {"label": "l"}, lambda a: pkg.Ok(answer))
    assert result.code == "INTERNAL" and "/api_key" in trace.traceback and "maxLength" in trace.traceback
    assert SECRET not in everything(result, trace)


def test_an_err_of_the_implementation_is_scrubbed(pkg: ModuleType) -> None:
    def refuse(arguments: Any) -> Any:
        return pkg.Err("SEALED", f"sealed for key {arguments.api_key}", details={"key": arguments.api_key})

    result, trace = call(pkg, {"label": "l", "api_key": S}, refuse)
    assert result.code == "SEALED" and result.retryable is True and "[REDACTED]" in result.message
    assert SECRET not in everything(result, trace)


def test_quoted_values_are_bounded(pkg: ModuleType) -> None:
    huge = "y" * 1_000_000
    result, trace = call(pkg, {"label": [huge], "both": huge, "tokens": [S, S]})
    assert result.code == "INVALID_INPUT"
    text = json.dumps(result.payload())
    assert len(text) < 5000, len(text)
    assert "characters)" in result.message and "is not of type 'string'" in result.message
    assert len(repr(trace)) < 5000


def test_many_errors_are_counted_not_all_listed(pkg: ModuleType) -> None:
    many = {f"SECRET_{i}": [True] for i in range(300)}  # each value fails the sensitive string schema
    result, _trace = call(pkg, {"label": "l", "env": many})
    assert result.code == "INVALID_INPUT"
    assert len(result.details["errors"]) == 100 and result.details["omitted"] == 200
    assert "and 200 more" in result.message and len(json.dumps(result.payload())) < 20000


@pytest.mark.parametrize("exit_type", [SystemExit, GeneratorExit])
def test_exits_of_an_implementation_are_internal_errors(pkg: ModuleType, exit_type: type[BaseException]) -> None:
    def leave(arguments: Any) -> Any:
        raise exit_type(f"leaving with {arguments.api_key}")

    result, trace = call(pkg, {"label": "l", "api_key": S}, leave)
    assert result.code == "INTERNAL" and trace.code == "INTERNAL"
    assert exit_type.__name__ in trace.traceback and SECRET not in everything(result, trace)


def test_keyboard_interrupt_propagates_after_its_trace(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = pkg.Registry(tracer=traces.append)

    def interrupted(arguments: Any) -> Any:
        raise KeyboardInterrupt(arguments.api_key)

    registry.register("vault", interrupted)
    with pytest.raises(KeyboardInterrupt):
        registry.call("vault", {"label": "l", "api_key": S})
    assert len(traces) == 1 and traces[0].code == "INTERNAL" and "KeyboardInterrupt" in traces[0].traceback
    assert SECRET not in repr(traces[0])


def _many_secrets(pkg: ModuleType, count: int) -> float:
    """Seconds to judge `count` secrets twice (refused input, then a traceback quoting them)."""
    import time

    started = time.perf_counter()
    headers = {f"h{i}": f"{S}-{i:05d}" for i in range(count)}
    result, trace = call(pkg, {"label": "l", "headers": headers})
    assert result.code == "INVALID_INPUT" and SECRET not in everything(result, trace)

    def explode(arguments: Any) -> Any:
        raise ValueError(" ".join(f"{S}-{i:05d}" for i in range(0, count, 7)) + " end")

    env = {f"SECRET_{i}": f"{S}-{i:05d}" for i in range(count)}
    result, trace = call(pkg, {"label": "l", "pin": 1, "env": env}, explode)
    assert result.code == "INTERNAL" and SECRET not in everything(result, trace) and "end" in trace.traceback
    return time.perf_counter() - started


def test_many_secrets_cost_little(pkg: ModuleType) -> None:
    """Scrubbing looks texts up by length, so 10,000 secrets and a long traceback cost about ten
    times what 1,000 do (a quadratic scrub: a hundred times). A ratio against an anchor measured in
    the same run, alternated, holds on a loaded machine where a time limit would not."""
    small, large = [], []
    for _ in range(2):
        small.append(_many_secrets(pkg, 1_000))
        large.append(_many_secrets(pkg, 10_000))
    assert min(large) / min(small) < 40, (small, large)


def test_an_invited_null_for_a_secret_is_dropped_from_the_trace_too(pkg: ModuleType) -> None:
    result, trace = call(pkg, {"label": "l", "api_key": None, "login": {"user": "ann", "password": None}})
    assert result.ok, result
    assert trace.input == {"label": "l", "login": {"user": "ann"}}


def test_a_secret_pasted_into_a_plain_field_is_scrubbed_from_the_trace(pkg: ModuleType) -> None:
    arguments = {"label": f"my key is {S}k", "api_key": S + "k"}
    result, trace = call(pkg, arguments)
    assert result.ok, result
    assert trace.input["label"] == "my key is [REDACTED]"
    assert SECRET not in everything(result, trace)


def test_a_jsonl_trace_with_full_input_and_outputs_keeps_no_secret(pkg: ModuleType, tmp_path: Any) -> None:
    path = tmp_path / "traces.jsonl"
    tracer = pkg.JsonlTracer(path, full_input=True, record_output=True)
    registry = pkg.Registry(tracer=tracer)
    answer = {"receipt": f"stored {S}k for {'x' * 300}", "api_key": S + "k"}
    registry.register("vault", lambda a: pkg.Ok(answer))
    assert registry.call("vault", {"label": f"{'y' * 300} {S}k", "api_key": S + "k"}).ok
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text and "y" * 300 in text
    assert json.loads(text)["output"]["receipt"].startswith("stored [REDACTED] for")
