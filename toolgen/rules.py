"""Rule codes: every diagnostic toolgen can emit, with its default severity and a one-line title.

TG1xx contract errors, TG2xx review checklist (warnings by default), TG3xx provider projection,
TG4xx compatibility. Each is documented with a failing and a fixed example in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolgen.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule: its stable code, default severity and title."""

    code: str
    severity: Severity
    title: str


_E, _W = Severity.ERROR, Severity.WARNING

RULES: Mapping[str, Rule] = {
    r.code: r
    for r in (
        Rule("TG100", _E, "configuration is invalid"),
        Rule("TG101", _E, "contract file cannot be read"),
        Rule("TG102", _E, "contract file is not well-formed TOML or JSON"),
        Rule("TG103", _E, "contract root is not a table/object"),
        Rule("TG104", _E, "unknown key"),
        Rule("TG105", _E, "required key is missing"),
        Rule("TG106", _E, "value has the wrong type"),
        Rule("TG107", _E, "name is not snake_case or is too long"),
        Rule("TG108", _E, "name does not match the file name"),
        Rule("TG109", _E, "two contracts have the same name"),
        Rule("TG110", _E, "version is not MAJOR.MINOR.PATCH"),
        Rule("TG111", _E, "description is blank"),
        Rule("TG112", _E, "unknown permission"),
        Rule("TG113", _E, "permission listed twice"),
        Rule("TG114", _E, "schema is not a table/object"),
        Rule("TG115", _E, "schema root is not type object"),
        Rule("TG116", _E, "schema is not valid JSON Schema (draft 2020-12)"),
        Rule("TG117", _E, "$ref is not local to the document"),
        Rule("TG118", _E, "$ref points at nothing"),
        Rule("TG119", _E, "example input does not validate"),
        Rule("TG120", _E, "example output does not validate"),
        Rule("TG121", _E, "example error is neither declared nor standard"),
        Rule("TG122", _E, "error code is not UPPER_SNAKE_CASE"),
        Rule("TG123", _E, "non-standard error has no retryable"),
        Rule("TG124", _E, "example has both output and error"),
        Rule("TG125", _E, "error code declared twice"),
        Rule("TG126", _E, "value cannot be represented in JSON"),
        Rule("TG127", _E, "contract is too large or nested too deeply"),
        Rule("TG128", _E, "rule override is invalid"),
        Rule("TG129", _E, "key appears twice in a JSON object"),
        Rule("TG201", _W, "description is too short or only repeats the name"),
        Rule("TG202", _W, "description is very long"),
        Rule("TG203", _W, "property has no description"),
        Rule("TG204", _W, "input root does not state additionalProperties"),
        Rule("TG205", _W, "write/execute tool accepts additional input properties"),
        Rule("TG206", _W, "text looks like an absolute path or home directory"),
        Rule("TG207", _W, "text looks like a secret"),
        Rule("TG208", _W, "name ends in a version suffix"),
        Rule("TG209", _W, "required property also has a default"),
        Rule("TG210", _W, "tool with side effects declares no errors"),
        Rule("TG211", _W, "network tool declares neither TIMEOUT nor UNAVAILABLE"),
        Rule("TG212", _W, "permissions were not confirmed by a human"),
        Rule("TG213", _W, "schema keyword looks misspelled"),
        Rule("TG214", _W, "default does not match its own schema"),
        Rule("TG215", _W, "required property is not defined in properties"),
        Rule("TG240", _E, "timeout_ms is not a positive whole number of milliseconds"),
        Rule("TG450", _W, "an import repair changed what the tool accepts"),
        Rule("TG451", _E, "import: the input schema cannot be read"),
        # TG5xx: `toolgen audit`, implementations against their declared permissions
        Rule("TG501", _E, "implementation writes files without the write permission"),
        Rule("TG502", _E, "implementation runs programs without the execute permission"),
        Rule("TG503", _E, "implementation uses the network without the network permission"),
        Rule("TG504", _W, "implementation reads files without the read permission"),
        Rule("TG510", Severity.INFO, "declared permission is used by no effect the audit found"),
        Rule("TG511", Severity.INFO, "part of an implementation cannot be seen by reading it"),
        Rule("TG512", _W, "register() names a tool that is not in the catalog"),
        Rule("TG520", _E, "implementation file cannot be read or parsed"),
        # TG53x: `toolgen replay`, recorded calls against the contracts on disk
        Rule("TG530", _E, "recorded call of a tool that no longer exists"),
        Rule("TG531", _E, "recorded input is refused by the current input schema"),
        Rule("TG532", _E, "recorded output is refused by the current output schema"),
        Rule("TG533", _E, "recorded error code is no longer declared"),
        Rule("TG534", Severity.INFO, "a check depends on a redacted or shortened value"),
        Rule("TG539", _E, "trace line is not a record of this package"),
    )
}
"""Rules of the TG1xx, TG2xx and TG5xx families and the import's TG45x; the provider (TG3xx) and
compatibility (TG4xx) modules register theirs with `register`."""

_EXTRA: dict[str, Rule] = {}


def register(*rules: Rule) -> None:
    """Add rules of another family (TG3xx, TG4xx) so configuration can refer to them."""
    for rule in rules:
        _EXTRA[rule.code] = rule


def get(code: str) -> Rule | None:
    """The rule with this code, or None."""
    return RULES.get(code) or _EXTRA.get(code)


def all_rules() -> list[Rule]:
    """Every known rule, sorted by code."""
    return sorted([*RULES.values(), *_EXTRA.values()], key=lambda r: r.code)


def is_known_code(code: str) -> bool:
    """True for a code in a family toolgen owns (TG1xx to TG4xx)."""
    return get(code) is not None or (len(code) == 5 and code[:2] == "TG" and code[2] in "12345" and code[3:].isdigit())
