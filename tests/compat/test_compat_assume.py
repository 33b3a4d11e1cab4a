"""`--assume`: the stated assumptions about callers and consumers, and the strict mode that drops them.

`declared` (default): callers send only the properties an input schema declares; consumers ignore
output properties they do not know. `strict`: every value a schema accepts counts.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from factory import contract, write_json

from toolgen.cli import main
from toolgen.compat import Assume, Bump, Direction, diff_schema

IN, OUT = Direction.INPUT, Direction.OUTPUT
S = {"type": "string"}


def needed(direction: Direction, base: Any, head: Any, assume: Assume) -> Bump:
    """The bump the changes between two schemas need."""
    changes = diff_schema(direction, base, head, "/s", "/s", assume=assume)
    return max((c.bump for c in changes), default=Bump.NONE)


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An object schema with these properties."""
    return {"type": "object", "properties": props, **extra}


OPEN_ADDED = (obj({"a": S}), obj({"a": S, "b": {"type": "integer"}}))
CLOSED_ADDED = (obj({"a": S}, additionalProperties=False), obj({"a": S, "b": S}, additionalProperties=False))
OPENED = (obj({"a": S}, additionalProperties=False), obj({"a": S}))


@pytest.mark.parametrize(
    ("direction", "pair", "declared", "strict"),
    [
        # An open input: old callers may send `b` already, with any value.
        (IN, OPEN_ADDED, Bump.MINOR, Bump.MAJOR),
        # A closed output: a consumer validating with the old schema refuses `b`.
        (OUT, CLOSED_ADDED, Bump.MINOR, Bump.MAJOR),
        (OUT, OPENED, Bump.MINOR, Bump.MAJOR),
        # Where no assumption is involved, both modes agree.
        (IN, CLOSED_ADDED, Bump.MINOR, Bump.MINOR),
        (OUT, OPEN_ADDED, Bump.MINOR, Bump.MINOR),
        (IN, OPENED, Bump.MINOR, Bump.MINOR),
    ],
    ids=["input-open-added", "output-closed-added", "output-opened", "input-closed-added", "output-open-added",
         "input-opened"],
)  # fmt: skip
def test_strict_drops_exactly_the_stated_assumptions(
    direction: Direction, pair: tuple[Any, Any], declared: Bump, strict: Bump
) -> None:
    assert needed(direction, *pair, Assume.DECLARED) is declared
    assert needed(direction, *pair, Assume.STRICT) is strict


def test_strict_accepts_a_new_input_property_that_takes_any_value() -> None:
    assert needed(IN, obj({"a": S}), obj({"a": S, "b": {"description": "Anything."}}), Assume.STRICT) <= Bump.MINOR


def test_strict_findings_say_why() -> None:
    [change] = diff_schema(OUT, *CLOSED_ADDED, "/s", "/s", assume=Assume.STRICT)
    assert change.rule == "TG420" and "--assume strict" in change.hint


def test_the_cli_takes_assume_and_passes_it_to_the_comparison(tmp_path: Path) -> None:
    (tmp_path / "toolgen.toml").write_text('targets = ["catalog"]\n', encoding="utf-8")
    write_json(tmp_path, contract())
    runner = CliRunner()
    assert runner.invoke(main, ["-C", str(tmp_path), "build"]).exit_code == 0
    base = tmp_path / "base.json"
    shutil.copy(next(tmp_path.rglob("catalog.json")), base)
    changed = contract(version="1.1.0")
    changed["output_schema"]["properties"]["lang"] = {"type": "string", "description": "The language."}
    write_json(tmp_path, changed)
    declared = runner.invoke(main, ["-C", str(tmp_path), "diff", "--base-file", str(base)])
    assert declared.exit_code == 0, declared.output
    strict = runner.invoke(main, ["-C", str(tmp_path), "diff", "--base-file", str(base), "--assume", "strict"])
    assert strict.exit_code == 1, strict.output
    assert "TG420 output major" in strict.output
    bad = runner.invoke(main, ["-C", str(tmp_path), "diff", "--base-file", str(base), "--assume", "lax"])
    assert bad.exit_code == 2
