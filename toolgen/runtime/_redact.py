# The toolgen runtime's _redact.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Secrets: the one walk that finds every `x-sensitive` value of a call, and the scrubbing of texts.

Part of the runtime. `find_secrets(value, schema)` follows every way a schema can reach a value:
`$ref` (local pointers and `$anchor`s), `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`/
`dependentSchemas`, `properties`/`patternProperties`/`additionalProperties`/`unevaluatedProperties`,
`prefixItems`/`items`/`contains`/`unevaluatedItems`. A value is sensitive when any schema that may
apply to it says `"x-sensitive": true` (when in doubt, a branch of a union counts). The `Secrets` it
returns knows where they are (`touches(path)`) and what they look like in text (`scrub(text)`), so
`Registry` can redact the trace input and keep them out of every message, detail and traceback.
`quote(value)` and `bound(text)` keep what a message repeats of a value short.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ._patterns import search
from ._quote import MAX_MESSAGE, MAX_QUOTE, MAX_TRACE_STRING, bound, quote, shorten
from ._results import thaw

REDACTED = "[REDACTED]"
"""What a sensitive value is replaced with."""

MIN_ANYWHERE = 6
"""A sensitive text this long is scrubbed wherever it appears; a shorter one only as a whole word
(`"x"` must not turn `maxLength` into `ma[REDACTED]Length`)."""

Path = tuple[str, ...]

_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")


def resolve(ref: str, root: Mapping[str, Any]) -> Any:
    """The schema a local `$ref` names (a JSON pointer or an `$anchor`), or None."""
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return _anchor(fragment, root)
    node: Any = root
    for part in fragment.split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, (list, tuple)) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def _anchor(name: str, root: Mapping[str, Any]) -> Any:
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if name in (node.get("$anchor"), node.get("$dynamicAnchor")):
                return node
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return None


def applicable(
    schema: Any,
    root: Mapping[str, Any],
    seen: frozenset[str] = frozenset(),
    *,
    wide: bool = True,
) -> list[Mapping[str, Any]]:
    """`schema` and every subschema that may apply to the same value (`$ref`, `allOf`, `anyOf`, ...).

    `wide` adds the keywords that apply to a value without describing it (`not`, `if`,
    `dependentSchemas`): the secrets walk counts them, the reading of `null` does not.
    """
    if not isinstance(schema, Mapping):
        return []
    found = [schema]
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        found.extend(applicable(resolve(ref, root), root, seen | {ref}, wide=wide))
    for keyword in _IN_PLACE_MANY:
        subs = schema.get(keyword)
        for sub in subs if isinstance(subs, (list, tuple)) else ():
            found.extend(applicable(sub, root, seen, wide=wide))
    for keyword in _IN_PLACE_ONE if wide else _IN_PLACE_ONE[2:]:
        found.extend(applicable(schema.get(keyword), root, seen, wide=wide))
    dependent = schema.get("dependentSchemas") if wide else None
    for sub in dependent.values() if isinstance(dependent, Mapping) else ():
        found.extend(applicable(sub, root, seen, wide=wide))
    return found


def property_schemas(
    schema: Mapping[str, Any], key: str, *, wide: bool = True
) -> list[Any]:
    """The schemas `schema` gives the property `key`: named, by pattern, else the additional ones."""
    found: list[Any] = []
    properties = schema.get("properties", {})
    if isinstance(properties, Mapping) and key in properties:
        found.append(properties[key])
    patterns = schema.get("patternProperties", {})
    if isinstance(patterns, Mapping):
        found.extend(sub for pattern, sub in patterns.items() if _matches(pattern, key))
    others = (
        ("additionalProperties", "unevaluatedProperties")
        if wide
        else ("additionalProperties",)
    )
    if not found:
        found.extend(sub for k in others if isinstance(sub := schema.get(k), Mapping))
    return found


def _matches(pattern: str, key: str) -> bool:
    """Whether `pattern` matches `key`, on RE2 where it reads the pattern (a key is the caller's)."""
    return search(pattern, key)


def item_schemas(
    schema: Mapping[str, Any], index: int, *, wide: bool = True
) -> list[Any]:
    """The schemas `schema` gives the array item at `index` (`wide`: `contains`, `unevaluatedItems` too)."""
    prefix = schema.get("prefixItems", ())
    found: list[Any] = (
        [prefix[index]]
        if isinstance(prefix, (list, tuple)) and index < len(prefix)
        else []
    )
    others = ("items", "unevaluatedItems") if wide else ("items",)
    if not found:
        found.extend(sub for k in others if isinstance(sub := schema.get(k), Mapping))
    if wide and isinstance(schema.get("contains"), Mapping):
        found.append(schema["contains"])
    return found


class _Walk:
    """One walk of a value against its schema, remembering what each subschema expands to."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.found: list[Path] = []
        self._expanded: dict[int, list[Mapping[str, Any]]] = {}

    def expand(self, schema: Any) -> list[Mapping[str, Any]]:
        key = id(schema)
        if key not in self._expanded:
            self._expanded[key] = applicable(schema, self.root)
        return self._expanded[key]

    def visit(self, value: Any, schemas: list[Mapping[str, Any]], path: Path) -> None:
        if any(s.get("x-sensitive") is True for s in schemas):
            self.found.append(path)
            return
        if isinstance(value, Mapping):
            for key, item in value.items():
                subs = [
                    a
                    for s in schemas
                    for sub in property_schemas(s, str(key))
                    for a in self.expand(sub)
                ]
                if subs:
                    self.visit(item, subs, (*path, str(key)))
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                subs = [
                    a
                    for s in schemas
                    for sub in item_schemas(s, index)
                    for a in self.expand(sub)
                ]
                if subs:
                    self.visit(item, subs, (*path, str(index)))


def sensitive_paths(value: Any, schema: Mapping[str, Any]) -> list[Path]:
    """The paths of every value in `value` (plain JSON data) that its schema marks `x-sensitive`."""
    walk = _Walk(schema)
    walk.visit(value, walk.expand(schema), ())
    return walk.found


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _forms(leaf: Any) -> list[str]:
    """How a sensitive scalar can appear in a text: as itself, in `repr` and in JSON."""
    if isinstance(leaf, str):
        forms = [
            leaf,
            repr(leaf)[1:-1],
            json.dumps(leaf)[1:-1],
            json.dumps(leaf, ensure_ascii=False)[1:-1],
        ]
        return [f for f in forms if f]
    if isinstance(leaf, (int, float)) and not isinstance(leaf, bool):
        return [repr(leaf), str(leaf)]
    return []


def _at(value: Any, path: Path) -> Any:
    for part in path:
        value = value[part] if isinstance(value, Mapping) else value[int(part)]
    return value


def _word_at(text: str, start: int, end: int) -> bool:
    """True when `text[start:end]` is not part of a longer word or number."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before in "_.") and not (
        after.isalnum() or after in "_."
    )


@dataclass(frozen=True)
class Secrets:
    """Where the sensitive values of one value are (`paths`) and the texts they show as (`texts`).

    Scrubbing looks up each position's candidates by length in a set, longest first, so its cost
    grows with the text and the number of distinct lengths, not with the number of secrets.
    """

    paths: frozenset[Path] = frozenset()
    texts: frozenset[str] = field(default=frozenset(), repr=False)
    """Never in `repr`: a `Secrets` may reach a log line or a debugger."""
    _holders: frozenset[Path] = field(default=frozenset(), repr=False, compare=False)
    _lengths: tuple[int, ...] = field(default=(), repr=False, compare=False)
    _starts: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    @classmethod
    def of(cls, paths: Iterable[Path], texts: Iterable[str]) -> Secrets:
        """The secrets at `paths` (for `touches`) that show as `texts` (for `scrub`)."""
        found, shown = frozenset(paths), frozenset(t for t in texts if t)
        holders = frozenset(p[:end] for p in found for end in range(len(p)))
        lengths = tuple(sorted({len(t) for t in shown}, reverse=True))
        return cls(found, shown, holders, lengths, frozenset(t[0] for t in shown))

    def touches(self, path: Iterable[Any]) -> bool:
        """True when the value at `path` is sensitive, lies inside one or holds one."""
        here = tuple(str(p) for p in path)
        return here in self._holders or any(
            here[:end] in self.paths for end in range(len(here) + 1)
        )

    def scrub(self, text: str) -> str:
        """`text` with every sensitive value in it replaced by `REDACTED` (a short one only as a whole word)."""
        if not self.texts or not text:
            return text
        pieces: list[str] = []
        done = index = 0
        while index < len(text):
            end = self._match(text, index) if text[index] in self._starts else 0
            if end:
                pieces += [text[done:index], REDACTED]
                index = done = end
            else:
                index += 1
        return "".join([*pieces, text[done:]]) if pieces else text

    def _match(self, text: str, index: int) -> int:
        for length in self._lengths:
            end = index + length
            if text[index:end] in self.texts and (
                length >= MIN_ANYWHERE or _word_at(text, index, end)
            ):
                return end
        return 0

    def scrub_data(self, value: Any) -> Any:
        """A copy of JSON data with every string (keys too) scrubbed."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, Mapping):
            return {self.scrub(str(k)): self.scrub_data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.scrub_data(v) for v in value]
        return value

    def summary(self, value: Any) -> Any:
        """`shorten(scrub_data(value))`, scrubbing only what the shortened strings keep."""
        if isinstance(value, str):
            if len(value) <= MAX_TRACE_STRING:
                return self.scrub(value)
            longest = self._lengths[0] if self._lengths else 0
            kept = self.scrub(value[: MAX_TRACE_STRING + longest])[:MAX_TRACE_STRING]
            return f"{kept}... ({len(value)} characters)"
        if isinstance(value, Mapping):
            return {self.scrub(str(k)): self.summary(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.summary(v) for v in value]
        return value


def combined(*found: Secrets) -> Secrets:
    """One scrubber for the texts of several values' secrets (input and output); it has no paths."""
    return Secrets.of((), (t for s in found for t in s.texts))


NO_SECRETS = Secrets()
"""The secrets of a value that has none."""


def find_secrets(value: Any, schema: Mapping[str, Any] | None) -> Secrets:
    """Every value the schema marks `x-sensitive` in `value` (JSON data or a model), at any depth."""
    if schema is None:
        return NO_SECRETS
    plain = thaw(value)
    paths = sensitive_paths(plain, schema)
    if not paths:
        return NO_SECRETS
    return Secrets.of(
        paths,
        (f for p in paths for leaf in _leaves(_at(plain, p)) for f in _forms(leaf)),
    )


def redacted(value: Any, paths: Iterable[Path]) -> Any:
    """A copy of `value` with the values at `paths` replaced by `REDACTED` (paths it no longer has skipped)."""
    plain = thaw(value)
    for path in sorted(paths, key=len):
        if not path:
            return REDACTED
        try:
            parent = _at(plain, path[:-1])
            key: Any = path[-1] if isinstance(parent, dict) else int(path[-1])
            if parent[key] is not None:
                parent[key] = REDACTED
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # under a value already redacted, or dropped (an invited null)
    return plain


def redact(value: Any, schema: Mapping[str, Any]) -> Any:
    """A copy of `value` with every value its schema marks `x-sensitive` replaced, at any depth."""
    plain = thaw(value)
    return redacted(plain, sensitive_paths(plain, schema))


__all__ = [
    "MAX_MESSAGE",
    "MAX_QUOTE",
    "MAX_TRACE_STRING",
    "NO_SECRETS",
    "REDACTED",
    "Secrets",
    "applicable",
    "bound",
    "combined",
    "find_secrets",
    "item_schemas",
    "property_schemas",
    "quote",
    "redact",
    "redacted",
    "resolve",
    "sensitive_paths",
    "shorten",
]
