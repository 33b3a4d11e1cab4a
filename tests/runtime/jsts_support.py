"""Running the JSON-Schema-Test-Suite (draft 2020-12) through a generated registry.

Each group's schema becomes the required property `value` of one contract's input schema (its local
`$ref`s rewritten to point under that property); every group goes into one project and one build. A
group whose contract toolgen refuses is counted with its rule code; each test value is then sent as
`{"value": data}` and the registry's answer compared with the suite's `valid`.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import REPO
from tests.python_support import write_package, write_project
from toolgen.config import load_settings
from toolgen.pipeline.stages import generate

JSTS = Path(os.environ.get("TOOLGEN_JSTS") or REPO.parent / "shared" / "jsts")
"""The suite (its README and LICENSE beside `draft2020-12/`): $TOOLGEN_JSTS or ../shared/jsts."""
SAMPLE = REPO / "tests" / "data" / "jsts_sample" / "draft2020-12"
"""A few of the suite's files, unchanged, with its MIT LICENSE: what the default tier runs."""
PACKAGE = "jsts_tools"
DOCUMENTED = {"format": "formats are asserted only as jsonschema's checker does"}
"""Categories of invalid values the registry is documented to accept (docs/python.md, Validation)."""


def groups(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """(contract name, group) for every group of every `*.json` file directly in `folder`, sorted."""
    found: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(folder.glob("*.json")):
        stem = re.sub(r"[^a-z0-9]+", "_", path.stem.lower()).strip("_")
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            found.append((f"g_{stem}_{index:03d}", group))
    return found


def _rewrite(node: Any) -> Any:
    """The group's schema with each local `$ref` pointing under `properties/value` of the input root.

    Below an `$id` a `#` reference resolves against that `$id`, and `enum`/`const` hold data: both stay.
    """
    if isinstance(node, dict):
        if "$id" in node:
            return node
        out = {k: v if k in ("enum", "const") else _rewrite(v) for k, v in node.items()}
        ref = node.get("$ref")
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
            out["$ref"] = "#/properties/value" + ref[1:]
        return out
    if isinstance(node, list):
        return [_rewrite(v) for v in node]
    return node


def contract_of(name: str, group: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "version": "1.0.0",
        "description": f"Suite group: {group['description']}"[:300],
        "permissions": [],
        "input_schema": {
            "type": "object",
            "properties": {"value": _rewrite(group["schema"])},
            "required": ["value"],
        },
    }


@dataclass
class Tally:
    built: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    """Group -> rule code of the first error toolgen gave its contract."""
    valid_refused: list[str] = field(default_factory=list)
    invalid_accepted: Counter[str] = field(default_factory=Counter)
    invalid_accepted_named: list[str] = field(default_factory=list)
    values: int = 0

    def table(self) -> str:
        codes = Counter(self.refused.values())
        by_code = ", ".join(f"{c} x{n}" for c, n in sorted(codes.items()))
        lines = [
            "| what | count |",
            "|---|---|",
            f"| groups built | {len(self.built)} |",
            f"| groups refused with a code | {len(self.refused)} ({by_code}) |",
            "| groups skipped | 0 |",
            f"| values run | {self.values} |",
            f"| valid values refused | {len(self.valid_refused)} |",
        ]
        for category, count in sorted(self.invalid_accepted.items()):
            note = f" (documented: {DOCUMENTED[category]})" if category in DOCUMENTED else ""
            lines.append(f"| invalid values accepted: {category}{note} | {count} |")
        if not self.invalid_accepted:
            lines.append("| invalid values accepted | 0 |")
        lines.append("")
        lines.append("refused: " + ", ".join(f"{g} ({c})" for g, c in sorted(self.refused.items())))
        lines.extend(f"valid refused: {each}" for each in self.valid_refused)
        lines.extend(f"invalid accepted: {each}" for each in self.invalid_accepted_named)
        return "\n".join(lines)


def build_all(root: Path, found: list[tuple[str, dict[str, Any]]], tally: Tally) -> Path:
    """Write every group's contract, drop those the build refuses (recording the code), build; the package folder."""
    contracts = {name: contract_of(name, group) for name, group in found}
    while True:
        write_project(root, contracts, PACKAGE)
        settings, problems = load_settings(root)
        assert not problems, problems
        result = generate(settings)
        errors = [d for d in result.diagnostics if d.is_error]
        if result.ok:
            break
        assert errors, "the build failed without an error diagnostic"
        for error in errors:
            name = Path(error.file).stem
            assert name in contracts or name in tally.refused, f"an error outside the groups' contracts: {error}"
            tally.refused.setdefault(name, error.code)
            contracts.pop(name, None)
            (root / "contracts" / f"{name}.json").unlink(missing_ok=True)
    tally.built = sorted(contracts)
    return write_package({a.path: a.text for a in result.artifacts}, root / "out")


def run_values(package: Any, found: list[tuple[str, dict[str, Any]]], tally: Tally) -> None:
    registry = package.Registry(policy=package.Policy())
    for name in tally.built:
        registry.register(name, lambda arguments: package.Ok({}))
    for name, group in found:
        if name not in tally.built:
            continue
        for test in group["tests"]:
            tally.values += 1
            result = registry.call(name, {"value": test["data"]})
            label = f"{name} {group['description']!r}: {test['description']!r}"
            if test["valid"] and not result.ok:
                tally.valid_refused.append(f"{label}: {result.code} {result.message[:200]}")
            elif not test["valid"] and result.ok:
                category = name.split("_")[1]
                tally.invalid_accepted[category] += 1
                tally.invalid_accepted_named.append(label)


def agreement(folder: Path, root: Path) -> Tally:
    """Build every group of `folder` and run every value; the tally (the package is forgotten after)."""
    import importlib

    found = groups(folder)
    tally = Tally()
    out = build_all(root, found, tally)
    sys.path.insert(0, str(out))
    try:
        run_values(importlib.import_module(PACKAGE), found, tally)
    finally:
        sys.path.remove(str(out))
        for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[module]
    return tally
