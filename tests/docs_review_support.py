"""The reviewer's reading of a generated docs page, shared by the docs review tests.

`review_page` parses a generated page with markdown-it-py and checks it against its contract: every
constraint of every subschema appears in a table, every example parses and validates against its
schema after masking, no prose line ends with a forced break, every error row's text comes from the
contract (or is marked as toolgen's), in the author's order. `shapes_tool` is the contract whose page
holds every shape the docs issue found wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.docs_support import plain, write_project
from tests.factory import contract
from toolgen.catalog import STANDARD_ERROR_MEANINGS, STANDARD_ERRORS, Contract
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.pipeline.stages import load_catalog

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

PARSER = MarkdownIt("commonmark").enable("table")


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


def page_inlines(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.type == "inline":
            yield token


def page_tables(tokens: list[Token]) -> list[tuple[list[str], list[list[Token]]]]:
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


def page_section(tokens: list[Token], title: str) -> list[Token]:
    """The tokens between the level-2 heading `title` and the next level-2 heading."""
    out: list[Token] = []
    inside = False
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            inside = plain(tokens[index + 1]) == title
        elif inside:
            out.append(token)
    return out


def page_fences(tokens: list[Token]) -> list[Any]:
    return [json.loads(t.content) for t in tokens if t.type == "fence" and t.info == "json"]


def _fold(text: str) -> str:
    return " ".join(text.split())


def review_page(text: str, tool: Contract) -> list[str]:
    """What a reviewer would find wrong in `text`, the page of `tool`; empty when it holds up."""
    tokens = PARSER.parse(text)
    problems: list[str] = []
    for inline in page_inlines(tokens):
        if any(c.type == "hardbreak" for c in inline.children or ()):
            problems.append(f"a forced line break in {inline.content[:60]!r}")
    for title, schema in (("Parameters", tool.input_schema), ("Output", tool.output_schema)):
        cells = " | ".join(
            plain(row[header.index("Constraints")])
            for header, rows in page_tables(page_section(tokens, title))
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
    fences = page_fences(page_section(tokens, "Examples"))
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
    tables = page_tables(page_section(tokens, "Errors"))
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
        standard = STANDARD_ERRORS.get(code)
        if error.inherited:
            flag += " (standard)"
        elif standard is not None and standard != error.retryable:
            flag += f" (the standard is {'yes' if standard else 'no'})"  # an override is marked
        if retryable != flag:
            problems.append(f"{code}: retryable shown as {retryable!r}")
        if error.description:
            if _fold(meaning.replace("`", "")) != _fold(error.description.replace("`", "")):
                problems.append(f"{code}: meaning {meaning!r} is not the contract's")
        elif meaning != f"(standard meaning) {STANDARD_ERROR_MEANINGS.get(code, '')}".strip():
            problems.append(f"{code}: meaning {meaning!r} is neither the contract's nor marked as standard")
    return problems


# ---- building pages --------------------------------------------------------------------------


def build_docs(root: Path) -> dict[str, str]:
    result = CliRunner().invoke(main, ["-C", str(root), "build"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    folder = root / "generated" / "docs"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def catalog_of(root: Path) -> dict[str, Contract]:
    settings, problems = load_settings(root)
    assert not problems, problems
    catalog, found, _ = load_catalog(settings)
    assert catalog is not None, found
    return {c.name: c for c in catalog}


def reviewed_pages(root: Path) -> dict[str, list[str]]:
    pages = build_docs(root)
    return {name: review_page(pages[f"{name}.md"], tool) for name, tool in catalog_of(root).items()}


def docs_project(root: Path, contracts: dict[str, dict[str, Any]]) -> Path:
    return write_project(root, contracts, ["docs"])


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
