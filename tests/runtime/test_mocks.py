"""The mocks target: `mock_registry()` validates like the real registry, answers from examples (after
defaults), else with a deterministic synthetic output, and the generated module passes mypy --strict."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from tests.docs_support import write_project
from tests.factory import contract
from tests.python_support import run_mypy
from toolgen.cli import main
from toolgen.render.python_runtime import RUNTIME

PACKAGE = "mock_tools_pkg"


def _out(*hits: str) -> dict[str, Any]:
    return {"hits": list(hits), "searched_at": "2024-05-01T10:00:00Z"}


def catalog() -> dict[str, dict[str, Any]]:
    """Tools covering each way a mock answers."""
    search = contract(
        "search_code",
        permissions=["read"],
        input_schema={
            "type": "object",
            "additionalProperties": False,
            "required": ["query"],
            "properties": {
                "query": {"type": "string", "minLength": 1, "description": "What to find."},
                "mode": {"type": "string", "enum": ["fast", "full"], "default": "fast", "description": "Mode."},
                "limit": {"type": "integer", "minimum": 1, "default": 10, "description": "Most results."},
                "since": {"type": "string", "format": "date-time", "description": "Only newer files."},
            },
        },
        output_schema={
            "type": "object",
            "additionalProperties": False,
            "required": ["hits", "searched_at"],
            "properties": {
                "hits": {"type": "array", "items": {"type": "string"}, "description": "Matches."},
                "searched_at": {"type": "string", "format": "date-time", "description": "When."},
            },
        },
        errors=[{"code": "INDEX_BUSY", "description": "The index is rebuilding.", "retryable": True}],
        examples=[
            {
                "title": "default mode",
                "input": {"query": "todo"},
                "output": _out("a.py"),
            },
            {
                "input": {"query": "busy", "mode": "fast", "limit": 10},
                "error": {"code": "INDEX_BUSY", "message": "try later"},
            },
            {"input": {"query": "both"}, "error": {"code": "NOT_FOUND", "message": "first, but an error"}},
            {"input": {"query": "both"}, "output": _out("both.py")},
            {
                "input": {"query": "full", "mode": "full"},
                "output": _out("full.py"),
            },
            {"input": {"query": "new", "since": "2024-05-01T10:00:00+00:00"}, "output": _out("new.py")},
        ],
    )
    delete = contract("delete_file", permissions=["write"], examples=[])
    delete["errors"] = [{"code": "NOT_FOUND", "description": "No such file."}]
    bare = contract("ping_tool", examples=[])
    del bare["output_schema"]
    return {"search_code": search, "delete_file": delete, "ping_tool": bare}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(tmp_path_factory.mktemp("mocks"), catalog(), ["python", "mocks"])
    toml = root / "toolgen.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("\n\n", f'\npython_package = "{PACKAGE}"\n\n', 1))
    result = CliRunner().invoke(main, ["-C", str(root), "build"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root / "generated" / "python"


@pytest.fixture(scope="module")
def mocks(built: Path) -> Iterator[ModuleType]:
    sys.path.insert(0, str(built))
    try:
        yield importlib.import_module(f"{PACKAGE}.mocks")
    finally:
        sys.path.remove(str(built))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_target_writes_mocks_and_the_synthesizer_into_the_package(built: Path) -> None:
    files = sorted(p.name for p in (built / PACKAGE).iterdir() if p.suffix == ".py")
    assert {"mocks.py", "_mock_synth.py", "_runtime.py", "__init__.py"} <= set(files)
    for name in ("mocks.py", "_mock_synth.py", "_mock_pattern.py"):  # the runtime's source, byte for byte
        assert (built / PACKAGE / name).read_bytes() == (RUNTIME / name).read_bytes()


def test_answers_with_the_example_output_after_applying_defaults(mocks: ModuleType) -> None:
    registry = mocks.mock_registry()
    for arguments in ({"query": "todo"}, {"query": "todo", "mode": "fast"}, {"query": "todo", "limit": 10}):
        result = registry.call("search_code", arguments)
        assert result.ok, result
        assert result.payload() == {"hits": ["a.py"], "searched_at": "2024-05-01T10:00:00Z"}
    assert registry.call("search_code", {"query": "full", "mode": "full"}).payload()["hits"] == ["full.py"]


def test_example_inputs_are_compared_as_the_input_model_reads_them(mocks: ModuleType) -> None:
    registry = mocks.mock_registry()
    for since in ("2024-05-01T10:00:00+00:00", "2024-05-01T10:00:00Z"):
        assert registry.call("search_code", {"query": "new", "since": since}).payload()["hits"] == ["new.py"]


def test_a_matching_example_error_comes_back_with_the_contract_retryable(mocks: ModuleType) -> None:
    result = mocks.mock_registry().call("search_code", '{"query": "busy"}')
    assert not result.ok
    assert (result.code, result.message, result.retryable) == ("INDEX_BUSY", "try later", True)


def test_an_output_example_wins_over_an_earlier_error_example_for_the_same_input(mocks: ModuleType) -> None:
    assert mocks.mock_registry().call("search_code", {"query": "both"}).payload()["hits"] == ["both.py"]


def test_without_a_matching_example_the_output_is_synthetic_valid_and_stable(mocks: ModuleType, built: Path) -> None:
    registry = mocks.mock_registry()
    first = registry.call("search_code", {"query": "nothing like it"})
    assert first.ok
    schema = catalog()["search_code"]["output_schema"]
    jsonschema.Draft202012Validator(schema).validate(first.payload())
    assert first.payload() == mocks.mock_registry().call("search_code", {"query": "nothing like it"}).payload()
    script = (
        f"from {PACKAGE}.mocks import mock_registry; import json; "
        "print(json.dumps(mock_registry().call('search_code', {'query': 'nothing like it'}).payload()))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=built, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == first.payload()


def test_invalid_input_is_rejected_like_the_real_registry(mocks: ModuleType) -> None:
    registry = mocks.mock_registry()
    for arguments, path in (({"query": ""}, "/query"), ({"query": "x", "limit": 0}, "/limit"), ({}, "")):
        result = registry.call("search_code", arguments)
        assert (result.ok, result.code) == (False, "INVALID_INPUT")
        assert path in [e["path"] for e in result.details["errors"]]
    assert registry.call("search_code", "not json").code == "INVALID_INPUT"
    assert registry.call("no_such_tool", {}).code == "UNKNOWN_TOOL"


def test_policy_none_grants_everything_and_an_explicit_policy_is_enforced(mocks: ModuleType) -> None:
    assert mocks.mock_registry().call("delete_file", {"text": "x"}).ok
    runtime = importlib.import_module(f"{PACKAGE}._runtime")
    denied = mocks.mock_registry(policy=runtime.Policy()).call("delete_file", {"text": "x"})
    assert denied.code == "PERMISSION_DENIED"
    assert mocks.mock_registry(policy=runtime.Policy(allow={"write"})).call("delete_file", {"text": "x"}).ok


def test_every_tool_is_mocked_and_traced(mocks: ModuleType) -> None:
    records: list[Any] = []
    registry = mocks.mock_registry(tracer=records.append)
    assert registry.registered == ("delete_file", "ping_tool", "search_code")
    assert registry.call("ping_tool", {"text": "x"}).payload() == {}
    assert [(r.tool, r.code, r.permission) for r in records] == [("ping_tool", "OK", "granted")]


@pytest.mark.slow
def test_the_package_with_its_mocks_passes_mypy_strict(built: Path) -> None:
    done = run_mypy(built, PACKAGE)
    assert done.returncode == 0, done.stdout + done.stderr
