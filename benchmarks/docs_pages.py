"""How the docs pages of the repo's contracts read in a pull request (issue 31).

For every contract under `contracts/`, from a fresh docs-only build in a temporary folder:

- `ratio`: bytes of the page / bytes of the contract file;
- `providers`: the share of the page taken by the per-provider section ("Per provider": the token
  table and each provider's changes; before issue 31 there was none, see `models`);
- `notes`: the share taken by the provider notes (the same texts before and after issue 31);
- `models`: the share of everything the model receives (the canonical declaration too);
- `width`: the longest source line outside fenced code blocks, tables and the HTML comment at the top
  (not rendered, and the same in every diff), in characters;
- `table`: the widest table's least width, in characters: per column the longest word (a run a browser
  cannot break), plus 3 per column for the cell padding and rule;
- `touched`: lines of the page a one-word change of the contract's description touches (removed lines
  of the unified diff): the first word of at least five letters after the first sentence becomes
  "changed".

Run from the repository root: `.venv/bin/python -m benchmarks.docs_pages` (`--json` for the numbers).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import REPO
from toolgen.config import load_settings
from toolgen.load import parse_text
from toolgen.pipeline.stages import generate

PROVIDER_SECTIONS = ("Per provider",)
MODEL_SECTIONS = ("What the model receives", "Per provider", "Provider notes")
WORD = re.compile(r"(?<![\w`-])[a-z]{5,}(?![\w`-])")
"""A word of prose: lower case (never a sentence's first), not part of a name or a code span."""


def _pages(root: Path) -> dict[str, str]:
    settings, problems = load_settings(root)
    if problems:
        raise SystemExit(f"configuration: {problems}")
    result = generate(settings)
    return {a.path.removeprefix("docs/"): a.text for a in result.artifacts if a.path.startswith("docs/")}


def _outside_code(text: str) -> list[str]:
    """The page's lines outside fenced code blocks."""
    out, fence = [], ""
    for line in text.split("\n"):
        mark = re.match(r"^(`{3,}|~{3,})", line)
        if fence:
            fence = "" if mark and line.startswith(fence) else fence
        elif mark:
            fence = mark.group(1)
        else:
            out.append(line)
    return out


def _table_width(lines: list[str]) -> int:
    widest, columns = 0, dict[int, int]()
    for line in [*lines, ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            for index, cell in enumerate(cells):
                longest = max((len(w) for w in cell.split()), default=0)
                columns[index] = max(columns.get(index, 0), 0 if set(cell) <= {"-", " "} else longest)
        elif columns:
            widest, columns = max(widest, sum(columns.values()) + 3 * len(columns)), {}
    return widest


def _share(text: str, sections: tuple[str, ...]) -> float:
    inside, count = False, 0
    for line in text.split("\n"):
        if line.startswith("## "):
            inside = line[3:] in sections
        count += len(line.encode("utf-8")) + 1 if inside else 0
    return count / len(text.encode("utf-8"))


def _changed(text: str) -> str:
    """The contract text with one word of its description changed."""
    data = json.loads(text) if text.lstrip().startswith("{") else None
    description = data["description"] if data is not None else _toml_description(text)
    start = description.find(". ") + 2 if ". " in description else 0
    word = WORD.search(description, start) or WORD.search(description)
    assert word is not None
    new = description[: word.start()] + "changed" + description[word.end() :]
    if data is not None:
        return text.replace(
            json.dumps(description, ensure_ascii=False)[1:-1], json.dumps(new, ensure_ascii=False)[1:-1], 1
        )
    return text.replace(description, new, 1) if description in text else text.replace(word.group(), "changed", 1)


def _toml_description(text: str) -> str:
    data = parse_text(text, "toml")
    return str(data["description"])


def measure() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        base, changed = Path(tmp) / "base", Path(tmp) / "changed"
        for root in (base, changed):
            shutil.copytree(REPO / "contracts", root / "contracts")
            (root / "toolgen.toml").write_text('targets = ["providers", "docs"]\n', encoding="utf-8")
        for path in sorted((changed / "contracts").rglob("*")):
            if path.suffix in (".json", ".toml"):
                path.write_text(_changed(path.read_text(encoding="utf-8")), encoding="utf-8")
        before, after = _pages(base), _pages(changed)
        for path in sorted((base / "contracts").rglob("*")):
            if path.suffix not in (".json", ".toml"):
                continue
            page = before[f"{path.stem}.md"]
            lines = _outside_code(page)
            diff = difflib.unified_diff(page.split("\n"), after[f"{path.stem}.md"].split("\n"), lineterm="", n=0)
            touched = sum(1 for d in diff if d.startswith("-") and not d.startswith("---"))
            rows.append(
                {
                    "tool": path.stem,
                    "ratio": round(len(page.encode("utf-8")) / path.stat().st_size, 2),
                    "providers": round(_share(page, PROVIDER_SECTIONS), 2),
                    "notes": round(_share(page, ("Provider notes",)), 2),
                    "models": round(_share(page, MODEL_SECTIONS), 2),
                    "width": max(len(line) for line in lines if not line.startswith(("|", "<!--"))),
                    "table": _table_width(lines),
                    "touched": touched,
                }
            )
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    rows = measure()
    if parser.parse_args().json:
        print(json.dumps(rows, indent=1))
        return
    keys = ("ratio", "providers", "notes", "models", "width", "table", "touched")
    print(f"{'tool':<14} " + " ".join(f"{k:>9}" for k in keys))
    for r in rows:
        print(f"{r['tool']:<14} " + " ".join(f"{r[k]:>9}" for k in keys))
    for key in keys:
        values = [r[key] for r in rows]
        print(f"{key}: min {min(values)}, max {max(values)}")


if __name__ == "__main__":
    main()
