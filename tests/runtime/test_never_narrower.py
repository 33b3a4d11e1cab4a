"""Issue 27, "never narrower, never hung": the registry accepts what jsonschema accepts, drops only the
nulls a strict declaration invited, bounds validation by the call's time limit, and reads numbers strictly.

Each case is a repro from the issue, run through a generated package.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from tests.python_support import imported

PACKAGE = "wide_tools"

SCHEMAS: dict[str, dict[str, Any]] = {
    "typeless_items": {"items": {"type": "integer"}},
    "typeless_required": {"properties": {"foo": {}}, "required": ["foo"]},
    "prefix_items_true": {"prefixItems": [{"type": "integer"}], "items": True},
    "prefix_unevaluated": {"prefixItems": [{"type": "string"}], "unevaluatedItems": {"type": "integer"}},
    "pattern_props": {
        "type": "object",
        "patternProperties": {"a*": {"type": "boolean"}},
        "additionalProperties": False,
    },
    "recursive": {
        "type": "object",
        "properties": {"foo": {"type": "string"}, "next": {"$ref": "#/$defs/node"}},
        "additionalProperties": False,
    },
}
"""Property schemas dcg made narrower than the schema (the issue's list), each a property of `wide`."""

VALID: list[tuple[str, Any]] = [
    ("typeless_items", {"foo": "bar"}),
    ("typeless_required", 12),
    ("typeless_required", None),
    ("typeless_required", ""),
    ("prefix_items_true", [1, "foo", {}]),
    ("prefix_unevaluated", ["a", 2, 3]),
    ("pattern_props", {"a31b": True, "aaa": False}),
    ("recursive", {"foo": "x", "next": {"foo": "y", "next": {"foo": "z"}}}),
]


def _contracts() -> dict[str, dict[str, Any]]:
    node = {
        "type": "object",
        "properties": {"foo": {"type": "string"}, "next": {"$ref": "#/$defs/node"}},
        "additionalProperties": False,
    }
    wide = {
        "name": "wide",
        "version": "1.0.0",
        "description": "Takes values whose schemas a pydantic model cannot state exactly.",
        "permissions": [],
        "input_schema": {"type": "object", "properties": SCHEMAS, "$defs": {"node": node}},
    }
    empty_key = {
        "name": "empty_key",
        "version": "1.0.0",
        "description": "Takes a value through a definition whose key is the empty string.",
        "permissions": [],
        "input_schema": {
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/"}},
            "$defs": {"": {"type": "integer"}},
        },
    }
    hang = {
        "name": "hang",
        "version": "1.0.0",
        "description": "Takes a string matched by a pattern with nested quantifiers.",
        "permissions": [],
        "input_schema": {
            "type": "object",
            "properties": {
                "word": {"type": "string", "pattern": "^(a+)+$"},
                "keys": {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}},
            },
        },
    }
    numbers = {
        "name": "numbers",
        "version": "1.0.0",
        "description": "Takes any JSON value, to test how numbers are read.",
        "permissions": [],
        "input_schema": {"type": "object", "properties": {"x": {}}, "required": ["x"]},
    }
    return {"wide": wide, "hang": hang, "numbers": numbers, "empty_key": empty_key}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported(_contracts(), tmp_path_factory.mktemp("wide"), PACKAGE) as package:
        yield package


def _registry(pkg: ModuleType, name: str, **options: Any) -> Any:
    registry = pkg.Registry(policy=pkg.Policy(), **options)
    registry.register(name, lambda arguments: pkg.Ok({"seen": arguments.model_dump(by_alias=True, exclude_unset=True)}))
    return registry


@pytest.mark.parametrize(("key", "value"), VALID, ids=[f"{k}-{i}" for i, (k, _) in enumerate(VALID)])
def test_a_value_jsonschema_accepts_is_never_refused(pkg: ModuleType, key: str, value: Any) -> None:
    schema = pkg.CONTRACTS["wide"].input_schema
    assert jsonschema.Draft202012Validator(pkg._runtime.thaw(schema)).is_valid({key: value})
    result = _registry(pkg, "wide").call("wide", {key: value})
    assert result.ok, result
    assert result.data["seen"][key] == value


def test_a_definition_keyed_by_the_empty_string(pkg: ModuleType) -> None:
    registry = _registry(pkg, "empty_key")
    result = registry.call("empty_key", {"n": 12})
    assert result.ok, result
    assert result.data["seen"] == {"n": 12}
    refused = registry.call("empty_key", {"n": "x"})
    assert not refused.ok and refused.code == "INVALID_INPUT" and "/n" in refused.message


def test_typed_access_stays_for_an_ordinary_nested_value(pkg: ModuleType) -> None:
    result = _registry(pkg, "wide").call("wide", {"recursive": {"foo": "x", "next": {"foo": "y"}}})
    assert result.ok, result
    seen: list[Any] = []
    registry = pkg.Registry(policy=pkg.Policy())
    registry.register("wide", lambda arguments: seen.append(arguments) or pkg.Ok({}))
    assert registry.call("wide", {"recursive": {"foo": "x", "next": {"foo": "y"}}}).ok
    assert seen[0].recursive.next.foo == "y"


def test_a_null_for_a_pattern_property_is_not_dropped(pkg: ModuleType) -> None:
    result = _registry(pkg, "wide").call("wide", {"pattern_props": {"a31b": None}})
    assert not result.ok and result.code == "INVALID_INPUT", result
    assert "/pattern_props/a31b" in result.message


@pytest.mark.parametrize("where", ["word", "keys"])
def test_a_nested_quantifier_does_not_hang_call(pkg: ModuleType, where: str) -> None:
    registry = _registry(pkg, "hang", default_timeout_s=5)
    text = "a" * 30 + "!"
    arguments = {"word": text} if where == "word" else {"keys": {text: 1}}
    started = time.perf_counter()
    result = registry.call("hang", arguments)
    elapsed = time.perf_counter() - started
    assert elapsed < 1.0, elapsed
    if where == "word":
        assert not result.ok and result.code == "INVALID_INPUT" and "/word" in result.message, result
    else:  # the key matches no pattern, and nothing else limits the keys
        assert result.ok, result


def test_a_nested_quantifier_does_not_hang_acall(pkg: ModuleType) -> None:
    registry = _registry(pkg, "hang", default_timeout_s=0.5)
    started = time.perf_counter()
    result = asyncio.run(registry.acall("hang", {"word": "a" * 30 + "!"}))
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5, elapsed
    assert not result.ok and result.code == "INVALID_INPUT"
    assert "/word" in result.message


def test_validation_counts_against_the_time_limit(pkg: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """A validation slower than the limit (here: a slow stand-in for it) answers TIMEOUT, sync and async,
    and the implementation is never called. Validation is not interrupted (docs/python.md, Timeouts):
    the answer comes when it ends, and the trace says why."""
    from wide_tools import _runtime  # type: ignore[import-not-found]

    called: list[Any] = []
    real = _runtime.Registry._run

    def slow(self: Any, *args: Any) -> Any:
        time.sleep(0.6)
        return real(self, *args)

    monkeypatch.setattr(_runtime.Registry, "_run", slow)
    traces: list[Any] = []
    registry = pkg.Registry(policy=pkg.Policy(), default_timeout_s=0.2, tracer=traces.append)
    registry.register("hang", lambda arguments: called.append(arguments) or pkg.Ok({}))

    def timed_call() -> tuple[Any, float]:
        started = time.perf_counter()
        return registry.call("hang", {"word": "aa"}), time.perf_counter() - started

    async def timed_acall() -> tuple[Any, float]:
        started = time.perf_counter()
        return await registry.acall("hang", {}), time.perf_counter() - started

    for result, elapsed in (timed_call(), asyncio.run(timed_acall())):
        assert not result.ok and result.code == "TIMEOUT" and result.retryable, result
        assert "not called" not in result.message and elapsed >= 0.6, elapsed
    assert called == []
    assert [t.code for t in traces] == ["TIMEOUT", "TIMEOUT"]
    assert all("validating its arguments used up the time limit" in (t.traceback or "") for t in traces), traces


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ('{"x": 1e400}', "not a finite number"),
        ('{"x": [-1e400]}', "not a finite number"),
        ({"x": float("nan")}, "not a finite number"),
        ({"x": {"y": float("inf")}}, "not a finite number"),
        ('{"x": ' + "1" * 100_001 + "}", "digits"),
    ],
    ids=["1e400", "nested-minus-1e400", "nan-in-dict", "inf-in-dict", "long-integer"],
)
def test_numbers_json_cannot_carry_are_invalid_input(pkg: ModuleType, arguments: Any, says: str) -> None:
    result = _registry(pkg, "numbers").call("numbers", arguments)
    assert not result.ok and result.code == "INVALID_INPUT", result
    assert says in result.message
    assert "not valid JSON text" not in result.message or says != "digits"


def test_ordinary_numbers_still_pass(pkg: ModuleType) -> None:
    result = _registry(pkg, "numbers").call("numbers", '{"x": [1e300, -2, 0.5, 12345678901234567890]}')
    assert result.ok, result
    assert result.data["seen"]["x"] == [1e300, -2, 0.5, 12345678901234567890]

