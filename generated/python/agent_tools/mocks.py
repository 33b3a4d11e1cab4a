# The toolgen runtime's mocks.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Mock tools for every contract of this package, usable in tests and servable over MCP.

`mock_registry()` returns a `Registry` with every tool mocked. A mock is called like the real
tool, through `Registry.call`, so its input is validated exactly as the real registry validates it.
It answers deterministically: the output of the first example whose input equals the call's input
(both read through the input model, then the schema's defaults applied); else the error of such an
example; else a synthetic
output derived from the output schema alone (`_mock_synth.synthesize`), the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ._mock_synth import SynthesisError, synthesize, with_defaults
from ._runtime import (
    Implementation,
    Ok,
    Policy,
    Registry,
    ToolContract,
    ToolResult,
    TraceRecord,
    thaw,
)


def matching_examples(
    contract: ToolContract, arguments: Mapping[str, Any]
) -> list[Mapping[str, Any]]:
    """The contract's examples whose input equals `arguments`, defaults applied to both."""
    wanted = with_defaults(thaw(arguments), contract.input_schema)
    return [
        example
        for example in contract.examples
        if with_defaults(
            _as_called(contract, example.get("input", {})), contract.input_schema
        )
        == wanted
    ]


def _as_called(contract: ToolContract, arguments: Any) -> Any:
    """Example input as an implementation sees it: through the input model, like a real call."""
    try:
        return thaw(contract.input_model.model_validate(thaw(arguments)))
    except ValueError:
        return thaw(arguments)


def answer(contract: ToolContract, arguments: Mapping[str, Any]) -> ToolResult[Any]:
    """What the mock of `contract` returns for already-validated `arguments`."""
    found = matching_examples(contract, arguments)
    for example in found:
        if "output" in example:
            return Ok(thaw(example["output"]))
    for example in found:
        error = example.get("error")
        if isinstance(error, Mapping):
            return contract.error(str(error["code"]), str(error.get("message", "")))
    if contract.output_schema is None:
        return Ok({})
    try:
        return Ok(synthesize(contract.output_schema))
    except SynthesisError as exc:
        return contract.error("INTERNAL", f"The mock cannot make an output: {exc}")


def mock_tool(contract: ToolContract) -> Implementation:
    """The mock implementation of one tool, as `Registry.register` takes it."""

    def mock(model: Any) -> ToolResult[Any]:
        return answer(contract, thaw(model))

    mock.__name__ = f"mock_{contract.name}"
    return mock


def mock_registry(
    policy: Policy | None = None,
    tracer: Callable[[TraceRecord], None] | None = None,
) -> Registry:
    """A registry with every tool mocked; `policy=None` grants every permission (mocks have no effects)."""
    registry = Registry(
        policy=policy if policy is not None else Policy.allow_all(), tracer=tracer
    )
    for contract in registry.contracts:
        registry.register(contract.name, mock_tool(contract))
    return registry


__all__ = ["answer", "matching_examples", "mock_registry", "mock_tool"]
