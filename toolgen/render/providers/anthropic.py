"""Anthropic Messages API: `anthropic.json`.

Mapping decisions:
- Each tool is `{name, description, input_schema}` plus `input_examples`: the inputs of the
  contract's examples that succeed, in order (left out when there are none); an error example's input
  is not a use to imitate. A value marked `x-sensitive` at any depth is masked as the docs mask it
  (`render.masking`), so a secret never rides along in every request, with a note naming the
  example; one the declared schema rejects (strict lowering closes open objects, so an example using
  an undeclared key no longer fits) is left out, with a note naming it.
- A root `anyOf`/`oneOf`/`allOf` is flattened (TG302): Anthropic refuses composition at the top level.
- `x-` keys are removed; outside strict mode the schema is otherwise passed through unchanged.
- `anthropic_strict = true` in the configuration: every tool carries `strict`. A tool is strict when
  `strict.ANTHROPIC` can lower it (`additionalProperties: false` everywhere, numeric and length
  bounds, `maxItems` and `minItems` > 1 stated in the description, 10 formats, no recursion) and
  the per-request limits still hold, counted over strict tools in name order: 20 strict tools, 24
  optional parameters, 16 parameters with a union (`anyOf` or a type list). Any other tool gets
  `strict: false` and a TG307 warning that says why. Without the setting no tool carries `strict`.
- `defer_loading: true` when the contract's `providers` table says so (tool search); the
  configuration's `[providers] anthropic_cache_control` goes on the last tool of the file, which
  caches every tool declaration (PROVIDERS.md 2.1). A tool the contract or configuration leaves out
  of `anthropic` has no entry, and a note.
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from toolgen.catalog import Contract
from toolgen.config import Settings
from toolgen.frozen import thaw
from toolgen.render.masking import holds_sensitive, mask
from toolgen.render.providers import codes, strict
from toolgen.render.providers.common import (
    Output,
    Spec,
    ToolEntries,
    check_name,
    description,
    flat_input_schema,
    included,
    moved_note,
    no_catalog_check,
    one_of_widened,
)
from toolgen.render.providers.lower import Issue, Schema, walk

PROVIDER = "Anthropic"
LIMITS = {"strict tools": 20, "optional parameters": 24, "union parameters": 16}
"""Anthropic's per-request limits on strict tools (PROVIDERS.md 2.4)."""


def _examples(contract: Contract, schema: Schema, out: Output) -> list[dict[str, Any]]:
    """The inputs of the examples that succeed, sensitive values masked as the docs mask them, that
    the declared schema accepts; a note says which were masked and which were left out."""
    shown: list[tuple[str, dict[str, Any]]] = []
    masked: list[str] = []
    for number, example in enumerate(contract.examples, 1):
        if example.error is not None:
            continue  # an error example's input is not a use to imitate
        label = f'"{example.title}"' if example.title else f"{number}"
        value = thaw(example.input)
        if holds_sensitive(value, contract.input_schema):
            value = mask(value, contract.input_schema)
            masked.append(label)
        shown.append((label, value))
    if masked:
        out.note(contract.name, f"Anthropic: input_examples show example {', '.join(masked)} masked, as these docs do")
    validator = Draft202012Validator(schema)

    def fits(value: dict[str, Any]) -> bool:
        try:
            return bool(validator.is_valid(value))
        except (re.error, Unresolvable):  # a catalog built in code, without validation: keep the example
            return True

    unfit = [label for label, value in shown if not fits(value)]
    if unfit:
        text = (
            f"Anthropic: example {', '.join(unfit)} does not match the declared schema, so input_examples leave it out"
        )
        out.note(contract.name, text)
    return [value for label, value in shown if label not in unfit]


def cost(schema: Schema) -> dict[str, int]:
    """What one strict schema counts against the per-request limits."""
    optional = unions = 0
    for _, node in walk(schema):
        required = node.get("required") or []
        optional += sum(1 for name in node.get("properties") or {} if name not in required)
        kind = node.get("type")
        if "anyOf" in node or (isinstance(kind, list) and len(kind) > 1):
            unions += 1
    return {"strict tools": 1, "optional parameters": optional, "union parameters": unions}


class _Budget:
    """The per-request limits left for further strict tools."""

    def __init__(self) -> None:
        self.used = dict.fromkeys(LIMITS, 0)

    def take(self, needs: dict[str, int]) -> str | None:
        """Reserve `needs`, or say which limit it would break (and reserve nothing)."""
        for key, limit in LIMITS.items():
            if self.used[key] + needs[key] > limit:
                return f"{key}: {self.used[key]} used by earlier tools + {needs[key]} > {limit}"
        for key in LIMITS:
            self.used[key] += needs[key]
        return None


def _strict(contract: Contract, schema: Schema, budget: _Budget, out: Output) -> tuple[Schema, bool]:
    moves: list[Issue] = []
    lowered, issues = strict.lower_strict(schema, "/input_schema", strict.ANTHROPIC, moves)
    reasons = [(i.pointer, f"{i.pointer} {i.message}") for i in issues]
    if not reasons:
        refused = budget.take(cost(lowered))
        if refused is None:
            moved = moved_note(PROVIDER, moves)
            if moved:
                out.note(contract.name, moved)
            one_of_widened(contract, PROVIDER, [m for m in moves if m.message == strict.WIDENED], out, noted=True)
            return lowered, True
        reasons = [("/input_schema", f"the per-request limit on {refused}")]
    for pointer, reason in reasons:
        message = f"is not strict, because {reason}; it is declared with strict: false"
        out.diagnostics.append(codes.diagnostic(codes.ANTHROPIC_NOT_STRICT, contract, PROVIDER, pointer, message))
    out.note(contract.name, f"Anthropic: not strict, because {reasons[0][1]}")
    return schema, False


def wrap(settings: Settings, file: str, entries: list[Any]) -> list[Any]:
    """The tools, the last one carrying the configured `cache_control` (a prompt-cache breakpoint)."""
    cache_control = settings.providers.get("anthropic_cache_control")
    if not cache_control or not entries or not isinstance(entries[-1], dict):
        return entries
    return [*entries[:-1], {**entries[-1], "cache_control": dict(cache_control)}]


def tool_maker(settings: Settings) -> ToolEntries:
    """The function that makes each tool's entry for one build (strict mode keeps a budget)."""
    budget = _Budget()

    def entries(contract: Contract, out: Output) -> dict[str, Any]:
        if not included(contract, settings, "anthropic", out):
            return {}
        out.diagnostics.extend(check_name(contract, PROVIDER))
        schema = flat_input_schema(contract, PROVIDER, out)
        tool: dict[str, Any] = {"name": contract.name, "description": description(contract)}
        if settings.anthropic_strict:
            schema, is_strict = _strict(contract, schema, budget, out)
            tool["input_schema"] = schema
            tool["strict"] = is_strict
        else:
            tool["input_schema"] = schema
        examples = _examples(contract, tool["input_schema"], out)
        if examples:
            tool["input_examples"] = examples
        if contract.providers.get("defer_loading") is True:
            tool["defer_loading"] = True
        return {"anthropic.json": tool}

    return entries


SPEC = Spec(
    name=PROVIDER,
    files=("anthropic.json",),
    tools=tool_maker,
    wrap=wrap,
    check=no_catalog_check,
    # the strict budget spans tools, and cache_control goes on the last tool
    independent=lambda settings: not settings.anthropic_strict and "anthropic_cache_control" not in settings.providers,
)
