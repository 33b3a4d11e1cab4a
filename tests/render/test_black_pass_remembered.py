"""Black's one pass over what it sees of a tool module is remembered per that text
(`python_black.format_modules`): an edit that leaves a tool's models alone runs no black at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.build_support import reworded, run, two_tools
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.render import python_black
from toolgen.render import python_format as fmt
from toolgen.render.python_format import fixed_mode

MODULE = '''"""Tool {name}."""

from typing import Any

class EchoInput(  Any ):
    text : str

# fmt: off
CONTRACT = {{"name": "{name}",   "description": "{description}"}}
# fmt: on
'''


def _passes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    real = python_black.one_pass
    monkeypatch.setattr(python_black, "one_pass", lambda text, mode: made.append(text) or real(text, mode))
    return made


def test_a_module_whose_region_alone_changed_is_formatted_from_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = MODULE.format(name="echo", description="Echo.")
    second = MODULE.format(name="echo", description="Echo the text back.")
    made = _passes(monkeypatch)
    with cache.session(tmp_path) as store:
        executor = Building(Workers(1), store)
        [(text, digest)] = python_black.format_modules([first], executor)
        assert text == fmt.full(first, fixed_mode()) and len(digest) == 64
        assert python_black.format_modules([second], executor) == [(fmt.full(second, fixed_mode()), digest)]
    assert len(made) == 1  # the second text showed black what the first did


def test_a_text_without_a_region_gets_black_over_all_of_it(tmp_path: Path) -> None:
    plain = "x  =  {  'a':1 }\n"
    with cache.session(tmp_path) as store:
        texts = [plain, MODULE.format(name="e", description="E.")]
        done = python_black.format_modules(texts, Building(Workers(1), store))
    assert done[0] == (fmt.full(plain, fixed_mode()), "")  # no pass to remember


def test_a_build_after_a_description_edit_never_imports_black(tmp_path: Path) -> None:
    """Also when the edited tool's module was kept unread by the build before (its pass kept too)."""
    two_tools(tmp_path, ("echo_text", "write_file", "read_file"))
    assert run(tmp_path, "build")[0] == 0
    reworded(tmp_path, "echo_text")
    assert run(tmp_path, "build")[0] == 0  # write_file's module kept unread, then pruning
    reworded(tmp_path, "write_file")
    probe = (
        "import sys\n"
        "from toolgen.cli import main\n"
        f"main(['-C', {str(tmp_path)!r}, 'build'], standalone_mode=False)\n"
        "print('black' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr
    assert "Reworded." in (tmp_path / "generated" / "docs" / "write_file.md").read_text(encoding="utf-8")
