"""`ToolContext`: given to an implementation that takes a second parameter, with the call's id, deadline,
cancellation, deps (per registry and per call), and progress / log reports that reach the logger, the trace
and a reporter, redacted."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from tests.agent_support import agent_package

PACKAGE = "context_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("context"), PACKAGE) as package:
        yield package


@dataclass(frozen=True)
class Deps:
    glossary: dict[str, str]


class Recorder:
    """A `Reporter` that keeps what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def progress(self, context: Any, done: float, total: float | None, message: str | None) -> None:
        self.seen.append(("progress", context.call_id, done, total, message))

    def log(self, context: Any, level: str, message: str) -> None:
        self.seen.append(("log", context.call_id, level, message))


def _lookup(arguments: Any, context: Any) -> Any:
    from context_tools import Ok

    context.progress(1, 2, f"looking up {arguments.word} with key {arguments.api_key}")
    context.log("info", f"key {arguments.api_key} used for {context.tool} {context.version}")
    definition = context.deps.glossary.get(arguments.word, "?")
    return Ok({"definition": f"{definition} {context.call_id}"})


def test_a_sync_implementation_gets_the_context_with_the_registrys_deps(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = pkg.Registry(pkg.Policy(allow={"read"}), traces.append, deps=Deps({"catalog": "all tools"}))
    registry.register("lookup_word", _lookup)
    result = registry.call("lookup_word", {"word": "catalog", "api_key": "sk-secret-1"}, call_id="c1")
    assert result.ok and result.data.definition == "all tools c1"
    (record,) = traces
    assert record.call_id == "c1"
    assert [dict(e) for e in record.events] == [
        {"kind": "progress", "done": 1, "total": 2, "message": "looking up catalog with key [REDACTED]"},
        {"kind": "log", "level": "info", "message": "key [REDACTED] used for lookup_word 1.0.0"},
    ]
    assert record.to_dict()["events"][1]["message"] == "key [REDACTED] used for lookup_word 1.0.0"
    assert pkg.TraceRecord.from_json(record.to_json()) == record


def test_deps_given_to_a_call_replace_the_registrys(pkg: ModuleType) -> None:
    registry = pkg.Registry(pkg.Policy(allow={"read"}), deps=Deps({"catalog": "registry's"}))
    registry.register("lookup_word", _lookup)
    result = registry.call("lookup_word", {"word": "catalog"}, deps=Deps({"catalog": "the call's"}))
    assert result.ok and result.data.definition.startswith("the call's call_")


def test_progress_and_logs_reach_the_reporter_and_the_packages_logger_redacted(
    pkg: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    registry = pkg.Registry(pkg.Policy(allow={"read"}), deps=Deps({}))
    registry.register("lookup_word", _lookup)
    recorder = Recorder()
    with caplog.at_level(logging.DEBUG, logger=PACKAGE):
        registry.call("lookup_word", {"word": "w", "api_key": "sk-secret-2"}, call_id="c2", reporter=recorder)
    assert recorder.seen == [
        ("progress", "c2", 1, 2, "looking up w with key [REDACTED]"),
        ("log", "c2", "info", "key [REDACTED] used for lookup_word 1.0.0"),
    ]
    logged = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert (PACKAGE, logging.INFO, "lookup_word c2: key [REDACTED] used for lookup_word 1.0.0") in logged
    assert not any("sk-secret-2" in message for _, _, message in logged)


def test_an_async_implementation_gets_the_context_under_acall(pkg: ModuleType) -> None:
    seen: list[Any] = []

    async def pause(arguments: Any, context: Any) -> Any:
        seen.append((context.tool, context.deadline is not None, context.time_left(), context.deps, context.trace_id))
        await asyncio.sleep(0)
        return pkg.Ok({"waited_ms": 0})

    registry = pkg.Registry(pkg.Policy())
    registry.register("pause", pause)
    result = asyncio.run(registry.acall("pause", {"ms": 0}, trace_id="t-1"))
    assert result.ok
    ((tool, has_deadline, left, deps, trace_id),) = seen
    assert (tool, has_deadline, deps, trace_id) == ("pause", True, None, "t-1")
    assert 0.0 < left <= 0.4  # the contract's timeout_ms is 400


def test_a_timeout_sets_the_cancellation_a_sync_implementation_can_watch(pkg: ModuleType) -> None:
    stopped = threading.Event()

    def pause(arguments: Any, context: Any) -> Any:
        while not context.cancelled:
            time.sleep(0.01)
        stopped.set()
        return pkg.Ok({"waited_ms": 0})

    registry = pkg.Registry(pkg.Policy())
    registry.register("pause", pause)
    result = registry.call("pause", {"ms": 10_000})
    assert not result.ok and result.code == "TIMEOUT"
    assert stopped.wait(2.0)


def test_an_implementation_without_a_second_parameter_is_called_with_the_input_alone(pkg: ModuleType) -> None:
    registry = pkg.Registry(pkg.Policy())
    registry.register("pause", lambda arguments: pkg.Ok({"waited_ms": arguments.ms}))
    assert registry.call("pause", {"ms": 3}).data.waited_ms == 3


def test_a_broken_reporter_does_not_change_the_result(pkg: ModuleType) -> None:
    class Broken:
        def progress(self, *args: Any) -> None:
            raise RuntimeError("down")

        def log(self, *args: Any) -> None:
            raise RuntimeError("down")

    registry = pkg.Registry(pkg.Policy(allow={"read"}), deps=Deps({"a": "b"}))
    registry.register("lookup_word", _lookup)
    assert registry.call("lookup_word", {"word": "a"}, reporter=Broken()).ok


def test_an_unknown_log_level_is_an_internal_error_of_the_call(pkg: ModuleType) -> None:
    def pause(arguments: Any, context: Any) -> Any:
        context.log("loud", "x")
        return pkg.Ok({"waited_ms": 0})

    traces: list[Any] = []
    registry = pkg.Registry(pkg.Policy(), traces.append)
    registry.register("pause", pause)
    assert registry.call("pause", {"ms": 0}).code == "INTERNAL"
    assert "unknown log level 'loud'" in traces[0].traceback


USER_MODULE = '''
from dataclasses import dataclass
from typing import Any

from context_tools import Ok, Policy, Registry, ToolContext, ToolResult, pause


@dataclass
class Deps:
    root: str


@dataclass
class Other:
    size: int


def good(arguments: pause.PauseInput, context: ToolContext[Deps]) -> ToolResult[Any]:
    return Ok({"waited_ms": len(context.deps.root) + (context.time_left() or 0)})


def wrong(arguments: pause.PauseInput, context: ToolContext[Other]) -> ToolResult[Any]:
    return Ok({"waited_ms": context.deps.size})


registry: Registry[Deps] = Registry(Policy(), deps=Deps("."))
registry.register("pause", good)
registry.register("pause", wrong)
registry.register("pause", lambda arguments: Ok({}))
'''


@pytest.mark.slow
def test_mypy_checks_the_deps_an_implementation_expects(pkg: ModuleType, tmp_path: Any) -> None:
    from tests.python_support import run_mypy

    folder = str(next(iter(pkg.__path__))).rsplit("/", 1)[0]
    (tmp_path / "user.py").write_text(USER_MODULE, encoding="utf-8")
    import shutil

    shutil.copytree(f"{folder}/{PACKAGE}", tmp_path / PACKAGE)
    done = run_mypy(tmp_path, "user", module=True)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout
    assert 'user.py:28: error: Argument 2 to "register" of "Registry" has incompatible type' in errors[0]
    assert "ToolContext[Other]" in errors[0]
