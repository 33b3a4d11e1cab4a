"""Provider target over the real tool schemas of the shared corpora: time, strictness and diagnostics.

Run: `.venv/bin/python -m benchmarks.bench_providers [CORPORA_DIR]` (default: `$TOOLGEN_CORPORA`, else
../shared/corpora beside the checkout).
Every record of mcp_tools.jsonl, taubench and ACEBench whose input schema is a valid draft 2020-12
object schema becomes a contract (name turned into snake_case, first of each name kept); the catalog
is projected for every provider with `anthropic_strict = true`.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from benchmarks import corpora_dir
from toolgen.catalog import Contract, build_catalog, contract_from_document
from toolgen.config import Settings
from toolgen.render import providers
from toolgen.render.providers import stats

FILES = ("mcp_tools.jsonl", "other/taubench_tools.jsonl", "other/acebench_en_functions.jsonl")


def snake(name: str) -> str:
    """A corpus tool name as a contract name."""
    spaced = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return re.sub(r"[^a-z0-9_]", "_", spaced).strip("_")[:64]


def contract(record: dict[str, Any], name: str) -> Contract | None:
    """The record as a contract, or None when its schema is not a valid object schema."""
    schema = record.get("inputSchema") or record.get("parameters")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return None
    document: dict[str, Any] = {
        "name": name,
        "version": "1.0.0",
        "description": (record.get("description") or "").strip() or name,
        "permissions": [],
        "input_schema": schema,
    }
    output = record.get("outputSchema")
    if isinstance(output, dict) and output.get("type") == "object":
        document["output_schema"] = output
    return contract_from_document(document, f"contracts/{name}.json")


def load(corpora: Path) -> list[Contract]:
    """Every usable record of the corpus files, one per name."""
    found: dict[str, Contract] = {}
    for file in FILES:
        for line in (corpora / file).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            name = snake(record["name"])
            if name and name not in found and (made := contract(record, name)) is not None:
                found[name] = made
    return list(found.values())


def main() -> None:
    """Print the figures."""
    corpora = Path(sys.argv[1]) if len(sys.argv) > 1 else corpora_dir()
    catalog = build_catalog(load(corpora))
    settings = Settings(root=Path.cwd(), contracts_dir=Path.cwd(), output_dir=Path.cwd(), anthropic_strict=True)
    started = time.perf_counter()
    projection = providers.project(catalog, settings)
    elapsed = time.perf_counter() - started
    chat = next(p for p in projection.payloads if p.file == "openai_chat.json")
    strict = sum(1 for tool in chat.tools.values() if tool["function"]["strict"])
    print(f"{len(catalog)} tools projected for 5 providers in {elapsed:.2f}s")
    print(f"OpenAI strict: {strict} of {len(catalog)} ({strict / len(catalog):.1%})")
    print("diagnostics:", dict(sorted(Counter(d.code for d in projection.diagnostics).items())))
    print(stats.render_text(stats.measure(projection)).split("\n\n")[0])


if __name__ == "__main__":
    main()
