"""A small TOML writer for contract documents (tomllib reads TOML but cannot write it).

Mapping decisions:
- a table's plain values come first as `key = value`, then its sub-tables as `[a.b]` sections and
  its non-empty lists of tables as `[[a.b]]` sections, so every value lands in the table it belongs to;
- lists that mix tables with other values, and tables inside lists, are written inline (`{ k = v }`);
- strings are basic strings with every control character escaped; a string with a newline that sits
  directly in a table (not inline) is written as a multi-line basic string, easier to review, where
  tabs and quotes stay literal unless a quote could close the string;
- keys are bare when they are `A-Za-z0-9_-`, quoted otherwise;
- TOML has no null and only 64-bit integers: such values raise `TomlEmitError` so the caller can
  fall back to JSON.

`tomllib.loads(dumps(data)) == data` for every document this accepts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TypeGuard

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


class TomlEmitError(ValueError):
    """The value cannot be written as TOML (null, a too-large integer, a non-finite float)."""


def _escape_char(char: str, *, multiline: bool) -> str:
    if multiline and char == "\n":
        return char
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return f"\\u{code:04X}"
    return char


def _multiline_char(text: str, index: int) -> str:
    """A character inside a multi-line string: quotes and tabs stay literal unless they could end it."""
    char = text[index]
    if char == '"':
        last = index == len(text) - 1
        return '\\"' if last or text[index + 1] == '"' else char
    if char == "\t":
        return char
    return _escape_char(char, multiline=True)


def string(text: str, *, multiline: bool = False) -> str:
    """A TOML basic string (multi-line when asked and the text has a newline)."""
    if multiline and "\n" in text:
        return '"""\n' + "".join(_multiline_char(text, i) for i in range(len(text))) + '"""'
    return '"' + "".join(_escape_char(c, multiline=False) for c in text) + '"'


def key(name: str) -> str:
    """A TOML key: bare when possible, else a quoted basic string."""
    return name if _BARE_KEY.fullmatch(name) else string(name)


def _is_table_list(value: object) -> TypeGuard[Sequence[Mapping[str, object]]]:
    return isinstance(value, list | tuple) and bool(value) and all(isinstance(v, Mapping) for v in value)


def inline(value: object, where: str = "") -> str:
    """Any value as an inline TOML value (one line)."""
    if value is None:
        raise TomlEmitError(f"TOML has no null (at {where or '/'})")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise TomlEmitError(f"integer {value} does not fit in TOML's 64 bits (at {where or '/'})")
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TomlEmitError(f"{value} is not a finite number (at {where or '/'})")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, Mapping):
        parts = [f"{key(str(k))} = {inline(v, f'{where}/{k}')}" for k, v in value.items()]
        return "{ " + ", ".join(parts) + " }" if parts else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(inline(v, f"{where}/{i}") for i, v in enumerate(value)) + "]"
    raise TomlEmitError(f"cannot write a {type(value).__name__} as TOML (at {where or '/'})")


def _header(path: Sequence[str]) -> str:
    return ".".join(key(p) for p in path)


def _table(path: list[str], table: Mapping[str, object], out: list[str], *, array_item: bool = False) -> None:
    plain = [(k, v) for k, v in table.items() if not (isinstance(v, Mapping) and v) and not _is_table_list(v)]
    subtables = [(k, v) for k, v in table.items() if isinstance(v, Mapping) and v]
    table_lists = [(k, v) for k, v in table.items() if _is_table_list(v)]
    where = "/" + "/".join(path)
    if path and (plain or array_item or not (subtables or table_lists)):
        out.append(("[[" + _header(path) + "]]") if array_item else ("[" + _header(path) + "]"))
    for name, value in plain:
        text = string(value, multiline=True) if isinstance(value, str) else inline(value, f"{where}/{name}")
        out.append(f"{key(name)} = {text}")
    for name, value in subtables:
        _blank(out)
        _table([*path, name], value, out)
    for name, items in table_lists:
        for item in items:
            _blank(out)
            _table([*path, name], item, out, array_item=True)


def _blank(out: list[str]) -> None:
    if out and out[-1] != "":
        out.append("")


def dumps(document: Mapping[str, object]) -> str:
    """The document as TOML text ending in a newline; raises `TomlEmitError` when TOML cannot hold it."""
    out: list[str] = []
    _table([], document, out)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


__all__ = ["TomlEmitError", "dumps", "inline", "key", "string"]
