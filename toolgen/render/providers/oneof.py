"""`oneOf` for providers that take only `anyOf`: exact when the branches are disjoint, else said.

OpenAI (both modes) and Anthropic strict mode take no `oneOf`; Gemini's `oneOf` is declared as
`anyOf` when its branches lose constraints. `any_of_for_one_of` renames it and says when that widens.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from toolgen.render.providers.lower import Schema, add_note

ONE_OF_NOTE = "Exactly one of these alternatives must match, not several."
"""What a description says when `oneOf` is declared as `anyOf` and the branches may overlap."""


def any_of_for_one_of(node: Schema) -> tuple[Schema, bool]:
    """`node` with its `oneOf` declared as `anyOf`, and whether that accepts more than the `oneOf` did.

    `anyOf` accepts a value matching several branches; `oneOf` refuses it. When the branches are
    provably disjoint (`disjoint`) the two are the same and nothing is said; otherwise the node's
    description says exactly one must match (`ONE_OF_NOTE`) and the caller reports the widening.
    """
    if not isinstance(node.get("oneOf"), list) or "anyOf" in node:
        return node, False
    out = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
    if disjoint(node["oneOf"]):
        return out, False
    add_note(out, ONE_OF_NOTE)
    return out, True


def _type_set(branch: Schema) -> frozenset[str] | None:
    kind = branch.get("type")
    kinds = frozenset([kind] if isinstance(kind, str) else kind if isinstance(kind, list) else [])
    if not kinds:
        return None
    return kinds | {"integer"} if "number" in kinds else kinds


def _value_set(branch: Schema) -> frozenset[str] | None:
    values = [branch["const"]] if "const" in branch else branch.get("enum")
    if not isinstance(values, list):
        return None
    return frozenset(json.dumps([type(v).__name__ == "bool", v], sort_keys=True) for v in values)


def disjoint(branches: Sequence[object]) -> bool:
    """Whether no value can match two of `branches`: each pair differs in type or in its listed values."""
    schemas = [b for b in branches if isinstance(b, dict)]
    if len(schemas) != len(branches):
        return False
    for index, first in enumerate(schemas):
        for second in schemas[index + 1 :]:
            types = (_type_set(first), _type_set(second))
            values = (_value_set(first), _value_set(second))
            if types[0] is not None and types[1] is not None and not types[0] & types[1]:
                continue
            if values[0] is not None and values[1] is not None and not values[0] & values[1]:
                continue
            if _discriminated(first, second):
                continue
            return False
    return True


def _discriminated(first: Schema, second: Schema) -> bool:
    """Whether a property both objects require takes disjoint `const`/`enum` values in each."""
    both = set(first.get("required") or []) & set(second.get("required") or [])
    for name in both:
        mine = (first.get("properties") or {}).get(name)
        theirs = (second.get("properties") or {}).get(name)
        if isinstance(mine, dict) and isinstance(theirs, dict):
            values = (_value_set(mine), _value_set(theirs))
            if values[0] is not None and values[1] is not None and not values[0] & values[1]:
                return True
    return False
