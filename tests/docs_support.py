"""Helpers for the docs and mocks tests: edge-case catalogs and a Markdown reader that checks structure."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.factory import contract

HOSTILE = (
    "pipe | split <b>bold</b> <script>alert(1)</script> &amp; & ``` fence ` tick \\ back "
    "[link](http://example.com) *em* _u_ ~~s~~ <!-- c --> {{ x }} {% if %}"
)
"""One line of text that tries every way to break out of a Markdown table cell or paragraph."""

HOSTILE_LINES = "# not a heading\n- not | a list\n    not code\n```\nnot a fence\n---\n1. not ordered\n> not quoted"
"""Lines that would start Markdown blocks if they were pasted raw."""

SECRET = "sk-live-0123456789abcdef"
"""A value of a sensitive property: must never appear in the docs."""


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": properties}
    if required:
        schema["required"] = required
    return schema


def hostile_tool() -> dict[str, Any]:
    """A tool whose every text field is hostile, with nested objects, arrays of objects and `$ref`s."""
    item = _obj({"start": {"type": "integer", "minimum": 1, "description": f"First line. {HOSTILE}"}}, ["start"])
    schema = _obj(
        {
            "path|`x`": {"type": "string", "description": f"{HOSTILE}\n{HOSTILE_LINES}", "pattern": "^[^|`]+$"},
            "token": {"type": "string", "x-sensitive": True, "description": "API token."},
            "options": _obj(
                {
                    "encoding": {"enum": ["utf-8", "a|b"], "default": "utf-8", "description": "Encoding."},
                    "auth": _obj({"password": {"type": "string", "x-sensitive": True, "description": "Password."}}),
                },
            )
            | {"description": "Options."},
            "ranges": {"type": "array", "items": {"$ref": "#/$defs/range"}, "description": "Ranges."},
            "tree": {"$ref": "#/$defs/node", "description": "A recursive tree."},
        },
        ["path|`x`"],
    )
    schema["$defs"] = {
        "range": item,
        "node": _obj({"name": {"type": "string", "description": "Name."}, "child": {"$ref": "#/$defs/node"}}),
    }
    return contract(
        "hostile_tool",
        title=HOSTILE,
        description=f"Read a file. {HOSTILE}\n\n{HOSTILE_LINES}",
        permissions=["read", "network"],
        idempotent=False,
        owners=["@team|a", "<b>x</b>"],
        tags=["files", "z|last"],
        deprecated=f"Use `other` instead. {HOSTILE}",
        input_schema=schema,
        output_schema=_obj({"content": {"type": "string", "description": HOSTILE}}, ["content"]),
        errors=[
            {"code": "TOO_LARGE", "description": HOSTILE, "retryable": False},
            {"code": "TIMEOUT", "description": "Slow disk."},
        ],
        examples=[
            {
                "title": HOSTILE,
                "input": {"path|`x`": "README.md", "token": SECRET, "options": {"auth": {"password": SECRET}}},
                "output": {"content": "```\n" + HOSTILE},
            },
            {"input": {"path|`x`": "missing"}, "error": {"code": "NOT_FOUND", "message": HOSTILE}},
        ],
    )


def edge_catalog() -> dict[str, dict[str, Any]]:
    """The golden-file catalog: the hostile tool, a bare tool, an untagged deprecated one."""
    bare = contract("bare_tool", examples=[], tags=["files"])
    bare["input_schema"] = {"type": "object", "additionalProperties": False}
    del bare["output_schema"]
    old = contract("old_tool", deprecated=True)
    return {"hostile_tool": hostile_tool(), "bare_tool": bare, "old_tool": old}


def write_project(root: Path, contracts: dict[str, dict[str, Any]], targets: list[str]) -> Path:
    """A project at `root` holding `contracts` as JSON files and building only `targets`."""
    (root / "contracts").mkdir(parents=True, exist_ok=True)
    for name, data in contracts.items():
        (root / "contracts" / f"{name}.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    listed = ", ".join(json.dumps(t) for t in targets)
    (root / "toolgen.toml").write_text(f'targets = [{listed}]\n\n[rules]\nTG301 = "warning"\n', encoding="utf-8")
    return root


@dataclass
class Page:
    """A parsed Markdown page: its tables (header + rows of cell text), headings, fences and HTML."""

    tables: list[tuple[list[str], list[list[str]]]] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    fences: list[tuple[str, str]] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    rendered: str = ""


def plain(inline: Token) -> str:
    """The text a reader sees in an inline token: escapes resolved, code spans as their content."""
    out = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline", "html_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return "".join(out)


@functools.cache
def _parser() -> MarkdownIt:
    """One CommonMark + tables parser for every page (building one per page is most of the cost)."""
    return MarkdownIt("commonmark").enable("table")


def parse(text: str) -> Page:
    """Parse `text` with markdown-it-py (CommonMark + tables) and collect its structure."""
    md = _parser()
    tokens = md.parse(text)
    page = Page(rendered=md.renderer.render(tokens, md.options, {}))
    row: list[str] | None = None
    header: list[str] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            page.headings.append((int(token.tag[1]), plain(tokens[index + 1])))
        elif token.type in ("fence", "code_block"):
            page.fences.append((token.info, token.content))
        elif token.type == "html_block" or any(c.type == "html_inline" for c in token.children or ()):
            page.html.append(token.content)
        elif token.type == "table_open":
            header = []
            page.tables.append((header, []))
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open") and row is not None:
            row.append(plain(tokens[index + 1]))
        elif token.type == "tr_close" and row is not None:
            if not header:
                header.extend(row)
            else:
                page.tables[-1][1].append(row)
            row = None
    return page
