"""Tool-level comparison: two catalogs, tool by tool, into a `Report` with a verdict per version.

Schemas go through `schema.py`; here are the parts around them: documentation text, permissions
(an added one is an escalation, listed apart), deprecation, idempotency, error codes and their
`retryable`, the content kinds a result may carry, and tools added or removed. A renamed tool is
a removal plus an addition.
"""

from __future__ import annotations

from dataclasses import replace

from toolgen.catalog import Catalog, Contract
from toolgen.compat.model import (
    ABSENT,
    Assume,
    Bump,
    Change,
    Direction,
    Escalation,
    Report,
    Status,
    ToolDiff,
    bump_made,
    parse_version,
)
from toolgen.compat.schema import diff_schema
from toolgen.compat.table import DECISIONS, IDEMPOTENT_ADDED, IDEMPOTENT_DROPPED, TIMEOUT_LONGER, TIMEOUT_SHORTER

_META = Direction.METADATA


def _change(
    code: str, direction: Direction, at: tuple[str | None, str | None], values: tuple[object, object], message: str
) -> Change:
    decision = DECISIONS[code]
    return Change(code, direction, decision.bump(_META), message, decision.hint, at[0], at[1], *values)


def _docs(base: Contract, head: Contract) -> list[Change]:
    pairs: list[tuple[str, object, object]] = [
        ("description", base.description, head.description),
        ("title", base.title, head.title),
        ("owners", list(base.owners), list(head.owners)),
        ("tags", list(base.tags), list(head.tags)),
    ]
    out = [
        _change("TG407", _META, (f"/{key}", f"/{key}"), (old, new), f"{key} changed")
        for key, old, new in pairs
        if old != new
    ]
    return out + _examples(base, head)


def _examples(base: Contract, head: Contract) -> list[Change]:
    """One finding per example that was added, removed or edited (by position)."""
    old, new = [e.to_json() for e in base.examples], [e.to_json() for e in head.examples]
    out: list[Change] = []
    for index in range(max(len(old), len(new))):
        before = old[index] if index < len(old) else ABSENT
        after = new[index] if index < len(new) else ABSENT
        if before == after:
            continue
        at = (f"/examples/{index}" if before is not ABSENT else "/examples",
              f"/examples/{index}" if after is not ABSENT else "/examples")  # fmt: skip
        verb = "added" if before is ABSENT else "removed" if after is ABSENT else "changed"
        out.append(_change("TG407", _META, at, (before, after), f"example {index + 1} {verb}"))
    return out


def _permissions(base: Contract, head: Contract) -> list[Change]:
    out: list[Change] = []
    for permission in sorted(set(head.permissions) - set(base.permissions)):
        message = f"permission `{permission}` added: the tool can now do more than callers granted"
        out.append(_change("TG405", _META, ("/permissions", "/permissions"), (ABSENT, permission), message))
    for permission in sorted(set(base.permissions) - set(head.permissions)):
        message = f"permission `{permission}` removed"
        out.append(_change("TG406", _META, ("/permissions", "/permissions"), (permission, ABSENT), message))
    return out


def _lifecycle(base: Contract, head: Contract) -> list[Change]:
    out: list[Change] = []
    at = ("/deprecated", "/deprecated")
    if bool(base.deprecated) != bool(head.deprecated):
        message = "tool deprecated" if head.deprecated else "tool no longer deprecated"
        out.append(_change("TG408", _META, at, (base.deprecated, head.deprecated), message))
    elif base.deprecated != head.deprecated:
        out.append(_change("TG407", _META, at, (base.deprecated, head.deprecated), "deprecation message changed"))
    if base.idempotent != head.idempotent:
        bump = IDEMPOTENT_DROPPED if base.idempotent else IDEMPOTENT_ADDED
        message = "tool is no longer idempotent" if base.idempotent else "tool became idempotent"
        at = ("/idempotent", "/idempotent")
        change = _change("TG409", _META, at, (base.idempotent, head.idempotent), message)
        out.append(replace(change, bump=bump))
    return out + _timeout(base, head)


def _timeout(base: Contract, head: Contract) -> list[Change]:
    """TG241: a lower or a new `timeout_ms` is minor (calls may now time out), a higher or removed one patch."""
    old, new = base.timeout_ms, head.timeout_ms
    if old == new:
        return []
    shorter = new is not None and (old is None or new < old)
    message = f"timeout_ms {'lowered' if shorter else 'raised'}: {old or 'none'} -> {new or 'none'}"
    at = ("/timeout_ms" if old is not None else "", "/timeout_ms" if new is not None else "")
    values = (old if old is not None else ABSENT, new if new is not None else ABSENT)
    change = _change("TG241", _META, at, values, message)
    return [replace(change, bump=TIMEOUT_SHORTER if shorter else TIMEOUT_LONGER)]


def _error_at(contract: Contract, code: str) -> str:
    for index, error in enumerate(contract.errors):
        if error.code == code:
            return f"/errors/{index}"
    return "/errors"


def _errors(base: Contract, head: Contract) -> list[Change]:
    out: list[Change] = []
    before, after = set(base.all_error_codes), set(head.all_error_codes)
    out_ = Direction.OUTPUT
    for code in sorted(after - before):
        at = (_error_at(base, code), _error_at(head, code))
        out.append(_change("TG410", out_, at, (ABSENT, code), f"error code `{code}` added"))
    for code in sorted(before - after):
        at = (_error_at(base, code), _error_at(head, code))
        out.append(_change("TG411", out_, at, (code, ABSENT), f"error code `{code}` removed"))
    old_text = {e.code: e.description for e in base.errors}
    new_text = {e.code: e.description for e in head.errors}
    for code in sorted(before & after):
        at = (_error_at(base, code), _error_at(head, code))
        if base.retryable(code) != head.retryable(code):
            message = f"error code `{code}` retryable changed"
            out.append(_change("TG412", out_, at, (base.retryable(code), head.retryable(code)), message))
        if old_text.get(code) != new_text.get(code):
            old, new = old_text.get(code, ABSENT), new_text.get(code, ABSENT)
            out.append(_change("TG407", _META, at, (old, new), f"description of error `{code}` changed"))
    return out


def _kind_at(contract: Contract, kind: str) -> str:
    kinds = list(contract.content_kinds)
    return f"/content_kinds/{kinds.index(kind)}" if kind in kinds else "/content_kinds"


def _content_kinds(base: Contract, head: Contract) -> list[Change]:
    """TG413 for a kind a result may now carry (callers must handle it), TG414 for one it no longer may."""
    out: list[Change] = []
    before, after = set(base.content_kinds), set(head.content_kinds)
    for kind in sorted(after - before):
        at = (_kind_at(base, kind), _kind_at(head, kind))
        message = f"content kind `{kind}` added: callers may not handle it"
        out.append(_change("TG413", Direction.OUTPUT, at, (ABSENT, kind), message))
    for kind in sorted(before - after):
        at = (_kind_at(base, kind), _kind_at(head, kind))
        out.append(_change("TG414", Direction.OUTPUT, at, (kind, ABSENT), f"content kind `{kind}` removed"))
    return out


def diff_contract(base: Contract, head: Contract, *, assume: Assume = Assume.DECLARED) -> tuple[Change, ...]:
    """Every change between two versions of one tool, in reading order (`assume`: see `Assume`)."""
    if base.digest and base.digest == head.digest:
        return ()
    changes = [*_docs(base, head), *_permissions(base, head), *_lifecycle(base, head), *_errors(base, head)]
    changes += _content_kinds(base, head)
    schemas = (
        (Direction.INPUT, base.input_schema, head.input_schema, "/input_schema"),
        (Direction.OUTPUT, base.output_schema, head.output_schema, "/output_schema"),
    )
    for direction, old, new, key in schemas:
        changes += diff_schema(direction, old, new, key, key, assume=assume)
    return tuple(sorted(changes, key=Change.sort_key))


def needed_bump(changes: tuple[Change, ...]) -> Bump:
    """The largest bump any of the changes needs (none for no change)."""
    return max((c.bump for c in changes), default=Bump.NONE)


ALWAYS_ON = frozenset({"TG401", "TG403", "TG404", "TG405"})
"""The gates: removals, versions and escalations cannot be turned off by configuration."""


def diff_tool(
    base: Contract, head: Contract, off: frozenset[str] = frozenset(), *, assume: Assume = Assume.DECLARED
) -> ToolDiff:
    """One tool present on both sides: its changes, the bump they need and the bump its version made.

    Findings of a rule in `off`, or set to "off" in the head contract's own `rules`, are left out.
    """
    off = off | {code for code, level in head.rules.items() if level == "off"}
    found = diff_contract(base, head, assume=assume)
    changes = tuple(c for c in found if c.rule not in off or c.rule in ALWAYS_ON)
    needed = needed_bump(changes)
    made = bump_made(base.version, head.version)
    if parse_version(base.version) is None or parse_version(head.version) is None:
        status = Status.BAD_VERSION
    elif made is None:
        status = Status.WENT_DOWN
    else:
        status = Status.TOO_SMALL if made < needed else Status.OK
    owners = tuple(dict.fromkeys((*head.owners, *base.owners)))
    return ToolDiff(head.name, base.version, head.version, needed, made, status, changes, owners, head.source)


def _added(head: Contract) -> ToolDiff:
    change = _change("TG402", _META, (None, ""), (ABSENT, head.version), f"tool `{head.name}` added")
    return ToolDiff(head.name, None, head.version, Bump.NONE, None, Status.ADDED, (change,), head.owners, head.source)


def _removed(base: Contract) -> ToolDiff:
    change = _change("TG401", _META, ("", None), (base.version, ABSENT), f"tool `{base.name}` removed")
    return ToolDiff(
        base.name, base.version, None, Bump.MAJOR, None, Status.REMOVED, (change,), base.owners, base.source
    )


def diff_catalogs(
    base: Catalog,
    head: Catalog,
    *,
    allow_escalation: bool = False,
    allow_removal: bool = False,
    off: frozenset[str] = frozenset(),
    assume: Assume = Assume.DECLARED,
) -> Report:
    """Compare two catalogs tool by tool; the report decides whether the head is compatible.

    `off` holds TG4xx codes the project turned off (`rules = { TG407 = "off" }`); gates stay on.
    `assume` is what callers and consumers are assumed to do (docs/compatibility.md, `--assume`).
    """
    tools: list[ToolDiff] = []
    escalations: list[Escalation] = []
    before, after = {c.name: c for c in base}, {c.name: c for c in head}
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old is None and new is not None:
            tools.append(_added(new))
        elif new is None and old is not None:
            tools.append(_removed(old))
        elif old is not None and new is not None:
            tool = diff_tool(old, new, off, assume=assume)
            tools.append(tool)
            gained = tuple(sorted(set(new.permissions) - set(old.permissions)))
            if gained:
                escalations.append(Escalation(name, gained, tool.owners, new.source))
    return Report(tuple(tools), tuple(escalations), allow_escalation, allow_removal)
