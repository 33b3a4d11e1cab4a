"""The black shortcut (`toolgen.render.python_format`) gives the bytes of a full black pass, always."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import synth_catalog
from tests.conftest import REPO
from tests.python_support import basic_contracts, build, hostile_contracts, write_project
from toolgen.cli import main
from toolgen.render import python_black
from toolgen.render import python_format as fmt
from toolgen.render.python_format import fixed_mode

MODE = fixed_mode()


def _sources(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the python target hands to black while building `root` (one process, no cache)."""
    seen: list[str] = []
    whole, cut = python_black._black, python_black.split

    def record(source: str) -> str:
        seen.append(source)
        return whole(source)

    def record_cut(source: str) -> fmt.Split:
        seen.append(source)
        return cut(source)

    monkeypatch.setenv("TOOLGEN_JOBS", "1")
    monkeypatch.setattr(python_black, "_black", record)
    monkeypatch.setattr(python_black, "split", record_cut)  # a tool module: black's one pass, remembered
    build(root)
    return seen


def _synthetic(root: Path, count: int) -> Path:
    synth_catalog.write_catalog(root, count)
    (root / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")
    return root


def _repo(root: Path) -> Path:
    shutil.copytree(REPO / "contracts", root / "contracts")
    (root / "toolgen.toml").write_text('targets = ["python"]\n', encoding="utf-8")
    return root


SYNTHETIC = pytest.param("synthetic", marks=pytest.mark.slow)
"""The 60-tool synthetic catalog: about 10 s a test, so in the slow tier."""


@pytest.mark.parametrize("case", ["basic", "hostile", "repo", SYNTHETIC])
def test_shortcut_equals_full_black(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if case == "repo":
        root = _repo(tmp_path)
    elif case == "synthetic":
        root = _synthetic(tmp_path, 60)
    else:
        root = write_project(tmp_path, basic_contracts() if case == "basic" else hostile_contracts())
    sources = _sources(root, monkeypatch)
    tools = [s for s in sources if fmt.FMT_OFF in s]
    assert tools, "no tool module reached black"
    for source in sources:
        assert fmt.format_source(source, MODE) == fmt.full(source, MODE)
    # the shortcut is really taken (hostile texts holding triple quotes or odd layouts get the full pass)
    skipped = [s.split("\n", 6)[-2][:60] for s in tools if fmt._region(s) is None or fmt._head(s) is None]
    assert not skipped or case == "hostile", skipped
    assert len(skipped) < len(tools) / 2, skipped


@pytest.mark.parametrize("case", ["basic", "hostile", "repo", SYNTHETIC, "long names"])
def test_black_would_keep_the_layout_toolgen_gives_the_verbatim_region(case: str, tmp_path: Path) -> None:
    """The `# fmt: off` region is toolgen's layout; with the markers gone black changes nothing in it
    (but in the schema and example literals, which `pyblock` lays out its own way)."""
    if case == "repo":
        root = _repo(tmp_path)
    elif case == "synthetic":
        root = _synthetic(tmp_path, 120)
    elif case == "long names":
        root = write_project(tmp_path, {str(d["name"]): d for d in _long_named_contracts()})
    else:
        root = write_project(tmp_path, basic_contracts() if case == "basic" else hostile_contracts())
    modules = {path: text for path, text in build(root).items() if path.endswith(".py") and fmt.FMT_OFF in text}
    assert len(modules) >= 2
    for path, text in modules.items():
        assert fmt.full(text, MODE) == text, path  # black --check passes
        # the schema and example literals are `pyblock`'s own layout (black would re-split some): cut them
        start, end = text.index("# The contract's schemas and examples.\n"), text.index("\nCONTRACT: Final")
        bare = (text[:start] + text[end:]).replace(fmt.FMT_OFF, "").replace(fmt.FMT_ON, "")
        assert fmt.full(bare, MODE) == bare, path


def _long_named_contracts() -> list[dict[str, object]]:
    """Names from short to the 64-character limit, long texts, one to many errors and permissions."""
    from tests import factory

    found: list[dict[str, object]] = []
    for length in (8, 20, 28, 33, 36, 40, 47, 52, 58, 64):
        name = ("tool_" + "abcdefghij" * 7)[:length].rstrip("_")
        doc = factory.contract(name)
        doc["description"] = "A tool. " + "Long description text, " * (length // 4)
        doc["permissions"] = ["read", "write", "network"][: 1 + length % 3]
        codes = [f"ERROR_{'X' * (length // 3)}_{i}" for i in range(length % 4)]
        doc["errors"] = [
            {"code": c, "description": "d" * (length + i * 9), "retryable": i % 2 == 0} for i, c in enumerate(codes)
        ]
        if length % 2 == 0:
            doc["output_schema"] = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
        found.append(doc)
    return found


TOOL_LIKE = '''"""Doc."""

x = {  'a':1 }
# fmt: off
_A: dict[str, int] = {"a": 1,   "b": 2}
_B: list[int] = [
    1,
]
# fmt: on
def f( a ):
    return a
'''


def _variants() -> dict[str, str]:
    return {
        "plain": TOOL_LIKE,
        "no region": TOOL_LIKE.replace("# fmt: off\n", "").replace("# fmt: on\n", ""),
        "two regions": TOOL_LIKE + "# fmt: off\ny = [1,2]\n# fmt: on\n",
        "inside a docstring": '"""\n' + TOOL_LIKE.split('"""\n', 2)[1].replace('"""Doc."""', "") + '"""\n',
        "trailing blanks": TOOL_LIKE.replace("2}\n", "2}   \n"),
        "blank line inside": TOOL_LIKE.replace("_B:", "\n_B:"),
        "indented region": "class C:\n    # fmt: off\n    a = [1,2]\n    # fmt: on\n    b = [1,2]\n",
        "placeholder in text": TOOL_LIKE.replace("x = {  'a':1 }\n", fmt.PLACEHOLDER),
        "comment first": TOOL_LIKE.replace("_A:", "# note\n_A:"),
        "only markers": "# fmt: off\n# fmt: on\nx = [1,2]\n",
        "class inside": TOOL_LIKE.replace("_B:", "\n\nclass P:\n    x: int\n\n\n_B:"),
        "one-line docstrings inside": TOOL_LIKE.replace("_B:", '"""A."""\n\nclass P:\n    """B."""\n\n\n_B:'),
        "region to the end": TOOL_LIKE.split("# fmt: on\n", maxsplit=1)[0] + "# fmt: on\n",
        "multi-line string inside": TOOL_LIKE.replace("_B:", 'S = """a\n  b"""\n_B:'),
        "ends indented": TOOL_LIKE.replace("]\n# fmt: on", "]\nclass P:\n    x: int\n# fmt: on"),
    }


@pytest.mark.parametrize("name", sorted(_variants()))
def test_edge_cases_match_full_black(name: str) -> None:
    source = _variants()[name]
    assert fmt.format_source(source, MODE) == fmt.full(source, MODE)


def test_unsafe_regions_take_the_full_pass() -> None:
    variants = _variants()
    for name in ("plain", "blank line inside", "class inside", "one-line docstrings inside", "region to the end"):
        assert fmt._region(variants[name]) is not None, name
    for name in ("no region", "two regions", "inside a docstring", "trailing blanks", "indented region"):
        assert fmt._region(variants[name]) is None, name
    for name in ("placeholder in text", "comment first", "only markers", "multi-line string inside", "ends indented"):
        assert fmt._region(variants[name]) is None, name


HEAD = '''# Generated by toolgen.
# Do not edit by hand.
"""The `x` tool."""

from __future__ import annotations

from typing import Any
from pydantic import (
    ConfigDict,
    Field,
)

from ._runtime import ToolModel


class XInput(ToolModel):
    a: Any = Field(None,description='a')
'''


def _head_variants() -> dict[str, str]:
    return {
        "plain": HEAD,
        "no docstring": HEAD.replace('"""The `x` tool."""\n\n', ""),
        "two blanks after the docstring": HEAD.replace('tool."""\n', 'tool."""\n\n'),
        "no blank after the docstring": HEAD.replace('tool."""\n\n', 'tool."""\n'),
        "three blanks before the class": HEAD.replace("ToolModel\n\n\n", "ToolModel\n\n\n\n"),
        "one blank before the class": HEAD.replace("ToolModel\n\n\n", "ToolModel\n\n"),
        "a directive in the header": HEAD.replace("# Do not edit by hand.", "# fmt: off"),
        "an aliased import": HEAD.replace("from typing import Any", "from typing import Any as A"),
        "a long import": HEAD.replace(
            "from typing import Any", "from typing import " + ", ".join(f"N{i}" for i in range(20))
        ),
        "parenthesized on one line": HEAD.replace("from typing import Any", "from typing import (Any)"),
        "no trailing comma in an import": HEAD.replace("    Field,\n)", "    Field\n)"),
        "a statement before the class": HEAD.replace("class XInput", "X = 1\n\n\nclass XInput"),
        "one blank before a statement": HEAD.replace("\n\n\nclass XInput", "\n\nX = 1\n\n\nclass XInput"),
        "trailing blank in a comment": HEAD.replace("# Do not edit by hand.", "# Do not edit by hand. "),
        "docstring ending in a space": HEAD.replace("`x` tool.", "`x` tool. "),
    }


@pytest.mark.parametrize("name", sorted(_head_variants()))
def test_head_cases_match_full_black(name: str) -> None:
    source = _head_variants()[name]
    assert fmt.format_source(source, MODE) == fmt.full(source, MODE)
    assert (fmt._head(source) is not None) == (
        name
        in (
            "plain",
            "one blank before the class",
            "an aliased import",
            "a statement before the class",
            "one blank before a statement",
        )
    ), name


def test_cli_build_writes_black_stable_modules(tmp_path: Path) -> None:
    root = _synthetic(tmp_path, 8)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        result = CliRunner().invoke(main, ["build", "--no-cache"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    modules = sorted((root / "generated" / "python").rglob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert fmt.full(text, MODE) == text, path
