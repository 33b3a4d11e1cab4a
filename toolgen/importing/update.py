"""`toolgen import --update`: an existing contract, with only the keys the source declares rewritten.

What a person decides (permissions, tags, version, errors) stays; a description a person wrote stays
where the source has none (it would only bring the placeholder).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path

from toolgen.validate.lint import CHANGED_TAG

PLACEHOLDER = "TODO: describe."
"""The description of an imported tool whose source has none (TG201 flags it)."""

SOURCE_KEYS = ("title", "description", "idempotent", "input_schema", "output_schema", "examples")
"""The keys of an imported contract that come from the source declaration (what `--update` rewrites)."""


def read_contract(path: Path) -> dict[str, object] | None:
    """An existing contract's data, or None when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def updated(existing: Mapping[str, object], document: Mapping[str, object]) -> tuple[dict[str, object], list[str]]:
    """The existing contract with the source keys of `document`, and the names of those that changed."""
    merged = dict(existing)
    changed: list[str] = []
    for key in SOURCE_KEYS:
        if key == "description" and document.get(key) == PLACEHOLDER and existing.get(key):
            continue
        if existing.get(key) == document.get(key):
            continue
        changed.append(key)
        if key in document:
            merged[key] = document[key]
        else:
            merged.pop(key, None)
    tags = document.get("tags")
    if isinstance(tags, list | tuple) and CHANGED_TAG in tags and {"input_schema", "output_schema"} & set(changed):
        kept = merged.get("tags")
        old: list[object] = kept if isinstance(kept, list) else []
        merged["tags"] = old if CHANGED_TAG in old else [*old, CHANGED_TAG]
    return merged, changed
