"""The generated package type-checks with and without `types-jsonschema`, and offers a typed call.

`mypy --strict` runs twice over the package and a user's code: once in this environment (where the
dev extras install the jsonschema stubs) and once through a throwaway interpreter whose site-packages
hold everything of this one except the stubs. A probe proves that each run sees what it claims to.
"""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path
from types import ModuleType

import pytest

from tests.python_support import basic_contracts, build, write_package, write_project

PACKAGE = "typed_tools"
STUBS = ("jsonschema-stubs", "types_jsonschema")

TYPED_USER_CODE = '''
"""A user's code calling a tool through the typed accessor."""

from typing import Any, assert_type

from typed_tools import Ok, Registry, ToolResult, Policy, ping, read_file


def read(arguments: read_file.ReadFileInput) -> ToolResult[read_file.ReadFileOutput]:
    return Ok(read_file.ReadFileOutput(content=arguments.path))


registry = Registry(Policy(allow={"read"}))
registry.register("read_file", read)
tool = registry.tool(read_file.CONTRACT)
result = tool.call({"path": "a.py"})
assert_type(result, ToolResult[read_file.ReadFileOutput])
again = tool.call(read_file.ReadFileInput(path="b.py"))
if again.ok:
    assert_type(again.data, read_file.ReadFileOutput)
    print(again.data.content)
pinged = registry.tool(ping.CONTRACT).call("{}")
assert_type(pinged, ToolResult[Any])
'''

PROBE = "import jsonschema\nreveal_type(jsonschema.Draft202012Validator.iter_errors)\n"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(tmp_path_factory.mktemp("typed"), basic_contracts(), PACKAGE)
    folder = write_package(build(root), root / "out")
    (folder / "user_code.py").write_text(TYPED_USER_CODE, encoding="utf-8")
    (folder / "probe.py").write_text(PROBE, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def stubless_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An interpreter whose site-packages links to every entry of this one's except the stubs."""
    env = tmp_path_factory.mktemp("stubless") / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    ours = Path(sysconfig.get_paths()["purelib"])
    assert (ours / STUBS[0]).is_dir(), "the dev extras install types-jsonschema; reinstall with .[dev]"
    theirs = next((env / "lib").glob("python3*/site-packages"))
    for entry in ours.iterdir():
        if not entry.name.startswith(STUBS):
            (theirs / entry.name).symlink_to(entry)
    return env / "bin" / "python"


def mypy(folder: Path, python: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mypy", "--strict", "--config-file", "/dev/null", "--no-incremental"]
    return subprocess.run(
        [*command, "--python-executable", str(python), *targets],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "MYPYPATH": str(folder)},
    )


@pytest.mark.slow
@pytest.mark.parametrize("stubs", [True, False], ids=["with-stubs", "without-stubs"])
def test_generated_package_type_checks(package: Path, stubless_python: Path, stubs: bool) -> None:
    python = Path(sys.executable) if stubs else stubless_python
    probe = mypy(package, python, "probe.py")
    assert ("def (self:" in probe.stdout) is stubs, probe.stdout  # the stubs type the method; without, Any
    checked = mypy(package, python, "-p", PACKAGE, "-m", "user_code")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture(scope="module")
def pkg(package: Path) -> ModuleType:
    sys.path.insert(0, str(package))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(package))


def test_typed_accessor_calls_the_registry(pkg: ModuleType) -> None:
    read_file = importlib.import_module(f"{PACKAGE}.read_file")
    traces: list[object] = []
    registry = pkg.Registry(pkg.Policy(allow={"read"}), traces.append)
    registry.register("read_file", lambda a: pkg.Ok({"content": a.path}))
    tool = registry.tool(read_file.CONTRACT)
    assert isinstance(tool, pkg.Tool) and tool.contract is read_file.CONTRACT
    result = tool.call(read_file.ReadFileInput(path="b.py"))
    assert result.ok and isinstance(result.data, read_file.ReadFileOutput) and result.data.content == "b.py"
    assert tool.call({"path": ""}).code == "INVALID_INPUT" and len(traces) == 2


def test_the_registry_judges_in_draft_2020_12_whatever_schema_says(pkg: ModuleType) -> None:
    """`toolgen validate` refuses another `$schema` (TG218); a hand-made record is still judged in 2020-12."""
    import dataclasses

    from pydantic import ConfigDict

    ping = importlib.import_module(f"{PACKAGE}.ping")

    class Loose(pkg._runtime.ToolModel):
        model_config = ConfigDict(extra="allow")

    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "dependentRequired": {"a": ["b"]},
    }
    record = dataclasses.replace(ping.CONTRACT, input_schema=pkg._runtime.freeze(schema), input_model=Loose)
    registry = pkg.Registry(contracts=[record])
    registry.register("ping", lambda a: pkg.Ok({}))
    refused = registry.call("ping", {"a": 1})
    assert refused.code == "INVALID_INPUT" and "'b' is a dependency of 'a'" in refused.message
    assert registry.call("ping", {"a": 1, "b": 2}).ok


IMPLEMENTATIONS_OK = '''
"""Sync and async implementations, registered by contract, by name and with the decorator."""

import asyncio
from typing import assert_type

from typed_tools import Ok, Policy, Registry, ToolResult, ping, read_file

registry = Registry(Policy(allow={"read"}))


@registry.implements(read_file.CONTRACT)
async def read(arguments: read_file.ReadFileInput) -> ToolResult[read_file.ReadFileOutput]:
    await asyncio.sleep(0)
    return Ok(read_file.ReadFileOutput(content=arguments.path))


@registry.implements(ping.CONTRACT)
def pong(arguments: ping.PingInput) -> ToolResult[dict[str, bool]]:
    return Ok({"pong": True})


def read_now(arguments: read_file.ReadFileInput) -> ToolResult[read_file.ReadFileOutput]:
    return Ok(read_file.ReadFileOutput(content=arguments.path))


sync_protocol: read_file.Implementation = read_now
async_protocol: read_file.Implementation = read
by_contract = Registry(Policy(allow={"read"}))
by_contract.register(read_file.CONTRACT, read_now)
by_contract.register(ping.CONTRACT, pong)
by_name = Registry()
by_name.register("read_file", read)


async def main() -> None:
    result = await registry.tool(read_file.CONTRACT).acall({"path": "a"})
    assert_type(result, ToolResult[read_file.ReadFileOutput])
    if result.ok:
        assert_type(result.data, read_file.ReadFileOutput)
'''

IMPLEMENTATIONS_WRONG_INPUT = '''
"""An implementation of read_file that takes ping's input."""

from typed_tools import Ok, Registry, ToolResult, ping, read_file

registry = Registry()


@registry.implements(read_file.CONTRACT)
def read(arguments: ping.PingInput) -> ToolResult[read_file.ReadFileOutput]:
    return Ok(read_file.ReadFileOutput(content="x"))


async def aread(arguments: ping.PingInput) -> ToolResult[read_file.ReadFileOutput]:
    return Ok(read_file.ReadFileOutput(content="x"))


registry.register(read_file.CONTRACT, aread)
protocol: read_file.Implementation = aread
'''

IMPLEMENTATIONS_WRONG_OUTPUT = '''
"""An implementation of read_file whose result holds a number."""

from typed_tools import Ok, Registry, ToolResult, read_file

registry = Registry()


@registry.implements(read_file.CONTRACT)
async def read(arguments: read_file.ReadFileInput) -> ToolResult[int]:
    return Ok(len(arguments.path))


def sread(arguments: read_file.ReadFileInput) -> ToolResult[int]:
    return Ok(len(arguments.path))


registry.register(read_file.CONTRACT, sread)
protocol: read_file.Implementation = sread
'''


def _errors(output: str, module: str) -> list[str]:
    """`line: message` of each mypy error in `module`.py (notes left out)."""
    found = []
    for line in output.splitlines():
        if line.startswith(f"{module}.py:") and ": error: " in line:
            where, message = line.split(": error: ", 1)
            found.append(f"{where.split(':')[1]}: {message}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("stubs", [True, False], ids=["with-stubs", "without-stubs"])
def test_mypy_checks_implementations_against_the_tools_models(
    package: Path, stubless_python: Path, stubs: bool
) -> None:
    for name, text in (
        ("impl_ok", IMPLEMENTATIONS_OK),
        ("impl_wrong_input", IMPLEMENTATIONS_WRONG_INPUT),
        ("impl_wrong_output", IMPLEMENTATIONS_WRONG_OUTPUT),
    ):
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    python = Path(sys.executable) if stubs else stubless_python
    checked = mypy(package, python, "-m", "impl_ok", "-m", "impl_wrong_input", "-m", "impl_wrong_output")
    output = checked.stdout + checked.stderr
    assert _errors(output, "impl_ok") == [], output
    wrong_input = _errors(output, "impl_wrong_input")
    wrong_output = _errors(output, "impl_wrong_output")
    assert [e.split(":")[0] for e in wrong_input] == ["9", "18", "19"], output
    assert [e.split(":")[0] for e in wrong_output] == ["9", "18", "19"], output
    for found, wrong in ((wrong_input, '"Callable[[PingInput], '), (wrong_output, "Ok[int] | Err")):
        assert 'Argument 1 to "__call__" of "Implements" has incompatible type' in found[0]
        assert 'Argument 2 to "register" of "Registry" has incompatible type' in found[1]
        assert "Incompatible types in assignment" in found[2] and '"Implementation")' in found[2]
        assert all(wrong in e for e in found), found
        expected = '; expected "Callable[[ReadFileInput], '
        assert all(expected in e and "Ok[ReadFileOutput | Mapping[str, Any]] | Err" in e for e in found[:2])


def test_the_decorator_registers_sync_and_async_implementations(pkg: ModuleType) -> None:
    read_file = importlib.import_module(f"{PACKAGE}.read_file")
    ping = importlib.import_module(f"{PACKAGE}.ping")
    registry = pkg.Registry(pkg.Policy(allow={"read"}))

    async def read(arguments: object) -> object:
        return pkg.Ok({"content": arguments.path})

    def pong(arguments: object) -> object:
        return pkg.Ok({"pong": True})

    assert registry.implements(read_file.CONTRACT)(read) is read
    registry.register(ping.CONTRACT, pong)
    assert registry.registered == ("ping", "read_file")
    with pytest.raises(ValueError, match="already registered"):
        registry.implements(ping.CONTRACT)(pong)
    result = asyncio.run(registry.tool(read_file.CONTRACT).acall(read_file.ReadFileInput(path="c.py")))
    assert isinstance(result.data, read_file.ReadFileOutput) and result.data.content == "c.py"
    assert registry.tool(ping.CONTRACT).call({}).data == {"pong": True}
