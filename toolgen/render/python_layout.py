"""Python source laid out by toolgen itself: literals of contract data, and what black would write.

All contract text reaches Python as `repr` literals (`pyliteral`), never inside a docstring or
comment, so nothing can break out of its string; header comments are escaped (`safe_comment`). The
record and protocol of a tool module sit in its `# fmt: off` region, so black never reads them:
`call_lines`, `tuple_lines` and `signature_lines` split them as black would (a test holds black,
allowed to, to the same bytes over the golden, hostile and synthetic catalogs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import cast

from toolgen.catalog import Contract

LAYOUT_WIDTH = 88
"""Line width for the schema and example literals toolgen lays out itself (black skips them)."""


def safe_comment(text: str) -> str:
    """Text for a `#` comment line: every non-printable character escaped, so it stays one line."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def pyliteral(value: object) -> str:
    """Python source for a JSON value (frozen or plain); strings via `repr`, so nothing escapes."""
    kind = type(value)  # the exact types first: isinstance against an ABC is slow, and a schema has many values
    if kind is str:
        return _pystr(cast(str, value))
    if kind in _SCALARS:
        return repr(value)
    if kind in _MAPS or isinstance(value, Mapping):
        items = cast(Mapping[object, object], value).items()
        return "{" + ", ".join([f"{_pystr(str(k))}: {pyliteral(v)}" for k, v in items]) + "}"
    if kind in _ARRAYS or isinstance(value, list | tuple):
        return "[" + ", ".join([pyliteral(v) for v in cast(Sequence[object], value)]) + "]"
    if isinstance(value, str):
        return _pystr(value)
    if isinstance(value, bool | int | float):
        return repr(value)
    raise TypeError(f"not JSON data: {kind.__name__}")


def _pystr(value: str) -> str:
    text = repr(value)
    # repr picks single quotes unless the text holds ' and no "; like black, prefer double quotes
    return '"' + text[1:-1] + '"' if text[0] == "'" and '"' not in value else text


def pyblock(value: object, indent: int = 0) -> str:
    """`pyliteral` laid out over lines: a collection that does not fit in `LAYOUT_WIDTH` is exploded."""
    if not isinstance(value, Mapping | list | tuple) or not value:
        return pyliteral(value)
    flat = _flat_within(value, LAYOUT_WIDTH - indent)
    if flat is not None:
        return flat
    pad = " " * (indent + 4)
    if isinstance(value, Mapping):
        items = [f"{pad}{_pystr(str(k))}: {pyblock(v, indent + 4)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{pyblock(v, indent + 4)}," for v in value]
    return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"


def _flat_within(value: object, room: int) -> str | None:
    """`pyliteral(value)` when it is at most `room` long, else None, found without writing more of
    it than fits: a large schema is laid out in one pass, not once per level it is nested in."""
    kind = type(value)
    if kind in _MAPS or (kind is not str and kind not in _SCALARS and isinstance(value, Mapping)):
        items = cast(Mapping[object, object], value).items()
        return _joined("{", ((_pystr(str(k)) + ": ", v) for k, v in items), "}", room)
    if kind in _ARRAYS or (kind is not str and kind not in _SCALARS and isinstance(value, list | tuple)):
        return _joined("[", (("", v) for v in cast(Sequence[object], value)), "]", room)
    text = pyliteral(value)
    return text if len(text) <= room else None


def _joined(opening: str, pairs: Iterable[tuple[str, object]], closing: str, room: int) -> str | None:
    """`opening`, each pair's head and flat value joined by `, `, `closing`: None once longer than `room`."""
    parts: list[str] = []
    used = 2
    for head, item in pairs:
        used += len(head) + (2 if parts else 0)
        inner = _flat_within(item, room - used) if used <= room else None
        if inner is None:
            return None
        used += len(inner)
        parts.append(head + inner)
    return opening + ", ".join(parts) + closing if used <= room else None


_SCALARS = frozenset({type(None), bool, int, float})
_MAPS = frozenset({dict, MappingProxyType})
_ARRAYS = frozenset({list, tuple})


# Black-style layout of the tool module's record and protocol. The tool template puts them in its
# `# fmt: off` region, so black never reads them; these helpers split them as black would (a test
# holds black, allowed to, to the same bytes over the golden, hostile and synthetic catalogs).


def _fits(indent: int, text: str) -> bool:
    return indent + _width(text) <= LAYOUT_WIDTH


def _width(text: str) -> int:
    """Black's width of a line: its length when ASCII, else black's own count (East Asian Width),
    black imported only then."""
    if text.isascii():
        return len(text)
    from black.strings import str_width

    return str_width(text)


def call_lines(function: str, args: Sequence[str], indent: int, end: str = ",") -> list[str]:
    """`function(args...)` + `end` at `indent`, split as black splits a call inside a bracket."""
    pad, inner, body = " " * indent, " " * (indent + 4), ", ".join(args)
    if _fits(indent, f"{function}({body}){end}"):
        return [f"{pad}{function}({body}){end}"]
    if _fits(indent + 4, body):
        return [f"{pad}{function}(", inner + body, f"{pad}){end}"]
    return [f"{pad}{function}(", *(f"{inner}{arg}," for arg in args), f"{pad}){end}"]


def tuple_lines(keyword: str, items: Sequence[Sequence[str]], indent: int) -> list[str]:
    """`keyword=(items...),` at `indent`: each item is the lines of one element, ending in its comma.

    No item: `()`. One item that fits on the line: a one-tuple black leaves as it is. Otherwise one
    element per line, as black explodes it.
    """
    pad = " " * indent
    if not items:
        return [f"{pad}{keyword}=(),"]
    if len(items) == 1 and len(items[0]) == 1 and _fits(indent, f"{keyword}=({items[0][0].strip()}),"):
        return [f"{pad}{keyword}=({items[0][0].strip()}),"]
    return [f"{pad}{keyword}=(", *(line for item in items for line in item), f"{pad}),"]


def error_lines(contract: Contract) -> list[str]:
    items = [
        call_lines("_runtime.ErrorInfo", [pyliteral(e.code), pyliteral(e.description), repr(e.retryable)], 8)
        for e in contract.errors
    ]
    return tuple_lines("errors", items, 4)


def permission_lines(contract: Contract) -> list[str]:
    return tuple_lines("permissions", [[" " * 8 + pyliteral(p) + ","] for p in contract.permissions], 4)


def signature_lines(input_class: str, output_class: str | None) -> list[str]:
    """`def __call__(self, arguments: <input>, /) -> _runtime.ToolReturn[<data>]: ...` in the protocol
    (`ToolReturn` is as long as `ToolResult`, sync or async), split as black does."""
    result = f"{output_class} | Mapping[str, Any]" if output_class is not None else "Any"
    params = ["self", f"arguments: {input_class}", "/"]
    whole = f"def __call__({', '.join(params)}) -> _runtime.ToolReturn[{result}]: ..."
    if _fits(4, whole):
        return ["    " + whole]
    lines = ["    def __call__("]
    if _fits(8, ", ".join(params)):
        lines.append("        " + ", ".join(params))
    else:
        lines.extend(f"        {param}," for param in params)
    tail = f") -> _runtime.ToolReturn[{result}]: ..."
    if _fits(4, tail):
        return [*lines, "    " + tail]
    lines.append("    ) -> _runtime.ToolReturn[")
    if _fits(8, result):
        lines.append("        " + result)
    else:
        lines.extend(["        " + output_class if output_class else "        Any", "        | Mapping[str, Any]"])
    return [*lines, "    ]: ..."]
