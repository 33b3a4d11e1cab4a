"""What the model receives, shown for review: one canonical declaration and each provider's changes.

The canonical declaration is MCP's (the provider whose declaration is closest to the contract: title,
both schemas, hints), or the first provider's when MCP leaves the tool out. Its `description` is left
out of the code block when it is the contract's description word for word (the page shows it under
"When to use it"). Every other provider's declaration is listed as the changes that turn the canonical
one into it, complete, one per line of a `diff` block:

- `  /inputSchema -> /function/parameters`: a key moved (the name, description and schemas, which
  each provider keeps under its own key);
- `- /title`: a key left out;
- `+ /strict: false`: a key added, or given this value (complete compact JSON, never cut);
- `+ /description += "..."`: text added at the end of a string.

Sizes are measured as `toolgen stats` measures them (`providers.stats.Size`, the estimate: the docs
are the same bytes on every machine).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.render import markdown as md

CANONICAL_FILE = "mcp.json"
ROLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("name", ("name",)),
    ("description", ("description",)),
    ("input", ("inputSchema", "input_schema", "parameters", "parametersJsonSchema")),
    ("output", ("outputSchema", "responseJsonSchema")),
)
"""Where each provider keeps the parts every declaration has, by role."""


@dataclass(frozen=True, slots=True)
class ProviderChanges:
    """One provider's changes to a declaration shown before (`base`): a label and the lines of a `diff` block."""

    label: str
    base: str
    lines: str
    fence: str


@dataclass(frozen=True, slots=True)
class ModelView:
    """The canonical declaration (JSON text), whether its description was left out, and the changes."""

    label: str
    json: str
    fence: str
    description: str
    """How the page says what the left-out `description` is; empty when it is in the JSON."""
    sizes: list[list[str]]
    changes: list[ProviderChanges]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def roles(declaration: Mapping[str, object]) -> dict[str, str]:
    """The JSON pointer of each role's key in `declaration` (a `function` wrapper looked into)."""
    function = declaration.get("function")
    wrapped = isinstance(function, Mapping)
    holder: Mapping[str, object] = function if isinstance(function, Mapping) else declaration
    base = "/function" if wrapped else ""
    found: dict[str, str] = {}
    for role, keys in ROLES:
        for key in keys:
            if key in holder:
                found[role] = f"{base}/{_escape(key)}"
                break
    return found


def _move(value: dict[str, Any], source: str, target: str) -> None:
    """Move the key at `source` to `target` in `value`, copying each object on the way before it
    is changed: the objects `value` shares with the declaration it was copied from stay as they are."""
    *head, last = _parts(source)
    node = value
    for part in head:
        node[part] = node = dict(node[part])
    moved = node.pop(last)
    *head, last = _parts(target)
    node = value
    for part in head:
        node[part] = node = dict(node.get(part, {}))
    node[last] = moved


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


Change = tuple[str, str, str]
"""One change: the pointer of the object it is in, and its line there (`- key`, `+ key: value`)."""


def _diff(old: Mapping[str, object], new: Mapping[str, object], pointer: str, out: list[Change]) -> None:
    for key in old:
        if key not in new:
            out.append((pointer, "-", _escape(key)))
    for key, value in new.items():
        before = old.get(key)
        if key not in old:
            out.append((pointer, "+", f"{_escape(key)}: {_compact(value)}"))
        elif isinstance(before, Mapping) and isinstance(value, Mapping):
            _diff(before, value, f"{pointer}/{_escape(key)}", out)
        elif before != value or type(before) is not type(value):
            if isinstance(before, str) and isinstance(value, str) and before and value.startswith(before):
                line = f"{_escape(key)} += {_compact(value[len(before) :])}"
            else:
                line = f"{_escape(key)}: {_compact(value)}"
            out.append((pointer, "+", line))


def changes(canonical: Mapping[str, object], other: Mapping[str, object]) -> list[str]:
    """The lines that turn `canonical` into `other`: moves first (from the root), then removals and
    additions, each after an `@@ /pointer @@` line naming the object they change (none for the root)."""
    moved: dict[str, object] = dict(canonical)  # `_move` copies only what it changes
    lines: list[str] = []
    before, after = roles(canonical), roles(other)
    for role, _ in ROLES:
        if role in before and role in after and before[role] != after[role]:
            _move(moved, before[role], after[role])
            lines.append(f"  {before[role]} -> {after[role]}")
    found: list[Change] = []
    _diff(moved, other, "", found)
    where = ""
    for pointer, sign, text in found:
        if pointer != where:
            lines.append(f"@@ {pointer or '/'} @@")
            where = pointer
        lines.append(f"{sign} {text}")
    return lines


def _strict(declaration: Mapping[str, object]) -> str:
    for holder in (declaration, declaration.get("function")):
        if isinstance(holder, Mapping) and isinstance(holder.get("strict"), bool):
            return "yes" if holder["strict"] else "no"
    return "not set"


def _sizes(declared: Mapping[str, Mapping[str, object]], labels: Mapping[str, str]) -> list[list[str]]:
    """The size table, a column per provider: a header row, then `Strict` and `Tokens` (a changed
    word of the contract changes one row of it, not one per provider)."""
    from toolgen.render.providers import stats

    header, strict, tokens = [" "], ["Strict"], ["Tokens"]
    for file, label in labels.items():
        header.append(md.cell(label))
        if file not in declared:
            strict.append("not declared")
            tokens.append(" ")
            continue
        strict.append(_strict(declared[file]))
        tokens.append(f"{stats.Size.of(declared[file], stats.estimate_tokens).tokens:,}")  # never the exact counter
    return [header, strict, tokens]


def _description(declared: str, contract: str) -> str | None:
    """What the page says the declared description is, or None when it must be shown in the JSON."""
    if " ".join(declared.split()) == " ".join(contract.split()):
        return "the text under [When to use it](#when-to-use-it), word for word"
    at = declared.find(contract) if contract else -1
    if at < 0:
        return None
    before, after = declared[:at], declared[at + len(contract) :]
    said = ["the text under [When to use it](#when-to-use-it), word for word"]
    if before:
        said.append(f"after {md.code(_compact(before), in_table=False)}")
    if after:
        said.append(f"before {md.code(_compact(after), in_table=False)}")
    return ", ".join(said)


def _changes(
    declared: Mapping[str, Mapping[str, object]], file: str, labels: Mapping[str, str]
) -> list[ProviderChanges]:
    """Each provider's changes, to the canonical declaration or to one shown before it, whichever is shorter."""
    shown = [file]
    out = []
    for other, declaration in declared.items():
        if other == file:
            continue
        base, lines = min(
            ((b, changes(declared[b], declaration)) for b in shown),
            key=lambda pair: (len(pair[1]), shown.index(pair[0])),
        )
        text = "\n".join(lines)
        out.append(
            ProviderChanges(md.heading(labels.get(other, other)), md.cell(labels.get(base, base)), text, md.fence(text))
        )
        shown.append(other)
    return out


def model_view(pairs: Sequence[tuple[str, str]], description: str, labels: Mapping[str, str]) -> ModelView | None:
    """The canonical declaration, the size table and each other provider's changes; None: no provider."""
    declared = {file: json.loads(text) for file, text in pairs}
    if not declared:
        return None
    file = CANONICAL_FILE if CANONICAL_FILE in declared else next(iter(declared))
    shown = dict(declared[file])
    said = _description(str(shown.get("description", "")), description) if "description" in shown else None
    if said is not None:
        del shown["description"]
    text = md.json_text(shown)
    label = labels.get(file, file)
    sizes = _sizes(declared, labels)
    return ModelView(md.cell(label), text, md.fence(text), said or "", sizes, _changes(declared, file, labels))
