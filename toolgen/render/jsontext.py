"""Large JSON files written a piece at a time, byte-identical to `json.dumps(indent=2, ensure_ascii=False)`.

With `indent`, the standard library encodes in pure Python: it builds a list of every token of the
document before joining them, and the caller has already built the whole document as plain data.
For `catalog.json` or a provider file of 10,000 tools that is several times the file's size at once.
`dumps` takes a document whose big lists may be iterators (each item made when it is reached) and
encodes each item of the top levels on its own (`pieces` gives them one at a time), so the only
large thing ever held is the text itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

OPEN_LEVELS = 2
"""Containers this deep (the document, its members, theirs) are framed here; deeper ones by `json`."""


@dataclass(frozen=True, slots=True)
class Raw:
    """A value already encoded: `text` is its `json.dumps(indent=2, ensure_ascii=False)` at the top
    level, placed as it is (its lines indented to where it sits). A cached tool entry is one."""

    text: str


def encode(value: object) -> Raw:
    """`value` encoded once, to be placed with `Raw`."""
    return Raw(json.dumps(value, indent=2, ensure_ascii=False))


def dumps(document: object) -> str:
    """The text of `json.dumps(document, indent=2, ensure_ascii=False)` (iterators stand for lists)."""
    return "".join(_pieces(document, 0))


def pieces(document: object) -> Iterator[str]:
    """`dumps(document)` a piece at a time."""
    return _pieces(document, 0)


def _plain(value: object, level: int) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    # JSON strings never hold a raw newline, so every newline here starts an indented line
    return text.replace("\n", "\n" + "  " * level) if level else text


def _pieces(value: object, level: int) -> Iterator[str]:
    if isinstance(value, Raw):
        yield value.text.replace("\n", "\n" + "  " * level) if level else value.text
        return
    deep = level >= OPEN_LEVELS and not _holds_raw(value)
    if deep or not isinstance(value, Mapping | list | tuple | Iterator):
        yield _plain(value, level)
        return
    if isinstance(value, Mapping):
        yield from _framed(_members(value, level + 1), "{", "}", level)
    else:
        yield from _framed((_pieces(item, level + 1) for item in value), "[", "]", level)


def _holds_raw(value: object) -> bool:
    """Whether an already encoded value sits anywhere inside `value` (then it is framed here)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Raw):
            return True
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def _members(value: Mapping[object, object], level: int) -> Iterator[Iterator[str]]:
    for key, member in value.items():
        if not isinstance(key, str):
            raise TypeError(f"JSON object keys must be text here, not {type(key).__name__}")
        yield _member(key, member, level)


def _member(key: str, member: object, level: int) -> Iterator[str]:
    yield json.dumps(key, ensure_ascii=False) + ": "
    yield from _pieces(member, level)


def _framed(parts: Iterable[Iterator[str]], opener: str, closer: str, level: int) -> Iterator[str]:
    pad = "\n" + "  " * (level + 1)
    first = True
    for part in parts:
        yield opener + pad if first else "," + pad
        first = False
        yield from part
    yield opener + closer if first else "\n" + "  " * level + closer


__all__ = ["Raw", "dumps", "encode", "pieces"]
