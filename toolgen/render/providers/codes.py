"""TG3xx rules: provider projection problems (the rules themselves are in `toolgen.rules`).

Warnings say a tool falls back to a weaker form for one provider and why; errors say a tool cannot
be expressed for a provider at all, which stops the build. Each is documented with a failing and a
fixed example in docs/rules-providers.md.
"""

from __future__ import annotations

from toolgen import rules
from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic, Severity

_E = Severity.ERROR

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
ONE_OF = "TG312"

PROVIDER_RULES: tuple[rules.Rule, ...] = tuple(
    rules.RULES[code]
    for code in (
        NOT_STRICT,
        ROOT_COMPOSITION,
        NAME,
        DESCRIPTION_LENGTH,
        TOOL_COUNT,
        RECURSIVE,
        ANTHROPIC_NOT_STRICT,
        GEMINI_ENUM,
        GEMINI_KEYWORD,
        NAMESPACE,
        MCP_HEADER,
        ONE_OF,
    )
)
"""Every TG3xx rule (their severities and titles are in the one table, `toolgen.rules`)."""


def diagnostic(code: str, contract: Contract, provider: str, pointer: str, message: str) -> Diagnostic:
    """A TG3xx diagnostic naming the tool (its file), the provider and the schema pointer."""
    rule = rules.get(code)
    severity = rule.severity if rule is not None else _E
    text = f"{provider}: tool `{contract.name}` {message}"
    return Diagnostic(code, severity, text, contract.source, pointer)
