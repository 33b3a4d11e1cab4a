"""References for providers that take only some of them: moved into the root `$defs`, cycles found.

OpenAI strict mode takes only `#/$defs/...` references (PROVIDERS.md, corrections); Gemini keeps a
recursive reference but inlines the rest. Both start from `hoist_refs`; Gemini asks `cyclic_defs`
which definitions it must keep.
"""

from __future__ import annotations

import re

from toolgen.positions import escape, unescape
from toolgen.render.providers.lower import Schema, resolve_pointer, transform, walk

_DEF_REF = re.compile(r"^#/\$defs/[^/]+$")


def hoist_refs(schema: Schema) -> Schema:
    """`schema` with every local `$ref` pointing at an entry of the root `$defs`.

    OpenAI strict mode takes only `#/$defs/...` references. `definitions` entries move into `$defs`
    (renamed when the name is taken). A `$ref` into `#/properties/...` or into the inside of a
    definition gets its target copied (as written) into
    `$defs` under a fresh name, and every reference to that place points at the copy: what the
    reference means does not change, and the place it pointed at is lowered on its own (so an
    optional property made nullable is not what a required one refers to). A reference to the root
    (`#`) or to nothing local is left as written.
    """
    defs: Schema = dict(schema.get("$defs") or {})
    mapping: dict[str, str] = {}
    for old, target in (schema.get("definitions") or {}).items():
        name = _fresh(defs, old)
        defs[name] = target
        mapping[f"#/definitions/{escape(old)}"] = f"#/$defs/{escape(name)}"
    pending = [node["$ref"] for _, node in walk(schema) if isinstance(node.get("$ref"), str)]
    while pending:
        ref = pending.pop(0)
        if _DEF_REF.match(ref) or ref in mapping or not ref.startswith("#/"):
            continue
        try:
            target = resolve_pointer(schema, ref)
        except KeyError:
            continue
        if not isinstance(target, dict):
            continue
        name = _fresh(defs, unescape(ref.rsplit("/", 1)[-1]))
        defs[name] = target
        mapping[ref] = f"#/$defs/{escape(name)}"
        pending.extend(node["$ref"] for _, node in walk(target) if isinstance(node.get("$ref"), str))
    if not mapping:
        return schema

    def point(node: Schema, _pointer: str) -> Schema:
        ref = node.get("$ref")
        return {**node, "$ref": mapping[ref]} if isinstance(ref, str) and ref in mapping else node

    out: Schema = transform({k: v for k, v in schema.items() if k not in ("$defs", "definitions")}, point)
    out["$defs"] = {k: transform(v, point) for k, v in defs.items()}
    return out


def _fresh(taken: Schema, wanted: str) -> str:
    base = re.sub(r"[^A-Za-z0-9_-]", "_", wanted) or "def"
    name, index = base, 2
    while name in taken:
        name, index = f"{base}_{index}", index + 1
    return name


def cyclic_defs(schema: Schema) -> frozenset[str]:
    """The root `$defs` entries that reach themselves through `#/$defs/...` references."""
    defs = schema.get("$defs") or {}
    edges = {name: _def_targets(sub) for name, sub in defs.items()}
    found: set[str] = set()
    for start, targets in edges.items():
        seen: set[str] = set()
        todo = list(targets)
        while todo:
            name = todo.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen and name in edges:
                seen.add(name)
                todo.extend(edges[name])
    return frozenset(found)


def _def_targets(node: object) -> set[str]:
    found = set()
    for _, sub in walk(node):
        ref = sub.get("$ref")
        if isinstance(ref, str) and _DEF_REF.match(ref):
            found.add(unescape(ref.removeprefix("#/$defs/")))
    return found


def anchor_refs(schema: Schema) -> Schema:
    """`schema` with each `$ref` to a plain-name anchor (`#foo`) pointing at its node by JSON pointer.

    A provider that drops `$anchor` (Gemini) would otherwise keep a `$ref` that resolves to nothing.
    An anchor belongs to its nearest `$id` resource, and a `#foo` is looked up in the resource of the
    node that holds it; one found nowhere is left as written."""
    nodes = list(walk(schema))
    resources = [p for p, node in nodes if isinstance(node.get("$id"), str)]

    def resource(pointer: str) -> str:
        return max((r for r in resources if pointer == r or pointer.startswith(r + "/")), key=len, default="")

    anchors = {(resource(p), node["$anchor"]): p for p, node in nodes if isinstance(node.get("$anchor"), str)}
    if not anchors:
        return schema

    def point(node: Schema, pointer: str) -> Schema:
        ref = node.get("$ref")
        target = anchors.get((resource(pointer), ref[1:])) if isinstance(ref, str) and ref.startswith("#") else None
        return {**node, "$ref": "#" + target} if target is not None else node

    out: Schema = transform(schema, point)
    return out
