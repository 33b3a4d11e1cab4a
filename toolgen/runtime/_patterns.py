# The toolgen runtime's _patterns.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""`pattern` and `patternProperties` in linear time: the registry's regular expressions run on RE2.

Part of the runtime. jsonschema runs every pattern on Python's `re`, a backtracking engine: the
pattern `^(a+)+$` and a 30-character string took minutes. `Patterns` compiles each pattern once with
RE2 (the `google-re2` package), whose matching time grows linearly with the text, and falls back to
`re` only for a pattern RE2 refuses (a backreference, a lookaround, a repetition past 1000, `\\Z`);
`toolgen validate` warns (TG221) when such a pattern also nests quantifiers. `keywords(patterns)`
gives the four keywords of draft 2020-12 that match patterns (`pattern`, `patternProperties`,
`additionalProperties`, `unevaluatedProperties`) with jsonschema's own messages, for
`jsonschema.validators.extend`.

Semantics: a schema's pattern is an ECMA-262 regular expression. RE2 reads it as ECMA-262 does where
it matters most: `\\d`, `\\w` and `\\b` are ASCII, `$` matches only at the end of the text (Python's
`re` also matches before a final newline), `.` matches no newline. It differs in `\\s` (ASCII
whitespace only, ECMA-262 adds the Unicode spaces) and does not read `\\cX` or `\\uXXXX` (those
patterns fall back to `re`). A lone surrogate in a text is matched as U+FFFD.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import re2  # type: ignore[import-untyped,import-not-found,unused-ignore]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped,unused-ignore]

Keyword = Callable[[Any, Any, Any, Any], Iterator[Any]]
"""A jsonschema keyword function: (validator, keyword value, instance, schema) -> errors."""


def linear(pattern: str) -> Any | None:
    """`pattern` compiled by RE2, or None when RE2 cannot read it (the caller uses `re`)."""
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except Exception:  # re2.error, or a pattern that is not UTF-8 (a lone surrogate)
        return None


class Patterns:
    """The compiled patterns of one validator: RE2 where it reads the pattern, else `re`."""

    def __init__(self) -> None:
        self._compiled: dict[str, Callable[[str], bool]] = {}

    def matcher(self, pattern: str) -> Callable[[str], bool]:
        """`pattern` as a test of a text: RE2's where RE2 reads it, else `re`'s."""
        found = self._compiled.get(pattern)
        if found is None:
            fast = linear(pattern)
            found = _on_re2(fast) if fast is not None else _on_re(re.compile(pattern))
            self._compiled[pattern] = found
        return found

    def search(self, pattern: str, text: str) -> bool:
        """True when `pattern` matches somewhere in `text` (JSON Schema patterns are not anchored)."""
        return self.matcher(pattern)(text)


def _on_re(compiled: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda text: compiled.search(text) is not None


def _on_re2(compiled: Any) -> Callable[[str], bool]:
    """A test on RE2. google-re2's `search` decodes every span back to `str` offsets in Python, which
    costs several times the match; the test needs none, so it calls the compiled RE2 object itself
    where this version of google-re2 has it, on the UTF-8 text."""
    program = getattr(compiled, "_regexp", None)
    anchor = getattr(getattr(re2, "_Anchor", None), "UNANCHORED", None)
    if program is None or anchor is None or not hasattr(program, "Match"):
        return lambda text: compiled.search(_utf8_text(text)) is not None

    def test(text: str) -> bool:
        data = _utf8(text)
        return bool(program.Match(anchor, data, 0, len(data))[0][0] != -1)

    return test


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: RE2 reads UTF-8 only
        return _replace_surrogates(text).encode("utf-8")


def _utf8_text(text: str) -> str:
    return _utf8(text).decode("utf-8")


def _replace_surrogates(text: str) -> str:
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def keywords(patterns: Patterns) -> dict[str, Keyword]:
    """The keywords that match patterns, on `patterns`, for `jsonschema.validators.extend`."""

    def pattern(
        validator: Any, patrn: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not patterns.search(
            patrn, instance
        ):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(
        validator: Any, given: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for each, subschema in given.items():
            for key, value in instance.items():
                if patterns.search(each, key):
                    yield from validator.descend(
                        value, subschema, path=key, schema_path=each
                    )

    def additional(
        validator: Any, given: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if validator.is_type(instance, "object"):
            yield from _additional(validator, given, instance, schema, patterns)

    def unevaluated(
        validator: Any, given: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        if validator.is_type(instance, "object"):
            yield from _unevaluated(validator, given, instance, schema, patterns)

    return {
        "pattern": pattern,
        "patternProperties": pattern_properties,
        "additionalProperties": additional,
        "unevaluatedProperties": unevaluated,
    }


def _extras(extras: list[Any]) -> tuple[str, str]:
    return ", ".join(repr(extra) for extra in extras), (
        "was" if len(extras) == 1 else "were"
    )


def _additional(
    validator: Any, given: Any, instance: Any, schema: Any, patterns: Patterns
) -> Iterator[Any]:
    properties = schema.get("properties", {})
    regexes = list(schema.get("patternProperties", {}))
    extras = {
        key
        for key in instance
        if key not in properties and not any(patterns.search(r, key) for r in regexes)
    }
    if validator.is_type(given, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], given, path=extra)
    elif not given and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            listed = ", ".join(repr(each) for each in sorted(regexes))
            yield ValidationError(
                f"{joined} {verb} not match any of the regexes: {listed}"
            )
        else:
            error = "Additional properties are not allowed (%s %s unexpected)"
            yield ValidationError(error % _extras(sorted(extras, key=str)))


def _unevaluated(
    validator: Any, given: Any, instance: Any, schema: Any, patterns: Patterns
) -> Iterator[Any]:
    evaluated = evaluated_keys(validator, instance, schema, patterns)
    failing = [
        key
        for key in instance
        if key not in evaluated
        and next(
            validator.descend(instance[key], given, path=key, schema_path=key), None
        )
        is not None
    ]
    if failing and given is False:
        error = "Unevaluated properties are not allowed (%s %s unexpected)"
        yield ValidationError(error % _extras(sorted(failing, key=str)))
    elif failing:
        error = (
            "Unevaluated properties are not valid under "
            "the given schema (%s %s unevaluated and invalid)"
        )
        yield ValidationError(error % _extras(failing))


def _valid(errors: Iterator[Any]) -> bool:
    return next(errors, None) is None


def _referenced(
    validator: Any, instance: Any, schema: Any, patterns: Patterns
) -> set[str]:
    found: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            inner = validator.evolve(
                schema=resolved.contents, _resolver=resolved.resolver
            )
            found |= evaluated_keys(inner, instance, resolved.contents, patterns)
    return found


def evaluated_keys(
    validator: Any, instance: Any, schema: Any, patterns: Patterns
) -> set[str]:
    """The keys of `instance` that `schema` evaluates (jsonschema's own walk, with `patterns`)."""
    if validator.is_type(schema, "boolean") or not isinstance(schema, Mapping):
        return set()
    found = _referenced(validator, instance, schema, patterns)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        found |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if (sub := schema.get(keyword)) is not None:
            found |= {
                k for k, v in instance.items() if _valid(validator.descend(v, sub))
            }
    for regex in schema.get("patternProperties", {}):
        found |= {key for key in instance if patterns.search(regex, key)}
    for key, sub in schema.get("dependentSchemas", {}).items():
        if key in instance:
            found |= evaluated_keys(validator, instance, sub, patterns)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(keyword, []):
            if _valid(validator.descend(instance, sub)):
                found |= evaluated_keys(validator, instance, sub, patterns)
    return found | _conditional(validator, instance, schema, patterns)


def _conditional(
    validator: Any, instance: Any, schema: Any, patterns: Patterns
) -> set[str]:
    if "if" not in schema:
        return set()
    if validator.evolve(schema=schema["if"]).is_valid(instance):
        found = evaluated_keys(validator, instance, schema["if"], patterns)
        if "then" in schema:
            found |= evaluated_keys(validator, instance, schema["then"], patterns)
        return found
    if "else" in schema:
        return evaluated_keys(validator, instance, schema["else"], patterns)
    return set()


def search(pattern: str, text: str) -> bool:
    """`Patterns().search`, for a walk that has no validator (the secrets walk); compiles each time."""
    try:
        return Patterns().search(pattern, text)
    except re.error:
        return True  # a pattern neither engine reads: assume it applies


__all__ = ["Patterns", "evaluated_keys", "keywords", "linear", "search"]
