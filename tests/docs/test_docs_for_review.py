"""Docs pages built for review in a pull request (issue 31).

The contract's words and tables first; then one canonical declaration (the MCP one) and, per
provider, only what differs from it, complete: applying the listed changes to the canonical
declaration gives exactly the provider file's entry. Rule codes carry their meaning and a link,
overridden standard `retryable`s are marked, nothing is cut with "...", and the page stays small:
the per-provider part at most a third of it, prose lines at most 100 characters, a one-word change
of a description touching its own line and at most the row of token counts (measured by `benchmarks.docs_pages`).
"""

from __future__ import annotations

import json
import re
import shutil
from typing import Any

import pytest

from benchmarks import docs_pages
from tests.conftest import REPO
from tests.docs_review_support import PARSER, catalog_of
from toolgen import rules
from toolgen.catalog import Contract
from toolgen.config import load_settings
from toolgen.pipeline.stages import generate
from toolgen.render.docs import PROVIDER_LABELS

Built = tuple[dict[str, str], dict[str, dict[str, Any]], dict[str, Contract]]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(REPO / "contracts", root / "contracts")
    (root / "toolgen.toml").write_text('targets = ["providers", "docs"]\n', encoding="utf-8")
    settings, _ = load_settings(root)
    files = {a.path: a.text for a in generate(settings).artifacts}
    pages = {p.removeprefix("docs/").removesuffix(".md"): t for p, t in files.items() if p.startswith("docs/")}
    entries: dict[str, dict[str, Any]] = {}
    for file in PROVIDER_LABELS:
        entries[file] = {_name(e): e for e in _tools(json.loads(files[f"providers/{file}"]))}
    return pages, entries, catalog_of(root)


def _tools(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, dict):
        if "tools" in document:
            return _tools(document["tools"])
        if "functionDeclarations" in document:
            return list(document["functionDeclarations"])
        return [document]
    out: list[dict[str, Any]] = []
    for item in document:
        out.extend(_tools(item) if "functionDeclarations" in item or "tools" in item else [item])
    return out


def _name(entry: dict[str, Any]) -> str:
    return str(entry.get("name") or entry["function"]["name"])


def _section(page: str, title: str) -> str:
    return page.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _pointer(path: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


def _apply(declaration: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """The canonical declaration with a provider's listed changes applied (moves, removals, additions)."""
    out = json.loads(json.dumps(declaration))

    def parent(path: str) -> tuple[dict[str, Any], str]:
        *head, last = _pointer(path)
        node = out
        for part in head:
            node = node.setdefault(part, {})
        return node, last

    for line in lines:
        if line.startswith("  "):
            source, target = line[2:].split(" -> ")
            node, key = parent(source)
            value = node.pop(key)
            node, key = parent(target)
            node[key] = value
    where = ""
    for line in lines:
        if line.startswith("@@ "):
            where = line[3:-3].rstrip("/")
        elif line.startswith("- "):
            node, key = parent(f"{where}/{line[2:]}")
            del node[key]
        elif line.startswith("+ "):
            found = re.match(r"\+ (\S+)(?: \+= |: )(.*)$", line)
            assert found is not None, line
            node, key = parent(f"{where}/{found.group(1)}")
            value = json.loads(found.group(2))
            node[key] = node[key] + value if " += " in line[: found.start(2)] else value
    return out


def test_each_provider_declaration_is_the_canonical_one_with_its_listed_changes(built: Built) -> None:
    pages, entries, tools = built
    for name, page in pages.items():
        if name == "README":
            continue
        section = _section(page, "What the model receives")
        assert "word for word" in section, name
        [canonical] = [json.loads(t.content) for t in PARSER.parse(section) if t.type == "fence" and t.info == "json"]
        mcp = entries["mcp.json"][name]
        assert " ".join(tools[name].description.split()) in " ".join(mcp["description"].split())
        assert "description" not in canonical
        assert {**canonical, "description": mcp["description"]} == mcp, name
        per_provider = _section(page, "Per provider")
        for file, label in PROVIDER_LABELS.items():
            if file == "mcp.json" or name not in entries[file]:
                continue
            part = per_provider.split(f"### {label}\n", 1)[1].split("\n### ", 1)[0]
            fences = [t.content for t in PARSER.parse(part) if t.type == "fence" and t.info == "diff"]
            lines = fences[0].splitlines() if fences else []
            base = re.search(r"^(?:Changes to|The same declaration as) the (.+?)(?: declaration:|\.)$", part, re.M)
            assert base is not None, (name, label)
            [base_file] = [f for f, shown in PROVIDER_LABELS.items() if shown == base.group(1)]
            before = {**canonical, "description": mcp["description"]} if base_file == "mcp.json" else None
            rebuilt = _apply(before if before is not None else entries[base_file][name], lines)
            assert rebuilt == entries[file][name], (name, label)


def test_the_token_table_counts_what_stats_counts(built: Built) -> None:
    from toolgen.render.providers import stats

    pages, entries, _ = built
    table = _section(pages["http_fetch"], "Per provider")
    rows = {
        line.split(" | ")[0].strip("| "): line.strip("|").split(" | ")[1:]
        for line in table.splitlines()
        if line.startswith("| ")
    }
    assert rows[""] == [f" {label} ".strip() for label in PROVIDER_LABELS.values()] or True
    header = [c.strip() for c in rows[""]]
    assert header == list(PROVIDER_LABELS.values())
    for index, file in enumerate(PROVIDER_LABELS):
        size = stats.Size.of(entries[file]["http_fetch"], stats.estimate_tokens)
        assert rows["Tokens"][index].strip() == f"{size.tokens:,}", file


def test_provider_notes_list_everything_and_rule_codes_say_what_they_mean(built: Built) -> None:
    pages, _, _ = built
    page = pages["http_fetch"]
    notes = _section(page, "Provider notes")
    assert "..." not in notes and "…" not in notes
    for pointer in ("url/pattern", "url/maxLength", "method/default", "headers/maxProperties"):
        assert f"/input_schema/properties/{pointer}`" in notes, pointer
    overrides = _section(page, "Rule overrides")
    for code in ("TG301", "TG309", "TG351"):
        rule = rules.get(code)
        assert rule is not None
        assert re.search(
            rf"\[`{code}`\]\(\.\./\.\./docs/[a-z-]+\.md\): off \({re.escape(rule.title)}\)", " ".join(overrides.split())
        )
    prose = re.sub(r"```.*?```", "", page, flags=re.S)
    for found in re.finditer(r"TG\d{3}", prose):
        assert prose[found.start() - 2 : found.start()] == "[`", f"{found.group()} is not linked"


def test_an_overridden_standard_retryable_is_marked(built: Built) -> None:
    pages, _, _ = built
    assert "| `TIMEOUT` | no (the standard is yes) |" in pages["ask_user"]
    assert "| `TIMEOUT` | yes (standard) |" in pages["http_fetch"]


def test_hints_are_shown_as_the_mcp_declaration_states_them(built: Built) -> None:
    pages, entries, _ = built
    for name, page in pages.items():
        if name == "README":
            continue
        hints = entries["mcp.json"][name]["annotations"]
        shown = ", ".join(f"`{k}`: {json.dumps(v)}" for k, v in hints.items())
        assert f"MCP hints, as the MCP declaration states them: {shown}." in " ".join(page.split()), name


def test_pages_are_small_narrow_and_a_one_word_change_touches_one_line() -> None:
    rows = docs_pages.measure()
    assert len(rows) == 14
    for row in rows:
        assert row["providers"] <= 0.34, row
        assert row["width"] <= 100, row
        assert row["touched"] <= 2, row  # the description's line, and the token counts when they change
