"""`Registry.acall`, async implementations under `call`, and time limits (`timeout_ms`, `default_timeout_s`)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.agent_support import Glossary, agent_package

PACKAGE = "loop_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("async"), PACKAGE) as package:
        yield package


def _pause_registry(pkg: ModuleType, implementation: Any, **options: Any) -> Any:
    registry = pkg.Registry(policy=pkg.Policy(), **options)
    registry.register("pause", implementation)
    return registry


def test_acall_awaits_an_async_implementation_with_the_validated_model(pkg: ModuleType) -> None:
    seen: list[Any] = []

    async def lookup(arguments: Any) -> Any:
        await asyncio.sleep(0)
        seen.append(arguments)
        return pkg.Ok({"definition": arguments.word.upper()})

    traces: list[Any] = []
    registry = pkg.Registry(policy=pkg.Policy(allow={"read"}), tracer=traces.append)
    registry.register("lookup_word", lookup)
    result = asyncio.run(registry.acall("lookup_word", '{"word": "catalog"}'))
    assert result.ok and result.data.definition == "CATALOG"
    assert type(seen[0]).__name__ == "LookupWordInput" and seen[0].limit == 1
    assert [(t.tool, t.code, t.input) for t in traces] == [("lookup_word", "OK", {"word": "catalog"})]


def test_acall_keeps_every_check_of_call(pkg: ModuleType) -> None:
    glossary = Glossary(pkg)
    traces: list[Any] = []
    registry = glossary.registry(traces.append)

    async def run() -> list[Any]:
        return [
            await registry.acall("erase_word", {"word": "a"}),
            await registry.acall("lookup_word", {"word": ""}),
            await registry.acall("no_such_tool", {}),
            await registry.acall("lookup_word", "{not json"),
            await registry.acall("lookup_word", {"word": "missing"}),
        ]

    denied, invalid, unknown, broken, declared = asyncio.run(run())
    assert (denied.code, invalid.code, unknown.code, broken.code) == (
        "PERMISSION_DENIED",
        "INVALID_INPUT",
        "UNKNOWN_TOOL",
        "INVALID_INPUT",
    )
    assert invalid.details["errors"][0]["path"] == "/word"
    assert (declared.code, declared.retryable) == ("UNKNOWN_WORD", False)
    assert glossary.seen == [("lookup_word", glossary.seen[0][1])]  # only the declared error ran
    assert [t.code for t in traces] == [
        "PERMISSION_DENIED",
        "INVALID_INPUT",
        "UNKNOWN_TOOL",
        "INVALID_INPUT",
        "UNKNOWN_WORD",
    ]
    assert traces[0].permission == "denied" and traces[0].missing_permissions == ("write",)


def test_acall_runs_a_sync_implementation_off_the_event_loop(pkg: ModuleType) -> None:
    threads: list[str] = []

    def pause(arguments: Any) -> Any:
        threads.append(threading.current_thread().name)
        time.sleep(arguments.ms / 1000)
        return pkg.Ok({"waited_ms": arguments.ms})

    registry = _pause_registry(pkg, pause)

    async def run() -> tuple[Any, int]:
        ticks = 0
        task = asyncio.ensure_future(registry.acall("pause", {"ms": 150}))
        while not task.done():  # the loop keeps turning while the implementation sleeps
            ticks += 1
            await asyncio.sleep(0.01)
        return task.result(), ticks

    result, ticks = asyncio.run(run())
    assert result.ok and result.data.waited_ms == 150
    assert threads[0] != threading.main_thread().name
    assert ticks >= 5


def test_an_exception_in_an_async_implementation_is_internal_with_the_traceback_traced(pkg: ModuleType) -> None:
    async def broken(arguments: Any) -> Any:
        raise ValueError("secret detail")

    traces: list[Any] = []
    registry = _pause_registry(pkg, broken, tracer=traces.append)
    result = asyncio.run(registry.acall("pause", {"ms": 1}))
    assert result.code == "INTERNAL" and "secret detail" not in result.message
    assert "secret detail" in traces[0].traceback


def test_call_runs_an_async_implementation_when_no_loop_is_running(pkg: ModuleType) -> None:
    async def pause(arguments: Any) -> Any:
        await asyncio.sleep(arguments.ms / 1000)
        return pkg.Ok({"waited_ms": arguments.ms})

    registry = _pause_registry(pkg, pause)
    result = registry.call("pause", {"ms": 5})
    assert result.ok and result.data.waited_ms == 5


def test_call_on_an_async_implementation_inside_a_running_loop_says_to_use_acall(pkg: ModuleType) -> None:
    started: list[bool] = []

    async def pause(arguments: Any) -> Any:
        started.append(True)
        return pkg.Ok({"waited_ms": 0})

    traces: list[Any] = []
    registry = _pause_registry(pkg, pause, tracer=traces.append)

    async def inside() -> Any:
        return registry.call("pause", {"ms": 0})

    with warnings.catch_warnings(record=True) as recorded:
        warnings.simplefilter("always")
        result = asyncio.run(inside())
        gc.collect()
    assert not [w for w in recorded if "never awaited" in str(w.message)]
    assert result.code == "INTERNAL" and "acall" in result.message
    assert started == [] and traces[0].code == "INTERNAL" and "acall" in traces[0].traceback


def test_timeout_ms_cancels_a_slow_async_implementation(pkg: ModuleType) -> None:
    cancelled: list[bool] = []

    async def pause(arguments: Any) -> Any:
        try:
            await asyncio.sleep(arguments.ms / 1000)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return pkg.Ok({"waited_ms": arguments.ms})

    traces: list[Any] = []
    registry = _pause_registry(pkg, pause, tracer=traces.append)
    assert pkg.CONTRACTS["pause"].timeout_ms == 400
    began = time.perf_counter()
    result = asyncio.run(registry.acall("pause", {"ms": 5000}))
    assert time.perf_counter() - began < 3.0
    assert (result.code, result.retryable) == ("TIMEOUT", True) and "0.4 s" in result.message
    assert cancelled == [True]
    assert traces[0].code == "TIMEOUT" and traces[0].retryable and "cancelled" in traces[0].traceback
    assert asyncio.run(registry.acall("pause", {"ms": 10})).ok  # within the limit


def test_timeout_of_a_sync_implementation_in_call_and_acall(pkg: ModuleType) -> None:
    release = threading.Event()
    finished: list[bool] = []

    def pause(arguments: Any) -> Any:
        release.wait(5)
        finished.append(True)
        return pkg.Ok({"waited_ms": arguments.ms})

    traces: list[Any] = []
    registry = _pause_registry(pkg, pause, tracer=traces.append)
    try:
        assert registry.call("pause", {"ms": 1}).code == "TIMEOUT"
        assert asyncio.run(registry.acall("pause", {"ms": 1})).code == "TIMEOUT"
    finally:
        release.set()
    assert [t.code for t in traces] == ["TIMEOUT", "TIMEOUT"]
    assert "left running" in traces[0].traceback
    deadline = time.monotonic() + 5
    while len(finished) < 2 and time.monotonic() < deadline:  # the threads run on to their end
        time.sleep(0.01)
    assert finished == [True, True]


def test_default_timeout_covers_tools_without_timeout_ms(pkg: ModuleType) -> None:
    async def lookup(arguments: Any) -> Any:
        await asyncio.sleep(2)
        return pkg.Ok({"definition": "late"})

    registry = pkg.Registry(policy=pkg.Policy(allow={"read"}), default_timeout_s=0.05)
    registry.register("lookup_word", lookup)
    assert pkg.CONTRACTS["lookup_word"].timeout_ms is None
    assert asyncio.run(registry.acall("lookup_word", {"word": "a"})).code == "TIMEOUT"
    assert registry.call("lookup_word", {"word": "a"}).code == "TIMEOUT"


def test_an_implementation_raising_timeout_error_is_internal_not_timeout(pkg: ModuleType) -> None:
    async def pause(arguments: Any) -> Any:
        raise TimeoutError("the socket timed out")

    registry = _pause_registry(pkg, pause)
    assert asyncio.run(registry.acall("pause", {"ms": 1})).code == "INTERNAL"


def test_a_hundred_concurrent_acalls_take_about_as_long_as_one(pkg: ModuleType) -> None:
    async def pause(arguments: Any) -> Any:
        await asyncio.sleep(arguments.ms / 1000)
        return pkg.Ok({"waited_ms": arguments.ms})

    registry = _pause_registry(pkg, pause)

    async def one() -> float:
        began = time.perf_counter()
        assert (await registry.acall("pause", {"ms": 200})).ok
        return time.perf_counter() - began

    async def hundred() -> tuple[float, list[Any]]:
        began = time.perf_counter()
        results = await asyncio.gather(*(registry.acall("pause", {"ms": 200}) for _ in range(100)))
        return time.perf_counter() - began, results

    single = asyncio.run(one())
    together, results = asyncio.run(hundred())
    assert all(r.ok for r in results), [r for r in results if not r.ok][:2]
    assert together < 10 * single, (together, single)


def test_contract_json_schema_is_plain_json(pkg: ModuleType, tmp_path: Path) -> None:
    import json

    contract = pkg.CONTRACTS["lookup_word"]
    schema = contract.json_schema("input")
    assert isinstance(schema, dict) and json.loads(json.dumps(schema)) == schema
    assert schema["properties"]["api_key"]["x-sensitive"] is True
    assert contract.json_schema("output")["required"] == ["definition"]
    assert pkg.CONTRACTS["erase_word"].json_schema("output") is None
    assert pkg.thaw(contract.input_schema) == schema and "thaw" in pkg.__all__


def test_enforce_stops_an_undeclared_write_under_acall_sync_and_async(pkg: ModuleType, tmp_path: Path) -> None:
    target = tmp_path / "written.txt"

    async def async_lookup(arguments: Any) -> Any:
        target.write_text("x")  # lookup_word declares only `read`
        return pkg.Ok({"definition": "wrote"})

    def sync_lookup(arguments: Any) -> Any:
        target.write_text("x")
        return pkg.Ok({"definition": "wrote"})

    for implementation in (async_lookup, sync_lookup):
        traces: list[Any] = []
        registry = pkg.Registry(policy=pkg.Policy(allow={"read"}), tracer=traces.append, enforce=True)
        registry.register("lookup_word", implementation)
        result = asyncio.run(registry.acall("lookup_word", {"word": "a"}))
        assert result.code == "PERMISSION_DENIED" and result.details["missing_permission"] == "write", result
        assert not target.exists()
        assert traces[0].permission == "denied" and traces[0].missing_permissions == ("write",)
