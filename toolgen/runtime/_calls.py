# The toolgen runtime's _calls.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""How `Registry.call` / `acall` run a call that passed validation and the policy.

Part of the runtime: the registry hands each checked call (`Ready`) to `run` or `arun` here, with
the call's `CallOptions`. They ask for an approval when the policy answered "ask" (`_approval.py`),
make the call's `ToolContext` (for an implementation that declares one), run the implementation
under the registry's guard, once or as its `RetryPolicy` says (`_retry.py`), and check what it
returned. What the trace needs besides the result (call id, context events, approval, attempts)
comes back in `Outcome.extra`.
"""

from __future__ import annotations

import time
import uuid
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import _approval, _invoke
from ._approval import Approval, ApprovalRequest, Approver
from ._context import Reporter, ToolContext
from ._outcome import Outcome, Ready
from ._redact import NO_SECRETS, Secrets
from ._results import thaw
from ._retry import Attempts
from ._schemas import redact

if TYPE_CHECKING:
    from ._contract import ToolContract
    from ._runtime import Registry

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
    approval: Approval | None = None
    """Decided before the call (a framework asked its user); the approver is not asked."""
    approver: Approver | None = None
    """This call's approver, instead of the registry's."""
    deadline: float | None = None
    """A `time.monotonic()` instant no attempt runs past."""
    spent: float = 0.0
    """Seconds of the time limit validation used: the first attempt gets the rest."""

    def given(
        self,
        approval: Approval | None,
        approver: Approver | None,
        deadline: float | None,
    ) -> CallOptions:
        """These options with the call's approval, approver and deadline."""
        return replace(self, approval=approval, approver=approver, deadline=deadline)

    def found(
        self, secrets: Secrets, trace_id: str | None, spent: float
    ) -> CallOptions:
        """These options with the input's secrets, the span's trace id unless one was given, and
        the time validation took."""
        return replace(
            self, secrets=secrets, trace_id=self.trace_id or trace_id, spent=spent
        )

    def context(
        self, registry: Registry[Any], ready: Ready, limit: float | None, call_id: str
    ) -> ToolContext[Any]:
        """An attempt's `ToolContext` (made for every call: its id and events go to the trace)."""
        return ToolContext(
            ready.contract.name,
            ready.contract.version,
            registry.deps if self.deps is UNSET else self.deps,
            call_id=call_id,
            deadline=time.monotonic() + limit if limit is not None else None,
            trace_id=self.trace_id,
            reporter=self.reporter,
            secrets=self.secrets,
        )


class _Call:
    """One checked call's state across its approval and attempts."""

    def __init__(
        self, registry: Registry[Any], ready: Ready, options: CallOptions
    ) -> None:
        self.registry = registry
        self.ready = ready
        self.options = options
        self.call_id = options.call_id or new_id()
        self.attempts = Attempts(registry.retry, options.deadline)
        self.events: list[Any] = []
        self.extra: dict[str, Any] = {"call_id": self.call_id}

    def request(self) -> ApprovalRequest:
        contract = self.ready.contract
        shown = redact(thaw(self.ready.model), contract.input_schema)
        shown = self.options.secrets.scrub_data(shown)
        return ApprovalRequest(
            contract.name, contract, shown, self.call_id, self.ready.asks
        )

    def approver(self) -> Approver | None:
        return self.options.approver or self.registry.approver

    def refused(self, approval: Approval) -> Outcome | None:
        """The outcome of a refused call, None when granted (either way the trace records it)."""
        self.extra["approval"] = approval.to_json()
        if approval.granted:
            return None
        return self.finish(
            Outcome(_approval.refusal(self.ready.contract, approval), "denied")
        )

    def attempt(
        self,
    ) -> tuple[float | None, float, ToolContext[Any] | None, ToolContext[Any]]:
        """The next attempt's limit, time already spent of it, and context (given, made)."""
        spent = self.options.spent if not self.attempts.record else 0.0
        self.attempts.begin()
        limit = self.attempts.limit(self.ready.limit)
        rest = None if limit is None else max(limit - spent, 0.0)
        context = self.options.context(self.registry, self.ready, rest, self.call_id)
        return limit, spent, context if self.ready.wants_context else None, context

    def after(
        self, context: ToolContext[Any], ran: _invoke.Ran, guard: Any
    ) -> tuple[Outcome, float | None]:
        self.events.extend(context.events)
        outcome = self.registry._finish(self.ready, ran, guard)
        return outcome, self.attempts.wait(outcome.result)

    def finish(self, outcome: Outcome) -> Outcome:
        self.extra["events"] = tuple(self.events)
        if self.registry.retry is not None and self.attempts.record:
            self.extra["attempts"] = tuple(self.attempts.record)
        outcome.extra = self.extra
        return outcome


def guarded(enforce: bool, contract: ToolContract) -> AbstractContextManager[Any]:
    """`_enforce.enforced(...)` around the implementation with `enforce=True`, else nothing."""
    if not enforce:
        return nullcontext(None)
    from . import _enforce

    return _enforce.enforced(contract.name, contract.permissions)


def new_id() -> str:
    """A fresh call id (`call_<hex>`), for a call that was given none."""
    return f"call_{uuid.uuid4().hex}"


def run(registry: Registry[Any], ready: Ready, options: CallOptions) -> Outcome:
    """Run a checked call in this thread (`Registry.call`)."""
    call = _Call(registry, ready, options)
    if ready.asks:
        approval = options.approval or _approval.ask(
            call.approver(), call.request(), registry.approval_timeout_s
        )
        refused = call.refused(approval)
        if refused is not None:
            return refused
    while True:
        limit, spent, given, context = call.attempt()
        with guarded(registry.enforce, ready.contract) as guard:
            ran = _invoke.run(
                ready.implementation,
                ready.model,
                ready.contract,
                limit,
                tool_context=given,
                spent=spent,
            )
        outcome, pause = call.after(context, ran, guard)
        if pause is None:
            return call.finish(outcome)
        registry.retry.sleep(pause)  # type: ignore[union-attr]


async def arun(registry: Registry[Any], ready: Ready, options: CallOptions) -> Outcome:
    """Run a checked call on the event loop (`Registry.acall`)."""
    call = _Call(registry, ready, options)
    if ready.asks:
        approval = options.approval or await _approval.aask(
            call.approver(), call.request(), registry.approval_timeout_s
        )
        refused = call.refused(approval)
        if refused is not None:
            return refused
    while True:
        limit, spent, given, context = call.attempt()
        with guarded(registry.enforce, ready.contract) as guard:
            ran = await _invoke.arun(
                ready.implementation,
                ready.model,
                ready.contract,
                limit,
                tool_context=given,
                spent=spent,
            )
        outcome, pause = call.after(context, ran, guard)
        if pause is None:
            return call.finish(outcome)
        await registry.retry.asleep(pause)  # type: ignore[union-attr]


__all__ = ["UNSET", "CallOptions", "arun", "guarded", "new_id", "run"]
