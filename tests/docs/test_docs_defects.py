"""The repro of each defect of the docs issue, from a generated page read as a reviewer reads it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.docs_review_support import (
    PARSER,
    build_docs,
    catalog_of,
    docs_project,
    page_fences,
    page_inlines,
    page_section,
    page_tables,
    review_page,
    shapes_tool,
)
from tests.docs_support import plain, write_project
from tests.factory import contract
from toolgen.config import load_settings


@pytest.fixture(scope="module")
def shapes_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = docs_project(tmp_path_factory.mktemp("shapes"), {"shapes": shapes_tool(), "echo_text": contract()})
    return build_docs(root)["shapes.md"]


def _rows(text: str, title: str) -> dict[str, list[str]]:
    tables = page_tables(page_section(PARSER.parse(text), title))
    return {plain(row[0]): [plain(c) for c in row] for row in tables[0][1]}


def test_array_items_map_keys_and_values_are_rows_with_their_constraints(shapes_page: str) -> None:
    rows = _rows(shapes_page, "Parameters")
    assert rows["argv"][4] == "min items 1"
    assert (rows["argv[]"][1], rows["argv[]"][4]) == ("string", "max length 4096")
    assert "key pattern ^[A-Z_][A-Z0-9_]*$" in rows["env"][4] and "key max length 64" in rows["env"][4]
    assert rows["env.*"][1] == "string" and rows["env.*"][4] == "max length 1000"
    assert rows["headers.*"][4] == "key pattern ^X-[A-Za-z-]+$; min length 1"


def test_each_variant_of_one_of_and_any_of_shows_its_fields(shapes_page: str) -> None:
    rows = _rows(shapes_page, "Parameters")
    assert rows["recurrence"][1] == "object (one of 2 variants)"
    assert rows["recurrence (variant 1)"][5].startswith("Weekly")
    assert rows["recurrence (variant 1).weekday"][1:3] == ["integer", "yes"]
    assert rows["recurrence (variant 1).weekday"][4] == ">= 0; <= 6"
    assert rows["recurrence (variant 2).days"][4] == ">= 1; <= 365"
    assert rows["when (variant 1)"][4] == "format date"
    assert rows["when (variant 2)"][4] == ">= 0"


def test_regex_patterns_sit_in_code_spans_and_nothing_is_escaped_needlessly(shapes_page: str) -> None:
    inline = next(t for t in page_inlines(PARSER.parse(shapes_page)) if "key pattern" in t.content)
    assert "^[A-Z_][A-Z0-9_]*$" in [c.content for c in inline.children or () if c.type == "code_inline"]
    parameters = shapes_page.split("## Parameters", 1)[1].split("## Output", 1)[0]
    assert "\\>=" not in shapes_page and "\\<=" not in shapes_page and "\\|" not in parameters
    assert "| `pin` | integer | no |" in shapes_page


def test_a_masked_example_keeps_its_shape_and_types(shapes_page: str) -> None:
    [shown, _] = page_fences(page_section(PARSER.parse(shapes_page), "Examples"))
    assert "s3cr3t-value" not in shapes_page and "4321" not in shapes_page
    assert shown["env"] == {"TOKEN": "***"}
    assert isinstance(shown["pin"], int) and 1000 <= shown["pin"] <= 9999


def test_error_rows_keep_the_authors_words_order_and_mark_inherited_values(shapes_page: str) -> None:
    rows = list(_rows(shapes_page, "Errors").values())
    assert [r[0] for r in rows] == ["UNAVAILABLE", "TIMEOUT", "BUSY"]
    assert rows[0][1] == "yes (standard)" and rows[0][2].startswith("(standard meaning) ")
    assert rows[1][1:] == ["yes (standard)", "Too slow; narrow argv."]
    assert rows[2][1:] == ["yes", "Another run holds the lock."]
    assert "Retry the same call" not in shapes_page and "change the arguments" not in shapes_page


def test_tags_keep_the_authors_order_and_tool_names_link(shapes_page: str) -> None:
    assert "tags: zeta, alpha" in shapes_page
    assert "Schedule a command.\nSoft wrapped on purpose" in shapes_page
    assert shapes_page.count("(echo_text.md)") == 2


def test_a_tool_without_permissions_is_not_called_pure(tmp_path: Path) -> None:
    pages = build_docs(docs_project(tmp_path, {"echo_text": contract(permissions=[])}))
    assert "pure" not in pages["echo_text.md"]
    assert "declares no permissions" in pages["echo_text.md"]


def test_rule_overrides_of_a_contract_are_shown(tmp_path: Path) -> None:
    tool = contract(rules={"TG203": "off"})
    page = build_docs(docs_project(tmp_path, {"echo_text": tool}))["echo_text.md"]
    assert "## Rule overrides" in page and "- [`TG203`](../../docs/rules.md): off (property has no description)" in page


def test_what_the_model_receives_is_one_declaration_then_each_providers_changes(shapes_page: str) -> None:
    section = shapes_page.split("## What the model receives", 1)[1].split("\n## Per provider\n", 1)[0]
    [canonical] = page_fences(PARSER.parse(section))
    assert canonical["name"] == "shapes" and "inputSchema" in canonical and "description" not in canonical
    per_provider = shapes_page.split("\n## Per provider\n", 1)[1].split("\n## ", 1)[0]
    tokens = PARSER.parse(per_provider)
    headings = [plain(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["OpenAI Chat", "OpenAI Responses", "Anthropic", "Gemini"]
    assert [t.info for t in tokens if t.type == "fence"] == ["diff"] * 4
    assert re.search(r"^\| Tokens( \| [\d,]+){5} \|$", per_provider, re.M)
    assert "<details>" not in shapes_page
    hints = " ".join(shapes_page.split()).split("MCP hints, as the MCP declaration states them: ", 1)[1]
    assert hints.startswith("`readOnlyHint`: false, `destructiveHint`: true, `idempotentHint`: true")


def test_the_index_has_a_permission_matrix_and_the_conventions(tmp_path: Path) -> None:
    pages = build_docs(docs_project(tmp_path, {"shapes": shapes_tool(), "echo_text": contract(permissions=["read"])}))
    index = pages["README.md"]
    tables = page_tables(page_section(PARSER.parse(index), "Permissions"))
    header, rows = tables[0]
    assert header == ["Tool", "read", "write", "execute", "network"]
    assert [[plain(c) for c in r] for r in rows] == [["echo_text", "yes", "", "", ""], ["shapes", "", "", "yes", ""]]
    conventions = index.split("## Conventions", 1)[1]
    assert "null" in conventions and "retryable" in conventions and "`details`" in conventions


def test_a_ref_cycle_through_an_optional_branch_or_all_of_ends() -> None:
    from toolgen.render.schema_rows import rows

    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a"}, "b": {"$ref": "#/$defs/b"}},
        "$defs": {
            "a": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]},
            "b": {"allOf": [{"$ref": "#/$defs/b"}, {"minLength": 1}]},
        },
    }
    shown = {r.path: r for r in rows(schema)}
    assert sorted(shown) == ["a", "b"]
    assert [(c.label, c.values) for c in shown["b"].constraints] == [("min length", ("1",))]


@pytest.mark.parametrize(
    "text",
    [
        "ends with a backslash \\\nnext line",
        "two trailing spaces  \nnext line",
        "a wrapped\n---\nline",
        "a wrapped\n===\nline",
        "first\n    indented four\n\tand a tab",
        "text\n1) ordered\n- bullet\n+ plus\n> quote\n# heading\n<div>\n```\n| a | b |\n| --- | --- |",
    ],
)
def test_an_authors_lines_stay_one_soft_wrapped_paragraph(text: str) -> None:
    from toolgen.render import markdown as md

    tokens = PARSER.parse(md.block(text))
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    inline = tokens[1]
    assert not any(c.type == "hardbreak" for c in inline.children or ())
    # one sentence a line: the author's line breaks are joined, as CommonMark renders them
    assert " ".join(plain(inline).split()) == " ".join(text.split())


def test_root_variants_show_which_fields_each_requires(tmp_path: Path) -> None:
    """A root `anyOf` of required sets (id or email): the reader sees both ways to call the tool."""
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"id": {"type": "integer", "minimum": 1}, "email": {"type": "string", "maxLength": 200}},
        "anyOf": [{"required": ["id"]}, {"required": ["email"]}],
    }
    tool = contract("find_user", input_schema=schema, examples=[])
    page = build_docs(docs_project(tmp_path, {"find_user": tool}))["find_user.md"]
    rows = _rows(page, "Parameters")
    assert list(rows) == ["id", "email", "(variant 1)", "(variant 2)"]
    assert rows["(variant 1)"][4] == "requires id" and rows["(variant 2)"][4] == "requires email"
    assert review_page(page, catalog_of(tmp_path)["find_user"]) == []


def test_docs_take_the_providers_projection_instead_of_making_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build of both targets projects the catalog for each provider once; the docs it writes are
    the docs a build of the docs target alone writes (which projects for itself)."""
    from toolgen.pipeline.stages import generate
    from toolgen.render import providers

    calls: list[str] = []
    real = providers.build_with

    def counted(spec: Any, *args: Any) -> Any:
        calls.append(spec.name)
        return real(spec, *args)

    monkeypatch.setattr(providers, "build_with", counted)
    root = write_project(tmp_path, {"shapes": shapes_tool(), "echo_text": contract()}, ["providers", "docs"])
    settings, _ = load_settings(root)
    both = {a.path: a.text for a in generate(settings).artifacts if a.path.startswith("docs/")}
    assert sorted(calls) == ["Anthropic", "Gemini", "MCP", "OpenAI"]
    alone_root = write_project(tmp_path / "alone", {"shapes": shapes_tool(), "echo_text": contract()}, ["docs"])
    alone, _ = load_settings(alone_root)
    assert {a.path: a.text for a in generate(alone).artifacts} == both


def test_a_sensitive_boolean_is_shown_as_a_placeholder_and_never_sent_as_an_example() -> None:
    from toolgen.render.masking import holds_sensitive, mask

    schema = {
        "type": "object",
        "properties": {"admin": {"type": "boolean", "x-sensitive": True}, "n": {"type": "integer"}},
    }
    assert mask({"admin": True, "n": 3}, schema) == {"admin": False, "n": 3}
    assert mask({"admin": False, "n": 3}, schema) == {"admin": False, "n": 3}  # the same whatever the value
    assert holds_sensitive({"admin": False}, schema) and not holds_sensitive({"n": 3}, schema)


def test_token_sizes_do_not_depend_on_an_optional_tokenizer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs are the same bytes whether or not `toolgen[tokens]` is installed."""
    from toolgen.render.providers import stats

    root = docs_project(tmp_path, {"shapes": shapes_tool()})
    plain_pages = build_docs(root)
    monkeypatch.setattr(stats, "_exact_counter", lambda: lambda text: 1)
    shutil.rmtree(root / "generated")
    shutil.rmtree(root / ".toolgen-cache", ignore_errors=True)
    assert build_docs(root) == plain_pages
