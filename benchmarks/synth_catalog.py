"""A deterministic generator of realistic tool contracts for benchmarks and scale tests.

`write_catalog(root, n)` writes `n` contracts under `root/contracts/` (a quarter as TOML, the rest as
JSON, in a few sub-folders) and returns their names. The same `(n, seed)` always gives the same bytes:
the only source of variety is a `random.Random` seeded from `(seed, index)`, so contract `i` is the
same whatever `n` is, and changing one contract changes no other.

The shapes follow what real tool catalogs hold (see the shared corpora's README): a flat input with a few
scalars and enums, often a nested options object, sometimes an array of objects, nullable type lists,
local `$defs` + `$ref`, defaults, formats and bounds; an output schema on most tools; declared errors
with `retryable`; and examples that validate against both schemas.

    python benchmarks/synth_catalog.py OUT_DIR --count 1000
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolgen.importing.tomlemit import inline

VERBS = (
    "get", "list", "create", "update", "delete", "search", "fetch", "sync", "send", "run",
    "archive", "restore", "export", "import", "approve", "resolve", "schedule", "scan",
)  # fmt: skip
NOUNS = (
    "issue", "ticket", "invoice", "customer", "order", "file", "branch", "build", "deployment",
    "alert", "metric", "report", "message", "channel", "calendar_event", "contact", "document",
    "dataset", "query", "pipeline", "secret_ref", "user", "team", "project", "label", "comment",
)  # fmt: skip
FIELDS = (
    "id", "name", "title", "status", "owner", "priority", "created_after", "limit", "cursor",
    "query", "region", "labels", "notes", "path", "url", "email", "amount", "currency", "timeout",
    "dry_run", "page_size", "sort", "language", "tags", "reason", "target", "revision", "count",
)  # fmt: skip
ENUMS = (
    ("open", "closed", "pending", "archived"),
    ("low", "medium", "high", "urgent"),
    ("asc", "desc"),
    ("eu-west-1", "us-east-1", "ap-south-1"),
    ("json", "csv", "markdown", "plain text"),
    ("created", "updated", "relevance"),
)
PHRASES = (
    "Use it when the user asks about {noun}s by name or id.",
    "Results are sorted and paginated; pass the returned cursor to continue.",
    "It never changes state outside the {noun} it is given.",
    "Large results are truncated; narrow the query instead of paging far.",
    "The call is rejected when the caller lacks access to the {noun}.",
    "Times are UTC in RFC 3339 form, for example 2024-05-01T12:00:00Z.",
    "Prefer it over a generic HTTP request: it validates input and retries safely.",
)
ERRORS = (
    ("QUOTA_EXCEEDED", "The account ran out of quota for this period.", True),
    ("STALE_REVISION", "The revision given is not the latest; re-read and retry.", False),
    ("LOCKED", "Another operation holds a lock on the {noun}.", True),
    ("INVALID_STATE", "The {noun} is not in a state that allows this call.", False),
    ("TOO_LARGE", "The {noun} is larger than this tool returns; narrow the request.", False),
)
GROUPS = ("crm", "devops", "docs", "billing", "support")


def _field_schema(rng: random.Random, name: str, depth: int) -> dict[str, Any]:
    """One property: a scalar, an enum, a nullable, an array, or (at shallow depth) an object."""
    kind = rng.choice(("string", "string", "integer", "number", "boolean", "enum", "nullable", "array"))
    if depth < 1 and rng.random() < 0.1:
        kind = "object"
    if depth < 1 and rng.random() < 0.06:
        kind = "array_of_objects"
    described = f"The {name.replace('_', ' ')} to use."
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        "string": lambda: _string(rng),
        "integer": lambda: {"type": "integer", "minimum": 0, "maximum": rng.choice((10, 100, 1000, 86400))},
        "number": lambda: {"type": "number", "minimum": 0, "exclusiveMaximum": 1000000},
        "boolean": lambda: {"type": "boolean"},
        "enum": lambda: {"type": "string", "enum": list(rng.choice(ENUMS))},
        "nullable": lambda: {"type": ["string", "null"], "maxLength": 200},
        "array": lambda: {"type": "array", "items": _string(rng), "maxItems": 20, "uniqueItems": True},
        "object": lambda: _object(rng, depth + 1, rng.randint(2, 3)),
        "array_of_objects": lambda: {
            "type": "array",
            "items": _object(rng, depth + 1, rng.randint(2, 3)),
            "minItems": 1,
            "maxItems": 50,
        },
    }
    schema = builders[kind]()
    return {"description": described, **schema}


def _string(rng: random.Random) -> dict[str, Any]:
    choice = rng.randrange(4)
    if choice == 0:
        return {"type": "string", "format": "date-time"}
    if choice == 1:
        return {"type": "string", "format": "uri"}
    if choice == 2:
        return {"type": "string", "pattern": "^[a-z][a-z0-9-]*$", "maxLength": 64}
    return {"type": "string", "minLength": 1, "maxLength": rng.choice((80, 256, 4096))}


def _object(rng: random.Random, depth: int, size: int, *, root: bool = False) -> dict[str, Any]:
    names = sorted(rng.sample(FIELDS, size), key=FIELDS.index)
    properties = {name: _field_schema(rng, name, depth) for name in names}
    required = [n for n in names if rng.random() < 0.45] or names[:1]
    for name in names:
        if name not in required and properties[name].get("type") == "integer" and rng.random() < 0.5:
            properties[name]["default"] = properties[name]["minimum"]
    schema: dict[str, Any] = {"type": "object"}
    if not root:
        schema["description"] = "Details of the " + rng.choice(NOUNS).replace("_", " ") + "."
    schema.update({"additionalProperties": False, "required": required, "properties": properties})
    return schema


def _with_defs(rng: random.Random, schema: dict[str, Any]) -> dict[str, Any]:
    """Move one shared shape into `$defs` and refer to it from two places."""
    shared = _object(rng, 1, 2)
    schema["$defs"] = {"Ref": shared}
    schema["properties"]["reference"] = {"$ref": "#/$defs/Ref"}
    schema["properties"]["related"] = {
        "type": "array",
        "description": "Related references.",
        "items": {"$ref": "#/$defs/Ref"},
        "maxItems": 10,
    }
    return schema


def sample(schema: dict[str, Any], rng: random.Random, defs: dict[str, Any], *, full: bool = False) -> Any:
    """A value that validates against `schema` (only the shapes this generator emits)."""
    if "$ref" in schema:
        return sample(defs[schema["$ref"].rsplit("/", 1)[1]], rng, defs, full=full)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema["type"][0] if isinstance(schema["type"], list) else schema["type"]
    if kind == "object":
        keys = [k for k in schema["properties"] if full or k in schema["required"] or rng.random() < 0.4]
        return {k: sample(schema["properties"][k], rng, defs) for k in keys}
    if kind == "array":
        return [sample(schema["items"], rng, defs) for _ in range(1 if schema.get("uniqueItems") else 2)]
    return _scalar(schema, kind, rng)


def _scalar(schema: dict[str, Any], kind: str, rng: random.Random) -> Any:
    number = rng.randint(0, min(int(schema.get("maximum", 999)), 999))
    strings = {
        "date-time": f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T08:30:00Z",
        "uri": f"https://example.com/items/{rng.randint(1, 999)}",
        "pattern": "item-" + str(rng.randint(1, 999)),
        None: rng.choice(("quarterly report", "Jane Doe", "release 4.2", "needs review")),
    }
    values = {
        "integer": number,
        "number": number + 0.5,
        "boolean": number % 2 == 0,
        "string": strings["pattern" if "pattern" in schema else schema.get("format")],
    }
    return values[kind]


def contract(index: int, seed: int = 0) -> dict[str, Any]:
    """The contract document number `index`: the same for a given (index, seed), whatever the catalog size."""
    rng = random.Random(f"{seed}:{index}")
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    name = f"{verb}_{noun}_{index:05d}"
    permissions = sorted(rng.sample(("read", "write", "execute", "network"), rng.randint(1, 2)))
    input_schema = _object(rng, 0, rng.randint(1, 5), root=True)
    if rng.random() < 0.1:
        input_schema = _with_defs(rng, input_schema)
    doc: dict[str, Any] = {
        "name": name,
        "version": f"{rng.randint(0, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}",
        "title": f"{verb.capitalize()} {noun.replace('_', ' ')} ({index})",
        "description": _description(rng, verb, noun),
        "permissions": permissions,
        "idempotent": verb in ("get", "list", "search", "fetch") or rng.random() < 0.2,
        "owners": [f"@team-{rng.choice(GROUPS)}"],
        "tags": sorted({rng.choice(GROUPS), noun.split("_")[0]}),
        "input_schema": input_schema,
    }
    if index % 97 == 5:
        doc["deprecated"] = f"use {verb}_{noun}_{index + 1:05d} instead"
    if rng.random() < 0.7:
        doc["output_schema"] = _object(rng, 0, rng.randint(1, 4), root=True)
    doc["errors"] = _errors(rng, noun, permissions)
    doc["examples"] = _examples(rng, doc)
    return doc


def _description(rng: random.Random, verb: str, noun: str) -> str:
    first = f"{verb.capitalize()} a {noun.replace('_', ' ')} in the connected workspace and return what changed."
    rest = [p.format(noun=noun.replace("_", " ")) for p in rng.sample(PHRASES, rng.randint(1, 3))]
    return first + "\n\n" + " ".join(rest)


def _errors(rng: random.Random, noun: str, permissions: list[str]) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = [{"code": "NOT_FOUND", "description": f"No {noun.replace('_', ' ')} matches."}]
    if "network" in permissions:
        errors.append({"code": "TIMEOUT", "description": "The remote service did not answer in time."})
    for code, text, retryable in rng.sample(ERRORS, rng.randint(0, 2)):
        errors.append({"code": code, "description": text.format(noun=noun.replace("_", " ")), "retryable": retryable})
    return errors


def _examples(rng: random.Random, doc: dict[str, Any]) -> list[dict[str, Any]]:
    defs = doc["input_schema"].get("$defs", {})
    first: dict[str, Any] = {"title": "A typical call", "input": sample(doc["input_schema"], rng, defs)}
    if "output_schema" in doc:
        first["output"] = sample(doc["output_schema"], rng, {}, full=True)
    examples = [first]
    if rng.random() < 0.5:
        missing = {"title": "Nothing matches", "input": sample(doc["input_schema"], rng, defs)}
        missing["error"] = {"code": "NOT_FOUND", "message": "Nothing matches the request."}
        examples.append(missing)
    return examples


def toml_text(doc: dict[str, Any]) -> str:
    """The contract as TOML: scalars and arrays at the top, each schema and example as inline tables."""
    lines = ["#:schema ../../generated/contract.schema.json"]
    tables = ("input_schema", "output_schema")
    for key, value in doc.items():
        if key not in (*tables, "errors", "examples"):
            lines.append(f"{key} = {inline(value)}")
    for key in tables:
        if key in doc:
            lines.append(f"{key} = {inline(doc[key])}")
    for key in ("errors", "examples"):
        for item in doc.get(key, ()):
            lines.append(f"\n[[{key}]]")
            lines.extend(f"{k} = {inline(v)}" for k, v in item.items())
    return "\n".join(lines) + "\n"


def write_catalog(root: Path, count: int, seed: int = 0) -> list[str]:
    """Write `count` contracts under `root/contracts/<group>/`; returns their paths relative to `root`."""
    written: list[str] = []
    for index in range(count):
        doc = contract(index, seed)
        group = GROUPS[index % len(GROUPS)]
        folder = root / "contracts" / group
        folder.mkdir(parents=True, exist_ok=True)
        if index % 4 == 0:
            path, text = folder / f"{doc['name']}.toml", toml_text(doc)
        else:
            path, text = folder / f"{doc['name']}.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path.relative_to(root).as_posix())
    return written


def main() -> None:
    """Command line: write a synthetic catalog into a project folder."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=Path, help="project folder to write contracts/ into")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paths = write_catalog(args.root, args.count, args.seed)
    print(f"wrote {len(paths)} contracts under {args.root / 'contracts'}")


if __name__ == "__main__":
    main()
