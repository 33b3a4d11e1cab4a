"""`__init__.py` is black-formatted with its catalog digest masked (`python_format.format_masked`): the
bytes are black's over the real text, and a build that changes no tool name formats nothing new."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.python_support import basic_contracts, build, hostile_contracts, write_project
from toolgen.render import python as target
from toolgen.render import python_format as fmt
from toolgen.render.context import PLAIN
from toolgen.render.python_format import fixed_mode

MODE = fixed_mode()
DIGEST = "sha256:" + "0123456789abcdef" * 4


@pytest.mark.parametrize("case", ["basic", "hostile"])
def test_init_is_black_over_the_real_text(case: str, tmp_path: Path) -> None:
    root = write_project(tmp_path, basic_contracts() if case == "basic" else hostile_contracts())
    files = build(root)
    init = files["python/agent_tools/__init__.py"]
    assert "(catalog sha256:" in init  # the digest is really there, put back where it was
    assert fmt.full(init, MODE) == init


def _call_sources(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = target.format_python

    def record(source: str, executor: object = PLAIN) -> str:
        seen.append(source)
        return real(source)

    monkeypatch.setattr(target, "format_python", record)
    return seen


def test_two_digests_hand_black_the_same_text(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _call_sources(monkeypatch)
    other = "sha256:" + "fedcba9876543210" * 4
    source = "# Generated from 2 contracts (catalog {}).\n\nx = [1,2]\n"
    first = fmt.format_masked(source.format(DIGEST), DIGEST, target.format_python)
    second = fmt.format_masked(source.format(other), other, target.format_python)
    assert seen[0] == seen[1] and DIGEST not in seen[0]
    assert first == fmt.full(source.format(DIGEST), MODE)
    assert second == fmt.full(source.format(other), MODE)


SOURCES = {
    "comment": "# catalog {d}\n\nx = [1,2]\n",
    "comment without a space": "#catalog {d}\nx = {{ 'a':1 }}\n",
    "indented comment": "def f():\n    # {d}\n    return [1,2]\n",
    "in a string": "X = '{d}'\n",
    "in a long call": "value = call(first_argument_name, second_argument_name, '{d}')\n",
    "trailing comment": "value = call(first_argument_name, second_argument_name)  # {d} and more text\n",
    "twice": "# {d}\n# {d}\n",
    "absent": "x = [1,2]\n",
    "docstring line": '"""Doc.\n\n# {d}\n"""\n',
}


@pytest.mark.parametrize("case", sorted(SOURCES))
def test_masked_formatting_equals_black_over_the_real_text(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _call_sources(monkeypatch)
    source = SOURCES[case].format(d=DIGEST)
    assert fmt.format_masked(source, DIGEST, target.format_python) == fmt.full(source, MODE)
    masked = any("Z" * len(DIGEST) in s for s in seen)
    assert masked == (case in ("comment", "comment without a space", "indented comment", "docstring line"))
