"""The rule every import repair keeps, as a check: a repaired schema accepts exactly what its source did.

For one imported tool: values generated from the source schema (hypothesis-jsonschema) must validate
against the repaired schema, and values generated from the repaired schema must validate against the
source (so a value the source refuses is refused), unless one of the tool's repairs says it changes
what is accepted. The source is read as its author meant it by `source_meaning`, an independent
reading of the spellings toolgen translates (type names, OpenAPI `nullable`, older drafts); every
other keyword stays as written, so every other repair is checked. Tool arguments are always an
object, so only objects are compared; a repaired schema equal to the source so read accepts the same
values by definition and is counted `identical` without generating any.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis.errors import HypothesisException
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from toolgen.importing.importer import Planned
from toolgen.importing.repair import TYPE_ALIASES
from toolgen.importing.shapes import SHAPES

_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems")
_MANY = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")


def _type(value: Any) -> Any:
    names = value if isinstance(value, list) else [value]
    mapped = [TYPE_ALIASES.get(n.lower(), "?") if isinstance(n, str) else "?" for n in names]
    if None in mapped:
        return None
    return mapped if isinstance(value, list) else mapped[0]


def _node(node: dict[str, Any]) -> None:
    node.pop("$schema", None)
    if "type" in node:
        kind = _type(node["type"])
        if kind is None:
            del node["type"]
        else:
            node["type"] = kind
    if node.pop("nullable", False) is True and isinstance(node.get("type"), str):
        node["type"] = [node["type"], "null"]
    if isinstance(node.get("items"), list):
        node["prefixItems"] = node.pop("items")
        if "additionalItems" in node:
            node["items"] = node.pop("additionalItems")
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(flag), bool) and node.pop(flag) and bound in node:
            node[flag] = node.pop(bound)


def source_meaning(schema: Any) -> Any:
    """The source schema as its author meant it, in draft 2020-12 (a copy)."""
    out = copy.deepcopy(schema)
    stack = [out]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        _node(node)
        stack.extend(node[k] for k in _ONE if k in node)
        stack.extend(v for k in _MANY if isinstance(node.get(k), dict) for v in node[k].values())
        stack.extend(v for k in _LIST if isinstance(node.get(k), list) for v in node[k])
    if isinstance(out, dict) and "type" not in out and not any(k in out for k in ("anyOf", "oneOf", "allOf", "$ref")):
        out["type"] = "object"
    return out


@dataclass
class Tally:
    """How many tools were checked, and how each ended."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The counts in one line, for the report."""
        return ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))


def _accepts(validator: Draft202012Validator, value: Any) -> bool:
    try:
        return bool(validator.is_valid(value))
    except Exception:  # a pattern Python cannot compile, an unresolvable $ref
        return False


def _direction(schema: Any, judge: Draft202012Validator, examples: int) -> Any:
    """A value generated from `schema` that `judge` refuses, or None; raises when nothing can be generated."""
    refused: list[Any] = []

    @settings(
        max_examples=examples, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(from_schema(schema).filter(lambda v: isinstance(v, dict)))
    def check(value: Any) -> None:
        if not _accepts(judge, value):
            refused.append(value)
            raise AssertionError

    try:
        check()
    except AssertionError:
        return refused[-1] if refused else {}
    return None


def _compare(name: str, source: Any, repaired: Any, examples: int) -> str:
    """'kept' when both directions hold, 'cannot generate', or the value one of them refuses."""
    pairs = (("source", source, Draft202012Validator(repaired)), ("repaired", repaired, Draft202012Validator(source)))
    for label, schema, judge in pairs:
        try:
            refused = _direction(schema, judge, examples)
        except (HypothesisException, SchemaError, ValueError, TypeError, RecursionError, KeyError, re.error):
            return "cannot generate"
        if refused is not None:
            return f"{name}: {json.dumps(refused)[:200]} from the {label} schema is refused by the other"
    return "kept"


def check_tool(item: Planned, shape: str, tally: Tally, examples: int = 5) -> None:
    """Check one imported tool and count how it ended."""
    if any(r.changes for r in item.repairs):
        tally.counts["changed (reported)"] += 1
        return
    raw = SHAPES[shape].parts(item.record.data).input_schema
    if raw is None:
        tally.counts["no input schema"] += 1
        return
    source = source_meaning(raw)
    try:
        Draft202012Validator.check_schema(source)
    except SchemaError:
        tally.counts["source not a schema"] += 1
        return
    if source == item.document["input_schema"]:
        tally.counts["identical"] += 1
        return
    verdict = _compare(item.document["name"], source, item.document["input_schema"], examples)
    if verdict in ("kept", "cannot generate"):
        tally.counts[verdict] += 1
    else:
        tally.counts["VIOLATED"] += 1
        tally.failures.append(verdict)
