"""Black is imported when a text is first formatted, not with the python target.

A one-contract build forks the providers, docs and mocks away before the python target formats
the changed module; black's import (about a tenth of such a build) then runs beside them instead of
before the fork. A top-level `import black` anywhere in the targets would put it back.
"""

from __future__ import annotations

import subprocess
import sys

TARGETS = (
    "import toolgen.cli, toolgen.render.python, toolgen.render.mocks, toolgen.render.docs, toolgen.render.providers"
)


def _imports_black(code: str) -> bool:
    probe = f"import sys\n{code}\nprint('black' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.strip() == "True"


def test_importing_the_targets_does_not_import_black() -> None:
    assert not _imports_black(TARGETS)


def test_formatting_a_text_imports_it() -> None:
    formatted = "from toolgen.render import python\nassert python.format_python('x  =  1') == 'x = 1\\n'"
    assert _imports_black(f"{TARGETS}\n{formatted}")
