"""Rule codes: every diagnostic toolgen can emit, with its default severity and a one-line title.

TG1xx contract errors, TG2xx review checklist (warnings by default), TG3xx provider projection
and the python target, TG4xx compatibility and import, TG5xx audit and replay. Each is documented
with a failing and a fixed example in docs/rules.md (TG3xx: docs/rules-providers.md).
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
        # TG1xx: contract errors (toolgen.validate)
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
        Rule("TG150", _W, "text is a placeholder left to fill in (TODO)"),
        # TG2xx: the review checklist (toolgen.validate.lint), TG24x the timeout key
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
        Rule("TG241", _W, "timeout_ms changed"),
        # TG30x-TG31x: provider projection (toolgen.render.providers.codes)
        Rule("TG301", _W, "OpenAI declaration falls back to strict: false"),
        Rule("TG302", _W, "root anyOf/oneOf/allOf is flattened for providers that refuse it"),
        Rule("TG303", _E, "tool name breaks a provider's naming rule"),
        Rule("TG304", _W, "description is longer than a provider accepts, so it is shortened"),
        Rule("TG305", _W, "a provider file holds more tools than one request takes"),
        Rule("TG306", _W, "recursive schema Gemini may not unroll (through a required property)"),
        Rule("TG307", _W, "Anthropic strict mode is not applied to a tool"),
        Rule("TG308", _W, "enum Gemini cannot take moves to the description"),
        Rule("TG309", _W, "subschema keyword Gemini does not document is stated in the description"),
        Rule("TG310", _W, "OpenAI Responses namespace is not declared in the configuration"),
        Rule("TG311", _W, "x-mcp-header on a property MCP does not allow it on"),
        # TG35x: the python target (toolgen.render.python)
        Rule("TG350", _E, "python target cannot make models for a schema"),
        Rule("TG351", _W, "python model cannot carry a schema constraint"),
        Rule("TG352", _E, "a python template fails or renders invalid Python"),
        Rule("TG353", _W, "a model-typed field has an object default mypy rejects"),
        # TG40x-TG44x: compatibility between two versions of a catalog (toolgen.compat.table)
        Rule("TG401", _E, "tool removed"),
        Rule("TG402", _W, "tool added"),
        Rule("TG403", _E, "version went down"),
        Rule("TG404", _E, "version bump smaller than the changes need"),
        Rule("TG405", _E, "permission added (escalation)"),
        Rule("TG406", _W, "permission removed"),
        Rule("TG407", _W, "description, title, examples, owners or tags changed"),
        Rule("TG408", _W, "tool deprecated or undeprecated"),
        Rule("TG409", _W, "idempotent changed"),
        Rule("TG410", _W, "error code added"),
        Rule("TG411", _W, "error code removed"),
        Rule("TG412", _W, "error code's retryable changed"),
        Rule("TG420", _W, "optional property added"),
        Rule("TG421", _W, "required property added"),
        Rule("TG422", _W, "property removed"),
        Rule("TG423", _W, "optional property became required"),
        Rule("TG424", _W, "required property became optional"),
        Rule("TG425", _W, "type widened"),
        Rule("TG426", _W, "type narrowed"),
        Rule("TG427", _W, "type changed to an unrelated type"),
        Rule("TG428", _W, "enum or const allows more values"),
        Rule("TG429", _W, "enum or const allows fewer values"),
        Rule("TG430", _W, "enum values both added and removed"),
        Rule("TG431", _W, "constraint loosened or removed"),
        Rule("TG432", _W, "constraint tightened or added"),
        Rule("TG433", _W, "pattern, format or multipleOf changed incomparably"),
        Rule("TG434", _W, "additionalProperties false became allowed"),
        Rule("TG435", _W, "additionalProperties became false"),
        Rule("TG436", _W, "anyOf branch added or allOf branch removed"),
        Rule("TG437", _W, "anyOf branch removed or allOf branch added"),
        Rule("TG438", _W, "oneOf or not changed, or branches rewritten"),
        Rule("TG439", _W, "default value changed"),
        Rule("TG440", _W, "schema description, title, examples or x- annotation changed"),
        Rule("TG441", _W, "schema change no rule proves safe (fail closed)"),
        Rule("TG442", _W, "$ref cannot be resolved or recursion is too deep (fail closed)"),
        # TG45x: import (toolgen.importing)
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
"""Every rule toolgen has, by code: one static table (nothing is added at run time). The modules
that emit a family's diagnostics take their rules from here (`toolgen.render.providers.codes`,
`toolgen.render.python`, `toolgen.compat.table`); a test holds their own tables to this one."""


def get(code: str) -> Rule | None:
    """The rule with this code, or None."""
    return RULES.get(code)


def all_rules() -> list[Rule]:
    """Every known rule, sorted by code."""
    return sorted(RULES.values(), key=lambda r: r.code)


def is_known_code(code: str) -> bool:
    """True for a code in a family toolgen owns (TG1xx to TG5xx)."""
    return get(code) is not None or (len(code) == 5 and code[:2] == "TG" and code[2] in "12345" and code[3:].isdigit())
