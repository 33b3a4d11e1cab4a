"""The docs read back as a reviewer reads them: nothing invented, nothing hidden.

`review_page` parses a generated page with markdown-it-py and checks it against its contract: every
constraint of every subschema appears in a table, every example parses and validates against its
schema after masking, no prose line ends with a forced break, every error row's text comes from the
contract (or is marked as toolgen's), in the author's order. It runs over the repo's own contracts
and the golden catalogs; the tests below it are the repro of each defect of the docs issue.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.conftest import REPO
from tests.docs_support import edge_catalog, plain, write_project
from tests.factory import contract
from toolgen.build.pipeline import load_catalog
from toolgen.catalog import STANDARD_ERROR_MEANINGS, Contract
from toolgen.cli import main
from toolgen.config import load_settings

LABELS = {
    "minLength": "min length",
    "maxLength": "max length",
    "minimum": ">=",
    "exclusiveMinimum": ">",
    "maximum": "<=",
    "exclusiveMaximum": "<",
    "multipleOf": "multiple of",
    "minItems": "min items",
    "maxItems": "max items",
    "minProperties": "min properties",
    "maxProperties": "max properties",
}
"""How each numeric constraint reads in the docs: the label, then the number."""

_PARSER = MarkdownIt("commonmark").enable("table")


# ---- the reviewer's checks -------------------------------------------------------------------


def _subschemas(
    schema: Any, root: Mapping[str, Any], refs: frozenset[str] = frozenset()
) -> Iterator[Mapping[str, Any]]:
    """Every subschema a value of `schema` can meet, `$ref`s followed once."""
    if not isinstance(schema, Mapping):
        return
    yield schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and ref not in refs:
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, Mapping) else None
        yield from _subschemas(target, root, refs | {ref})
    for key in ("properties", "patternProperties"):
        for child in (schema.get(key) or {}).values():
            yield from _subschemas(child, root, refs)
    for key in ("items", "additionalProperties", "propertyNames"):
        yield from _subschemas(schema.get(key), root, refs)
    for key in ("prefixItems", "anyOf", "oneOf", "allOf"):
        for child in schema.get(key) or ():
            yield from _subschemas(child, root, refs)


def expected_constraints(schema: Mapping[str, Any] | None) -> set[str]:
    """Each constraint of each subschema as the text a reader must find in a constraints cell."""
    found: set[str] = set()
    for sub in _subschemas(schema, schema or {}):
        for key, label in LABELS.items():
            if isinstance(sub.get(key), int | float) and not isinstance(sub.get(key), bool):
                found.add(f"{label} {json.dumps(sub[key])}")
        if isinstance(sub.get("pattern"), str):
            found.add(f"pattern {sub['pattern']}")
        if isinstance(sub.get("format"), str):
            found.add(f"format {sub['format']}")
        for value in sub.get("enum") or ():
            found.add(json.dumps(value, ensure_ascii=False))
        if "const" in sub:
            found.add(json.dumps(sub["const"], ensure_ascii=False))
    return found


def _inlines(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.type == "inline":
            yield token


def _tables(tokens: list[Token]) -> list[tuple[list[str], list[list[Token]]]]:
    """Each table: header texts, then each row's inline tokens."""
    tables: list[tuple[list[str], list[list[Token]]]] = []
    row: list[Token] | None = None
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append(([], []))
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open") and row is not None:
            row.append(tokens[index + 1])
        elif token.type == "tr_close" and row is not None:
            header, rows = tables[-1]
            if header:
                rows.append(row)
            else:
                header.extend(plain(t) for t in row)
            row = None
    return tables


def _section(tokens: list[Token], title: str) -> list[Token]:
    """The tokens between the level-2 heading `title` and the next level-2 heading."""
    out: list[Token] = []
    inside = False
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            inside = plain(tokens[index + 1]) == title
        elif inside:
            out.append(token)
    return out


def _fences(tokens: list[Token]) -> list[Any]:
    return [json.loads(t.content) for t in tokens if t.type == "fence" and t.info == "json"]


def _fold(text: str) -> str:
    return " ".join(text.split())


def review_page(text: str, tool: Contract) -> list[str]:
    """What a reviewer would find wrong in `text`, the page of `tool`; empty when it holds up."""
    tokens = _PARSER.parse(text)
    problems: list[str] = []
    for inline in _inlines(tokens):
        if any(c.type == "hardbreak" for c in inline.children or ()):
            problems.append(f"a forced line break in {inline.content[:60]!r}")
    for title, schema in (("Parameters", tool.input_schema), ("Output", tool.output_schema)):
        cells = " | ".join(
            plain(row[header.index("Constraints")])
            for header, rows in _tables(_section(tokens, title))
            if "Constraints" in header
            for row in rows
        )
        for wanted in sorted(expected_constraints(schema)):
            if wanted not in cells:
                problems.append(f"{title}: the constraint {wanted!r} is not shown")
    problems += _review_examples(tokens, tool)
    problems += _review_errors(tokens, tool)
    return problems


def _review_examples(tokens: list[Token], tool: Contract) -> list[str]:
    problems: list[str] = []
    fences = _fences(_section(tokens, "Examples"))
    wanted = sum(1 + (e.output is not None or e.error is not None) for e in tool.examples)
    if len(fences) != wanted:
        return [f"{len(fences)} example blocks shown for {wanted}"]
    shown = iter(fences)
    for index, example in enumerate(tool.examples, start=1):
        pairs = [(next(shown), tool.input_schema, "input")]
        if example.output is not None:
            pairs.append((next(shown), tool.output_schema, "output"))
        elif example.error is not None:
            next(shown)
        for value, schema, part in pairs:
            if schema is None:
                continue
            validator = jsonschema.Draft202012Validator(json.loads(json.dumps(_thawed(schema))))
            for error in validator.iter_errors(value):
                problems.append(f"example {index} {part} after masking: {error.message}")
    return problems


def _thawed(value: Any) -> Any:
    from toolgen.frozen import thaw

    return thaw(value)


def _review_errors(tokens: list[Token], tool: Contract) -> list[str]:
    problems: list[str] = []
    tables = _tables(_section(tokens, "Errors"))
    if not tool.errors:
        return [] if not tables else ["an errors table for a tool that declares none"]
    if not tables:
        return ["no errors table"]
    header, rows = tables[0]
    if header != ["Code", "Retryable", "Meaning"]:
        return [f"the errors table has the columns {header}"]
    declared = {e.code: e for e in tool.errors}
    codes = [plain(r[0]) for r in rows]
    if codes != list(tool.error_order):
        problems.append(f"errors shown in the order {codes}, declared {list(tool.error_order)}")
    for code, row in zip(codes, rows, strict=True):
        error = declared[code]
        retryable, meaning = plain(row[1]), _fold(plain(row[2]))
        flag = "yes" if error.retryable else "no"
        if retryable != (f"{flag} (standard)" if error.inherited else flag):
            problems.append(f"{code}: retryable shown as {retryable!r}")
        if error.description:
            if _fold(meaning.replace("`", "")) != _fold(error.description.replace("`", "")):
                problems.append(f"{code}: meaning {meaning!r} is not the contract's")
        elif meaning != f"(standard meaning) {STANDARD_ERROR_MEANINGS.get(code, '')}".strip():
            problems.append(f"{code}: meaning {meaning!r} is neither the contract's nor marked as standard")
    return problems


# ---- building pages --------------------------------------------------------------------------


def _build(root: Path) -> dict[str, str]:
    result = CliRunner().invoke(main, ["-C", str(root), "build"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    folder = root / "generated" / "docs"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def _catalog(root: Path) -> dict[str, Contract]:
    settings, problems = load_settings(root)
    assert not problems, problems
    catalog, found, _ = load_catalog(settings)
    assert catalog is not None, found
    return {c.name: c for c in catalog}


def _reviewed(root: Path) -> dict[str, list[str]]:
    pages = _build(root)
    return {name: review_page(pages[f"{name}.md"], tool) for name, tool in _catalog(root).items()}


def _project(root: Path, contracts: dict[str, dict[str, Any]]) -> Path:
    return write_project(root, contracts, ["docs"])


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(REPO / "contracts", root / "contracts")
    (root / "toolgen.toml").write_text('targets = ["docs"]\n', encoding="utf-8")
    return root


def test_every_page_of_the_repo_catalog_holds_up_to_review(repo_copy: Path) -> None:
    reviewed = _reviewed(repo_copy)
    assert len(reviewed) == 14
    assert {name: found for name, found in reviewed.items() if found} == {}


def test_the_repo_generated_docs_hold_up_to_review() -> None:
    tools = _catalog(REPO)
    for name, tool in tools.items():
        text = (REPO / "generated" / "docs" / f"{name}.md").read_text(encoding="utf-8")
        assert review_page(text, tool) == [], name


def _golden_catalogs() -> dict[str, dict[str, dict[str, Any]]]:
    from tests.python_support import basic_contracts, hostile_contracts, secret_contract

    return {
        "docs": edge_catalog(),
        "python-basic": basic_contracts(),
        "python-hostile": hostile_contracts(),
        "secret": {"secret_store": secret_contract()},
        "mixed": {"shapes": shapes_tool()},
    }


@pytest.mark.parametrize("catalog", ["docs", "mixed", "python-basic", "python-hostile", "secret"])
def test_every_page_of_the_golden_catalogs_holds_up_to_review(tmp_path: Path, catalog: str) -> None:
    reviewed = _reviewed(_project(tmp_path, _golden_catalogs()[catalog]))
    assert {name: found for name, found in reviewed.items() if found} == {}


def test_the_provider_edge_project_holds_up_to_review(tmp_path: Path) -> None:
    shutil.copytree(REPO / "tests" / "data" / "providers" / "edge_project", tmp_path, dirs_exist_ok=True)
    text = (tmp_path / "toolgen.toml").read_text(encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text(re.sub(r"(?m)^targets\s*=.*$", 'targets = ["docs"]', text), encoding="utf-8")
    reviewed = _reviewed(tmp_path)
    assert reviewed and {name: found for name, found in reviewed.items() if found} == {}


def test_the_reviewer_check_finds_what_it_looks_for() -> None:
    """The checker itself: a hidden constraint, a forced break, an invented meaning are each found."""
    tool = next(iter(_catalog(REPO).values()))
    assert any("forced line break" in p for p in review_page("# x\n\nline one\\\nline two\n", tool))
    assert any("is not shown" in p for p in review_page("# x\n", tool)) or not expected_constraints(tool.input_schema)
    errors = "## Errors\n\n| Code | Retryable | Meaning |\n| --- | --- | --- |\n"
    errors += "".join(f"| {c} | maybe | Change the arguments. |\n" for c in tool.error_order)
    found = review_page(errors, tool)
    assert tool.errors and any("retryable shown as 'maybe'" in p for p in found)
    assert any("is not the contract's" in p or "marked as standard" in p for p in found)


# ---- the repro of each defect -----------------------------------------------------------------


def shapes_tool() -> dict[str, Any]:
    """Maps with key and value schemas, arrays of scalars, variants of objects, inherited retryable."""
    recurrence = {
        "description": "When the event repeats.",
        "oneOf": [
            {
                "type": "object",
                "title": "Weekly",
                "additionalProperties": False,
                "required": ["weekday"],
                "properties": {
                    "weekday": {"type": "integer", "minimum": 0, "maximum": 6, "description": "0 is Monday."}
                },
            },
            {
                "type": "object",
                "title": "Every n days",
                "additionalProperties": False,
                "required": ["days"],
                "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 365}},
            },
        ],
    }
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["argv"],
        "properties": {
            "argv": {"type": "array", "minItems": 1, "items": {"type": "string", "maxLength": 4096}},
            "env": {
                "type": "object",
                "x-sensitive": True,
                "maxProperties": 8,
                "propertyNames": {"pattern": "^[A-Z_][A-Z0-9_]*$", "maxLength": 64},
                "additionalProperties": {"type": "string", "maxLength": 1000},
            },
            "headers": {"type": "object", "patternProperties": {"^X-[A-Za-z-]+$": {"type": "string", "minLength": 1}}},
            "pin": {"type": "integer", "minimum": 1000, "maximum": 9999, "x-sensitive": True},
            "recurrence": recurrence,
            "when": {"anyOf": [{"type": "string", "format": "date"}, {"type": "integer", "minimum": 0}]},
        },
    }
    return contract(
        "shapes",
        description="Schedule a command.\nSoft wrapped on purpose; see `echo_text` or echo_text.",
        permissions=["execute"],
        tags=["zeta", "alpha"],
        input_schema=schema,
        output_schema={"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        errors=[
            {"code": "UNAVAILABLE", "description": ""},
            {"code": "TIMEOUT", "description": "Too slow; narrow `argv`."},
            {"code": "BUSY", "description": "Another run holds the lock.", "retryable": True},
        ],
        examples=[
            {
                "title": "Weekly with a secret",
                "input": {
                    "argv": ["make"],
                    "env": {"TOKEN": "s3cr3t-value"},
                    "pin": 4321,
                    "recurrence": {"weekday": 2},
                },
                "output": {"id": "r-1"},
            }
        ],
    )


@pytest.fixture(scope="module")
def shapes_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = _project(tmp_path_factory.mktemp("shapes"), {"shapes": shapes_tool(), "echo_text": contract()})
    return _build(root)["shapes.md"]


def _rows(text: str, title: str) -> dict[str, list[str]]:
    tables = _tables(_section(_PARSER.parse(text), title))
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
    inline = next(t for t in _inlines(_PARSER.parse(shapes_page)) if "key pattern" in t.content)
    assert "^[A-Z_][A-Z0-9_]*$" in [c.content for c in inline.children or () if c.type == "code_inline"]
    parameters = shapes_page.split("## Parameters", 1)[1].split("## Output", 1)[0]
    assert "\\>=" not in shapes_page and "\\<=" not in shapes_page and "\\|" not in parameters
    assert "| `pin` | integer | no |" in shapes_page


def test_a_masked_example_keeps_its_shape_and_types(shapes_page: str) -> None:
    [shown, _] = _fences(_section(_PARSER.parse(shapes_page), "Examples"))
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
    pages = _build(_project(tmp_path, {"echo_text": contract(permissions=[])}))
    assert "pure" not in pages["echo_text.md"]
    assert "declares no permissions" in pages["echo_text.md"]


def test_rule_overrides_of_a_contract_are_shown(tmp_path: Path) -> None:
    tool = contract(rules={"TG203": "off"})
    page = _build(_project(tmp_path, {"echo_text": tool}))["echo_text.md"]
    assert "## Rule overrides" in page and "`TG203`: off" in page


def test_what_the_model_receives_is_shown_per_provider_collapsed(shapes_page: str) -> None:
    section = shapes_page.split("## What the model receives", 1)[1]
    tokens = _PARSER.parse(section)
    blocks = [t.content for t in tokens if t.type == "html_block"]
    assert sum(b.startswith("<details>") for b in blocks) == 5
    summaries = re.findall(r"<summary>(.*?)</summary>", section)
    assert [s.split(":")[0] for s in summaries] == ["OpenAI Chat", "OpenAI Responses", "Anthropic", "Gemini", "MCP"]
    assert all(re.search(r"\d+ tokens", s) for s in summaries)
    declarations = _fences(tokens)
    assert declarations[0]["type"] == "function" and declarations[0]["function"]["name"] == "shapes"
    assert declarations[4]["name"] == "shapes" and "inputSchema" in declarations[4]
    assert "Risk hints, as MCP receives them (derived from the permissions and `idempotent`): " in shapes_page
    assert "): destructive, idempotent, closed world." in shapes_page


def test_the_index_has_a_permission_matrix_and_the_conventions(tmp_path: Path) -> None:
    pages = _build(_project(tmp_path, {"shapes": shapes_tool(), "echo_text": contract(permissions=["read"])}))
    index = pages["README.md"]
    tables = _tables(_section(_PARSER.parse(index), "Permissions"))
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

    tokens = _PARSER.parse(md.block(text))
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    inline = tokens[1]
    assert not any(c.type == "hardbreak" for c in inline.children or ())
    assert plain(inline).split("\n") == [line.strip() for line in text.split("\n")]


def test_root_variants_show_which_fields_each_requires(tmp_path: Path) -> None:
    """A root `anyOf` of required sets (id or email): the reader sees both ways to call the tool."""
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"id": {"type": "integer", "minimum": 1}, "email": {"type": "string", "maxLength": 200}},
        "anyOf": [{"required": ["id"]}, {"required": ["email"]}],
    }
    tool = contract("find_user", input_schema=schema, examples=[])
    page = _build(_project(tmp_path, {"find_user": tool}))["find_user.md"]
    rows = _rows(page, "Parameters")
    assert list(rows) == ["id", "email", "(variant 1)", "(variant 2)"]
    assert rows["(variant 1)"][4] == "requires id" and rows["(variant 2)"][4] == "requires email"
    assert review_page(page, _catalog(tmp_path)["find_user"]) == []


def test_docs_take_the_providers_projection_instead_of_making_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build of both targets projects the catalog for each provider once; the docs it writes are
    the docs a build of the docs target alone writes (which projects for itself)."""
    from toolgen.build.pipeline import generate
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

    root = _project(tmp_path, {"shapes": shapes_tool()})
    plain_pages = _build(root)
    monkeypatch.setattr(stats, "_exact_counter", lambda: (lambda text: 1))
    shutil.rmtree(root / "generated")
    shutil.rmtree(root / ".toolgen-cache", ignore_errors=True)
    assert _build(root) == plain_pages
