"""The decision table: every TG4xx rule, the bump it needs in each direction, and the fix it hints.

Input is what callers send (the tool reads it), output is what callers receive (the tool writes it),
so the same edit needs opposite bumps in the two directions: widening what an input accepts is
compatible, widening what an output may contain is not. Anything no rule proves safe falls to
TG441 and needs a major bump (fail closed). docs/compatibility.md prints this table; a test keeps
the two in step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolgen.compat.model import Bump, Direction
from toolgen.diagnostics import Severity

_N, _P, _MI, _MA = Bump.NONE, Bump.PATCH, Bump.MINOR, Bump.MAJOR


@dataclass(frozen=True, slots=True)
class Decision:
    """One row: a rule, the bump it needs for input, for output and for tool metadata, and a hint."""

    code: str
    name: str
    title: str
    input: Bump | None
    output: Bump | None
    metadata: Bump | None
    hint: str
    output_hint: str = ""

    def bump(self, direction: Direction) -> Bump:
        """The bump this rule needs in `direction` (major where the table has no cell: fail closed)."""
        value = {Direction.INPUT: self.input, Direction.OUTPUT: self.output, Direction.METADATA: self.metadata}
        found = value[direction]
        return Bump.MAJOR if found is None else found

    def advice(self, direction: Direction) -> str:
        """The hint for a finding in `direction` (schema rules have one per direction)."""
        return self.output_hint if direction is Direction.OUTPUT and self.output_hint else self.hint


_OK_IN = "Compatible for input: every call that was valid still is."
_OK_OUT = "Compatible for output: callers receive a subset of what they handled before."

_SCHEMA: tuple[tuple[str, str, str, Bump, Bump, str, str], ...] = (
    ("TG420", "property-added", "optional property added", _MI, _MI,
     "Compatible: callers send only the properties they know (see the assumption in the docs).",
     "Compatible: callers ignore output properties they do not know."),
    ("TG421", "required-property-added", "required property added", _MA, _MI,
     "Old calls lack it: make it optional with a default in the tool, or bump the major version.", _OK_OUT),
    ("TG422", "property-removed", "property removed", _MA, _MA,
     "Old calls may still send it: keep it (say it is deprecated in its description) until the next major.",
     "Callers may read it: keep returning it (deprecated in its description) until the next major."),
    ("TG423", "property-now-required", "optional property became required", _MA, _MI,
     "Old calls may leave it out: keep it optional and give the tool a default.", _OK_OUT),
    ("TG424", "property-now-optional", "required property became optional", _MI, _MA,
     _OK_IN, "Callers may read it unconditionally: keep returning it or bump the major version."),
    ("TG425", "type-widened", "type widened", _MI, _MA,
     _OK_IN, "Callers may not handle the new type: keep the old type or bump the major version."),
    ("TG426", "type-narrowed", "type narrowed", _MA, _MI,
     "Old calls may send the old type: keep accepting it and convert inside the tool.", _OK_OUT),
    ("TG427", "type-changed", "type changed to an unrelated type", _MA, _MA,
     "Add a new property with the new type and deprecate the old one instead of changing it.",
     "Add a new property with the new type and deprecate the old one instead of changing it."),
    ("TG428", "enum-widened", "enum or const allows more values", _MI, _MA,
     _OK_IN, "Callers may not handle the new values: bump the major version or keep the old set."),
    ("TG429", "enum-narrowed", "enum or const allows fewer values", _MA, _MI,
     "Old calls may send the removed values: keep accepting them and map them inside the tool.", _OK_OUT),
    ("TG430", "enum-changed", "enum values both added and removed", _MA, _MA,
     "Split the edit: add the new values now (minor), remove the old ones in the next major.",
     "Callers may not handle the new values: bump the major version."),
    ("TG431", "constraint-loosened", "constraint loosened or removed", _MI, _MA,
     _OK_IN, "Callers may rely on the old bound: keep it or bump the major version."),
    ("TG432", "constraint-tightened", "constraint tightened or added", _MA, _MI,
     "Old calls may break the new bound: keep the old bound or bump the major version.", _OK_OUT),
    ("TG433", "constraint-changed", "pattern, format or multipleOf changed incomparably", _MA, _MA,
     "toolgen cannot prove the new value accepts the same values: bump the major version.",
     "toolgen cannot prove the new value produces values callers accept: bump the major version."),
    ("TG434", "additional-properties-opened", "additionalProperties false became allowed", _MI, _MI,
     _OK_IN, "Compatible: callers ignore output properties they do not know."),
    ("TG435", "additional-properties-closed", "additionalProperties became false", _MA, _MI,
     "Old calls sending undeclared properties are now rejected: bump the major version.", _OK_OUT),
    ("TG436", "composition-widened", "anyOf branch added or allOf branch removed", _MI, _MA,
     _OK_IN, "Callers may receive a shape they do not handle: bump the major version."),
    ("TG437", "composition-narrowed", "anyOf branch removed or allOf branch added", _MA, _MI,
     "Old calls matching only the removed branch are now rejected: bump the major version.", _OK_OUT),
    ("TG438", "composition-changed", "oneOf or not changed, or branches rewritten", _MA, _MA,
     "toolgen cannot prove the same values are accepted (a oneOf value may now match two branches): "
     "bump the major version, or use anyOf for overlapping branches.",
     "toolgen cannot prove callers handle the new values: bump the major version."),
    ("TG439", "default-changed", "default value changed", _MI, _P,
     "Calls that leave the property out now behave differently: say so in the description.",
     "Documentation-only for output: a patch bump."),
    ("TG440", "annotation-changed", "schema description, title, examples or x- annotation changed", _P, _P,
     "Documentation-only: a patch bump.", "Documentation-only: a patch bump."),
    ("TG441", "unrecognized-change", "schema change no rule proves safe (fail closed)", _MA, _MA,
     "toolgen cannot prove this change compatible: bump the major version or undo it.",
     "toolgen cannot prove this change compatible: bump the major version or undo it."),
    ("TG442", "unresolvable-schema", "$ref cannot be resolved or recursion is too deep (fail closed)", _MA, _MA,
     "Make every $ref point inside the same schema; what cannot be resolved needs a major bump.",
     "Make every $ref point inside the same schema; what cannot be resolved needs a major bump."),
)  # fmt: skip

_TOOL: tuple[tuple[str, str, str, Severity, Bump | None, str], ...] = (
    ("TG401", "tool-removed", "tool removed", Severity.ERROR, _MA,
     "Deprecate the tool (`deprecated = \"use X\"`) and remove it later; pass --allow-removal if intended."),
    ("TG402", "tool-added", "tool added", Severity.WARNING, _N, "Nothing to fix."),
    ("TG403", "version-went-down", "version went down", Severity.ERROR, None,
     "Versions only go up; set a version above the base version."),
    ("TG404", "bump-too-small", "version bump smaller than the changes need", Severity.ERROR, None,
     "Raise the version by at least the bump the listed changes need."),
    ("TG405", "permission-added", "permission added (escalation)", Severity.ERROR, _MA,
     "Have the tool's owners review it, bump the major version and pass --allow-escalation."),
    ("TG406", "permission-removed", "permission removed", Severity.WARNING, _MI, "Nothing to fix."),
    ("TG407", "docs-changed", "description, title, examples, owners or tags changed", Severity.WARNING, _P,
     "Nothing to fix; documentation-only changes need a patch bump."),
    ("TG408", "deprecation-changed", "tool deprecated or undeprecated", Severity.WARNING, _MI,
     "Nothing to fix; say in `deprecated` what to use instead."),
    ("TG409", "idempotency-changed", "idempotent changed", Severity.WARNING, None,
     "Callers may retry an idempotent tool blindly; dropping idempotency needs a major bump."),
    ("TG410", "error-added", "error code added", Severity.WARNING, _MI,
     "Nothing to fix; callers treat unknown codes as failures."),
    ("TG411", "error-removed", "error code removed", Severity.WARNING, _MI, "Nothing to fix."),
    ("TG412", "retryable-changed", "error code's retryable changed", Severity.WARNING, _MI,
     "Callers decide whether to retry from this flag; say why it changed in the error's description."),
    ("TG413", "content-kind-added", "content kind added", Severity.WARNING, _MA,
     "Callers may not handle the new kind (one that reads only the JSON data, a client that cannot show "
     "audio): bump the major version, or return it from a new tool."),
    ("TG414", "content-kind-removed", "content kind removed", Severity.WARNING, _MI,
     "Nothing to fix; results carry a subset of what callers handled before."),
    ("TG241", "timeout-changed", "timeout_ms changed", Severity.WARNING, None,
     "Calls that finished in time may now time out; a lower or new timeout_ms needs a minor bump."),
)  # fmt: skip


def _build() -> dict[str, Decision]:
    table: dict[str, Decision] = {}
    for code, name, title, inp, out, hint, output_hint in _SCHEMA:
        table[code] = Decision(code, name, title, inp, out, None, hint, output_hint)
    for code, name, title, _severity, meta, hint in _TOOL:
        table[code] = Decision(code, name, title, None, None, meta, hint)
    return table


DECISIONS: Mapping[str, Decision] = _build()
"""Every TG4xx rule by code."""

IDEMPOTENT_DROPPED, IDEMPOTENT_ADDED = Bump.MAJOR, Bump.MINOR
"""TG409 depends on the direction of the flip: true -> false is major, false -> true is minor."""

TIMEOUT_SHORTER, TIMEOUT_LONGER = Bump.MINOR, Bump.PATCH
"""TG241 depends on the direction too: `timeout_ms` lowered or added is minor, raised or removed is patch."""
