# The toolgen runtime's _calls.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""How `Registry.call` / `acall` run a call that passed validation and the policy.

Part of the runtime: the registry hands each checked call (`_Ready`) to `run` or `arun` here, with
the call's `CallOptions`. They make the call's `ToolContext` (for an implementation that declares
one), run the implementation under the registry's guard and check what it returned. What the
trace needs besides the result (the context's events, the call id) comes back in `Outcome.extra`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _invoke
from ._context import Reporter, ToolContext
from ._redact import NO_SECRETS, Secrets

if TYPE_CHECKING:
    from ._runtime import Registry, _Outcome, _Ready

UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()
"""The default of `deps=`: the registry's own deps."""


@dataclass(frozen=True, slots=True)
class CallOptions:
    """What one call was given besides its arguments (the keyword arguments of `Registry.call`)."""

    call_id: str | None = None
    deps: Any = UNSET
    trace_id: str | None = None
    reporter: Reporter | None = None
    secrets: Secrets = NO_SECRETS

    def context(self, registry: Registry[Any], ready: _Ready) -> ToolContext[Any]:
        """The call's `ToolContext` (made for every call: its id and events go to the trace)."""
        limit = ready.limit
        return ToolContext(
            ready.contract.name,
            ready.contract.version,
            registry.deps if self.deps is UNSET else self.deps,
            call_id=self.call_id,
            deadline=time.monotonic() + limit if limit is not None else None,
            trace_id=self.trace_id,
            reporter=self.reporter,
            secrets=self.secrets,
        )


def _extra(context: ToolContext[Any]) -> dict[str, Any]:
    return {"call_id": context.call_id, "events": context.events}


def run(registry: Registry[Any], ready: _Ready, options: CallOptions) -> _Outcome:
    """Run a checked call in this thread (`Registry.call`)."""
    context = options.context(registry, ready)
    given = context if ready.wants_context else None
    with registry._guarded(ready.contract) as guard:
        ran = _invoke.run(
            ready.implementation, ready.model, ready.contract, ready.limit, given
        )
    outcome = registry._finish(ready, ran, guard)
    outcome.extra = _extra(context)
    return outcome


async def arun(
    registry: Registry[Any], ready: _Ready, options: CallOptions
) -> _Outcome:
    """Run a checked call on the event loop (`Registry.acall`)."""
    context = options.context(registry, ready)
    given = context if ready.wants_context else None
    with registry._guarded(ready.contract) as guard:
        ran = await _invoke.arun(
            ready.implementation, ready.model, ready.contract, ready.limit, given
        )
    outcome = registry._finish(ready, ran, guard)
    outcome.extra = _extra(context)
    return outcome


__all__ = ["UNSET", "CallOptions", "arun", "run"]
