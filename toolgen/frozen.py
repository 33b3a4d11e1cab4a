"""Deep-frozen JSON values.

Schemas in the catalog are read by many targets; none may change what another one reads. `freeze`
copies plain JSON data into read-only mappings and tuples, and `thaw` gives a target its own mutable
copy when it needs one (jsonschema, datamodel-code-generator, provider lowering).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeAlias

JsonValue: TypeAlias = Any
"""A JSON value: None, bool, int, float, str, a list or a mapping of JSON values."""

FrozenMap: TypeAlias = Mapping[str, Any]
"""A read-only mapping; its values are frozen too."""


SHARED_TEXT = 40
"""Keys, and texts up to this long, are shared between every schema that holds them (`sys.intern`):
`"type"`, `"string"`, property names and enum values recur across a catalog, and sharing them halves
the memory of a large frozen catalog."""


def freeze(value: JsonValue) -> JsonValue:
    """A deep, read-only copy of a JSON value: mappings become proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({sys.intern(str(k)): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if type(value) is str and len(value) <= SHARED_TEXT:
        return sys.intern(value)
    return value


def thaw(value: JsonValue) -> JsonValue:
    """A deep, mutable copy of a frozen (or plain) JSON value: plain dicts and lists."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


EMPTY_MAP: FrozenMap = MappingProxyType({})
