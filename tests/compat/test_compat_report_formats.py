"""What a user of `toolgen diff` reads, stated whole: the text report, the JSON document, the Markdown
comment and the GitHub annotations of hand-made reports.

Each report is built from the model (not from a diff) so that every case the renderers tell apart is
present: a tool listed only because its version moved, a tool listed only because it has changes,
every verdict label, a value exactly at the shortening limit and one past it, a side with no pointer,
escalations without owners, the allow flags on and off, one problem and several. Written against the
surviving mutants of `benchmarks/mutation.py compat-report`.
"""

from __future__ import annotations

import json

from toolgen.compat import render
from toolgen.compat.model import ABSENT, Bump, Change, Direction, Escalation, Report, Status, ToolDiff

AT_80 = "x" * 78  # dumped with its quotes: exactly 80 characters, shown whole
PAST_80 = "y" * 79  # 81 characters: cut to 79 and an ellipsis
DICT = {"b": 1, "a": "é"}  # keys sorted, non-ASCII kept, ", " and ": " between


def change(rule: str = "TG432", **overrides: object) -> Change:
    fields: dict[str, object] = {
        "rule": rule,
        "direction": Direction.INPUT,
        "bump": Bump.MAJOR,
        "message": "input `word`: maxLength 9 added",
        "hint": "bump major",
        "base_pointer": "/input_schema/properties/word",
        "head_pointer": "/input_schema/properties/word/maxLength",
        "old": ABSENT,
        "new": 9,
    }
    fields.update(overrides)
    return Change(**fields)  # type: ignore[arg-type]


def tool(name: str, old: str | None, new: str | None, status: Status, **overrides: object) -> ToolDiff:
    fields: dict[str, object] = {"needed": Bump.NONE, "made": Bump.PATCH, "source": f"contracts/{name}.json"}
    fields.update(overrides)
    return ToolDiff(name, old, new, status=status, **fields)  # type: ignore[arg-type]


def failing() -> Report:
    values = change(
        "TG407", direction=Direction.METADATA, bump=Bump.PATCH, message="metadata examples changed",
        hint="bump patch", base_pointer=None, head_pointer="/examples", old=DICT, new=AT_80,
    )  # fmt: skip
    cut = change(old=PAST_80, new=ABSENT, base_pointer="", head_pointer=None)
    return Report(
        tools=(
            tool("alpha", "1.0.0", "1.0.1", Status.OK),  # listed: only its version moved
            tool("beta", "1.0.0", "1.0.0", Status.OK, made=None, changes=(values,)),  # listed: only changes
            tool("calm", "1.0.0", "1.0.0", Status.OK, made=None),  # not listed
            tool("down", "2.0.0", "1.9.0", Status.WENT_DOWN, needed=Bump.MAJOR, made=None, changes=(cut,)),
            tool("odd", "1.0", "1.1", Status.BAD_VERSION, made=None),
            tool("gone", "3.0.0", None, Status.REMOVED, made=None, owners=()),
        ),
        escalations=(Escalation("beta", ("admin", "write"), ("ann", "bob"), "contracts/beta.json"),),
    )


def test_the_text_report_says_every_fact() -> None:
    assert render(failing(), "text") == "\n".join([
        "toolgen diff: 6 tools compared, 3 changed",
        "",
        "alpha 1.0.0 -> 1.0.1: needs none, made patch: ok",
        "",
        "beta 1.0.0 -> 1.0.0: needs none, made -: ok",
        "  TG407 metadata patch: metadata examples changed",
        "      at   (absent) -> /examples",
        '      was  {"a": "é", "b": 1}',
        f'      now  "{AT_80}"',
        "      hint bump patch",
        "",
        "down 2.0.0 -> 1.9.0: needs major, made -: version went down",
        "  TG432 input major: input `word`: maxLength 9 added",
        "      at   / -> (absent)",
        f'      was  "{PAST_80[:78]}…',
        "      now  (absent)",
        "      hint bump major",
        "",
        "odd 1.0 -> 1.1: needs none, made -: version is not semver",
        "",
        "gone 3.0.0: removed",
        "",
        "Permission escalations (exit 1 unless --allow-escalation):",
        "  beta: gains admin, write; owners: ann, bob",
        "",
        "Removed tools (exit 1 unless --allow-removal):",
        "  gone 3.0.0; owners: (none)",
        "",
        "not compatible (4 problems):",
        "  down: version went down (2.0.0 -> 1.9.0)",
        "  odd: version 1.0 -> 1.1 is not MAJOR.MINOR.PATCH on both sides",
        "  gone: tool removed (pass --allow-removal if intended)",
        "  beta: gains permission admin, write (pass --allow-escalation once reviewed)",
        "",
    ])  # fmt: skip


def test_the_allow_flags_are_named_and_one_problem_is_singular() -> None:
    allowed = Report(failing().tools[-1:], failing().escalations, allow_escalation=True, allow_removal=True)
    text = render(allowed, "text")
    assert "\nPermission escalations (allowed by --allow-escalation):\n" in text
    assert "\nRemoved tools (allowed by --allow-removal):\n" in text
    assert text.endswith("\ncompatible\n")
    one = Report(failing().tools[-1:], allow_removal=False)
    assert render(one, "text").endswith(
        "\nnot compatible (1 problem):\n  gone: tool removed (pass --allow-removal if intended)\n"
    )


def test_the_json_document_keeps_non_ascii_text_as_it_is() -> None:
    text = render(failing(), "json")
    assert '"old": {\n            "b": 1,\n            "a": "é"\n          }' in text  # not \u00e9
    document = json.loads(text)
    assert [t["name"] for t in document["tools"]] == ["alpha", "beta", "down", "odd", "gone"]
    assert document["unchanged"] == 1
    assert document["tools"][2]["changes"][0]["old"] == PAST_80  # JSON carries the whole value
    assert "new" not in document["tools"][2]["changes"][0]


def markdown_report() -> Report:
    tricky = change(message="size -> 9 in `word`", hint="a & b <c> | d\nnext", old="z" * 59, new="w" * 59)
    two = (change(), change(head_pointer="/input_schema/properties/word/minLength", new=1))
    return Report(
        tools=(
            tool("added", None, "1.0.0", Status.ADDED, made=None, changes=(change(),)),  # skipped, not the end
            tool("one", "1.0.0", "2.0.0", Status.OK, needed=Bump.MAJOR, made=Bump.MAJOR, changes=(tricky,)),
            tool("two", "1.0.0", "2.0.0", Status.OK, needed=Bump.MAJOR, made=Bump.MAJOR, changes=two),
        ),
        escalations=(
            Escalation("one", ("admin", "write"), (), "contracts/one.json"),
            Escalation("two", ("admin",), ("ann", "bob"), "contracts/two.json"),
        ),
        allow_escalation=True,
    )


def test_the_markdown_comment_escapes_cells_and_counts_changes() -> None:
    text = render(markdown_report(), "markdown")
    assert text.startswith("## toolgen diff: ✅ compatible\n")
    assert "| `one` | admin, write | (none) |" in text
    assert "| `two` | admin | ann, bob |" in text
    assert "\n### `one`: 1 change\n" in text
    assert "\n### `two`: 2 changes\n" in text
    assert "### `added`" not in text
    row = next(line for line in text.splitlines() if line.startswith("| TG432 | input | size → 9 in "))
    assert f'| `"{"z" * 58}…` → `"{"w" * 58}…` |' in row  # 61 characters: both sides cut to 60
    assert row.endswith("| **major** | a &amp; b &lt;c&gt; \\| d next |")
    assert "| `one` | 1.0.0 → 2.0.0 | major | major | ✅ ok |" in text
    failing_text = render(failing(), "markdown")
    assert failing_text.startswith("## toolgen diff: ❌ not compatible\n")


def test_github_annotations_escape_percent_and_line_breaks() -> None:
    odd = change(message="50% off\rnow", hint="line one\nline two")
    report = Report((tool("p", "1.0.0", "2.0.0", Status.OK, needed=Bump.MAJOR, made=Bump.MAJOR, changes=(odd,)),))
    (line,) = render(report, "github").splitlines()
    assert line == (
        "::warning file=contracts/p.json,title=TG432::p: input 50%25 off%0Dnow (needs major) "
        "[at /input_schema/properties/word/maxLength]%0Aline one%0Aline two"
    )


def test_a_github_error_carries_the_whole_failure_even_when_a_version_holds_a_colon() -> None:
    """A base catalog's version is any string: `1: 0` is reported, not a crash on the failure's lookup."""
    report = Report((tool("odd", "1: 0", "1.1.0", Status.BAD_VERSION, made=None),))
    assert render(report, "github") == (
        "::error file=contracts/odd.json,title=TG404::"
        "odd: version 1: 0 -> 1.1.0 is not MAJOR.MINOR.PATCH on both sides\n"
    )
