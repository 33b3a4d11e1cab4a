"""`toolgen audit`: effects an implementation has that its tool's permissions do not declare.

A fixture project holds a `read` tool that writes a file (through a helper in another module), a pure
tool that opens a socket, and a `write` tool that runs a subprocess; each finding must name its line.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolgen.cli import main

CONTRACT = """\
name = "{name}"
version = "1.0.0"
description = "A tool of the audit fixture project, used to check declared permissions."
permissions = {permissions}
[input_schema]
type = "object"
additionalProperties = false
properties.value = {{ type = "string", description = "Any text." }}
"""

TOOLS = """\
import socket
import subprocess as sp
from pathlib import Path

from agent_tools import Ok, Registry
from agent_tools.pure_calc import PureCalcInput

from .helpers import remember


def read_note(args):
    text = Path("notes", args.value).read_text()
    remember(args.value)
    return Ok(text)


def calc(args: PureCalcInput):
    connection = socket.create_connection(("127.0.0.1", 9))
    return Ok(connection)


def run_job(args):
    Path("jobs", "job.txt").write_text(args.value)
    sp.run(["worker", args.value], check=False)
    return Ok(None)


registry = Registry()
registry.register("note_read", read_note)
registry.register("run_job", run_job)
"""

HELPERS = """\
def remember(name):
    with open("seen.log", "a") as log:
        log.write(name)
"""


def make_project(root: Path, tools: str = TOOLS, helpers: str = HELPERS) -> Path:
    (root / "contracts").mkdir()
    for name, permissions in (("note_read", '["read"]'), ("pure_calc", "[]"), ("run_job", '["write", "network"]')):
        (root / "contracts" / f"{name}.toml").write_text(CONTRACT.format(name=name, permissions=permissions))
    (root / "impl").mkdir()
    (root / "impl" / "__init__.py").write_text("")
    (root / "impl" / "tools.py").write_text(tools)
    (root / "impl" / "helpers.py").write_text(helpers)
    return root


def run(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["-C", str(root), "audit", *args])
    return result.exit_code, result.stdout, result.stderr


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def test_each_undeclared_effect_is_reported_at_its_line(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    code, out, err = run(root)
    assert code == 1, out + err
    findings = {line.split(": ", 2)[1].split()[0]: line for line in out.splitlines() if ": TG5" in line}
    assert findings["TG501"].startswith(f"impl/helpers.py:{line_of(HELPERS, 'open(')}:")
    assert "note_read" in findings["TG501"] and "remember" in findings["TG501"]
    assert findings["TG503"].startswith(f"impl/tools.py:{line_of(TOOLS, 'create_connection')}:")
    assert "pure_calc" in findings["TG503"]
    assert findings["TG502"].startswith(f"impl/tools.py:{line_of(TOOLS, 'sp.run')}:")
    assert "'execute'" in findings["TG502"]
    assert "TG510 (info) tool 'run_job' declares 'network'" in out
    assert "3 errors" in err


def test_json_is_one_document_with_every_implementation(tmp_path: Path) -> None:
    code, out, _ = run(make_project(tmp_path), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert sorted(f["code"] for f in document["findings"] if f["severity"] == "error") == ["TG501", "TG502", "TG503"]
    tools = {i["tool"]: i for i in document["implementations"]}
    assert set(tools) == {"note_read", "pure_calc", "run_job"}
    assert tools["pure_calc"]["function"] == "calc"  # found by its input model annotation
    assert {e["permission"] for e in tools["run_job"]["effects"]} == {"write", "execute"}
    assert document["missing"] == []


def test_declared_effects_pass(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    for name, permissions in (("note_read", '["read", "write"]'), ("pure_calc", '["network"]')):
        (root / "contracts" / f"{name}.toml").write_text(CONTRACT.format(name=name, permissions=permissions))
    (root / "contracts" / "run_job.toml").write_text(
        CONTRACT.format(name="run_job", permissions='["write", "execute"]')
    )
    code, out, err = run(root)
    assert code == 0, out + err
    assert "TG50" not in out


ALIASES = """\
import os as operating_system
from os import remove as rm
from shutil import rmtree
import urllib.request

from agent_tools import Ok


def clean(args):
    rm("a")
    return Ok(None)


def wipe(args):
    rmtree("b")
    operating_system.system("ls")


def fetch(args):
    return urllib.request.urlopen("http://127.0.0.1/")


def harmless(args):
    text = "a-b".replace("-", "_")
    Path = None
    return text.strip()


def registrations(registry):
    registry.register("note_read", clean)
    registry.register("pure_calc", fetch)
    registry.register("run_job", harmless)
    registry.register("pure_calc", wipe)
"""


@pytest.mark.parametrize(
    ("needle", "code"),
    [('rm("a")', "TG501"), ('rmtree("b")', "TG501"), ('operating_system.system("ls")', "TG502"), ("urlopen", "TG503")],
)
def test_import_aliases_are_resolved(tmp_path: Path, needle: str, code: str) -> None:
    root = make_project(tmp_path, tools=ALIASES)
    _, out, _ = run(root)
    assert f"impl/tools.py:{line_of(ALIASES, needle)}:" in out
    line = next(x for x in out.splitlines() if x.startswith(f"impl/tools.py:{line_of(ALIASES, needle)}:"))
    assert code in line


def test_string_methods_are_not_file_operations(tmp_path: Path) -> None:
    root = make_project(tmp_path, tools=ALIASES)
    _, out, _ = run(root, "--format", "json")
    harmless = [i for i in json.loads(out)["implementations"] if i["function"] == "harmless"]
    assert harmless and harmless[0]["effects"] == []


def test_path_replace_and_rename_are_writes(tmp_path: Path) -> None:
    tools = textwrap.dedent(
        """\
        from pathlib import Path


        def note(args):
            Path("a").replace(Path("b"))
            Path("c").rename("d")


        def register(registry):
            registry.register("note_read", note)
        """
    )
    _, out, _ = run(make_project(tmp_path, tools=tools), "--format", "json")
    note = next(i for i in json.loads(out)["implementations"] if i["tool"] == "note_read")
    assert [(e["call"], e["line"]) for e in note["effects"]] == [(".replace()", 5), (".rename()", 6)]


def test_what_cannot_be_seen_is_said_per_implementation(tmp_path: Path) -> None:
    tools = textwrap.dedent(
        """\
        import importlib

        import yaml


        def note(args):
            handler = getattr(args, "mode")
            handler()
            importlib.import_module(args.value)
            return yaml.safe_load(args.value)


        def register(registry):
            registry.register("note_read", note)
        """
    )
    _, out, _ = run(make_project(tmp_path, tools=tools))
    unseen = next(line for line in out.splitlines() if "TG511" in line and "note_read" in line)
    assert "getattr()" in unseen and "imported by name" in unseen and "yaml" in unseen


def test_unknown_tool_and_unparsable_file(tmp_path: Path) -> None:
    tools = 'def f(args):\n    pass\n\n\ndef register(r):\n    r.register("no_such_tool", f)\n'
    root = make_project(tmp_path, tools=tools, helpers="def broken(:\n")
    code, out, err = run(root)
    assert code == 1
    assert "impl/tools.py:6:5: TG512 (warning) register() names 'no_such_tool'" in out
    assert "impl/helpers.py:1:" in out and "TG520" in out
    assert "Traceback" not in out + err


def test_paths_narrow_the_scan_and_generated_code_is_skipped(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    generated = root / "generated" / "python"
    generated.mkdir(parents=True)
    (generated / "x.py").write_text("import subprocess\n\ndef y(a):\n    subprocess.run(a)\n")
    code, out, _ = run(root, str(root / "impl" / "helpers.py"))
    assert code == 0  # the helper alone is no implementation
    _, out, err = run(root)
    assert "generated/" not in out
    assert "3 files read" in err  # impl/__init__.py, tools.py, helpers.py
