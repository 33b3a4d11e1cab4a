"""Contract-level compatibility findings, stated field by field (rule, direction, bump, message, where).

`toolgen diff` prints these findings and gates CI on them: the pointer says where to look in each
version, the message is what a reviewer reads. Written against the surviving mutants of
`benchmarks/mutation.py compat`.
"""

from __future__ import annotations

import re
from typing import Any

from tests.conftest import REPO
from toolgen import rules
from toolgen.catalog import Contract, build_catalog, contract_from_document
from toolgen.compat import ABSENT, Bump, Direction, diff_catalogs, diff_schema
from toolgen.compat.contracts import diff_contract, diff_tool
from toolgen.compat.model import Change
from toolgen.compat.table import DECISIONS
from toolgen.diagnostics import Severity

META, IN, OUT = Direction.METADATA, Direction.INPUT, Direction.OUTPUT


def make(**overrides: Any) -> Contract:
    data: dict[str, Any] = {
        "name": "lookup_word",
        "version": "1.0.0",
        "description": "Look up a word.",
        "permissions": ["read"],
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
    }
    data.update(overrides)
    return contract_from_document(data, f"contracts/{data['name']}.json")


def row(change: Change) -> tuple[Any, ...]:
    return (
        change.rule,
        change.direction,
        change.bump,
        change.message,
        change.base_pointer,
        change.head_pointer,
        change.old,
        change.new,
    )


def rows(base: Contract, head: Contract) -> list[tuple[Any, ...]]:
    return [row(c) for c in diff_contract(base, head)]


def test_documentation_changes_name_the_key() -> None:
    base = make(title="Old", owners=["ann"], tags=["a"])
    head = make(title="New", owners=["bob"], tags=["b"], description="Look up a word, quickly.")
    assert rows(base, head) == [
        ("TG407", META, Bump.PATCH, "description changed", "/description", "/description",
         "Look up a word.", "Look up a word, quickly."),
        ("TG407", META, Bump.PATCH, "owners changed", "/owners", "/owners", ["ann"], ["bob"]),
        ("TG407", META, Bump.PATCH, "tags changed", "/tags", "/tags", ["a"], ["b"]),
        ("TG407", META, Bump.PATCH, "title changed", "/title", "/title", "Old", "New"),
    ]  # fmt: skip


def test_examples_are_compared_by_position() -> None:
    one, two, three = ({"input": {"word": w}} for w in ("a", "b", "c"))
    base = make(examples=[one, two])
    assert rows(base, make(examples=[one, three, three])) == [
        ("TG407", META, Bump.PATCH, "example 2 changed", "/examples/1", "/examples/1", two, three),
        ("TG407", META, Bump.PATCH, "example 3 added", "/examples", "/examples/2", ABSENT, three),
    ]
    assert rows(base, make(examples=[one])) == [
        ("TG407", META, Bump.PATCH, "example 2 removed", "/examples/1", "/examples", two, ABSENT),
    ]
    assert rows(base, make(examples=[two, two])) == [
        ("TG407", META, Bump.PATCH, "example 1 changed", "/examples/0", "/examples/0", one, two),
    ]


def test_permissions_added_and_removed() -> None:
    base, head = make(permissions=["read", "write"]), make(permissions=["read", "network", "execute"])
    added = "added: the tool can now do more than callers granted"
    assert rows(base, head) == [
        ("TG405", META, Bump.MAJOR, f"permission `execute` {added}", "/permissions", "/permissions", ABSENT, "execute"),
        ("TG405", META, Bump.MAJOR, f"permission `network` {added}", "/permissions", "/permissions", ABSENT, "network"),
        ("TG406", META, Bump.MINOR, "permission `write` removed", "/permissions", "/permissions", "write", ABSENT),
    ]  # fmt: skip


def test_deprecation_and_idempotence() -> None:
    assert rows(make(), make(deprecated="Use define.")) == [
        ("TG408", META, Bump.MINOR, "tool deprecated", "/deprecated", "/deprecated", False, "Use define."),
    ]
    assert rows(make(deprecated=True), make()) == [
        ("TG408", META, Bump.MINOR, "tool no longer deprecated", "/deprecated", "/deprecated", True, False),
    ]
    assert rows(make(deprecated="Use a."), make(deprecated="Use b.")) == [
        ("TG407", META, Bump.PATCH, "deprecation message changed", "/deprecated", "/deprecated", "Use a.", "Use b."),
    ]
    assert rows(make(idempotent=True), make()) == [
        ("TG409", META, Bump.MAJOR, "tool is no longer idempotent", "/idempotent", "/idempotent", True, False),
    ]
    assert rows(make(), make(idempotent=True)) == [
        ("TG409", META, Bump.MINOR, "tool became idempotent", "/idempotent", "/idempotent", False, True),
    ]


def test_error_codes_point_at_their_entries() -> None:
    base = make(errors=[{"code": "GONE", "description": "Gone."}, {"code": "TIMEOUT", "description": "Slow."}])
    head = make(errors=[{"code": "BUSY", "description": "Busy."}, {"code": "TIMEOUT", "retryable": False}])
    assert rows(base, head) == [
        ("TG411", OUT, Bump.MINOR, "error code `GONE` removed", "/errors/0", "/errors", "GONE", ABSENT),
        ("TG410", OUT, Bump.MINOR, "error code `BUSY` added", "/errors", "/errors/0", ABSENT, "BUSY"),
        ("TG407", META, Bump.PATCH, "description of error `TIMEOUT` changed", "/errors/1", "/errors/1", "Slow.", ""),
        ("TG412", OUT, Bump.MINOR, "error code `TIMEOUT` retryable changed", "/errors/1", "/errors/1", True, False),
    ]  # fmt: skip


def test_content_kinds_are_judged_as_output() -> None:
    """A kind a result may now carry is one callers must handle (major); a kind removed narrows the output."""
    base = make(content_kinds=["image", "file"])
    head = make(content_kinds=["image", "audio"])
    assert rows(base, head) == [
        ("TG414", OUT, Bump.MINOR, "content kind `file` removed", "/content_kinds/1", "/content_kinds", "file", ABSENT),
        ("TG413", OUT, Bump.MAJOR, "content kind `audio` added: callers may not handle it", "/content_kinds",
         "/content_kinds/1", ABSENT, "audio"),
    ]  # fmt: skip
    assert [r[:3] for r in rows(make(), make(content_kinds=["image"]))] == [("TG413", OUT, Bump.MAJOR)]
    assert [r[:3] for r in rows(make(content_kinds=["audio"]), make())] == [("TG414", OUT, Bump.MINOR)]
    assert rows(make(content_kinds=["image", "file"]), make(content_kinds=["file", "image"])) == []


def test_a_new_content_kind_with_a_minor_bump_is_too_small() -> None:
    tool = diff_tool(make(content_kinds=["image"]), make(version="1.1.0", content_kinds=["image", "audio"]))
    assert (tool.needed, tool.status.value) == (Bump.MAJOR, "bump-too-small")
    assert diff_tool(make(content_kinds=["image"]), make(version="2.0.0", content_kinds=["audio"])).status.value == "ok"


def test_findings_are_in_reading_order_by_place_then_rule() -> None:
    """Sorted by the head pointer (the base one for removals), then the base pointer, then rule."""
    base = make(
        input_schema={"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}},
        permissions=["read", "write"],
    )
    head = make(input_schema={"type": "object", "properties": {"a": {"type": "integer"}}}, permissions=[])
    assert [(c.rule, c.head_pointer, c.base_pointer, c.old) for c in diff_contract(base, head)] == [
        ("TG422", "/input_schema", "/input_schema/properties/b", {"type": "string"}),
        ("TG427", "/input_schema/properties/a/type", "/input_schema/properties/a/type", "string"),
        ("TG406", "/permissions", "/permissions", "read"),
        ("TG406", "/permissions", "/permissions", "write"),
    ]


def test_equal_digests_mean_no_change_and_rules_turned_off_are_left_out() -> None:
    assert diff_contract(make(), make()) == ()
    head = make(version="1.0.1", description="Other.", permissions=["read", "write"])
    ruled = make(version="1.0.1", description="Other.", permissions=["read", "write"], rules={"TG407": "off"})
    assert [c.rule for c in diff_tool(make(), head).changes] == ["TG407", "TG405"]
    assert [c.rule for c in diff_tool(make(), ruled).changes] == ["TG405"]
    assert [c.rule for c in diff_tool(make(), head, frozenset({"TG407", "TG405"})).changes] == ["TG405"]


def test_the_verdicts_of_a_catalog_diff() -> None:
    base = build_catalog([make(), make(name="old_tool"), make(name="same")])
    gains = make(permissions=["read", "network"])
    head = build_catalog([gains, make(name="new_tool", owners=["x"]), make(name="same")])
    report = diff_catalogs(base, head)
    assert [(t.name, t.status.value, t.needed, t.made) for t in report.tools] == [
        ("lookup_word", "bump-too-small", Bump.MAJOR, Bump.NONE),
        ("new_tool", "added", Bump.NONE, None),
        ("old_tool", "removed", Bump.MAJOR, None),
        ("same", "ok", Bump.NONE, Bump.NONE),
    ]
    added, removed = report.tools[1].changes[0], report.tools[2].changes[0]
    assert row(added) == ("TG402", META, Bump.NONE, "tool `new_tool` added", None, "", ABSENT, "1.0.0")
    assert row(removed) == ("TG401", META, Bump.MAJOR, "tool `old_tool` removed", "", None, "1.0.0", ABSENT)
    assert report.tools[1].owners == ("x",) and report.tools[1].source == "contracts/new_tool.json"
    assert [t.name for t in report.changed] == ["lookup_word", "new_tool", "old_tool"]
    assert report.failures == (
        "lookup_word: changes need a major bump, version 1.0.0 -> 1.0.0 is none",
        "old_tool: tool removed (pass --allow-removal if intended)",
        "lookup_word: gains permission network (pass --allow-escalation once reviewed)",
    )
    assert [(e.tool, e.added, e.source) for e in report.escalations] == [
        ("lookup_word", ("network",), "contracts/lookup_word.json")
    ]
    allowed = diff_catalogs(base, head, allow_escalation=True, allow_removal=True)
    assert allowed.failures == ("lookup_word: changes need a major bump, version 1.0.0 -> 1.0.0 is none",)


def test_version_failures_say_what_is_wrong() -> None:
    down = diff_catalogs(build_catalog([make(version="2.0.0")]), build_catalog([make(version="1.9.0")]))
    assert down.failures == ("lookup_word: version went down (2.0.0 -> 1.9.0)",)
    bad = diff_catalogs(build_catalog([make()]), build_catalog([make(version="1.0")]))
    assert bad.failures == ("lookup_word: version 1.0.0 -> 1.0 is not MAJOR.MINOR.PATCH on both sides",)
    assert not diff_catalogs(build_catalog([make()]), build_catalog([make(version="1.0.1")])).failures


def test_anchors_are_resolved_as_refs_wherever_they_are() -> None:
    """`$anchor` and `$dynamicAnchor` name a subschema, also one inside a list (`allOf`)."""
    text = {"type": "string"}
    for keyword in ("$anchor", "$dynamicAnchor"):
        base = {"type": "object", "properties": {"w": text}}
        head = {
            "type": "object",
            "properties": {"w": {"$ref": "#word"}},
            "$defs": {"all": {"allOf": [{"type": "integer"}, {keyword: "word", "type": "string", "maxLength": 3}]}},
        }
        [change] = diff_schema(IN, base, head, "/input_schema", "/input_schema")
        assert (change.rule, change.direction, change.new) == ("TG432", IN, 3), keyword
        assert change.head_pointer == "/input_schema/$defs/all/allOf/1/maxLength", keyword


def _docs_rows() -> dict[str, list[str]]:
    text = (REPO / "docs" / "compatibility.md").read_text(encoding="utf-8")
    return {
        cells[0]: cells
        for cells in ([c.strip() for c in line.strip().strip("|").split(" | ")] for line in text.splitlines())
        if re.fullmatch(r"TG\d{3}", cells[0]) and len(cells) >= 4
    }


def test_every_rule_is_registered_with_the_title_and_severity_the_docs_show() -> None:
    """`toolgen` configuration and `[rules]` severities refer to these; the docs table names them."""
    docs = _docs_rows()
    errors = {"TG401", "TG403", "TG404", "TG405"}
    assert set(DECISIONS) == set(docs)
    for code, decision in DECISIONS.items():
        rule = rules.get(code)
        assert rule is not None, code
        assert (rule.code, rule.title) == (code, decision.title), code
        assert rule.severity is (Severity.ERROR if code in errors else Severity.WARNING), code
        assert docs[code][2] == decision.title.replace("|", "\\|"), code
        assert decision.code == code and decision.hint, code


def test_hints_per_direction() -> None:
    """Schema rules give a hint per direction; tool rules one hint, in the docs table's last cell."""
    docs = _docs_rows()
    for code, decision in DECISIONS.items():
        if decision.output_hint:
            assert decision.advice(OUT) == decision.output_hint and decision.advice(IN) == decision.hint
        if decision.output_hint and decision.output_hint != decision.hint:
            assert docs[code][-1] == f"input: {decision.hint} output: {decision.output_hint}", code
        elif decision.output_hint:
            assert docs[code][-1] == decision.hint, code
        else:
            assert decision.advice(OUT) == decision.advice(META) == decision.hint
            assert docs[code][-1] == decision.hint, code
    assert DECISIONS["TG409"].bump(META) is Bump.MAJOR, "no cell: fail closed"
    assert DECISIONS["TG420"].bump(META) is Bump.MAJOR and DECISIONS["TG420"].bump(IN) is Bump.MINOR


def test_rules_the_project_turned_off_are_left_out_of_a_catalog_diff() -> None:
    base, head = build_catalog([make()]), build_catalog([make(version="1.0.1", description="Other.", tags=["t"])])
    assert [c.rule for c in diff_catalogs(base, head).tools[0].changes] == ["TG407", "TG407"]
    assert diff_catalogs(base, head, off=frozenset({"TG407"})).tools[0].changes == ()


def test_changes_are_listed_by_their_place_in_the_head_then_in_the_base() -> None:
    """A removed `timeout_ms` has no place in the head: it is listed at its base place, between
    `/description` and `/title`, not first."""
    base = make(timeout_ms=5000, title="Old")
    head = make(description="Look up a word, quickly.", title="New")
    assert [(c.rule, c.base_pointer, c.head_pointer) for c in diff_contract(base, head)] == [
        ("TG407", "/description", "/description"),
        ("TG241", "/timeout_ms", ""),
        ("TG407", "/title", "/title"),
    ]


def test_changes_at_one_head_place_are_ordered_by_their_base_place_before_their_rule() -> None:
    schema = {"type": "object", "maxProperties": 3, "properties": {"z": {"type": "string"}}}
    base, head = make(input_schema=schema), make(input_schema={"type": "object"})
    assert [(c.rule, c.base_pointer, c.head_pointer) for c in diff_contract(base, head)] == [
        ("TG431", "/input_schema/maxProperties", "/input_schema"),
        ("TG422", "/input_schema/properties/z", "/input_schema"),
    ]


def test_a_timeout_change_says_which_way_with_both_values_and_places() -> None:
    """TG241: lowered or added is minor (calls that finished in time may now time out), raised or
    removed is patch; the side without a `timeout_ms` has the tool itself as its place."""
    cases = [
        (5000, 2000, Bump.MINOR, "timeout_ms lowered: 5000 -> 2000", ("/timeout_ms", "/timeout_ms"), (5000, 2000)),
        (2000, 5000, Bump.PATCH, "timeout_ms raised: 2000 -> 5000", ("/timeout_ms", "/timeout_ms"), (2000, 5000)),
        (None, 3000, Bump.MINOR, "timeout_ms lowered: none -> 3000", ("", "/timeout_ms"), (ABSENT, 3000)),
        (3000, None, Bump.PATCH, "timeout_ms raised: 3000 -> none", ("/timeout_ms", ""), (3000, ABSENT)),
    ]
    for old, new, bump, message, at, values in cases:
        base = make(**({} if old is None else {"timeout_ms": old}))
        head = make(**({} if new is None else {"timeout_ms": new}))
        assert rows(base, head) == [("TG241", META, bump, message, *at, *values)], (old, new)
    assert rows(make(timeout_ms=3000), make(timeout_ms=3000)) == []


def test_a_standard_error_declared_on_one_side_only_has_no_description_on_the_other() -> None:
    """`NOT_FOUND` may be returned undeclared; declaring it documents it: the undeclared side shows
    `(absent)`, not `null`."""
    implied, declared = make(), make(errors=[{"code": "NOT_FOUND", "description": "No such word."}])
    assert rows(implied, declared) == [
        ("TG407", META, Bump.PATCH, "description of error `NOT_FOUND` changed", "/errors", "/errors/0",
         ABSENT, "No such word."),
    ]  # fmt: skip
    assert rows(declared, implied) == [
        ("TG407", META, Bump.PATCH, "description of error `NOT_FOUND` changed", "/errors/0", "/errors",
         "No such word.", ABSENT),
    ]  # fmt: skip
