"""Patterns behave in the generated models as in the registry's jsonschema check (Python `re`).

pydantic's default regex engine refuses lookarounds and large bounded repetitions, so a package whose
contract used one (ACEBench has `^[\\w\\s.,'-]{0,500}$`) failed to import.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from factory import contract
from python_support import build, write_package, write_project

PATTERNS = {
    "name": "^[\\w\\s.,'-]{0,500}$",
    "nick": "^(?!admin)[a-z]+(?<!\\d)$",
}


def _contract(name: str, key: str) -> dict[str, object]:
    properties = {key: {"type": "string", "description": f"Matches {key}.", "pattern": PATTERNS[key]}}
    schema = {"type": "object", "additionalProperties": False, "required": [key], "properties": properties}
    return contract(name, input_schema=schema, examples=[])


def test_lookarounds_and_large_repetitions_import_and_validate(tmp_path: Path) -> None:
    """One tool per pattern: each model must build on its own (dcg marks only lookaround models)."""
    contracts = {"name_check": _contract("name_check", "name"), "nick_check": _contract("nick_check", "nick")}
    files = build(write_project(tmp_path / "project", contracts))
    package = write_package(files, tmp_path / "site")
    script = (
        "from agent_tools.name_check import NameCheckInput\n"
        "from agent_tools import Ok, Policy, Registry\n"
        "r = Registry(policy=Policy.allow_all())\n"
        "r.register('name_check', lambda arguments: Ok({'text': arguments.name}))\n"
        "r.register('nick_check', lambda arguments: Ok({'text': arguments.nick}))\n"
        'assert NameCheckInput(name="Ann O\'Neil").name == "Ann O\'Neil"\n'
        "assert r.call('name_check', {'name': 'Ann'}).ok\n"
        "assert not r.call('name_check', {'name': 'x' * 501}).ok\n"
        "assert r.call('nick_check', {'nick': 'ann'}).ok\n"
        "bad = r.call('nick_check', {'nick': 'admin'})\n"
        "assert not bad.ok and bad.code == 'INVALID_INPUT', bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=package, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
