"""The JSON-Schema-Test-Suite as an outside judge of the provider declarations.

Every group of the suite (draft 2020-12, `{description, schema, tests}`) is placed as the required
property `v` of a contract's input schema (its `#...` references re-pointed to `#/properties/v...`),
validated as a contract and projected for every provider. Each instance `{"v": data}` is then judged
twice: by the placed original schema and by the schema each provider file declares. Per provider:

- a **false rejection** is an instance the original accepts and the declaration refuses: never allowed;
- a **widening** is an instance the original refuses and the declaration accepts. It is *announced*
  when the declaration carries text toolgen added (the tool's description differs from the contract's,
  or a `description` in the declared schema is not in the contract), else *silent*: never allowed;
- a group is **refused** with a code (contract validation, or a provider's TG3xx error), or
  **skipped**: remote references, `$dynamicRef`, or a placement that changes what the group means (its
  placed original disagrees with the suite's `valid`). Both are counted and named.

A strict OpenAI declaration makes optional properties required and nullable (the registry drops their
`null`s); it is judged with a property that accepts `null` taken as optional again.

    .venv/bin/python -m benchmarks.jsts [FOLDER] [--json OUT]

FOLDER defaults to `$TOOLGEN_JSTS`, else `../shared/jsts/draft2020-12` beside the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from benchmarks import REPO

FILES = ("openai_chat.json", "openai_responses.json", "anthropic.json", "gemini.json", "mcp.json")
SCHEMA_KEY = {
    "openai_chat.json": ("function", "parameters"),
    "openai_responses.json": ("parameters",),
    "anthropic.json": ("input_schema",),
    "gemini.json": ("parametersJsonSchema",),
    "mcp.json": ("inputSchema",),
}
DESCRIPTION = "Take one value `v` shaped as a JSON-Schema-Test-Suite group says, used to judge declarations."


def suite_dir() -> Path:
    """`$TOOLGEN_JSTS`, else `../shared/jsts/draft2020-12` beside the checkout (may not exist)."""
    configured = os.environ.get("TOOLGEN_JSTS")
    return Path(configured) if configured else REPO.parent / "shared" / "jsts" / "draft2020-12"


@dataclass(frozen=True)
class Group:
    """One group of the suite, named `<file stem>_<index>` (a valid tool name)."""

    name: str
    title: str
    schema: Any
    tests: tuple[dict[str, Any], ...]


def load_groups(folder: Path) -> list[Group]:
    """Every group of every `*.json` file directly in `folder`, in file order."""
    groups = []
    for path in sorted(folder.glob("*.json")):
        stem = re.sub(r"[^a-z0-9]+", "_", path.stem.lower()).strip("_")
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            title = f"{path.stem}: {group['description']}"
            groups.append(Group(f"{stem}_{index}", title, group["schema"], tuple(group["tests"])))
    return groups


def _nodes(node: Any) -> Iterator[Any]:
    """Every dict inside `node` (schemas and values alike), for a coarse scan."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def skip_reason(group: Group) -> str | None:
    """Why a group cannot be judged here (remote references, dynamic references), or None.

    A `$ref` that is not a fragment in a schema without any `$id` can only mean another document."""
    nodes = list(_nodes(group.schema))
    if any("$dynamicRef" in n or "$dynamicAnchor" in n for n in nodes):
        return "$dynamicRef"
    has_id = any(isinstance(n.get("$id"), str) for n in nodes)
    for node in nodes:
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#") and (not has_id or "localhost:1234" in ref):
            return f"remote $ref {ref}"
    return None


def _repoint(node: Any) -> Any:
    if isinstance(node, list):
        return [_repoint(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _repoint(v) for k, v in node.items()}
    ref = node.get("$ref")
    if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
        out["$ref"] = "#/properties/v" + ref[1:]
    return out


def placed(group: Group) -> dict[str, Any]:
    """The contract input schema holding the group's schema as the required property `v`."""
    inner = _repoint(group.schema)
    return {"type": "object", "additionalProperties": False, "required": ["v"], "properties": {"v": inner}}


@dataclass
class Tally:
    """One provider's counts over the suite, and what each count names."""

    declarations: int = 0
    strict: int = 0
    refused: list[str] = field(default_factory=list)
    false_rejections: list[str] = field(default_factory=list)
    silent: list[str] = field(default_factory=list)
    announced: list[str] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The suite's verdict per provider file, and the groups not judged."""

    groups: int = 0
    instances: int = 0
    skipped: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=lambda: {f: Tally() for f in FILES})


def _descriptions(schema: Any) -> set[str]:
    return {n["description"] for n in _nodes(schema) if isinstance(n.get("description"), str)}


def _relaxed(schema: Any) -> Any:
    """A strict OpenAI schema with each property that accepts `null` optional again."""
    from toolgen.render.providers.strict import accepts_null

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(v) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: visit(v) for k, v in node.items()}
        props = node.get("properties")
        if isinstance(props, dict) and isinstance(node.get("required"), list):
            out["required"] = [n for n in node["required"] if not accepts_null(props.get(n, {}))]
        return out

    return visit(schema)


def _declared(file: str, entry: dict[str, Any]) -> tuple[Any, bool, str]:
    """The schema an entry declares, whether it is strict, and its tool description."""
    node: Any = entry
    for key in SCHEMA_KEY[file]:
        node = node[key]
    inner = entry.get("function", entry)
    return node, inner.get("strict") is True, str(inner.get("description", ""))


def _verdict(validator: Draft202012Validator, instance: Any) -> bool | None:
    try:
        return bool(validator.is_valid(instance))
    except (Unresolvable, RecursionError, re.error):
        return None


def judge(group: Group, contract_text: str, file: str, entry: dict[str, Any], tally: Tally) -> None:
    """Judge every instance of `group` against one provider's declaration of it."""
    original = placed(group)
    schema, is_strict, text = _declared(file, entry)
    tally.declarations += 1
    tally.strict += is_strict
    added = text != contract_text or bool(_descriptions(schema) - _descriptions(original))
    lowered = Draft202012Validator(_relaxed(schema) if is_strict and file.startswith("openai") else schema)
    reference = Draft202012Validator(original)
    for test in group.tests:
        where = f"{group.title} / {test['description']}"
        before, after = reference.is_valid({"v": test["data"]}), _verdict(lowered, {"v": test["data"]})
        if after is None:
            tally.dangling.append(where)
        elif before and not after:
            tally.false_rejections.append(where)
        elif after and not before:
            (tally.announced if added else tally.silent).append(where)


def _placement_changes(group: Group) -> str | None:
    reference = Draft202012Validator(placed(group))
    for test in group.tests:
        try:
            if reference.is_valid({"v": test["data"]}) != test["valid"]:
                return f"placed as a property, it disagrees with the suite on: {test['description']}"
        except (Unresolvable, RecursionError, re.error) as exc:
            return f"placed as a property, jsonschema cannot judge it: {type(exc).__name__}"
    return None


def contract_document(group: Group) -> dict[str, Any]:
    """The contract a group becomes."""
    return {
        "name": group.name,
        "version": "1.0.0",
        "description": DESCRIPTION,
        "permissions": [],
        "idempotent": True,
        "input_schema": placed(group),
    }


def run(folder: Path) -> Report:
    """Place, validate, project and judge every group of `folder`."""
    from toolgen.catalog import build_catalog, contract_from_document
    from toolgen.render import providers

    report = Report()
    groups = load_groups(folder)
    report.groups = len(groups)
    report.instances = sum(len(g.tests) for g in groups)
    judged = []
    for group in groups:
        why = skip_reason(group) or _placement_changes(group)
        if why is not None:
            report.skipped.append(f"{group.title} ({why})")
        else:
            judged.append(group)
    with tempfile.TemporaryDirectory(prefix="toolgen-jsts-") as tmp:
        settings, valid = _validated(Path(tmp), judged, report)
        contracts = [contract_from_document(contract_document(g), f"contracts/{g.name}.json") for g in valid]
        projection = providers.project(build_catalog(contracts), settings)
    by_name = {g.name: g for g in valid}
    refused = _provider_errors(projection.diagnostics)
    for payload in projection.payloads:
        tally = report.tallies[payload.file]
        for name, group in by_name.items():
            entry = payload.tools.get(name)
            code = refused.get((f"contracts/{name}.json", payload.file))
            if entry is None or code is not None:
                tally.refused.append(f"{group.title} ({code or 'left out'})")
                continue
            judge(group, DESCRIPTION, payload.file, entry, tally)
    return report


def _provider_errors(diagnostics: Any) -> dict[tuple[str, str], str]:
    """(contract file, provider file) -> the code of a TG3xx error that refuses the tool there."""
    files = {"OpenAI": FILES[:2], "Anthropic": FILES[2:3], "Gemini": FILES[3:4], "MCP": FILES[4:]}
    found: dict[tuple[str, str], str] = {}
    for d in diagnostics:
        provider = d.message.split(":", 1)[0]
        if d.is_error and provider in files:
            for file in files[provider]:
                found.setdefault((d.file, file), d.code)
    return found


def _validated(root: Path, groups: list[Group], report: Report) -> tuple[Any, list[Group]]:
    """The settings of a scratch project, and the groups whose contracts validate (the rest refused)."""
    from toolgen.config import Settings
    from toolgen.load import load_file
    from toolgen.validate import check_document

    settings = Settings(root=root, contracts_dir=root / "contracts", output_dir=root / "generated")
    settings.contracts_dir.mkdir()
    valid = []
    for group in groups:
        path = settings.contracts_dir / f"{group.name}.json"
        path.write_text(json.dumps(contract_document(group), indent=2) + "\n", encoding="utf-8")
        document, problems = load_file(path, settings)
        if document is not None:
            problems = problems + check_document(document)[0]
        refusal = next((d for d in problems if d.is_error), None)
        if refusal is None:
            valid.append(group)
        else:
            report.refused.append(f"{group.title} ({refusal.code}: {refusal.message})")
    return settings, valid


def table(report: Report) -> str:
    """The per-provider table, then every group not judged and every finding, named."""
    head = "| provider file | declarations | strict | refused | false rejections | silent widenings | announced widenings |"  # noqa: E501
    lines = [
        f"{report.groups} groups, {report.instances} instances; {len(report.skipped)} groups skipped, "
        f"{len(report.refused)} refused by contract validation",
        "",
        head,
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for file, t in report.tallies.items():
        lines.append(
            f"| {file} | {t.declarations} | {t.strict} | {len(t.refused)} | {len(t.false_rejections)} "
            f"| {len(t.silent)} | {len(t.announced)} |"
        )
    lines += ["", "Skipped:", *(f"- {s}" for s in report.skipped), "", "Refused (contract validation):"]
    lines += [f"- {r}" for r in report.refused]
    for file, t in report.tallies.items():
        named = [("refused", t.refused), ("false rejection", t.false_rejections), ("silent widening", t.silent)]
        named += [("dangling $ref", t.dangling)]
        lines += [f"- {file} {what}: {item}" for what, items in named for item in items]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 1 when any provider falsely rejects or silently widens."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    folder = args.folder or suite_dir()
    if not folder.is_dir():
        print(f"no suite at {folder} (set TOOLGEN_JSTS)", file=sys.stderr)
        return 2
    report = run(folder)
    sys.stdout.write(table(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, default=vars, indent=2) + "\n", encoding="utf-8")
    bad = any(t.false_rejections or t.silent or t.dangling for t in report.tallies.values())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
