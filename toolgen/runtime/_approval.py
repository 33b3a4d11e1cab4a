# The toolgen runtime's _approval.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Approval of a call the policy answers "ask" for: `Approval`, `ApprovalRequest`, `Approver`.

Part of the runtime: `_runtime` (and the package) re-export the public names here.

`Policy(allow=..., ask={"write"}, ask_tools={...}, ask_tags={...})` makes a call "ask"; the
registry then calls its `approver` (`Registry(approver=..., approval_timeout_s=...)`, or the
`approver=` of one call) with an `ApprovalRequest` once the input is valid and before the
implementation runs. The request carries the tool's name, its contract, the input with every
sensitive value replaced by `REDACTED`, the call id and why it asks. The approver, sync or async,
answers an `Approval(granted, reason, by)` (or a bool). A refusal, a missing approver, an approver
that raises and one that does not answer within `approval_timeout_s` all refuse the call:
`APPROVAL_DENIED` (a standard code, not retryable), with the reason in the message and
`details`. The trace record's `approval` says who decided and why. A framework that asked its own
user (the adapters) passes `approval=Approval(True, ..., by=<framework>)` to the call instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from ._results import Err


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What an approver sees: the tool, its contract, the redacted input, the call id, why it asks."""

    tool: str
    contract: Any
    input: Mapping[str, Any]
    call_id: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Approval:
    """An approver's answer: granted or not, why, and who decided."""

    granted: bool
    reason: str = ""
    by: str = "approver"

    def to_json(self) -> dict[str, Any]:
        """The answer as the trace keeps it."""
        return {"granted": self.granted, "reason": self.reason, "by": self.by}


Approver: TypeAlias = Callable[
    [ApprovalRequest], "Approval | bool | Awaitable[Approval | bool]"
]
"""What decides an "ask": sync or async, answers an `Approval` or a bool."""


def _answer(found: Any) -> Approval:
    if isinstance(found, Approval):
        return found
    if isinstance(found, bool):
        return Approval(found, "approved" if found else "refused")
    return Approval(
        False, f"the approver answered {type(found).__name__}, not Approval"
    )


def _failed() -> Approval:
    return Approval(False, "the approver failed", "runtime")


def _timed_out(limit: float | None) -> Approval:
    return Approval(False, f"no answer within {limit:g} s", "runtime")


def _no_approver() -> Approval:
    return Approval(
        False, "the call needs an approval and no approver is set", "runtime"
    )


def ask(
    approver: Approver | None, request: ApprovalRequest, limit: float | None
) -> Approval:
    """The approver's answer in this thread (`Registry.call`); a sync approver runs in a thread when limited."""
    if approver is None:
        return _no_approver()
    box: list[Approval] = []

    def decide() -> None:
        try:
            found = approver(request)
            if inspect.isawaitable(found):
                found = asyncio.run(_awaited(found, limit))
            box.append(_answer(found))
        except TimeoutError:
            box.append(_timed_out(limit))
        except Exception:
            box.append(_failed())

    if limit is None:
        decide()
        return box[0]
    worker = threading.Thread(
        target=decide, name=f"toolgen-approve-{request.tool}", daemon=True
    )
    worker.start()
    worker.join(limit)
    return box[0] if box else _timed_out(limit)


async def _awaited(found: Any, limit: float | None) -> Any:
    async with asyncio.timeout(limit):
        return await found


async def aask(
    approver: Approver | None, request: ApprovalRequest, limit: float | None
) -> Approval:
    """The approver's answer on the event loop (`Registry.acall`); a sync approver runs in a thread."""
    if approver is None:
        return _no_approver()
    try:
        async with asyncio.timeout(limit):
            if inspect.iscoroutinefunction(approver) or inspect.iscoroutinefunction(
                getattr(approver, "__call__", None)  # noqa: B004
            ):
                found = await approver(request)  # type: ignore[misc]
            else:
                found = await _in_daemon(approver, request)
            if inspect.isawaitable(found):
                found = await found
            return _answer(found)
    except TimeoutError:
        return _timed_out(limit)
    except Exception:
        return _failed()


async def _in_daemon(approver: Approver, request: ApprovalRequest) -> Any:
    """A sync approver's answer from a daemon thread: one that never answers does not keep the
    event loop's executor (and `asyncio.run`'s shutdown) waiting."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, failed: bool) -> None:
        if not answer.done():
            answer.set_exception(value) if failed else answer.set_result(value)

    def work() -> None:
        found: Any
        try:
            found, failed = approver(request), False
        except Exception as exc:
            found, failed = exc, True
        with contextlib.suppress(RuntimeError):  # the loop closed without waiting
            loop.call_soon_threadsafe(settle, found, failed)

    threading.Thread(
        target=work, name=f"toolgen-approve-{request.tool}", daemon=True
    ).start()
    return await answer


def refusal(contract: Any, approval: Approval) -> Err:
    """The `APPROVAL_DENIED` error of a refused call."""
    message = f"Tool {contract.name!r} needs an approval, which was refused: {approval.reason or 'no reason given'}."
    return Err(
        "APPROVAL_DENIED",
        message,
        False,
        {"reason": approval.reason, "by": approval.by},
    )


__all__ = ["Approval", "ApprovalRequest", "Approver", "aask", "ask", "refusal"]
