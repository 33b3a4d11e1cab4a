"""Compatibility data: bumps, directions, findings and the per-tool verdicts a diff produces.

Everything here is plain frozen data; the comparison lives in `schema.py` and `contracts.py`, the
decisions (which bump a finding needs) in `table.py`, and the output formats in `report.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, Protocol

_SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$")


class Bump(IntEnum):
    """A semantic-version bump, ordered so that `max` gives the bump a set of changes needs."""

    NONE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    @property
    def label(self) -> str:
        """Lower-case name: `none`, `patch`, `minor`, `major`."""
        return self.name.lower()


class Direction(StrEnum):
    """Which way data flows through the changed part: what callers send, receive, or neither."""

    INPUT = "input"
    OUTPUT = "output"
    METADATA = "metadata"


class Assume(StrEnum):
    """What toolgen assumes about callers and consumers when it classifies a schema change.

    `declared` (the default): callers send only the properties an input schema declares, and
    consumers ignore output properties they do not know. `strict`: neither; every value a schema
    accepts counts, declared or not.
    """

    DECLARED = "declared"
    STRICT = "strict"


class Absent:
    """The value of something that does not exist on one side of a change (shown as `(absent)`)."""

    _instance: Absent | None = None

    def __new__(cls) -> Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = Absent()
"""The one `Absent` value."""


@dataclass(frozen=True, slots=True)
class Change:
    """One classified difference between the base and the head version of a tool."""

    rule: str
    direction: Direction
    bump: Bump
    message: str
    hint: str
    base_pointer: str | None
    head_pointer: str | None
    old: Any = ABSENT
    new: Any = ABSENT

    def sort_key(self) -> tuple[str, str, str, str]:
        """Reading order: by location, then rule."""
        return (self.head_pointer or self.base_pointer or "", self.base_pointer or "", self.rule, self.message)


class Status(StrEnum):
    """The verdict on one tool's version."""

    OK = "ok"
    ADDED = "added"
    REMOVED = "removed"
    TOO_SMALL = "bump-too-small"
    WENT_DOWN = "version-went-down"
    BAD_VERSION = "bad-version"


@dataclass(frozen=True, slots=True)
class ToolDiff:
    """Every change of one tool, the bump they need, the bump its version made and the verdict."""

    name: str
    old_version: str | None
    new_version: str | None
    needed: Bump
    made: Bump | None
    status: Status
    changes: tuple[Change, ...] = ()
    owners: tuple[str, ...] = ()
    source: str = ""

    @property
    def failed(self) -> bool:
        """True when the version is wrong for the changes (independent of the allow flags)."""
        return self.status in (Status.TOO_SMALL, Status.WENT_DOWN, Status.BAD_VERSION)


@dataclass(frozen=True, slots=True)
class Escalation:
    """Permissions a tool gained, with who reviews it."""

    tool: str
    added: tuple[str, ...]
    owners: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class Report:
    """The whole comparison of two catalogs, and the decision whether it passes."""

    tools: tuple[ToolDiff, ...]
    escalations: tuple[Escalation, ...] = ()
    allow_escalation: bool = False
    allow_removal: bool = False

    @property
    def changed(self) -> tuple[ToolDiff, ...]:
        """Tools with at least one change, added or removed."""
        return tuple(t for t in self.tools if t.changes or t.status in (Status.ADDED, Status.REMOVED))

    @property
    def removed(self) -> tuple[ToolDiff, ...]:
        """Tools that exist at the base but not at the head."""
        return tuple(t for t in self.tools if t.status is Status.REMOVED)

    @property
    def failures(self) -> tuple[str, ...]:
        """One line per reason this diff is not compatible; empty when it passes."""
        out = [f"{t.name}: {_failure(t)}" for t in self.tools if t.failed]
        if not self.allow_removal:
            out.extend(f"{t.name}: tool removed (pass --allow-removal if intended)" for t in self.removed)
        if not self.allow_escalation:
            out.extend(
                f"{e.tool}: gains permission {', '.join(e.added)} (pass --allow-escalation once reviewed)"
                for e in self.escalations
            )
        return tuple(out)

    @property
    def compatible(self) -> bool:
        """True when the exit code is 0."""
        return not self.failures


def _failure(tool: ToolDiff) -> str:
    if tool.status is Status.WENT_DOWN:
        return f"version went down ({tool.old_version} -> {tool.new_version})"
    if tool.status is Status.BAD_VERSION:
        return f"version {tool.old_version} -> {tool.new_version} is not MAJOR.MINOR.PATCH on both sides"
    made = tool.made.label if tool.made is not None else "none"
    return f"changes need a {tool.needed.label} bump, version {tool.old_version} -> {tool.new_version} is {made}"


def parse_version(text: str | None) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a semantic version, or None when it is not one."""
    match = _SEMVER.match(text or "")
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3])


def bump_made(old: str, new: str) -> Bump | None:
    """The bump from `old` to `new`, or None when the version went down or is not semver.

    Below 1.0.0 the usual convention applies: 0.x -> 0.(x+1) may break (it counts as major) and
    0.x.y -> 0.x.(y+1) may add (it counts as minor).
    """
    before, after = parse_version(old), parse_version(new)
    if before is None or after is None or after < before:
        return None
    if after == before:
        return Bump.NONE
    if after[0] != before[0]:
        return Bump.MAJOR
    if after[1] != before[1]:
        return Bump.MAJOR if before[0] == 0 else Bump.MINOR
    return Bump.MINOR if before[0] == 0 else Bump.PATCH


class SchemaWalk(Protocol):
    """What the keyword modules (`objects`, `wraps`) need of the schema walk
    (`toolgen.compat.schema.SchemaDiff`): a protocol, so they do not import the walk that imports them."""

    direction: Direction
    assume: Assume
    changes: list[Change]

    def label(self, pointer: str, side: int) -> str: ...
    def quote(self, name: str) -> str: ...
    def add(self, code: str, at: tuple[str, str], old: Any, new: Any, message: str) -> None: ...
    def compare(self, old: Any, new: Any, base_at: str, head_at: str, depth: int) -> None: ...
    def keyword_at(
        self, at: tuple[str, str], old: Mapping[str, Any], new: Mapping[str, Any], key: str
    ) -> tuple[str, str]: ...
    def rest(self, old: Mapping[str, Any], new: Mapping[str, Any], at: tuple[str, str]) -> None: ...
    def probe(self, direction: Direction, old: Any, new: Any, at: tuple[str, str], depth: int) -> list[Change]: ...
    def content(self, schema: Any, side: int) -> Any: ...
