"""Source positions: map an RFC 6901 pointer into a contract to its line and column in the file.

tomllib and json report no positions, so this module re-scans the (already parsed, so well-formed)
text once, lazily, and records where every key and array element starts. JSON gets the exact
position of the key (for object members) or of the value (for array elements and the root); TOML
gets the line and column of the key, of the `[table]` / `[[array]]` header, of an inline-table key or
of an array element. A pointer that names nothing in the file (a missing key) is located at its
nearest ancestor that exists. Scanning never raises: on any surprise the position is unknown.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

Locate = Callable[[str], tuple[int | None, int | None]]
Positions = dict[str, int]
"""Pointer -> character offset into the text."""


def escape(token: str) -> str:
    """Escape one reference token for an RFC 6901 pointer."""
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """Undo `escape`: one RFC 6901 reference token back to the key it names."""
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: object) -> str:
    """`pointer` extended by `tokens` (keys or indexes)."""
    return pointer + "".join("/" + escape(str(t)) for t in tokens)


def parent(pointer: str) -> str:
    """The pointer one level up (`""` stays `""`)."""
    return pointer[: pointer.rfind("/")] if pointer else ""


def locator_for(text: str, fmt: str) -> Locate:
    """A function from pointer to 1-based (line, column) for this document; computed lazily, cached."""
    cache: list[Positions] = []
    starts: list[int] = []  # line start offsets, also made on first use: a build keeps every locator

    def table() -> Positions:
        """Scan the text on first use."""
        if not cache:
            try:
                cache.append(_scan_json(text) if fmt == "json" else _scan_toml(text))
            except (RecursionError, IndexError, ValueError):
                cache.append({})
            starts.extend([0, *(m.end() for m in re.finditer("\n", text))])
        return cache[0]

    def locate(pointer: str) -> tuple[int | None, int | None]:
        """The position of `pointer`, or of its nearest ancestor in the file."""
        positions = table()
        while pointer not in positions:
            if not pointer:
                return (None, None)
            pointer = parent(pointer)
        offset = positions[pointer]
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    return locate


# --- JSON -------------------------------------------------------------------------------------

_JSON_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([{}\[\],:])|([^\s{}\[\],:"]+))', re.DOTALL)


def _json_string(token: str) -> str:
    value = json.loads(token)
    return value if isinstance(value, str) else ""


def json_duplicates(text: str) -> list[tuple[str, int, int]]:
    """(pointer, line, column) of every repeated key in a JSON object (json.loads keeps the last)."""
    if not _repeats_a_key(text):
        return []
    repeats: list[tuple[str, int]] = []
    try:
        _scan_json(text, repeats)
    except (RecursionError, IndexError, ValueError):
        return []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out = []
    for pointer, offset in repeats:
        line = bisect.bisect_right(starts, offset)
        out.append((pointer, line, offset - starts[line - 1] + 1))
    return out


def _repeats_a_key(text: str) -> bool:
    """Whether any object of `text` repeats a key: the C parser answers, the scanner only places them."""
    found: list[bool] = []

    def members(pairs: list[tuple[str, object]]) -> dict[str, object]:
        if not found and len({key for key, _ in pairs}) != len(pairs):
            found.append(True)
        return {}

    try:
        json.loads(text, object_pairs_hook=members, parse_constant=lambda _: None)
    except (ValueError, RecursionError):
        return True  # not plain JSON after all: let the scanner decide
    return bool(found)


@dataclass
class _Frame:
    """An open JSON object or array while scanning."""

    pointer: str
    is_object: bool
    index: int = 0
    expecting_key: bool = True
    keys: set[str] = field(default_factory=set)


def _scan_json(text: str, repeats: list[tuple[str, int]] | None = None) -> Positions:
    """Record the offset of every member key and array element of well-formed JSON (no recursion).

    With `repeats`, also collect every key that repeats one earlier in the same object. A repeated
    key is located at its last occurrence, the one `json.loads` keeps.
    """
    positions: Positions = {}
    stack: list[_Frame] = []
    pending = ""  # pointer of the value about to be read
    pos = 0
    while pos < len(text):
        match = _JSON_TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            break
        start, pos = match.start(match.lastindex or 0), match.end()
        string, punct = match.group(1), match.group(2)
        frame = stack[-1] if stack else None
        if frame is not None and frame.is_object and frame.expecting_key and string is not None:
            key = _json_string(string)
            pending = join(frame.pointer, key)
            if key in frame.keys:
                _forget(positions, pending)
                if repeats is not None:
                    repeats.append((pending, start))
            frame.keys.add(key)
            positions.setdefault(pending, start)
            frame.expecting_key = False
        elif punct == "," and frame is not None:
            frame.index += 1
            frame.expecting_key = frame.is_object
            pending = pending if frame.is_object else join(frame.pointer, frame.index)
        elif punct in ("}", "]"):
            stack.pop()
        elif punct != ":":
            positions.setdefault(pending, start)
            if punct in ("{", "["):
                stack.append(_Frame(pending, punct == "{"))
                pending = pending if punct == "{" else join(pending, 0)
    return positions


def _forget(positions: Positions, pointer: str) -> None:
    """Drop `pointer` and everything under it (a repeated key: the later value wins)."""
    for known in [p for p in positions if p == pointer or p.startswith(pointer + "/")]:
        del positions[known]


# --- TOML -------------------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_WS = re.compile(r"[ \t]*")
_SCALAR = re.compile(r"[^\s,\]\}#]+")


class _Toml:
    """A forgiving scanner over well-formed TOML that records key and header positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.positions: Positions = {"": 0}
        self.arrays: dict[str, int] = {}
        """Pointer of an array of tables -> index of its last entry."""

    def skip(self, newlines: bool = True) -> None:
        """Skip whitespace and comments (and newlines when asked)."""
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\r" or (newlines and char == "\n"):
                self.pos += 1
            elif char == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def key(self) -> list[tuple[str, int]]:
        """A (dotted) key: each part with its offset."""
        parts: list[tuple[str, int]] = []
        while True:
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            start = self.pos
            char = self.text[self.pos]
            if char in "\"'":
                parts.append((self.string(), start))
            else:
                match = _BARE.match(self.text, self.pos)
                if match is None:
                    raise ValueError("bad key")
                parts.append((match.group(), start))
                self.pos = match.end()
            self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.text[self.pos] != ".":
                return parts
            self.pos += 1

    def string(self) -> str:
        """A basic or literal string (single or multi-line); its value for keys."""
        text = self.text
        quote = text[self.pos]
        if text.startswith(quote * 3, self.pos):
            end = text.find(quote * 3, self.pos + 3)
            while quote == '"' and _escaped(text, end):
                end = text.find(quote * 3, end + 1)
            while text.startswith(quote, end + 3):
                end += 1
            self.pos = end + 3
            return ""
        end = self.pos + 1
        while text[end] != quote:
            end += 2 if quote == '"' and text[end] == "\\" else 1
        raw = text[self.pos : end + 1]
        self.pos = end + 1
        if quote == "'":
            return raw[1:-1]
        return str(json.loads(raw))

    def resolve(self, parts: list[tuple[str, int]], base: str) -> str:
        """Record each prefix of a dotted key under `base`; arrays of tables map to their last entry."""
        pointer = base
        for name, offset in parts:
            pointer = join(pointer, name)
            if pointer in self.arrays:
                pointer = join(pointer, self.arrays[pointer])
            self.positions.setdefault(pointer, offset)
        return pointer

    def value(self, pointer: str) -> None:
        """Skip a value, recording keys of inline tables and elements of arrays."""
        self.skip()
        char = self.text[self.pos]
        if char in "\"'":
            self.string()
        elif char == "[":
            self.pos += 1
            index = 0
            while True:
                self.skip()
                if self.text[self.pos] == "]":
                    self.pos += 1
                    return
                here = join(pointer, index)
                self.positions.setdefault(here, self.pos)
                self.value(here)
                self.skip()
                if self.text[self.pos] == ",":
                    self.pos += 1
                index += 1
        elif char == "{":
            self.pos += 1
            while True:
                self.skip()
                if self.text[self.pos] == "}":
                    self.pos += 1
                    return
                target = self.resolve(self.key(), pointer)
                self.pos += 1  # '='
                self.value(target)
                self.skip()
                if self.text[self.pos] == ",":
                    self.pos += 1
        else:
            match = _SCALAR.match(self.text, self.pos)
            self.pos = match.end() if match else self.pos + 1
            # A date-time may contain one space: `1979-05-27 07:32:00`.
            time = re.match(r" \d\d:\d\d[^\s,\]\}#]*", self.text[self.pos : self.pos + 40])
            if time and re.fullmatch(r"\d{4}-\d\d-\d\d", self.text[match.start() : self.pos] if match else ""):
                self.pos += time.end()

    def header(self) -> str:
        """A `[table]` or `[[array]]` header; returns the pointer of the table it opens."""
        start = self.pos
        is_array = self.text.startswith("[[", self.pos)
        self.pos += 2 if is_array else 1
        parts = self.key()
        self.pos += 2 if is_array else 1
        if not is_array:
            return self.resolve(parts, "")
        owner = self.resolve(parts[:-1], "")
        array = join(owner, parts[-1][0])
        self.positions.setdefault(array, parts[-1][1])
        self.arrays[array] = self.arrays.get(array, -1) + 1
        entry = join(array, self.arrays[array])
        self.positions[entry] = start
        return entry

    def scan(self) -> Positions:
        """Walk the whole document; the root is located at its first key (after any comments)."""
        table = ""
        self.skip()
        self.positions[""] = min(self.pos, max(len(self.text) - 1, 0))
        while True:
            self.skip()
            if self.pos >= len(self.text):
                return self.positions
            if self.text[self.pos] == "[":
                table = self.header()
                continue
            target = self.resolve(self.key(), table)
            self.pos += 1  # '='
            self.value(target)


def _escaped(text: str, index: int) -> bool:
    backslashes = 0
    while index - 1 - backslashes >= 0 and text[index - 1 - backslashes] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _scan_toml(text: str) -> Positions:
    return _Toml(text).scan()
