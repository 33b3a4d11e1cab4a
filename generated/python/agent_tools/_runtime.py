# The toolgen runtime's _runtime.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The runtime shared by every tool module of this package: the registry, re-exporting the rest.

`Registry` validates, enforces the policy, runs the implementation (`_invoke.py`) and traces
(`_tracefile.py`); `Tool` is its typed view of one tool. The results live in `_results.py`, the
contract record in `_contract.py`, what `checked` makes of an implementation's result in
`_outcome.py`, `Policy` in `_policy.py`, the implementation types and the `implements` decorator
in `_implements.py`, the secrets walk in `_redact.py` and the other schema walks in `_schemas.py`;
this module re-exports their public names, so import everything from here or from the package.
Needs only the standard library, pydantic v2, jsonschema and google-re2 (`_patterns.py`).

The reference of the public API (other generated modules, such as `mocks.py`, build on exactly
this) is toolgen's docs/python.md ("The runtime API").
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Generic, overload

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import BaseModel
from typing_extensions import TypeVar

from . import _calls, _invoke, _otel
from ._approval import Approval, ApprovalRequest, Approver
from ._calls import UNSET, CallOptions
from ._content import Audio, Content, File, Image, ResourceLink
from ._context import DepsT, LogLevel, Reporter, ToolContext, wants_context
from ._contract import STANDARD_ERRORS, ErrorInfo, ToolContract
from ._implements import (
    Implementation,
    Implements,
    ToolReturn,
    Typed,
    TypedImplementation,
    contract_name,
)
from ._invoke import INTERNAL_MESSAGE
from ._masking import bind_schemas
from ._otel import Spans
from ._outcome import Outcome, Ready, finished, private
from ._policy import PERMISSIONS, Policy
from ._redact import NO_SECRETS, REDACTED, Secrets, find_secrets, redact
from ._results import Err, Ok, ToolModel, ToolResult, freeze, thaw
from ._retry import RetryPolicy
from ._roundtrip import Answers
from ._schemas import (
    drop_invited_nulls,
    input_model,
    input_problems,
    invalid,
    parse_arguments,
    validator,
)
from ._tool import Tool
from ._tracefile import JsonlTracer, TraceFailures, TraceRecord, deliver

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out")


class Registry(Answers, Generic[DepsT]):
    """Implementations by tool name; `call` and `acall` validate, enforce the policy and trace."""

    def __init__(
        self,
        policy: Policy | None = None,
        tracer: Callable[[TraceRecord], None] | None = None,
        contracts: Iterable[ToolContract] | None = None,
        default_timeout_s: float | None = None,
        *,
        enforce: bool = False,
        deps: DepsT = None,  # type: ignore[assignment]
        approver: Approver | None = None,
        approval_timeout_s: float | None = None,
        retry: RetryPolicy | None = None,
        spans: Spans | None = None,
    ) -> None:
        if contracts is None:
            from . import CATALOG

            contracts = CATALOG
        if enforce:
            from . import (
                _enforce,
            )  # importing it installs the process's audit hook, once

            del _enforce
        self.policy = policy if policy is not None else Policy()
        self.tracer = tracer
        self.default_timeout_s = default_timeout_s
        self.enforce = enforce
        self.deps = deps
        self.approver = approver
        self.approval_timeout_s = approval_timeout_s
        self.retry = retry
        self.spans = spans
        self._contracts = {c.name: c for c in sorted(contracts, key=lambda c: c.name)}
        self._implementations: dict[str, Implementation] = {}
        self._wants_context: dict[str, bool] = {}
        self._trace_failures = TraceFailures()
        self._validators: dict[
            str,
            tuple[
                jsonschema.protocols.Validator, jsonschema.protocols.Validator | None
            ],
        ] = {}

    @property
    def contracts(self) -> tuple[ToolContract, ...]:
        """Every tool this registry knows, sorted by name."""
        return tuple(self._contracts.values())

    @property
    def trace_failures(self) -> int:
        """How many trace records the tracer failed to take (the first is logged)."""
        return self._trace_failures.count

    @property
    def registered(self) -> tuple[str, ...]:
        """Names of the tools with an implementation, sorted."""
        return tuple(sorted(self._implementations))

    @overload
    def register(
        self, name: ToolContract[In, Out], implementation: TypedImplementation[In, Out]
    ) -> None: ...

    @overload
    def register(self, name: str, implementation: Typed[DepsT]) -> None: ...

    def register(
        self, name: str | ToolContract[Any, Any], implementation: Implementation
    ) -> None:
        """Add the implementation of a tool, by name or by contract record (then type-checked).

        One that takes a second parameter gets the call's `ToolContext[Deps]`. Raises `KeyError`
        for an unknown tool and `ValueError` for a second registration.
        """
        name = contract_name(name)
        if name not in self._contracts:
            raise KeyError(
                f"unknown tool {name!r}; known tools: {sorted(self._contracts)}"
            )
        if name in self._implementations:
            raise ValueError(f"tool {name!r} is already registered")
        contract = self._contracts[name]
        output = contract.output_schema
        self._validators[name] = (
            validator(contract.input_schema),
            validator(output) if output is not None else None,
        )
        self._implementations[name] = implementation
        self._wants_context[name] = wants_context(implementation)

    def implements(self, contract: ToolContract[In, Out]) -> Implements[In, Out]:
        """A decorator registering a sync or async implementation of the contract's tool, type-checked."""
        return Implements(self.register, contract.name)

    def tool(self, contract: ToolContract[In, Out]) -> Tool[In, Out]:
        """The typed way to call one tool: `registry.tool(read_file.CONTRACT).call({...})`."""
        return Tool(self, contract)

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes,
        *,
        call_id: str | None = None,
        deps: DepsT = UNSET,
        trace_id: str | None = None,
        reporter: Reporter | None = None,
        approval: Approval | None = None,
        approver: Approver | None = None,
        deadline: float | None = None,
    ) -> ToolResult[Any]:
        """Validate, check the policy, run the implementation and trace; never raises."""
        started = time.perf_counter()
        options = CallOptions(call_id or _calls.new_id(), deps, trace_id, reporter)
        options = options.given(approval, approver, deadline)
        contract = self._contracts.get(name)
        with _otel.span(self.spans, name, contract, options.call_id) as span:
            parsed, step, secrets = self._begin(name, contract, arguments)
            if isinstance(step, Ready):
                spent = time.perf_counter() - started
                options = options.found(secrets, span.trace_id, spent)
                try:
                    step = _calls.run(self, step, options)
                except KeyboardInterrupt:
                    self._interrupted(name, contract, parsed, started, secrets)
                    raise
            step = private(step, secrets, options.call_id)
            span.close(contract, parsed, step, step.secrets)
        self._trace(name, contract, parsed, step, started)
        return step.result

    async def acall(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes,
        *,
        call_id: str | None = None,
        deps: DepsT = UNSET,
        trace_id: str | None = None,
        reporter: Reporter | None = None,
        approval: Approval | None = None,
        approver: Approver | None = None,
        deadline: float | None = None,
    ) -> ToolResult[Any]:
        """`call` for an event loop: awaits an async implementation, a sync one runs in a thread."""
        started = time.perf_counter()
        options = CallOptions(call_id or _calls.new_id(), deps, trace_id, reporter)
        options = options.given(approval, approver, deadline)
        contract = self._contracts.get(name)
        with _otel.span(self.spans, name, contract, options.call_id) as span:
            parsed, step, secrets = self._begin(name, contract, arguments)
            if isinstance(step, Ready):
                spent = time.perf_counter() - started
                options = options.found(secrets, span.trace_id, spent)
                try:
                    step = await _calls.arun(self, step, options)
                except KeyboardInterrupt:
                    self._interrupted(name, contract, parsed, started, secrets)
                    raise
            step = private(step, secrets, options.call_id)
            span.close(contract, parsed, step, step.secrets)
        self._trace(name, contract, parsed, step, started)
        return step.result

    def _begin(
        self,
        name: str,
        contract: ToolContract | None,
        arguments: Mapping[str, Any] | str | bytes,
    ) -> tuple[dict[str, Any] | Err, Outcome | Ready, Secrets]:
        """The parsed arguments, what the implementation runs with or the call's outcome, and the secrets."""
        parsed: dict[str, Any] | Err
        secrets = NO_SECRETS
        try:
            parsed = parse_arguments(arguments)
            if contract is not None and not isinstance(parsed, Err):
                secrets = find_secrets(parsed, contract.input_schema)
            return parsed, self._run(name, contract, parsed, secrets), secrets
        except RecursionError:
            parsed = invalid([("", "the arguments are nested too deeply")], "arguments")
            return parsed, Outcome(parsed), secrets
        # a bug in this runtime must still not reach the caller as an exception
        except Exception:
            parsed = Err("INTERNAL", INTERNAL_MESSAGE, False)
            return (
                parsed,
                Outcome(parsed, "unchecked", (), traceback.format_exc()),
                secrets,
            )

    def _interrupted(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        started: float,
        secrets: Secrets,
    ) -> None:
        """The trace record of a call a `KeyboardInterrupt` ends (the caller's to handle, once it is out)."""
        outcome = Outcome(
            Err("INTERNAL", INTERNAL_MESSAGE, False),
            "granted",
            (),
            traceback.format_exc(),
        )
        self._trace(name, contract, parsed, private(outcome, secrets), started)

    def _finish(self, ready: Ready, ran: _invoke.Ran, guard: Any = None) -> Outcome:
        """What one run of `ready` came to (`_outcome.finished`, with the tool's output validator)."""
        return finished(ready, ran, guard, self._validators[ready.contract.name][1])

    def _run(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        secrets: Secrets,
    ) -> Outcome | Ready:
        if contract is None or name not in self._implementations:
            known = ", ".join(self.registered) or "none"
            what = "has no implementation here" if contract else "does not exist"
            return Outcome(
                Err(
                    "UNKNOWN_TOOL",
                    f"Tool {name!r} {what}. Available tools: {known}.",
                    False,
                )
            )
        decision, why = self.policy.decide(contract)
        if decision == "deny":
            missing = why
            message = f"Tool {name!r} needs permission(s) {', '.join(missing)}, which the policy does not grant."
            return Outcome(Err("PERMISSION_DENIED", message, False), "denied", missing)
        if isinstance(parsed, Err):
            return Outcome(parsed, "granted")
        input_validator = self._validators[name][0]
        drop_invited_nulls(parsed, input_validator)
        errors = input_problems(parsed, input_validator, secrets)
        if errors:
            return Outcome(invalid(errors, "arguments"), "granted")
        model = input_model(contract.input_model, parsed)  # the schema judged it
        limit = _invoke.time_limit(contract.timeout_ms, self.default_timeout_s)
        implementation = self._implementations[name]
        wants = self._wants_context[name]
        asks = why if decision == "ask" else ()
        return Ready(
            contract, model, implementation, limit, wants, asks
        )  # run by `_calls`

    def _trace(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        outcome: Outcome,
        started: float,
    ) -> None:
        record = (name, contract, parsed, outcome, started)
        deliver(self.tracer, self._trace_failures, record)


def catalog_mapping(catalog: Iterable[ToolContract]) -> Mapping[str, ToolContract]:
    """A read-only mapping of tool name to contract record."""
    return MappingProxyType({c.name: c for c in catalog})


__all__ = [
    "INTERNAL_MESSAGE",
    "PERMISSIONS",
    "REDACTED",
    "STANDARD_ERRORS",
    "Approval",
    "ApprovalRequest",
    "Approver",
    "Audio",
    "Content",
    "Err",
    "ErrorInfo",
    "File",
    "Image",
    "Implementation",
    "Implements",
    "JsonlTracer",
    "LogLevel",
    "Ok",
    "Policy",
    "Registry",
    "Reporter",
    "ResourceLink",
    "RetryPolicy",
    "Spans",
    "Tool",
    "ToolContext",
    "ToolContract",
    "ToolModel",
    "ToolResult",
    "ToolReturn",
    "TraceRecord",
    "TypedImplementation",
    "bind_schemas",
    "freeze",
    "redact",
    "thaw",
]
