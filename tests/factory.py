"""Small builders of valid contracts for tests that need a project on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def contract(name: str = "echo_text", **overrides: Any) -> dict[str, Any]:
    """A minimal valid contract (no warnings), with `overrides` applied on top."""
    data: dict[str, Any] = {
        "name": name,
        "version": "1.0.0",
        "description": f"Echo the given text back unchanged. Used by tests of {name} to exercise the pipeline.",
        "permissions": [],
        "idempotent": True,
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["text"],
            "properties": {"text": {"type": "string", "description": "The text to echo.", "maxLength": 1000}},
        },
        "output_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["text"],
            "properties": {"text": {"type": "string", "description": "The same text."}},
        },
        "examples": [{"title": "Echo hello", "input": {"text": "hello"}, "output": {"text": "hello"}}],
    }
    data.update(overrides)
    return data


def write_json(project: Path, data: dict[str, Any], subdir: str = "") -> Path:
    """Write `data` as `contracts/<subdir>/<name>.json` and return the path."""
    folder = project / "contracts" / subdir
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{data['name']}.json"
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path
