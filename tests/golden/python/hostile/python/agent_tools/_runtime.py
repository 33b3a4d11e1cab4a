# The toolgen runtime's _runtime.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The runtime shared by every tool module of this package: results, policy, registry, traces.

The results live in `_results.py`, `Policy` in `_policy.py`, the secrets walk in `_redact.py` and
the other schema walks (nulls, error messages) in `_schemas.py`; this module re-exports their public
names, so import everything from here or from the package.

Needs only the standard library, pydantic v2 and jsonschema.

Public API (other generated modules, such as `mocks.py`, build on exactly this):

- `Ok(data)`: a success; `ok` is True. `Err(code, message, retryable=False, details=None)`: a
  failure; `ok` is False. `ToolResult[T]` is `Ok[T] | Err`. Every result has `payload()` (plain
  JSON data: the data, or `{"error": {...}}`) and the provider conversions `to_openai_chat(call_id)`,
  `to_openai_responses(call_id)`, `to_anthropic(tool_use_id)`, `to_gemini(name, call_id=None)` and
  `to_mcp()`, each returning plain JSON-ready data.
- `ToolModel`: the pydantic base of every generated model (dumps use wire names, the aliases).
- `ErrorInfo(code, description, retryable)` and `ToolContract`: the frozen record of one tool
  (`name`, `version`, `title`, `description`, `permissions`, `input_schema`, `output_schema`,
  `errors`, `idempotent`, `deprecated`, `digest`, `input_model`, `output_model`, `examples`).
  `contract.error_codes` lists declared and standard codes; `contract.retryable(code)` and
  `contract.error(code, message, details=None)` build an `Err` with the contract's `retryable`.
  Each `<tool>.py` module has one as `CONTRACT`, typed `ToolContract[<Tool>Input, <Tool>Output]`
  (`Any` output without an output schema); the package exports `CATALOG` (sorted by name) and
  `CONTRACTS` (a read-only mapping name -> record).
- `Policy()` grants nothing, `Policy(allow={"read"})` grants those permissions, `Policy.allow_all()`
  grants all of them; `policy.missing(permissions)` lists what is not granted.
- `Registry(policy=None, tracer=None, contracts=None)`: `policy=None` means `Policy()` (deny);
  `contracts=None` means the package's `CATALOG`. `register(name, implementation)` raises
  `KeyError` for an unknown name and `ValueError` for a second registration. `call(name, arguments)`
  takes a mapping or a JSON text and returns a `ToolResult`: `UNKNOWN_TOOL`,
  `PERMISSION_DENIED`, `INVALID_INPUT` (the failing paths in `details["errors"]`, at most 100, the
  rest counted in `details["omitted"]`; a message quotes at most 200 characters of a value and
  says how long it was), the
  implementation's own `Err` (its `retryable` set from the contract), `Ok` (for a tool with an
  output schema its data is the output model; a `None` in an optional field the schema does not
  let be null counts as absent), or `INTERNAL` (an exception, a result that is not a `ToolResult`,
  an undeclared error code, or output that fails the output schema; the message never carries
  exception text, which goes to the trace). `contracts` and `registered` list what it knows.
  `call` never raises: an implementation's `Exception`, `SystemExit` and `GeneratorExit` become
  `INTERNAL` with a trace record. Only `KeyboardInterrupt` propagates, after its trace record
  (code `INTERNAL`) has been given to the tracer.
  `registry.tool(read_file.CONTRACT)` is the typed way: a `Tool` whose `call(arguments)` (a
  mapping, a JSON text or a `ReadFileInput`) returns `ToolResult[ReadFileOutput]`.
  Inputs are judged by draft 2020-12, with formats checked, whatever `$schema` a schema names
  (`toolgen validate` refuses any other), as the build judges the contract's examples.
  An implementation is called with the validated input model. Before validation, a `null` given
  for an optional property whose schema does not accept null is dropped, at any depth the schema
  describes (nested objects, array items, `$ref`): OpenAI strict declarations make every optional
  property required and nullable, so models send `null` to mean "not given". A `null` for a
  required property, or one the schema does not describe, is still `INVALID_INPUT`.
- `await registry.acall(name, arguments)`: the same contract as `call`, for event loops; an async
  implementation is awaited, a sync one runs in a worker thread. `Registry(default_timeout_s=...)`
  and the contract's `timeout_ms` limit how long a call runs (`TIMEOUT`, retryable); how each kind
  of implementation is run and stopped is in `_invoke.py`. The provider round trips
  (`answer_openai_chat`, ...) are in `_roundtrip.py`.
- Secrets: every value a schema marks `"x-sensitive": true`, in the input and in the output, at
  any depth (through `$ref`, `allOf`/`anyOf`/`oneOf`, properties, pattern and additional
  properties, array items), is kept out of every text the registry produces: an error message or
  detail about it names the failing keyword but not the value, and any other message, detail or
  traceback (an implementation's exception text or `Err`, an output-schema failure) has the value
  replaced by `REDACTED`. `Ok` data is the tool's output and is returned as it is.
- `TraceRecord`, `JsonlTracer`: one record per call, given to `tracer` (`_tracefile.py`).
- `Registry(enforce=True)`: while an implementation runs, an operation its contract's permissions do
  not declare (a write, a program run, a network connection) is stopped before it happens and the
  call answers `PERMISSION_DENIED` with `details` naming the event and the missing permission;
  undeclared reads are listed in the trace (`undeclared_reads`), not blocked (`_enforce.py` says
  what it cannot see). It applies to `call` and `acall`, sync and async implementations alike.
- `freeze(value)` / `thaw(value)`: deep read-only copies of JSON data and back; `redact(value,
  schema)`: the value with its sensitive parts replaced.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Literal, overload

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar

from . import _invoke
from ._contract import STANDARD_ERRORS, ErrorInfo, ToolContract
from ._implements import (
    Implementation,
    Implements,
    ToolReturn,
    TypedImplementation,
    contract_name,
)
from ._invoke import INTERNAL_MESSAGE
from ._policy import PERMISSIONS, Policy
from ._redact import NO_SECRETS, REDACTED, Secrets, combined, find_secrets, redact
from ._results import Err, Ok, ToolModel, ToolResult, freeze, thaw
from ._roundtrip import Answers
from ._schemas import (
    drop_invited_nulls,
    input_problems,
    invalid,
    model_message,
    output_problems,
    parse_arguments,
    pointer,
    validator,
)
from ._tracefile import JsonlTracer, TraceFailures, TraceRecord, trace_record

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out")


@dataclass(slots=True)
class _Outcome:
    result: ToolResult[Any]
    permission: Literal["granted", "denied", "unchecked"] = "unchecked"
    missing: tuple[str, ...] = ()
    traceback: str | None = None
    reads: tuple[str, ...] = ()
    secrets: Secrets = NO_SECRETS
    """The output's sensitive values (the input's are known to `call`)."""


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
    def register(self, name: str, implementation: Implementation) -> None: ...

    def register(
        self, name: str | ToolContract[Any, Any], implementation: Implementation
    ) -> None:
        """Add the implementation of a tool, by name or by contract record (then type-checked).

        Raises `KeyError` for an unknown tool and `ValueError` for a second registration.
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

    def implements(self, contract: ToolContract[In, Out]) -> Implements[In, Out]:
        """A decorator registering a sync or async implementation of the contract's tool, type-checked."""
        return Implements(self.register, contract.name)

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
        step = _private(step, secrets)
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
        step = _private(step, secrets)
        self._trace(name, contract, parsed, step, started)
        return step.result

    def _begin(
        self,
        name: str,
        contract: ToolContract | None,
        arguments: Mapping[str, Any] | str | bytes,
    ) -> tuple[dict[str, Any] | Err, _Outcome | _Ready, Secrets]:
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
            return parsed, _Outcome(parsed), secrets
        # a bug in this runtime must still not reach the caller as an exception
        except Exception:
            parsed = Err("INTERNAL", INTERNAL_MESSAGE, False)
            return (
                parsed,
                _Outcome(parsed, "unchecked", (), traceback.format_exc()),
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
        outcome = _Outcome(
            Err("INTERNAL", INTERNAL_MESSAGE, False),
            "granted",
            (),
            traceback.format_exc(),
        )
        self._trace(name, contract, parsed, _private(outcome, secrets), started)

    def _guarded(self, contract: ToolContract) -> AbstractContextManager[Any]:
        """`_enforce.enforced(...)` around the implementation with `enforce=True`, else nothing."""
        if not self.enforce:
            return nullcontext(None)
        from . import _enforce

        return _enforce.enforced(contract.name, contract.permissions)

    def _finish(self, ready: _Ready, ran: _invoke.Ran, guard: Any = None) -> _Outcome:
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
            outcome = _Outcome(denied, "denied", (guard.blocked[1],), ran.note)
        elif ran.note is not None:
            outcome = _Outcome(ran.result, "granted", (), ran.note)
        else:
            outcome = _checked(
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
    ) -> _Outcome | _Ready:
        if contract is None or name not in self._implementations:
            known = ", ".join(self.registered) or "none"
            what = "has no implementation here" if contract else "does not exist"
            return _Outcome(
                Err(
                    "UNKNOWN_TOOL",
                    f"Tool {name!r} {what}. Available tools: {known}.",
                    False,
                )
            )
        missing = self.policy.missing(contract.permissions)
        if missing:
            message = f"Tool {name!r} needs permission(s) {', '.join(missing)}, which the policy does not grant."
            return _Outcome(Err("PERMISSION_DENIED", message, False), "denied", missing)
        if isinstance(parsed, Err):
            return _Outcome(parsed, "granted")
        input_validator = self._validators[name][0]
        drop_invited_nulls(parsed, input_validator)
        errors = input_problems(parsed, input_validator, secrets)
        if errors:
            return _Outcome(invalid(errors, "arguments"), "granted")
        try:
            model = contract.input_model.model_validate(parsed)
        except ValidationError as exc:
            found = [
                (pointer(e["loc"]), model_message(e["loc"], e["msg"], secrets))
                for e in exc.errors()
            ]
            return _Outcome(invalid(found, "arguments"), "granted")
        limit = _invoke.time_limit(contract.timeout_ms, self.default_timeout_s)
        return _Ready(
            contract, model, self._implementations[name], limit
        )  # run by `call` / `acall`

    def _trace(
        self,
        name: str,
        contract: ToolContract | None,
        parsed: dict[str, Any] | Err,
        outcome: _Outcome,
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
        try:  # a broken tracer must not change what the model sees
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
        except Exception as exc:
            self._trace_failures.lost(self.tracer, exc)


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

    async def acall(
        self, arguments: In | Mapping[str, Any] | str | bytes
    ) -> ToolResult[Out]:
        """`Registry.acall` for this tool, typed as `call` is."""
        given = thaw(arguments) if isinstance(arguments, BaseModel) else arguments
        result: ToolResult[Out] = await self.registry.acall(self.contract.name, given)
        return result


def _private(outcome: _Outcome, secrets: Secrets) -> _Outcome:
    """`outcome` with every sensitive value of the call (input and output) scrubbed from its texts."""
    found = combined(secrets, outcome.secrets)
    result = outcome.result
    if isinstance(result, Err):
        details = (
            found.scrub_data(result.details) if result.details is not None else None
        )
        result = Err(
            result.code, found.scrub(result.message), result.retryable, details
        )
    trace = found.scrub(outcome.traceback) if outcome.traceback is not None else None
    return _Outcome(
        result, outcome.permission, outcome.missing, trace, outcome.reads, found
    )


def _checked(  # noqa: PLR0911 (one return per kind of result)
    contract: ToolContract,
    result: Any,
    output_validator: jsonschema.protocols.Validator | None,
) -> _Outcome:
    if isinstance(result, Err):
        if result.code not in contract.error_codes:
            note = f"{contract.name} returned the undeclared error code {result.code!r}"
            return _Outcome(
                Err("INTERNAL", INTERNAL_MESSAGE, False), "granted", (), note
            )
        # the contract decides whether a code is retryable, not the implementation
        return _Outcome(
            contract.error(result.code, result.message, result.details), "granted"
        )
    if not isinstance(result, Ok):
        note = f"{contract.name} returned {type(result).__name__}, not Ok or Err"
        return _Outcome(Err("INTERNAL", INTERNAL_MESSAGE, False), "granted", (), note)
    secrets = NO_SECRETS
    try:
        data = thaw(result.data)
        json.dumps(data, allow_nan=False)
        if output_validator is None or contract.output_model is None:
            return _Outcome(result, "granted")
        secrets = find_secrets(data, contract.output_schema)
        problems = output_problems(data, output_validator, secrets)
        if problems:
            note = (
                f"{contract.name} returned output that fails its output schema: "
                + "; ".join(sorted(problems))
            )
            return _Outcome(
                Err("INTERNAL", INTERNAL_MESSAGE, False),
                "granted",
                (),
                note,
                secrets=secrets,
            )
        return _Outcome(
            Ok(contract.output_model.model_validate(data)), "granted", secrets=secrets
        )
    except Exception:
        return _Outcome(
            Err("INTERNAL", INTERNAL_MESSAGE, False),
            "granted",
            (),
            traceback.format_exc(),
            secrets=secrets,
        )


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
    "Implements",
    "JsonlTracer",
    "Ok",
    "Policy",
    "Registry",
    "Tool",
    "ToolContract",
    "ToolModel",
    "ToolResult",
    "ToolReturn",
    "TraceRecord",
    "TypedImplementation",
    "freeze",
    "redact",
    "thaw",
]
