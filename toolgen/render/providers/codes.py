"""TG3xx rules: provider projection problems, registered with `toolgen.rules` on import.

Warnings say a tool falls back to a weaker form for one provider and why; errors say a tool cannot
be expressed for a provider at all, which stops the build. Each is documented with a failing and a
fixed example in docs/rules-providers.md.
"""

from __future__ import annotations

from toolgen import rules
from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic, Severity

_E, _W = Severity.ERROR, Severity.WARNING

NOT_STRICT = "TG301"
ROOT_COMPOSITION = "TG302"
NAME = "TG303"
DESCRIPTION_LENGTH = "TG304"
TOOL_COUNT = "TG305"
RECURSIVE = "TG306"
ANTHROPIC_NOT_STRICT = "TG307"
GEMINI_ENUM = "TG308"
GEMINI_KEYWORD = "TG309"
NAMESPACE = "TG310"
MCP_HEADER = "TG311"

PROVIDER_RULES = (
    rules.Rule(NOT_STRICT, _W, "OpenAI declaration falls back to strict: false"),
    rules.Rule(ROOT_COMPOSITION, _W, "root anyOf/oneOf/allOf is flattened for providers that refuse it"),
    rules.Rule(NAME, _E, "tool name breaks a provider's naming rule"),
    rules.Rule(DESCRIPTION_LENGTH, _W, "description is longer than a provider accepts, so it is shortened"),
    rules.Rule(TOOL_COUNT, _W, "a provider file holds more tools than one request takes"),
    rules.Rule(RECURSIVE, _W, "recursive schema Gemini may not unroll (through a required property)"),
    rules.Rule(ANTHROPIC_NOT_STRICT, _W, "Anthropic strict mode is not applied to a tool"),
    rules.Rule(GEMINI_ENUM, _W, "enum Gemini cannot take moves to the description"),
    rules.Rule(GEMINI_KEYWORD, _W, "subschema keyword Gemini does not document is stated in the description"),
    rules.Rule(NAMESPACE, _W, "OpenAI Responses namespace is not declared in the configuration"),
    rules.Rule(MCP_HEADER, _W, "x-mcp-header on a property MCP does not allow it on"),
)
"""Every TG3xx rule."""

rules.register(*PROVIDER_RULES)


def diagnostic(code: str, contract: Contract, provider: str, pointer: str, message: str) -> Diagnostic:
    """A TG3xx diagnostic naming the tool (its file), the provider and the schema pointer."""
    rule = rules.get(code)
    severity = rule.severity if rule is not None else _E
    text = f"{provider}: tool `{contract.name}` {message}"
    return Diagnostic(code, severity, text, contract.source, pointer)
