"""The `github` format of `toolgen diff` stated line by line: which annotation, where, with what title.

Each annotation lands on a line of a contract file in a pull request, so its kind (error, warning,
notice), its file, its line and its title are what a reviewer sees. Written against the surviving
mutants of `benchmarks/mutation.py compat-report`.
"""

from __future__ import annotations

from typing import Any

from toolgen.catalog import Contract, build_catalog, contract_from_document
from toolgen.compat import diff_catalogs, render


def make(name: str, source: str, **overrides: Any) -> Contract:
    data: dict[str, Any] = {
        "name": name,
        "version": "1.0.0",
        "description": "Look up a word.",
        "permissions": ["read"],
        "owners": ["ann"],
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
    }
    data.update(overrides)
    return contract_from_document(data, source)


LINES = {"/version": (3, 5), "/permissions": (7, 3), "/input_schema/properties/word/maxLength": (12, 9)}


def locate(pointer: str) -> tuple[int | None, int | None]:
    """Where each pointer is in the head file (line, column); the column must not be taken for the line."""
    return LINES.get(pointer, (None, None))


def _github(allow: bool) -> list[str]:
    odd = "contracts/a:b,c.json"  # a file name with the characters annotation properties reserve
    base = build_catalog([make("down", odd, version="2.0.0"), make("gains", "contracts/gains.json"),
                          make("gone", "contracts/gone.json")])  # fmt: skip
    head = build_catalog([
        make("down", odd, version="1.9.0"),
        make("gains", "contracts/gains.json", version="2.0.0", permissions=["read", "write", "admin"], title="Gains",
             input_schema={"type": "object", "properties": {"word": {"type": "string", "maxLength": 9}}}),
    ])  # fmt: skip
    report = diff_catalogs(base, head, allow_escalation=allow, allow_removal=allow)
    locators = {"contracts/a:b,c.json": locate, "contracts/gains.json": locate}
    return render(report, "github", locators).splitlines()


def test_each_annotation_has_its_kind_file_line_and_title() -> None:
    lines = _github(allow=False)
    assert [line.split("::")[1] for line in lines] == [
        "error file=contracts/a%3Ab%2Cc.json,line=3,title=TG403",
        "warning file=contracts/gains.json,line=12,title=TG432",
        "notice file=contracts/gains.json,title=TG407",
        "error file=contracts/gains.json,line=7,title=TG405",
        "error file=contracts/gone.json,title=TG401",
    ]
    assert lines[0].endswith("::down: version went down (2.0.0 -> 1.9.0)")
    assert lines[1].startswith("::warning file=contracts/gains.json,line=12,title=TG432::gains: input `word`: ")
    assert lines[2].startswith("::notice file=contracts/gains.json,title=TG407::gains: metadata title changed")
    assert lines[3].endswith("::gains gains permission admin, write; owners: ann")
    assert lines[4].endswith("::tool gone 1.0.0 removed")


def test_what_the_allow_flags_let_through_is_a_warning_not_an_error() -> None:
    kinds = [line.split(" ", 1)[0] for line in _github(allow=True)]
    assert kinds == ["::error", "::warning", "::notice", "::warning", "::warning"]
