"""Object keywords of the schema walk: `properties`, `required`, `additionalProperties`.

A property one version declares and the other does not is still a key both versions judge: the
other version judges it by its `additionalProperties`. So a property newly declared inside a map
(`additionalProperties: {type: string}`) is compared with the map's value schema, in the role's
direction. Where it is open (`additionalProperties` absent, `true` or `{}`), the assumption in force
decides (docs/compatibility.md): under `declared`, callers send only declared properties and
consumers ignore unknown output keys; under `strict`, an open object accepts any value under any key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from toolgen.compat import keywords as kw
from toolgen.compat.model import ABSENT, Assume, Bump, Direction
from toolgen.compat.model import SchemaWalk as SchemaDiff
from toolgen.frozen import thaw
from toolgen.positions import escape

STRICT_HINT = (
    "Under --assume strict: a consumer that validates with the old schema refuses values with this "
    "property; bump the major version."
)


def is_map(additional: Any) -> bool:
    """True for an `additionalProperties` that is a value schema constraining something (a map)."""
    return isinstance(additional, Mapping) and any(not kw.is_annotation(k) for k in additional)


def _names(value: Any) -> set[str]:
    """The names in a `required` list (anything else, such as draft-3 `required: true`, names none)."""
    if isinstance(value, list | tuple):
        return {v for v in value if isinstance(v, str)}
    return set()


def compare_objects(
    walk: SchemaDiff, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str], depth: int
) -> None:
    """Every property declared on either side, the `required` lists, and `additionalProperties`."""
    old_props: Mapping[str, Any] = old.get("properties") or {}
    new_props: Mapping[str, Any] = new.get("properties") or {}
    old_req, new_req = _names(old.get("required")), _names(new.get("required"))
    for name in sorted(set(old_props) | set(new_props)):
        token = f"/properties/{escape(name)}"
        where = (at[0] + token if name in old_props else at[0], at[1] + token if name in new_props else at[1])
        if name in old_props and name in new_props:
            _requiredness(walk, walk.label(where[1], 1), name in old_req, name in new_req, where)
            walk.compare(old_props[name], new_props[name], where[0], where[1], depth + 1)
        elif name in new_props:
            _added(walk, name, (old, new), required=(name in old_req, name in new_req), where=where, depth=depth)
        else:
            removed = walk.quote(walk.label(where[0], 0))
            walk.add("TG422", where, thaw(old_props[name]), ABSENT, f"property {removed} removed")
    for name in sorted((old_req ^ new_req) - set(old_props) - set(new_props)):
        where = (at[0] + "/required" if old_req else at[0], at[1] + "/required" if new_req else at[1])
        parent = walk.label(at[1], 1)
        _requiredness(walk, f"{parent}.{name}" if parent else name, name in old_req, name in new_req, where)
    _additional(walk, old, new, at, depth)


def _added(
    walk: SchemaDiff,
    name: str,
    sides: tuple[Mapping[str, Any], Mapping[str, Any]],
    *,
    required: tuple[bool, bool],
    where: tuple[str, str],
    depth: int,
) -> None:
    """A property only the head declares: TG420/TG421, then its values against what the base allowed there."""
    old, new = sides
    schema = new["properties"][name]
    code = "TG421" if required[1] and not required[0] else "TG420"
    kind = "required" if code == "TG421" else "optional"
    walk.add(code, where, ABSENT, thaw(schema), f"{kind} property {walk.quote(walk.label(where[1], 1))} added")
    before = old.get("additionalProperties", ABSENT)
    if before is False:
        if walk.direction is Direction.OUTPUT and walk.assume is Assume.STRICT:
            walk.changes[-1] = replace(walk.changes[-1], bump=Bump.MAJOR, hint=STRICT_HINT)
    elif is_map(before):  # the key held one of the map's values
        walk.compare(before, schema, where[0] + "/additionalProperties", where[1], depth + 1)
    elif walk.direction is Direction.INPUT and walk.assume is Assume.STRICT:
        walk.compare(True, schema, where[0], where[1], depth + 1)


def _requiredness(walk: SchemaDiff, name: str, before: bool, after: bool, at: tuple[str, str]) -> None:
    if after and not before:
        walk.add("TG423", at, "optional", "required", f"property {walk.quote(name)} became required")
    elif before and not after:
        walk.add("TG424", at, "required", "optional", f"property {walk.quote(name)} became optional")


def _additional(
    walk: SchemaDiff, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str], depth: int
) -> None:
    if "additionalProperties" not in old and "additionalProperties" not in new:
        return
    before, after = old.get("additionalProperties", True), new.get("additionalProperties", True)
    where = walk.keyword_at(at, old, new, "additionalProperties")
    if before is False and after is False:
        return
    if before is False:
        walk.add("TG434", where, False, thaw(after), "additionalProperties no longer false")
        if walk.direction is Direction.OUTPUT and walk.assume is Assume.STRICT:
            walk.changes[-1] = replace(walk.changes[-1], bump=Bump.MAJOR, hint=STRICT_HINT)
    elif after is False:
        walk.add("TG435", where, thaw(before), False, "additionalProperties became false")
    else:
        walk.compare(before, after, where[0], where[1], depth + 1)
