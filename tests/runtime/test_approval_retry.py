"""Approval ("ask" per permission, tool and tag; granted, refused, timed out; sync and async approvers) and
`RetryPolicy` (only retryable errors, backoff with jitter, the budget, the call's deadline, each attempt traced),
through the registry."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.agent_support import agent_package

PACKAGE = "approval_tools"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with agent_package(tmp_path_factory.mktemp("approval"), PACKAGE) as package:
        yield package


def _registry(pkg: ModuleType, approver: Any, traces: list[Any], **policy: Any) -> Any:
    registry = pkg.Registry(
        pkg.Policy(allow={"read"}, **policy), traces.append, approver=approver, approval_timeout_s=0.3
    )
    registry.register("erase_word", lambda arguments: pkg.Ok({}))
    registry.register("lookup_word", lambda arguments: pkg.Ok({"definition": arguments.word}))
    return registry


def test_an_asked_permission_is_granted_by_the_approver_who_sees_the_redacted_input(pkg: ModuleType) -> None:
    seen: list[Any] = []

    def approver(request: Any) -> Any:
        seen.append(request)
        return pkg.Approval(True, "owner said yes", "alice")

    traces: list[Any] = []
    registry = _registry(pkg, approver, traces, ask={"write"})
    assert registry.call("erase_word", {"word": "w"}, call_id="c1").ok
    (request,) = seen
    assert (request.tool, request.contract.name, dict(request.input), request.call_id) == (
        "erase_word",
        "erase_word",
        {"word": "w"},
        "c1",
    )
    assert request.reasons == ("permission write",)
    assert traces[0].approval == {"granted": True, "reason": "owner said yes", "by": "alice"}
    assert traces[0].to_dict()["approval"]["by"] == "alice"


def test_a_sensitive_value_never_reaches_the_approver(pkg: ModuleType) -> None:
    seen: list[Any] = []
    registry = _registry(pkg, lambda request: seen.append(request) or True, [], ask_tools={"lookup_word"})
    assert registry.call("lookup_word", {"word": "w", "api_key": "sk-hidden"}).ok
    assert dict(seen[0].input) == {"word": "w", "api_key": "[REDACTED]"}
    assert seen[0].reasons == ("tool lookup_word",)


def test_a_refusal_is_approval_denied_not_retryable(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = _registry(pkg, lambda request: pkg.Approval(False, "not today", "bob"), traces, ask={"write"})
    result = registry.call("erase_word", {"word": "w"})
    assert (result.code, result.retryable) == ("APPROVAL_DENIED", False)
    assert "not today" in result.message and result.details == {"reason": "not today", "by": "bob"}
    assert pkg.CONTRACTS["erase_word"].retryable("APPROVAL_DENIED") is False
    assert (traces[0].permission, traces[0].approval["granted"]) == ("denied", False)


def test_an_approver_that_does_not_answer_in_time_refuses(pkg: ModuleType) -> None:
    def slow(request: Any) -> bool:
        time.sleep(2)
        return True

    async def aslow(request: Any) -> bool:
        await asyncio.sleep(2)
        return True

    for approver in (slow, aslow):
        traces: list[Any] = []
        registry = _registry(pkg, approver, traces, ask={"write"})
        began = time.monotonic()
        assert registry.call("erase_word", {"word": "w"}).code == "APPROVAL_DENIED"
        assert asyncio.run(registry.acall("erase_word", {"word": "w"})).code == "APPROVAL_DENIED"
        assert time.monotonic() - began < 1.8
        assert [t.approval["reason"] for t in traces] == ["no answer within 0.3 s"] * 2


def test_an_async_approver_under_acall_and_an_asked_tag(pkg: ModuleType) -> None:
    async def approver(request: Any) -> Any:
        return pkg.Approval(request.tool == "lookup_word", "only lookups", "policy-bot")

    traces: list[Any] = []
    registry = _registry(pkg, approver, traces, ask={"write"})
    assert asyncio.run(registry.acall("erase_word", {"word": "w"})).code == "APPROVAL_DENIED"
    assert traces[0].approval["by"] == "policy-bot"


def test_no_approver_refuses_and_a_deny_stays_a_deny(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = _registry(pkg, None, traces, ask={"write"})
    assert registry.call("erase_word", {"word": "w"}).details["reason"].startswith("the call needs an approval")
    denied = _registry(pkg, lambda request: True, [])  # write neither allowed nor asked
    assert denied.call("erase_word", {"word": "w"}).code == "PERMISSION_DENIED"


def test_a_decision_made_by_the_caller_skips_the_approver(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry = _registry(pkg, lambda request: pytest.fail("asked"), traces, ask={"write"})
    decided = pkg.Approval(True, "approved in the run", "openai-agents")
    assert registry.call("erase_word", {"word": "w"}, approval=decided).ok
    assert traces[0].approval["by"] == "openai-agents"


def test_policy_decide_per_permission_tool_and_tag(pkg: ModuleType) -> None:
    erase = pkg.CONTRACTS["erase_word"]
    assert pkg.Policy(allow={"write"}).decide(erase) == ("allow", ())
    assert pkg.Policy(ask={"write"}).decide(erase) == ("ask", ("permission write",))
    assert pkg.Policy(allow={"write"}, ask_tools={"erase_word"}).decide(erase) == ("ask", ("tool erase_word",))
    assert pkg.Policy().decide(erase) == ("deny", ("write",))


# --- retries ----------------------------------------------------------------------------------------------


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)


def _flaky(pkg: ModuleType, codes: list[str]) -> Any:
    left = list(codes)

    def lookup(arguments: Any) -> Any:
        code = left.pop(0) if left else "OK"
        return pkg.Ok({"definition": "x"}) if code == "OK" else pkg.Err(code, "down")

    return lookup


def _retrying(pkg: ModuleType, codes: list[str], traces: list[Any], **options: Any) -> tuple[Any, FakeTime]:
    fake = FakeTime()
    retry = pkg.RetryPolicy(clock=fake.clock, sleep=fake.sleep, asleep=fake.asleep, random=lambda: 0.5, **options)
    registry = pkg.Registry(pkg.Policy(allow={"read"}), traces.append, retry=retry)
    registry.register("lookup_word", _flaky(pkg, codes))
    return registry, fake


def test_retryable_errors_are_retried_with_jittered_backoff_and_each_attempt_traced(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry, fake = _retrying(pkg, ["UNAVAILABLE", "TIMEOUT"], traces, attempts=3, base_s=1.0, multiplier=2.0)
    assert registry.call("lookup_word", {"word": "w"}).ok
    assert fake.slept == [0.5, 1.0]  # 1 s and 2 s backoff, half taken off by the jitter
    (record,) = traces
    assert [(a["attempt"], a["code"], a["retryable"], a.get("wait_s")) for a in record.attempts] == [
        (1, "UNAVAILABLE", True, 0.5),
        (2, "TIMEOUT", True, 1.0),
        (3, "OK", False, None),
    ]


def test_a_not_retryable_error_is_not_retried(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry, fake = _retrying(pkg, ["UNKNOWN_WORD", "UNAVAILABLE"], traces)
    assert registry.call("lookup_word", {"word": "w"}).code == "UNKNOWN_WORD"
    assert fake.slept == [] and len(traces[0].attempts) == 1


def test_retries_stop_at_the_attempts_and_at_the_budget(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry, fake = _retrying(pkg, ["UNAVAILABLE"] * 9, traces, attempts=3, base_s=1.0)
    assert registry.call("lookup_word", {"word": "w"}).code == "UNAVAILABLE"
    assert len(traces[-1].attempts) == 3
    registry, fake = _retrying(pkg, ["UNAVAILABLE"] * 9, traces, attempts=9, base_s=1.0, jitter=0.0, budget_s=6.5)
    assert asyncio.run(registry.acall("lookup_word", {"word": "w"})).code == "UNAVAILABLE"
    assert fake.slept == [1.0, 2.0]  # a wait of 4 s would end past the 6.5 s budget
    assert traces[-1].attempts[-1]["stopped"] == "budget"


def test_retries_never_run_past_the_calls_deadline(pkg: ModuleType) -> None:
    traces: list[Any] = []
    registry, fake = _retrying(pkg, ["UNAVAILABLE"] * 9, traces, attempts=9, base_s=1.0, jitter=0.0)
    assert registry.call("lookup_word", {"word": "w"}, deadline=2.5).code == "UNAVAILABLE"
    assert fake.slept == [1.0]


def test_retry_policy_rejects_nonsense(pkg: ModuleType) -> None:
    with pytest.raises(ValueError, match="attempts"):
        pkg.RetryPolicy(attempts=0)
    with pytest.raises(ValueError, match="jitter"):
        pkg.RetryPolicy(jitter=2.0)
