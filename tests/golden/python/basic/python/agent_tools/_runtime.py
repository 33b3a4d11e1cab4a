# The toolgen runtime's _runtime.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The runtime shared by every tool module of this package: results, policy, registry, traces.

The results live in `_results.py`, `Policy` in `_policy.py`, the secrets walk in `_redact.py` and
the other schema walks (nulls, error messages) in `_schemas.py`; this module re-exports their public
names, so import everything from here or from the package.

Needs only the standard library, pydantic v2 and jsonschema.

The reference of the public API (other generated modules, such as `mocks.py`, build on
exactly this) is the section "Runtime API" of toolgen's docs/python.md.
"""

from __future__ import annotations

import contextlib
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeAlias

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar

from . import _invoke
from ._contract import STANDARD_ERRORS, ErrorInfo, ToolContract
from ._invoke import INTERNAL_MESSAGE
from ._outcome import Outcome, checked, private
from ._policy import PERMISSIONS, Policy
from ._redact import NO_SECRETS, REDACTED, Secrets, find_secrets, redact
from ._results import Err, Ok, ToolModel, ToolResult, freeze, thaw
from ._roundtrip import Answers
from ._schemas import (
    drop_invited_nulls,
    input_problems,
    invalid,
    model_message,
    parse_arguments,
    pointer,
    validator,
)
from ._tracefile import JsonlTracer, TraceRecord, trace_record

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out")


Implementation: TypeAlias = Callable[[Any], "ToolResult[Any]"]
"""What `Registry.register` accepts: called with the validated input model."""


@dataclass(frozen=True, slots=True)
class _Ready:
    """A call that passed every check: what `_invoke` runs."""

    contract: ToolContract
    model: BaseModel
    implementation: Implementation
    limit: float | None


class Registry(Answers):
    """Implementations by tool name; `call` and `acall` validate, enforce the policy and trace."""

    def __init__(
        self,
        policy: Policy | None = None,
        tracer: Callable[[TraceRecord], None] | None = None,
        contracts: Iterable[ToolContract] | None = None,
        default_timeout_s: float | None = None,
        *,
        enforce: bool = False,
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
        self._contracts = {c.name: c for c in sorted(contracts, key=lambda c: c.name)}
        self._implementations: dict[str, Implementation] = {}
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
    def registered(self) -> tuple[str, ...]:
        """Names of the tools with an implementation, sorted."""
        return tuple(sorted(self._implementations))

    def register(self, name: str, implementation: Implementation) -> None:
        """Add the implementation of `name`; raises for an unknown name or a second registration."""
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

    def tool(self, contract: ToolContract[In, Out]) -> Tool[In, Out]:
        """The typed way to call one tool: `registry.tool(read_file.CONTRACT).call({...})`."""
        return Tool(self, contract)

    def call(
        self, name: str, arguments: Mapping[str, Any] | str | bytes
    ) -> ToolResult[Any]:
        """Validate, check the policy, run the implementation and trace; never raises."""
        started = time.perf_counter()
        contract = self._contracts.get(name)
        parsed, step, secrets = self._begin(name, contract, arguments)
        if isinstance(step, _Ready):
            try:
                with self._guarded(step.contract) as guard:
                    ran = _invoke.run(
                        step.implementation, step.model, step.contract, step.limit
                    )
            except KeyboardInterrupt:
                self._interrupted(name, contract, parsed, started, secrets)
                raise
            step = self._finish(step, ran, guard)
        step = private(step, secrets)
        self._trace(name, contract, parsed, step, started)
        return step.result

    async def acall(
        self, name: str, arguments: Mapping[str, Any] | str | bytes
    ) -> ToolResult[Any]:
        """`call` for an event loop: awaits an async implementation, a sync one runs in a thread."""
        started = time.perf_counter()
        contract = self._contracts.get(name)
        parsed, step, secrets = self._begin(name, contract, arguments)
        if isinstance(step, _Ready):
            try:
                with self._guarded(step.contract) as guard:
                    ran = await _invoke.arun(
                        step.implementation, step.model, step.contract, step.limit
                    )
            except KeyboardInterrupt:
                self._interrupted(name, contract, parsed, started, secrets)
                raise
            step = self._finish(step, ran, guard)
        step = private(step, secrets)
        self._trace(name, contract, parsed, step, started)
        return step.result

    def _begin(
        self,
        name: str,
        contract: ToolContract | None,
        arguments: Mapping[str, Any] | str | bytes,
    ) -> tuple[dict[str, Any] | Err, Outcome | _Ready, Secrets]:
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

    def _guarded(self, contract: ToolContract) -> AbstractContextManager[Any]:
        """`_enforce.enforced(...)` around the implementation with `enforce=True`, else nothing."""
        if not self.enforce:
            return nullcontext(None)
        from . import _enforce

        return _enforce.enforced(contract.name, contract.permissions)

    def _finish(self, ready: _Ready, ran: _invoke.Ran, guard: Any = None) -> Outcome:
        if (
            guard is not None and guard.blocked is not None
        ):  # enforce=True stopped an undeclared operation
            from . import _enforce

            denied = Err(
                "PERMISSION_DENIED",
                _enforce.denied_message(guard),
                False,
                guard.details(),
            )
            outcome = Outcome(denied, "denied", (guard.blocked[1],), ran.note)
        elif ran.note is not None:
            outcome = Outcome(ran.result, "granted", (), ran.note)
        else:
            outcome = checked(
                ready.contract, ran.result, self._validators[ready.contract.name][1]
            )
        outcome.reads = tuple(guard.reads) if guard is not None else ()
        return outcome

    def _run(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        secrets: Secrets,
    ) -> Outcome | _Ready:
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
        missing = self.policy.missing(contract.permissions)
        if missing:
            message = f"Tool {name!r} needs permission(s) {', '.join(missing)}, which the policy does not grant."
            return Outcome(Err("PERMISSION_DENIED", message, False), "denied", missing)
        if isinstance(parsed, Err):
            return Outcome(parsed, "granted")
        input_validator = self._validators[name][0]
        drop_invited_nulls(parsed, input_validator)
        errors = input_problems(parsed, input_validator, secrets)
        if errors:
            return Outcome(invalid(errors, "arguments"), "granted")
        try:
            model = contract.input_model.model_validate(parsed)
        except ValidationError as exc:
            found = [
                (pointer(e["loc"]), model_message(e["loc"], e["msg"], secrets))
                for e in exc.errors()
            ]
            return Outcome(invalid(found, "arguments"), "granted")
        limit = _invoke.time_limit(contract.timeout_ms, self.default_timeout_s)
        return _Ready(
            contract, model, self._implementations[name], limit
        )  # run by `call` / `acall`

    def _trace(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        outcome: Outcome,
        started: float,
    ) -> None:
        if self.tracer is None:
            return
        duration = (time.perf_counter() - started) * 1000.0
        meta = (
            outcome.permission,
            outcome.missing,
            outcome.traceback,
            duration,
            outcome.reads,
        )
        with contextlib.suppress(
            Exception
        ):  # a broken tracer must not change what the model sees
            self.tracer(
                trace_record(
                    self.tracer,
                    name,
                    contract,
                    parsed,
                    outcome.result,
                    meta,
                    outcome.secrets,
                )
            )


@dataclass(frozen=True, slots=True)
class Tool(Generic[In, Out]):
    """One tool of a registry, typed: `call` returns `ToolResult[<Tool>Output]` (`Any` data without one)."""

    registry: Registry
    contract: ToolContract[In, Out]

    def call(self, arguments: In | Mapping[str, Any] | str | bytes) -> ToolResult[Out]:
        """`Registry.call` for this tool; an input model instance is sent as the data it holds."""
        given = thaw(arguments) if isinstance(arguments, BaseModel) else arguments
        result: ToolResult[Out] = self.registry.call(self.contract.name, given)
        return result


def catalog_mapping(catalog: Iterable[ToolContract]) -> Mapping[str, ToolContract]:
    """A read-only mapping of tool name to contract record."""
    return MappingProxyType({c.name: c for c in catalog})


__all__ = [
    "INTERNAL_MESSAGE",
    "PERMISSIONS",
    "REDACTED",
    "STANDARD_ERRORS",
    "Err",
    "ErrorInfo",
    "Implementation",
    "JsonlTracer",
    "Ok",
    "Policy",
    "Registry",
    "Tool",
    "ToolContract",
    "ToolModel",
    "ToolResult",
    "TraceRecord",
    "freeze",
    "redact",
    "thaw",
]
