"""The house sizes, measured: no module of toolgen/ or benchmarks/ over 400 lines, no function over 50.

A function's length is its span in `ast` from its first decorator (a click command's options
included) to its last line, docstring included. A nested function counts apart and inside its
parent. The runtime every generated package carries is toolgen's source (`toolgen/runtime/`), so
it is measured like the rest; the files generated from the contracts are not measured here. No
Python template may be the same for every catalog: such code belongs in the runtime.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO

MAX_MODULE = 400
MAX_FUNCTION = 50
SOURCES = ("toolgen", "benchmarks")
HEADER = "{% for line in header %}\n# {{ line }}\n{% endfor %}\n"
"""The generated header's lines, which every Python template starts with."""
JINJA = re.compile(r"\{[{%#]")


def _files() -> list[Path]:
    return sorted(path for folder in SOURCES for path in (REPO / folder).rglob("*.py"))


def long_functions(source: str, label: str, limit: int = MAX_FUNCTION) -> list[str]:
    """`label:line name (n lines)` for every function in `source` longer than `limit` lines."""
    found = []
    for node in ast.walk(ast.parse(source, label)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - start + 1
            if length > limit:
                found.append(f"{label}:{start} {node.name} ({length} lines)")
    return found


def test_the_measure_sees_a_long_function() -> None:
    def body(indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(49))

    short = f"def short():\n{body('    ')}"  # 50 lines
    long = f"class A:\n    @decorated\n    def long(self):\n{body('        ')}"  # 51 with its decorator
    assert long_functions(short + "\n\n" + long, "m.py") == ["m.py:54 long (51 lines)"]
    assert long_functions(short, "m.py") == []


def test_the_measure_reads_every_source_and_the_runtime() -> None:
    names = {path.relative_to(REPO).as_posix() for path in _files()}
    assert {"toolgen/cli.py", "toolgen/incremental/fastpath.py", "benchmarks/bench_build.py"} <= names
    assert {"toolgen/runtime/_runtime.py", "toolgen/runtime/integrations/mcp.py"} <= names


def test_every_python_template_varies_with_the_catalog() -> None:
    """A Python template whose only Jinja is a header would be runtime code hidden from the linters."""
    static = []
    for path in sorted((REPO / "templates").rglob("*.py.jinja")):
        text = path.read_text(encoding="utf-8")
        if not JINJA.search(text.removeprefix(HEADER)):
            static.append(path.relative_to(REPO).as_posix())
    assert static == []


def test_no_module_is_over_400_lines() -> None:
    long = {}
    for path in _files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE:
            long[path.relative_to(REPO).as_posix()] = lines
    assert long == {}


def test_no_function_is_over_50_lines() -> None:
    found = []
    for path in _files():
        found.extend(long_functions(path.read_text(encoding="utf-8"), path.relative_to(REPO).as_posix()))
    assert found == []
