# The toolgen runtime's _schemas.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""The schema walks of the registry: reading `null` as absent, and error messages that keep secrets.

Part of the runtime. The secrets walk lives in `_redact` (`redact`, `shorten` and `REDACTED` are
re-exported here and by `_runtime`); the other public names here (`validator`, `drop_invited_nulls`,
`parse_arguments`, `input_problems`, `output_problems`, `invalid`, `describe`, `pointer`,
`input_model`) serve `Registry`.

Numbers: JSON has no NaN or infinity, so a text whose number is too large for a float (`1e400`)
or a mapping that holds a NaN or an infinity is `INVALID_INPUT`, and so is an integer with more
digits than Python converts (`sys.get_int_max_str_digits()`), with a message that says so.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
from pydantic import BaseModel, RootModel, ValidationError

from ._patterns import Patterns, keywords
from ._redact import (
    MAX_TRACE_STRING,
    REDACTED,
    Secrets,
    applicable,
    bound,
    item_schemas,
    property_schemas,
    quote,
    redact,
    resolve,
    shorten,
)
from ._results import Err, thaw

KEY_ONLY = frozenset(
    {"required", "additionalProperties", "unevaluatedProperties", "dependentRequired"}
)
"""Keywords whose messages quote property names, never the value: they stay readable around a secret."""


def validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A draft 2020-12 validator with format checks: the one dialect `toolgen validate` judges in.

    Contracts are draft 2020-12 (`toolgen validate` refuses another `$schema`), so no `$schema`
    inside a schema can pick another dialect here. Its patterns run on RE2 where RE2 reads them
    (`_patterns`), each compiled once for this validator.
    """
    base = jsonschema.Draft202012Validator
    extend = jsonschema.validators.extend
    kind = extend(base, keywords(Patterns()))  # type: ignore[no-untyped-call,unused-ignore]
    made: jsonschema.protocols.Validator = kind(
        thaw(schema), format_checker=base.FORMAT_CHECKER
    )
    return made


def pointer(path: Iterable[Any]) -> str:
    """The RFC 6901 pointer of a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def drop_invited_nulls(value: Any, validator: jsonschema.protocols.Validator) -> None:
    """Remove (in place) each `null` given for an optional property whose schema refuses null.

    OpenAI strict mode declares every optional property as required and nullable, so a model
    following those declarations sends `"offset": null` to mean "not given". Such a `null` is
    dropped, at any depth the schema describes, before validation; a `null` for a property that
    every value must have (required beside it, through `$ref` or `allOf`; not only in one `anyOf`
    or `oneOf` branch), or for a property whose schema accepts null, is kept and judged as usual.
    """
    root = validator.schema
    if isinstance(root, Mapping):
        _drop_nulls(value, root, root, validator)


def _always(
    schema: Any, root: Mapping[str, Any], seen: frozenset[str]
) -> list[Mapping[str, Any]]:
    """`schema` and the subschemas every value it accepts must also match (`$ref`, `allOf`).

    A `required` inside an `anyOf`/`oneOf` branch or a `then`/`else` binds only that alternative: an
    OpenAI strict declaration makes such a property nullable too, so its `null` means "not given".
    """
    if not isinstance(schema, Mapping):
        return []
    found = [schema]
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        found.extend(_always(resolve(ref, root), root, seen | {ref}))
    for sub in schema.get("allOf", ()):
        found.extend(_always(sub, root, seen))
    return found


def _drop_nulls(
    value: Any,
    schema: Any,
    root: Mapping[str, Any],
    validator: jsonschema.protocols.Validator,
) -> None:
    schemas = applicable(schema, root, wide=False)
    if isinstance(value, dict):
        always = _always(schema, root, frozenset())
        required = {
            key for s in always for key in s.get("required", ()) if isinstance(key, str)
        }
        for key in list(value):
            subs = [
                sub for s in schemas for sub in property_schemas(s, key, wide=False)
            ]
            if value[key] is not None:
                for sub in subs:
                    _drop_nulls(value[key], sub, root, validator)
            elif (
                key not in required
                and _named(schemas, key)
                and _refuse_null(subs, validator)
            ):
                del value[key]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for sub in [
                sub for s in schemas for sub in item_schemas(s, index, wide=False)
            ]:
                _drop_nulls(item, sub, root, validator)


def _named(schemas: list[Any], key: str) -> bool:
    """True when a `properties` of `schemas` names `key`: only those a strict declaration made nullable.

    A key matched only by `patternProperties` or `additionalProperties` was never declared to a
    provider as an optional property, so its `null` is a value like any other.
    """
    for schema in schemas:
        named = schema.get("properties") if isinstance(schema, Mapping) else None
        if isinstance(named, Mapping) and key in named:
            return True
    return False


def _refuse_null(schemas: list[Any], validator: jsonschema.protocols.Validator) -> bool:
    """True when there are schemas, all of them objects, and none accepts `null`."""
    if not schemas or not all(isinstance(s, Mapping) for s in schemas):
        return False
    return not any(validator.evolve(schema=s).is_valid(None) for s in schemas)


MAX_LISTED = 100
"""An `INVALID_INPUT` lists at most this many errors; `details["omitted"]` counts the rest."""


def invalid(errors: Iterable[tuple[str, str]], what: str) -> Err:
    found = sorted(set(errors))
    shown = [(bound(path), message) for path, message in found[:MAX_LISTED]]
    listed = "; ".join(f"{path or '/'}: {message}" for path, message in shown)
    details: dict[str, Any] = {
        "errors": [{"path": path, "message": message} for path, message in shown]
    }
    if len(found) > MAX_LISTED:
        details["omitted"] = len(found) - MAX_LISTED
        listed += f"; and {len(found) - MAX_LISTED} more"
    return Err(
        "INVALID_INPUT",
        f"The {what} do not match the input schema: {listed}",
        False,
        details,
    )


class _Unreadable(ValueError):
    """A number JSON text can hold but Python cannot read as JSON data; its message says which."""


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Unreadable(
            f"the number {text[:40]} is not a finite number (too large for a 64-bit float)"
        )
    return number


def _integer(text: str) -> int:
    limit = sys.get_int_max_str_digits()
    digits = len(text) - text.startswith("-")
    if limit and digits > limit:
        raise _Unreadable(
            f"an integer has {digits} digits, more than the {limit} digits Python reads"
        )
    return int(text)


def _non_finite(value: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The path of the first NaN or infinity in `value`, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path
    if isinstance(value, Mapping):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _non_finite(item, (*path, key))
        if found is not None:
            return found
    return None


def parse_arguments(arguments: Mapping[str, Any] | str | bytes) -> dict[str, Any] | Err:
    if isinstance(arguments, (str, bytes)):
        try:  # strict JSON: NaN, Infinity and numbers past a float's range are refused
            arguments = json.loads(
                arguments,
                parse_constant=_not_json,
                parse_float=_finite,
                parse_int=_integer,
            )
        except _Unreadable as exc:
            return invalid([("", str(exc))], "arguments")
        except ValueError:
            return invalid([("", "the arguments are not valid JSON text")], "arguments")
    if not isinstance(arguments, Mapping):
        return invalid([("", "the arguments must be a JSON object")], "arguments")
    parsed: dict[str, Any] = thaw(arguments)
    where = _non_finite(parsed)
    if where is not None:
        message = "the value is not a finite number (JSON has no NaN or infinity)"
        return invalid([(pointer(where), message)], "arguments")
    return parsed


def input_model(model: type[BaseModel], value: dict[str, Any]) -> BaseModel:
    """The input model of a value the input schema accepted; pydantic can never refuse it.

    The model is validated (typed access, nested models) when pydantic agrees with the schema, as it
    does wherever the model states the schema exactly; where the build widened a field it holds the
    JSON value (TG355). Should pydantic still refuse (a pattern engine that reads a class otherwise,
    a gap in the widening), the model is built without validation from the value the schema
    accepted: the schema, not the model, decides what a tool receives.
    """
    try:
        return model.model_validate(value)
    except ValidationError:
        if issubclass(model, RootModel):
            return model.model_construct(value)
        return model.model_construct(**value)


def model_message(location: Iterable[Any], message: str, secrets: Secrets) -> str:
    if secrets.touches(location):
        return "the value is not valid (it is or holds sensitive data, not shown)"
    return bound(secrets.scrub(message))


def describe(error: jsonschema.ValidationError, secrets: Secrets) -> str:
    """An error's message that never shows a sensitive value and quotes a long value only in part."""
    if error.validator not in KEY_ONLY and secrets.touches(error.absolute_path):
        return f"the value fails `{error.validator}` (it is or holds sensitive data, not shown)"
    message = str(error.message)
    shown = repr(error.instance)
    short = quote(error.instance)
    if len(shown) > len(short):
        message = message.replace(shown, short)
    return bound(secrets.scrub(message))


def input_problems(
    value: Any, validator: jsonschema.protocols.Validator, secrets: Secrets
) -> list[tuple[str, str]]:
    """(pointer, message) for every way `value` fails the validator's schema."""
    return [
        (pointer(e.absolute_path), describe(e, secrets))
        for e in validator.iter_errors(value)
    ]


def output_problems(
    data: Any, validator: jsonschema.protocols.Validator, secrets: Secrets
) -> list[str]:
    """What is wrong with an output, after dropping the `None`s the schema refuses.

    A model's optional field defaults to `None`; set to `None` on purpose it means "absent" unless
    the schema accepts null, so such keys are removed from `data` (in place, by the same rule as
    for input: `drop_invited_nulls`) before judging it. No message shows a sensitive value.
    """
    drop_invited_nulls(data, validator)
    return [
        f"{pointer(e.absolute_path) or '/'}: {describe(e, secrets)}"
        for e in validator.iter_errors(data)
    ]


__all__ = [
    "KEY_ONLY",
    "MAX_TRACE_STRING",
    "REDACTED",
    "bound",
    "describe",
    "drop_invited_nulls",
    "input_model",
    "input_problems",
    "invalid",
    "model_message",
    "output_problems",
    "parse_arguments",
    "pointer",
    "quote",
    "redact",
    "shorten",
    "validator",
]
