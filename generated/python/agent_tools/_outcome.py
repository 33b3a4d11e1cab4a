# The toolgen runtime's _outcome.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""What one call came to (`Outcome`): a checked call ready to run (`Ready`), an implementation's
result judged against its contract (`checked`, `finished`) and scrubbed of the call's secrets
(`private`). Internal to the registry."""

from __future__ import annotations

import json
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import BaseModel

from . import _content
from ._contract import ToolContract
from ._implements import Implementation
from ._invoke import INTERNAL_MESSAGE, Ran
from ._redact import NO_SECRETS, Secrets, combined, find_secrets
from ._results import Err, Ok, ToolResult, thaw
from ._schemas import output_problems


@dataclass(slots=True)
class Outcome:
    result: ToolResult[Any]
    permission: Literal["granted", "denied", "unchecked"] = "unchecked"
    missing: tuple[str, ...] = ()
    traceback: str | None = None
    reads: tuple[str, ...] = ()
    secrets: Secrets = NO_SECRETS
    """The output's sensitive values (the input's are known to `call`)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """More for the trace record (`_calls`): call id, context events, approval, attempts."""


@dataclass(frozen=True, slots=True)
class Ready:
    """A call that passed every check: what `_calls` runs."""

    contract: ToolContract
    model: BaseModel
    implementation: Implementation
    limit: float | None
    wants_context: bool = False
    asks: tuple[str, ...] = ()
    """Why the policy asks for an approval of this call (empty: it does not)."""


def private(outcome: Outcome, secrets: Secrets, call_id: str | None = None) -> Outcome:
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
    return Outcome(
        result,
        outcome.permission,
        outcome.missing,
        trace,
        outcome.reads,
        found,
        {"call_id": call_id, **outcome.extra} if call_id else outcome.extra,
    )


def checked(  # noqa: PLR0911 (one return per kind of result)
    contract: ToolContract,
    result: Any,
    output_validator: jsonschema.protocols.Validator | None,
) -> Outcome:
    if isinstance(result, Err):
        if result.code not in contract.error_codes:
            note = f"{contract.name} returned the undeclared error code {result.code!r}"
            return Outcome(
                Err("INTERNAL", INTERNAL_MESSAGE, False), "granted", (), note
            )
        # the contract decides whether a code is retryable, not the implementation
        return Outcome(
            contract.error(result.code, result.message, result.details), "granted"
        )
    if not isinstance(result, Ok):
        note = f"{contract.name} returned {type(result).__name__}, not Ok or Err"
        return Outcome(Err("INTERNAL", INTERNAL_MESSAGE, False), "granted", (), note)
    if (wrong := _content.undeclared(contract, result.content)) is not None:
        return Outcome(Err("INTERNAL", INTERNAL_MESSAGE, False), "granted", (), wrong)
    secrets = NO_SECRETS
    try:
        data = thaw(result.data)
        json.dumps(data, allow_nan=False)
        if output_validator is None or contract.output_model is None:
            return Outcome(result, "granted")
        secrets = find_secrets(data, contract.output_schema)
        problems = output_problems(data, output_validator, secrets)
        if problems:
            note = (
                f"{contract.name} returned output that fails its output schema: "
                + "; ".join(sorted(problems))
            )
            return Outcome(
                Err("INTERNAL", INTERNAL_MESSAGE, False),
                "granted",
                (),
                note,
                secrets=secrets,
            )
        valid = Ok(contract.output_model.model_validate(data), result.content)
        return Outcome(valid, "granted", secrets=secrets)
    except Exception:
        return Outcome(
            Err("INTERNAL", INTERNAL_MESSAGE, False),
            "granted",
            (),
            traceback.format_exc(),
            secrets=secrets,
        )


def finished(
    ready: Ready,
    ran: Ran,
    guard: Any,
    output_validator: jsonschema.protocols.Validator | None,
) -> Outcome:
    """What one run of a checked call came to: stopped by `enforce`, failed to run, or `checked`."""
    if guard is not None and guard.blocked is not None:  # enforce stopped an operation
        from . import _enforce

        denied = Err(
            "PERMISSION_DENIED", _enforce.denied_message(guard), False, guard.details()
        )
        outcome = Outcome(denied, "denied", (guard.blocked[1],), ran.note)
    elif ran.note is not None:
        outcome = Outcome(ran.result, "granted", (), ran.note)
    else:
        outcome = checked(ready.contract, ran.result, output_validator)
    outcome.reads = tuple(guard.reads) if guard is not None else ()
    return outcome


__all__ = ["Outcome", "Ready", "checked", "finished", "private"]
