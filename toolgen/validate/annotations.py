"""TG141: MCP annotations a contract states (`providers.annotations`) that its permissions contradict.

The MCP declaration derives each hint from the permissions and `idempotent`
(`toolgen.render.providers.mcp`); a stated hint replaces the derived one, so a statement must not
claim what the permissions deny: `readOnlyHint = true` with `write` or `execute`, or an
`idempotentHint` other than `idempotent`.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolgen.validate.report import Reporter


def check_annotations(data: Mapping[str, object], report: Reporter) -> None:
    """TG141: a stated MCP annotation that the permissions or `idempotent` contradict."""
    providers = data.get("providers")
    stated = providers.get("annotations") if isinstance(providers, Mapping) else None
    if not isinstance(stated, dict):
        return
    permissions = data.get("permissions")
    changes = sorted({"write", "execute"} & set(permissions)) if isinstance(permissions, list) else []
    if stated.get("readOnlyHint") is True and changes:
        message = (
            f"providers.annotations says readOnlyHint = true, but the permissions include {' and '.join(changes)}: "
            "a client would run the tool unasked as harmless; remove the hint or the permission"
        )
        report("TG141", "/providers/annotations/readOnlyHint", message)
    idempotent = data.get("idempotent", False)
    hint = stated.get("idempotentHint")
    if isinstance(hint, bool) and isinstance(idempotent, bool) and hint is not idempotent:
        message = (
            f"providers.annotations says idempotentHint = {str(hint).lower()}, but idempotent is "
            f"{str(idempotent).lower()}: the hint follows `idempotent`; state it there"
        )
        report("TG141", "/providers/annotations/idempotentHint", message)
