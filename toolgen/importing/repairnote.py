"""What an import repair did: `Repair(pointer, message, kind)`, shared by the repairs and the importer.

Kinds: `note`, a faithful translation applied even without `--repair` (an older draft's spelling);
`repair`, a fix of how something is written that accepts the same values; `changes`, a fix that
changes which values are accepted, whose message starts with `CHANGED` and whose contract the
importer tags for review (TG450).
"""

from __future__ import annotations

from dataclasses import dataclass

NOTE, REPAIR, CHANGES = "note", "repair", "changes"
"""Kinds of `Repair`: a faithful translation, a fix of how it is written, a change of what is accepted."""
CHANGED = "changes what is accepted: "
"""How the message of every `changes` repair starts."""


@dataclass(frozen=True, slots=True)
class Repair:
    """One change made to a declaration: where (RFC 6901 into the source record), what, and its kind."""

    pointer: str
    message: str
    kind: str = REPAIR

    @classmethod
    def changed(cls, pointer: str, message: str) -> Repair:
        """A repair that changes which values are accepted; its message says so first."""
        return cls(pointer, CHANGED + message, CHANGES)

    @property
    def changes(self) -> bool:
        """True when this repair changes which values the schema accepts."""
        return self.kind == CHANGES


__all__ = ["CHANGED", "CHANGES", "NOTE", "REPAIR", "Repair"]
