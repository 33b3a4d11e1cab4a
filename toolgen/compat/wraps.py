"""A schema wrapped in `anyOf`/`oneOf` with itself as one branch (`S` -> `anyOf: [S, X]`), and unwrapped.

Wrapping keeps every value `S` accepted and adds those of the other branches: a widening (TG436),
or no change at all when every other branch accepts only values `S` already accepts. Unwrapping is
the mirror image (TG437). `oneOf` is the same only when each other branch is provably disjoint
from `S` (their types do not overlap): otherwise a value may match two branches and be refused, so
it is TG438. Equality and inclusion are decided by walking the parts against each other with the
same rules and assumption (`SchemaDiff.probe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolgen.compat import keywords as kw
from toolgen.compat.model import Bump, Direction
from toolgen.compat.model import SchemaWalk as SchemaDiff
from toolgen.frozen import thaw

_SAME = frozenset({"TG439", "TG440"})
"""Findings that leave the set of accepted values as it was."""


def _branches(schema: Mapping[str, Any], key: str) -> Sequence[Any] | None:
    """The branches when `schema` is nothing but that combinator (annotations aside) with two or more."""
    raw = schema.get(key)
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) < 2:
        return None
    if {k for k in schema if not kw.is_annotation(k)} != {key}:
        return None
    return raw


def _annotations(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if kw.is_annotation(k)}


def _bare(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if not kw.is_annotation(k)}


def compare_wrap(
    walk: SchemaDiff, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str], depth: int
) -> bool:
    """Classify a wrap or an unwrap at `at`; False (nothing recorded) when this is not one."""
    for key in ("anyOf", "oneOf"):
        wrapped, unwrapped = _branches(new, key), _branches(old, key)
        if wrapped is not None and key not in old and _wrap(walk, key, (old, wrapped), at, depth=depth, wrap=True):
            walk.rest(_annotations(old), _annotations(new), at)
            return True
        if unwrapped is not None and key not in new and _wrap(walk, key, (new, unwrapped), at, depth=depth, wrap=False):
            walk.rest(_annotations(old), _annotations(new), at)
            return True
    return False


def _wrap(
    walk: SchemaDiff,
    key: str,
    parts: tuple[Mapping[str, Any], Sequence[Any]],
    at: tuple[str, str],
    *,
    depth: int,
    wrap: bool,
) -> bool:
    """`wrap`: the single schema is the base and the branches are the head's; else the other way round."""
    single, branches = parts
    side = 1 if wrap else 0
    inner = _bare(single)
    here = f"{at[side]}/{key}"

    def pair(index: int) -> tuple[str, str]:
        return (at[0], f"{here}/{index}") if wrap else (f"{here}/{index}", at[1])

    def ordered(branch: Any) -> tuple[Any, Any]:
        return (inner, branch) if wrap else (branch, inner)

    same = [i for i, b in enumerate(branches) if _equal(walk, *ordered(b), pair(i), depth)]
    if not same:
        return False
    others = [i for i in range(len(branches)) if i != same[0]]
    if key == "oneOf" and not all(_disjoint(walk, inner, branches[i], side) for i in others):
        where = walk.keyword_at(at, {} if wrap else {key: 1}, {key: 1} if wrap else {}, key)
        before, after = (thaw(single), thaw(branches)) if wrap else (thaw(branches), thaw(single))
        verb = "wrapped around" if wrap else "removed from around"
        walk.add("TG438", where, before, after, f"{key} {verb} the schema: a value may match two branches")
        return True
    # A branch within the single schema adds no value when wrapping, and loses none when unwrapping.
    direction = Direction.OUTPUT if wrap else Direction.INPUT
    extra = [i for i in others if _bump(walk.probe(direction, *ordered(branches[i]), pair(i), depth)) > Bump.MINOR]
    if extra:
        code, verb = ("TG436", "added around") if wrap else ("TG437", "removed from around")
        where = walk.keyword_at(at, {} if wrap else {key: 1}, {key: 1} if wrap else {}, key)
        before, after = (thaw(single), thaw(branches)) if wrap else (thaw(branches), thaw(single))
        walk.add(code, where, before, after, f"{key} branches {verb} the schema")
    return True


def _bump(changes: list[Any]) -> Bump:
    return max((c.bump for c in changes), default=Bump.NONE)


def _equal(walk: SchemaDiff, old: Any, new: Any, at: tuple[str, str], depth: int) -> bool:
    return all(c.rule in _SAME for c in walk.probe(Direction.INPUT, old, new, at, depth))


def _types(schema: Any) -> frozenset[str] | None:
    if not isinstance(schema, Mapping):
        return None
    raw = schema.get("type")
    names = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, Sequence) else None
    if names is None:
        return None
    return frozenset("number" if t == "integer" else str(t) for t in names)


def _disjoint(walk: SchemaDiff, inner: Mapping[str, Any], branch: Any, side: int) -> bool:
    """True when no value can match both: both have a type, and the types do not overlap."""
    one, other = _types(inner), _types(walk.content(branch, side))
    return one is not None and other is not None and not one & other
