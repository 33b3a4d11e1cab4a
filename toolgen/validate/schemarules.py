"""Checks of one schema object that JSON Schema itself does not make, so the registry would silently differ.

- TG216: `x-sensitive` must be `true` or `false` (the registry redacts only `true`).
- TG217: a key close to an annotation toolgen reads (`x-sensitve`, `x_sensitive`): it would be ignored
  (only keys that are not JSON Schema keywords are compared).
- TG218: a `$schema` other than draft 2020-12: contracts are judged in one dialect, here and at run time.
- TG219: bounds no value can meet (`minimum` above `maximum`, `minLength` above `maxLength`, ...).
- TG220: a `format` JSON Schema does not define (`date-tim`): nothing checks it, neither here nor at run time.
- TG221: a pattern RE2 cannot run that nests quantifiers (`validate/patterns.py`).

`FORMAT_CHECKER` is jsonschema's draft 2020-12 checker with the date and time formats it leaves to
optional packages (`date-time`, `time`, `duration`) checked by the standard library, since the
generated models (pydantic) refuse such values anyway: a default or example they refuse is an error.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Mapping
from typing import Any

import jsonschema

from toolgen.positions import join
from toolgen.validate.patterns import check_patterns
from toolgen.validate.report import Reporter, did_you_mean
from toolgen.validate.schemawalk import KEYWORDS

ANNOTATIONS: tuple[str, ...] = ("x-sensitive",)
"""The `x-` annotations toolgen reads."""

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The one `$schema` a contract's schema may name (with or without a trailing `#`)."""

FORMATS: frozenset[str] = frozenset(
    {
        *["date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname"],
        *["ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template"],
        *["json-pointer", "relative-json-pointer", "regex"],
        *["password", "binary", "byte", "int32", "int64", "float", "double"],  # OpenAPI's, read by the models
    }
)
"""Every format of draft 2020-12, and the OpenAPI ones the Python models understand."""

BOUNDS: tuple[tuple[str, str, str], ...] = (
    ("minimum", "maximum", "number"),
    ("minLength", "maxLength", "length"),
    ("minItems", "maxItems", "number of items"),
    ("minProperties", "maxProperties", "number of properties"),
    ("minContains", "maxContains", "number of matching items"),
)


def check_node(here: str, node: Mapping[str, Any], report: Reporter) -> None:
    """TG216-TG221 on one schema object at pointer `here`."""
    if "x-sensitive" in node and not isinstance(node["x-sensitive"], bool):
        report(
            "TG216",
            join(here, "x-sensitive"),
            f"`x-sensitive` must be true or false, not {node['x-sensitive']!r}; the registry redacts only "
            "`true`, so write x-sensitive = true",
        )
    for key in node:
        if key not in KEYWORDS and key not in ANNOTATIONS and looks_like_annotation(key):
            report(
                "TG217",
                join(here, key),
                f"{key!r} is not an annotation toolgen reads, so it does nothing{did_you_mean(key, ANNOTATIONS)}",
            )
    schema = node.get("$schema")
    if isinstance(schema, str) and schema.rstrip("#") != DIALECT:
        report(
            "TG218",
            join(here, "$schema"),
            f"$schema {schema!r} names another JSON Schema dialect; contracts are draft 2020-12, which "
            f"`toolgen validate` and the generated registry both judge by: remove `$schema` or write {DIALECT!r}",
        )
    _bounds(here, node, report)
    _format(here, node, report)
    check_patterns(here, node, report)


def looks_like_annotation(key: str) -> bool:
    """A key that is close to an annotation, also written with `_` or without the `x-` prefix.

    `check_node` asks only about keys that are not JSON Schema keywords (no keyword is close to an
    annotation), so a clean schema costs no `difflib` call: the cost follows the unknown keys.
    """
    plain = key.lower().replace("_", "-")
    return any(difflib.get_close_matches(form, ANNOTATIONS, n=1, cutoff=0.8) for form in (plain, "x-" + plain))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _bounds(here: str, node: Mapping[str, Any], report: Reporter) -> None:
    for low_key, high_key, what in BOUNDS:
        low, high = _number(node.get(low_key)), _number(node.get(high_key))
        if low is not None and high is not None and low > high:
            report(
                "TG219",
                join(here, low_key),
                f"{low_key} {node[low_key]!r} is above {high_key} {node[high_key]!r}, so no {what} can pass; "
                "swap or fix them",
            )
    if _no_number_between(node):
        key = "exclusiveMinimum" if "exclusiveMinimum" in node else "minimum"
        report("TG219", join(here, key), "the exclusive and inclusive bounds leave no number that can pass; fix them")


def _no_number_between(node: Mapping[str, Any]) -> bool:
    """True when an exclusive bound makes the range empty (the inclusive pair alone is checked above)."""
    if "exclusiveMinimum" not in node and "exclusiveMaximum" not in node:
        return False
    lows = [(v, True) for v in [_number(node.get("exclusiveMinimum"))] if v is not None]
    lows += [(v, False) for v in [_number(node.get("minimum"))] if v is not None]
    highs = [(v, True) for v in [_number(node.get("exclusiveMaximum"))] if v is not None]
    highs += [(v, False) for v in [_number(node.get("maximum"))] if v is not None]
    if not lows or not highs:
        return False
    low, open_low = max(lows, key=lambda b: (b[0], b[1]))
    high, open_high = min(highs, key=lambda b: (b[0], not b[1]))
    return low > high or (low == high and (open_low or open_high))


def _format(here: str, node: Mapping[str, Any], report: Reporter) -> None:
    fmt = node.get("format")
    if isinstance(fmt, str) and fmt not in FORMATS:
        report(
            "TG220",
            join(here, "format"),
            f"format {fmt!r} is not one JSON Schema defines, so nothing checks it (jsonschema ignores "
            f"formats it does not know, here and in the generated registry){did_you_mean(fmt, FORMATS)}",
        )


_TIME = r"(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
_DATE_TIME = re.compile(rf"^(\d{{4}}-\d{{2}}-\d{{2}})[Tt ]{_TIME}$")
_TIME_ONLY = re.compile(rf"^{_TIME}$")
_DURATION = re.compile(r"^P(?!$)(\d+W|(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?)$")


def _clock(hour: str, minute: str, second: str, offset: str) -> bool:
    if offset not in ("Z", "z") and (int(offset[1:3]) > 23 or int(offset[4:]) > 59):
        return False
    return int(hour) < 24 and int(minute) < 60 and int(second) < 61


def is_date_time(value: object) -> bool:
    """RFC 3339 `date-time`; non-strings pass (formats apply to strings only)."""
    if not isinstance(value, str):
        return True
    match = _DATE_TIME.match(value)
    if match is None:
        return False
    try:
        datetime.date.fromisoformat(match.group(1))
    except ValueError:
        return False
    return _clock(match.group(2), match.group(3), match.group(4), match.group(6))


def is_time(value: object) -> bool:
    """RFC 3339 `full-time` (with an offset)."""
    if not isinstance(value, str):
        return True
    match = _TIME_ONLY.match(value)
    return match is not None and _clock(match.group(1), match.group(2), match.group(3), match.group(5))


def is_duration(value: object) -> bool:
    """ISO 8601 duration, as RFC 3339 appendix A writes it (`P3D`, `PT1H30M`, `P2W`)."""
    return not isinstance(value, str) or (_DURATION.match(value) is not None and not value.endswith("T"))


def _format_checker() -> jsonschema.FormatChecker:
    checker = jsonschema.FormatChecker(())
    checker.checkers = dict(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)
    for name, check in (("date-time", is_date_time), ("time", is_time), ("duration", is_duration)):
        if name not in checker.checkers:
            checker.checks(name)(check)
    return checker


FORMAT_CHECKER = _format_checker()
"""The format checker defaults and examples are judged with."""
