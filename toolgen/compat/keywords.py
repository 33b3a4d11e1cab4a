"""Leaf comparisons: one JSON Schema keyword at a time, old value against new, as a verdict.

Each function returns `Finding`s (rule code, keyword, old, new, message) or nothing. Verdicts are
stated for the set of values a schema accepts: "loosened" accepts more, "tightened" accepts fewer;
the table turns that into a bump for the direction the schema sits in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toolgen.compat.model import ABSENT
from toolgen.frozen import thaw

UPPER_BOUNDS = ("maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties", "maxContains")
"""Bounds where a larger value accepts more."""

LOWER_BOUNDS = ("minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties", "minContains")
"""Bounds where a smaller value accepts more."""

ANNOTATIONS = frozenset(
    {"title", "description", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id"}
)
"""Keywords that document a schema without changing which values it accepts."""

LOOSENED, TIGHTENED, CHANGED = "TG431", "TG432", "TG433"


@dataclass(frozen=True, slots=True)
class Finding:
    """A verdict on one keyword: which rule, the keyword, both values and a sentence."""

    code: str
    keyword: str
    old: Any
    new: Any
    message: str


def canonical(value: Any) -> str:
    """Key-sorted compact JSON, with integral floats written as integers (1.0 equals 1 in a schema)."""
    return json.dumps(_integral(thaw(value)), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def is_annotation(keyword: str) -> bool:
    """True for a keyword that only documents (including every `x-` annotation)."""
    return keyword in ANNOTATIONS or keyword.startswith("x-")


def _get(schema: Mapping[str, Any], keyword: str) -> Any:
    return thaw(schema[keyword]) if keyword in schema else ABSENT


def _types(schema: Mapping[str, Any]) -> frozenset[str] | None:
    raw = schema.get("type")
    if raw is None:
        return None
    return frozenset([raw] if isinstance(raw, str) else [str(t) for t in raw])


def _covers(types: frozenset[str] | None, one: str) -> bool:
    return types is None or one in types or (one == "integer" and "number" in types)


def compare_type(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[Finding | None, bool]:
    """The type verdict, and whether the two types still overlap (if not, the subtree is not compared)."""
    before, after = _types(old), _types(new)
    shown_old, shown_new = _get(old, "type"), _get(new, "type")
    widened = after is None or (before is not None and all(_covers(after, t) for t in before))
    narrowed = before is None or (after is not None and all(_covers(before, t) for t in after))
    if widened and narrowed:
        return None, True
    if widened or narrowed:
        code, word = ("TG425", "widened") if widened else ("TG426", "narrowed")
        return Finding(code, "type", shown_old, shown_new, f"type {word}"), True
    overlap = any(_covers(after, t) for t in before or ()) or any(_covers(before, t) for t in after or ())
    return Finding("TG427", "type", shown_old, shown_new, "type changed"), overlap


def _values(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    if "const" in schema:
        found = {canonical(schema["const"]): thaw(schema["const"])}
        if "enum" in schema:
            allowed = {canonical(v) for v in schema["enum"]}
            found = {k: v for k, v in found.items() if k in allowed}
        return found
    if "enum" in schema:
        return {canonical(v): thaw(v) for v in schema["enum"]}
    return None


def compare_enum(old: Mapping[str, Any], new: Mapping[str, Any]) -> Finding | None:
    """`enum` and `const` as one set of allowed values (absent: any value)."""
    before, after = _values(old), _values(new)
    if before is None and after is None:
        return None
    keyword = "const" if "const" in new or ("const" in old and "enum" not in new) else "enum"
    shown_old = [before[k] for k in sorted(before)] if before is not None else ABSENT
    shown_new = [after[k] for k in sorted(after)] if after is not None else ABSENT
    if before is None or after is None:
        code = "TG429" if before is None else "TG428"
        message = f"{keyword} added: only these values are allowed" if before is None else f"{keyword} removed"
        return Finding(code, keyword, shown_old, shown_new, message)
    added, removed = sorted(after.keys() - before.keys()), sorted(before.keys() - after.keys())
    if not added and not removed:
        return None
    code = "TG430" if added and removed else "TG428" if added else "TG429"
    both = (("added", added), ("removed", removed))
    parts = [f"{keyword} values {verb}: {', '.join(vals)}" for verb, vals in both if vals]
    return Finding(code, keyword, shown_old, shown_new, "; ".join(parts))


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def compare_bound(keyword: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> Finding | None:
    """A numeric bound: added or moved inward tightens, removed or moved outward loosens."""
    if keyword not in old and keyword not in new:
        return None
    before, after = _get(old, keyword), _get(new, keyword)
    if canonical(before if before is not ABSENT else None) == canonical(after if after is not ABSENT else None):
        return None
    if before is ABSENT:
        return Finding(TIGHTENED, keyword, before, after, f"{keyword} added")
    if after is ABSENT:
        return Finding(LOOSENED, keyword, before, after, f"{keyword} removed")
    a, b = _number(before), _number(after)
    if a is None or b is None:
        return Finding("TG441", keyword, before, after, f"{keyword} changed to a value toolgen cannot compare")
    looser = b > a if keyword in UPPER_BOUNDS else b < a
    code = LOOSENED if looser else TIGHTENED
    return Finding(code, keyword, before, after, f"{keyword} {'loosened' if looser else 'tightened'}")


def _step(before: Any, after: Any) -> str | None:
    a, b = _number(before), _number(after)
    if a is None or b is None or a <= 0 or b <= 0:
        return CHANGED
    if a == b:
        return None
    if (a / b).denominator == 1:
        return LOOSENED
    return TIGHTENED if (b / a).denominator == 1 else CHANGED


def compare_multiple_of(old: Mapping[str, Any], new: Mapping[str, Any]) -> Finding | None:
    """`multipleOf`: a divisor of the old step loosens, a multiple of it tightens, anything else is unknown."""
    before, after = _get(old, "multipleOf"), _get(new, "multipleOf")
    if before is ABSENT and after is ABSENT:
        return None
    if before is ABSENT or after is ABSENT:
        code, verb = (TIGHTENED, "added") if before is ABSENT else (LOOSENED, "removed")
        return Finding(code, "multipleOf", before, after, f"multipleOf {verb}")
    step = _step(before, after)
    if step is None:
        return None
    verbs = {LOOSENED: "loosened (the new step divides the old)", TIGHTENED: "tightened (a multiple of the old step)"}
    return Finding(step, "multipleOf", before, after, f"multipleOf {verbs.get(step, 'changed to an unrelated step')}")


def compare_present(keyword: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> Finding | None:
    """`pattern`, `format` and `uniqueItems`: adding tightens, removing loosens, changing is unknown."""
    if keyword not in old and keyword not in new:
        return None
    before, after = _get(old, keyword), _get(new, keyword)
    if keyword == "uniqueItems":
        before = True if before is True else ABSENT
        after = True if after is True else ABSENT
    if before is ABSENT and after is ABSENT:
        return None
    if before is ABSENT:
        return Finding(TIGHTENED, keyword, before, after, f"{keyword} added")
    if after is ABSENT:
        return Finding(LOOSENED, keyword, before, after, f"{keyword} removed")
    if canonical(before) == canonical(after):
        return None
    return Finding(CHANGED, keyword, before, after, f"{keyword} changed")


def compare_leaves(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    """Every bound, `multipleOf`, `pattern`, `format` and `uniqueItems` verdict for one schema pair."""
    found = [compare_bound(k, old, new) for k in (*UPPER_BOUNDS, *LOWER_BOUNDS)]
    found.append(compare_multiple_of(old, new))
    found.extend(compare_present(k, old, new) for k in ("pattern", "format", "uniqueItems"))
    return [f for f in found if f is not None]


LEAF_KEYWORDS = frozenset(
    {*UPPER_BOUNDS, *LOWER_BOUNDS, "multipleOf", "pattern", "format", "uniqueItems", "type", "enum", "const"}
)
"""Keywords `compare_type`, `compare_enum` and `compare_leaves` handle."""


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    names = {float: "number", str: "string", list: "array", tuple: "array"}
    return names.get(type(value), "object")


def enumerated(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """When both versions list their values (`enum`/`const`), each as the values its `type` lets through.

    `type: [string, null]` beside `enum: ["a"]` accepts only "a": the type change alone changes nothing,
    and the value sets say what did.
    """
    if _types(old) == _types(new):
        return old, new
    before, after = _values(old), _values(new)
    if before is None or after is None:
        return old, new

    def kept(schema: Mapping[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        types = _types(schema)
        rest = {k: v for k, v in schema.items() if k not in ("type", "enum", "const")}
        through = [v for _, v in sorted(values.items()) if _covers(types, _json_type(v))]
        return {**rest, "const": through[0]} if "const" in schema and len(through) == 1 else {**rest, "enum": through}

    return kept(old, before), kept(new, after)
