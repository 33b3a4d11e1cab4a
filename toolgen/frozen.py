"""Deep-frozen JSON values.

Schemas in the catalog are read by many targets; none may change what another one reads. `freeze`
copies plain JSON data into read-only mappings and tuples, and `thaw` gives a target its own mutable
copy when it needs one (jsonschema, datamodel-code-generator, provider lowering). Parsed data is an
`object` to the code that reads it: `as_object` and `as_array` narrow it to the shape a reader
expects, a TypeError when it has another (a valid document never has).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeAlias, overload

JsonValue: TypeAlias = Any
"""A JSON value: None, bool, int, float, str, a list or a mapping of JSON values."""

FrozenMap: TypeAlias = Mapping[str, Any]
"""A read-only mapping; its values are frozen too."""


SHARED_TEXT = 40
"""Keys, and texts up to this long, are shared between every schema that holds them (`sys.intern`):
`"type"`, `"string"`, property names and enum values recur across a catalog, and sharing them halves
the memory of a large frozen catalog."""


@overload
def freeze(value: Mapping[str, object]) -> FrozenMap: ...
@overload
def freeze(value: JsonValue) -> JsonValue: ...
def freeze(value: JsonValue) -> JsonValue:
    """A deep, read-only copy of a JSON value: mappings become proxies, lists become tuples."""
    kind = type(value)
    if kind is str:
        return sys.intern(value) if len(value) <= SHARED_TEXT else value
    if kind in _PLAIN:
        return value
    if kind in _MAPS or isinstance(value, Mapping):
        return MappingProxyType({sys.intern(str(k)): freeze(v) for k, v in value.items()})
    if kind in _LISTS or isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def loads_frozen(text: str, parse_constant: Callable[[str], object] | None = None) -> JsonValue:
    """`freeze(json.loads(text, parse_constant=...))`, each object frozen as json makes it: no plain
    copy is built and walked again (a build loads 1,000 contracts it already knows are valid)."""
    return _frozen_item(json.loads(text, object_pairs_hook=_frozen_object, parse_constant=parse_constant))


def _frozen_object(pairs: list[tuple[str, object]]) -> FrozenMap:
    """One JSON object as `freeze` makes it (its objects inside are frozen already; the last of
    two equal keys wins, in the place of the first, as json's own objects do)."""
    return MappingProxyType({sys.intern(key): _frozen_item(value) for key, value in pairs})


def _frozen_item(value: JsonValue) -> JsonValue:
    kind = type(value)
    if kind is str:
        return sys.intern(value) if len(value) <= SHARED_TEXT else value
    if kind is list:
        return tuple(_frozen_item(item) for item in value)
    return value


def thaw(value: JsonValue) -> JsonValue:
    """A deep, mutable copy of a frozen (or plain) JSON value: plain dicts and lists."""
    kind = type(value)
    if kind in _PLAIN or kind is str:
        return value
    if kind in _MAPS or isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if kind in _LISTS or isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def as_object(value: object) -> Mapping[str, object]:
    """`value`, a JSON object (a dict, or a read-only proxy when frozen); TypeError for anything else."""
    if isinstance(value, dict | MappingProxyType | Mapping):  # the slow ABC check last
        return value
    raise TypeError(f"expected a JSON object, found {type(value).__name__}")


def as_array(value: object) -> Sequence[object]:
    """`value`, a JSON array (a list, or a tuple when frozen); TypeError for anything else."""
    if isinstance(value, list | tuple):
        return value
    raise TypeError(f"expected a JSON array, found {type(value).__name__}")


_PLAIN: frozenset[type] = frozenset({bool, int, float, type(None)})
_MAPS: frozenset[type] = frozenset({dict, MappingProxyType})
_LISTS: frozenset[type] = frozenset({list, tuple})
"""The concrete types of JSON data, tested by identity first: an `isinstance` against the `Mapping`
ABC is slow, and a catalog freezes and thaws every node of every schema; other types still take
the `isinstance` path."""


EMPTY_MAP: FrozenMap = MappingProxyType({})
