"""`TraceRecord.to_json` / `from_json` and `JsonlTracer`: one redacted record per line, thread- and task-safe."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.agent_support import Glossary, agent_package

PACKAGE = "trace_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("traces"), PACKAGE) as package:
        yield package


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_records_round_trip_through_json(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = Glossary(pkg).registry(traces.append)
    registry.call("lookup_word", {"word": "catalog", "api_key": "sk-live-123"})
    registry.call("erase_word", {"word": "catalog"})
    for record in traces:
        data = record.to_dict()
        assert data["record"] == 1 and data["package"] == PACKAGE
        text = record.to_json()
        assert isinstance(text, str) and "\n" not in text
        assert json.loads(text) == data
        assert pkg.TraceRecord.from_dict(data) == record
        assert pkg.TraceRecord.from_json(text) == record
        assert pkg.TraceRecord.from_json(text.encode()) == record
        with pytest.raises(TypeError, match="from_dict"):
            pkg.TraceRecord.from_json(data)
    assert traces[0].input == {"word": "catalog", "api_key": "[REDACTED]"}
    assert traces[1].missing_permissions == ("write",)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"record": 2}, "another trace format"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"permission": "maybe"}, "`permission` must be one of"),
        ({"duration_ms": "fast"}, "`duration_ms`"),
    ],
)
def test_from_json_refuses_records_of_another_shape(pkg: ModuleType, change: dict[str, Any], message: str) -> None:
    traces: list[Any] = []
    Glossary(pkg).registry(traces.append).call("lookup_word", {"word": "a"})
    data = {**traces[0].to_dict(), **change}
    with pytest.raises(ValueError, match=message):
        pkg.TraceRecord.from_dict(data)
    with pytest.raises(ValueError, match=message):
        pkg.TraceRecord.from_json(json.dumps(data))
    missing = traces[0].to_dict()
    del missing["code"]
    with pytest.raises(ValueError, match="needs the key 'code'"):
        pkg.TraceRecord.from_dict(missing)


def test_jsonl_tracer_appends_one_redacted_shortened_line_per_call(pkg: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    registry = Glossary(pkg).registry(pkg.JsonlTracer(path))
    long_word = "w" * 5000
    registry.call("lookup_word", {"word": long_word, "api_key": "sk-live-123"})
    registry.call("erase_word", {"word": "x"})
    records = lines(path)
    assert [r["code"] for r in records] == ["OK", "PERMISSION_DENIED"]
    assert records[0]["input"]["api_key"] == "[REDACTED]" and "sk-live-123" not in path.read_text(encoding="utf-8")
    assert len(records[0]["input"]["word"]) < 1000 and records[0]["full_input"] is False
    assert "output" not in records[0]  # `toolgen replay` reads a present `output` as a recorded one
    assert [r.code for r in pkg._tracefile.read_trace(path)] == ["OK", "PERMISSION_DENIED"]


def test_full_input_and_record_output(pkg: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "full.jsonl"
    registry = Glossary(pkg).registry(pkg.JsonlTracer(path, full_input=True, record_output=True))
    long_word = "w" * 5000
    registry.call("lookup_word", {"word": long_word, "api_key": "sk-live-123"})
    registry.call("lookup_word", {"word": "missing"})
    first, second = lines(path)
    assert first["input"] == {"word": long_word, "api_key": "[REDACTED]"} and first["full_input"] is True
    assert first["output"] == {"definition": f"{long_word} x1"}
    assert second["output"]["error"]["code"] == "UNKNOWN_WORD"


def test_the_tracer_is_safe_across_threads_and_tasks(pkg: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "busy.jsonl"
    registry = Glossary(pkg).registry(pkg.JsonlTracer(path))
    threads = [
        threading.Thread(target=lambda i=i: [registry.call("lookup_word", {"word": f"t{i}-{n}"}) for n in range(25)])
        for i in range(8)
    ]
    for thread in threads:
        thread.start()

    async def tasks() -> None:
        await asyncio.gather(*(registry.acall("lookup_word", {"word": f"a{n}" * 300}) for n in range(100)))

    asyncio.run(tasks())
    for thread in threads:
        thread.join()
    records = lines(path)  # every line is one whole JSON object
    assert len(records) == 300
    words = {r["input"]["word"] for r in records}
    assert len(words) == 300


def test_a_trace_file_line_that_is_broken_is_named(pkg: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    Glossary(pkg).registry(pkg.JsonlTracer(path)).call("lookup_word", {"word": "a"})
    with path.open("a", encoding="utf-8") as stream:
        stream.write('{"record": 1, "tool": 3}\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: "):
        pkg._tracefile.read_trace(path)


def test_toolgen_replay_reads_a_jsonl_tracer_file(pkg: ModuleType, tmp_path: Path) -> None:
    """The file a JsonlTracer writes is what `toolgen replay` judges: clean against the same contracts,
    refused once the input schema tightens."""
    from click.testing import CliRunner

    from tests.agent_support import agent_contracts
    from tests.python_support import write_project
    from toolgen.cli import main

    path = tmp_path / "calls.jsonl"
    registry = Glossary(pkg).registry(pkg.JsonlTracer(path, full_input=True, record_output=True))
    registry.call("lookup_word", {"word": "catalog", "limit": 5})
    registry.call("lookup_word", {"word": "missing"})
    contracts = agent_contracts()
    root = write_project(tmp_path / "project", contracts, PACKAGE)
    same = CliRunner().invoke(main, ["-C", str(root), "replay", str(path), "--format", "json"])
    assert same.exit_code == 0, same.output
    contracts["lookup_word"]["input_schema"]["properties"]["limit"]["maximum"] = 3
    write_project(root, contracts, PACKAGE)
    tightened = CliRunner().invoke(main, ["-C", str(root), "replay", str(path)])
    assert tightened.exit_code == 1, tightened.output
    assert "TG531" in tightened.output and "/limit" in tightened.output


def _package_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == PACKAGE and r.levelno >= logging.WARNING]


def test_a_tracer_that_cannot_write_is_reported_once_per_registry_and_counted(
    pkg: ModuleType, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`JsonlTracer("/nonexistent/dir/x.jsonl")`: every call still answers as without a tracer."""
    tracer = pkg.JsonlTracer(tmp_path / "nonexistent" / "dir" / "x.jsonl")
    untraced = Glossary(pkg).registry()
    registry = Glossary(pkg).registry(tracer)
    assert registry.trace_failures == 0
    with caplog.at_level(logging.WARNING, logger=PACKAGE):
        for word in ("catalog", "missing", "catalog"):
            assert registry.call("lookup_word", {"word": word}) == untraced.call("lookup_word", {"word": word})
        assert asyncio.run(registry.acall("lookup_word", {"word": "a"})).ok
    assert registry.trace_failures == 4
    (reported,) = _package_warnings(caplog)
    message = reported.getMessage()
    assert "x.jsonl" in message and "FileNotFoundError" in message and "trace_failures" in message
    assert reported.exc_info is not None
    caplog.clear()
    other = Glossary(pkg).registry(tracer)  # once per registry: another registry says it again
    with caplog.at_level(logging.WARNING, logger=PACKAGE):
        other.call("lookup_word", {"word": "a"})
    assert len(_package_warnings(caplog)) == 1 and other.trace_failures == 1


def test_a_tracer_that_raises_is_reported_without_the_secret_and_counted(
    pkg: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[Any] = []

    def broken(record: Any) -> None:
        calls.append(record)
        raise RuntimeError("the collector is down")

    registry = Glossary(pkg).registry(broken)
    with caplog.at_level(logging.WARNING, logger=PACKAGE):
        result = registry.call("lookup_word", {"word": "catalog", "api_key": "sk-live-123456"})
        registry.call("lookup_word", {"word": "catalog"})
    assert result.ok and len(calls) == 2 and registry.trace_failures == 2
    (reported,) = _package_warnings(caplog)
    assert "RuntimeError: the collector is down" in reported.getMessage()
    assert "sk-live-123456" not in caplog.text
