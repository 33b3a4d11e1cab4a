"""A build or check that finds nothing changed loads only what answering needs: the libraries that
validate, render and format (jsonschema, jinja2, black) are never imported, so the pre-commit case
costs the interpreter and click, not a tenth of a second of imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.build_support import run, two_tools

HEAVY = ("jsonschema", "jinja2", "black", "datamodel_code_generator")


def _imported(root: Path, command: str) -> set[str]:
    probe = (
        "import sys\n"
        "from toolgen.cli import main\n"
        f"main(['-C', {str(root)!r}, {command!r}], standalone_mode=False)\n"
        f"print('imported:', *sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("imported:"), done.stdout + done.stderr
    return set(line.split()[1:])


@pytest.mark.parametrize("command", ["build", "check"])
def test_nothing_changed_imports_none_of_the_heavy_libraries(tmp_path: Path, command: str) -> None:
    two_tools(tmp_path)
    assert run(tmp_path, "build")[0] == 0
    assert _imported(tmp_path, command) == set()


def test_a_providers_table_is_still_checked(tmp_path: Path) -> None:
    """The table's check needs jsonschema; only an empty (absent) table skips it."""
    two_tools(tmp_path)
    (tmp_path / "toolgen.toml").write_text('[providers]\nopenai = "yes"\n', encoding="utf-8")
    code, _, stderr = run(tmp_path, "build")
    assert code != 0 and "TG100" in stderr and "providers" in stderr
