"""Loading: find contract files under the contracts folder and parse them into raw documents.

Nothing here judges content; `validate.py` does, and which files are contracts `toolgen.discovery`
says. Problems reading or parsing a file (I/O errors, binary files, malformed TOML/JSON, symlink
loops, oversized files) become diagnostics naming the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolgen import positions
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.discovery import contract_files, is_contract_name, within
from toolgen.frozen import freeze, loads_frozen
from toolgen.positions import locator_for

MAX_FILE_BYTES = 1024 * 1024
"""A contract larger than this is refused (TG127) before it is parsed."""

Locate = Callable[[str], tuple[int | None, int | None]]
"""Maps an RFC 6901 pointer into the document to a 1-based (line, column), either may be None."""


@dataclass(frozen=True, slots=True)
class RawDocument:
    """One parsed contract file, before validation."""

    path: Path
    rel: str
    format: str
    text: str
    data: Any
    """The parsed data (frozen when the build cache knows it passed; the `catalog.Contract` made
    from it when the cache's snapshot of the last build's loading holds the file; None once made)."""
    locate: Locate
    digest: str = ""
    """sha256 (hex) of the bytes read: what the no-change shortcut records as this file's input."""

    @property
    def stem(self) -> str:
        """The file name without its suffix: must equal the tool name."""
        return self.path.stem


def _error(code: str, rel: str, message: str, line: int | None = None, column: int | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, rel, "", line, column)


def discover(contracts_dir: Path, settings: Settings) -> tuple[list[Path], list[Diagnostic]]:
    """Every contract file under `contracts_dir`, sorted; symlink loops and unreadable folders reported."""
    files, problems = contract_files(contracts_dir, settings)
    return [path for _, path in files], problems


def parse_text(text: str, fmt: str) -> object:
    """Parse contract text; raises ValueError (JSON) or tomllib.TOMLDecodeError on malformed input."""
    if fmt == "json":
        return json.loads(text, parse_constant=_reject_constant)
    return tomllib.loads(text)


def parse_frozen(text: str, fmt: str) -> object:
    """`freeze(parse_text(text, fmt))`; for JSON frozen as it is parsed (`frozen.loads_frozen`)."""
    if fmt == "json":
        return loads_frozen(text, parse_constant=_reject_constant)
    return freeze(tomllib.loads(text))


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _parse_error_position(exc: Exception, text: str) -> tuple[int | None, int | None]:
    """Line and column of a parse error: JSON reports them; tomllib only writes them into its message."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.lineno, exc.colno
    match = _TOML_AT.search(str(exc))
    if match:
        return int(match.group(1)), int(match.group(2))
    if "end of document" in str(exc):
        return text.count("\n") + 1, None
    return None, None


def _comma_hint(exc: json.JSONDecodeError) -> str:
    """The fix for JSON's most common mistake, a comma before `}` or `]` (TOML and JavaScript allow one)."""
    before = exc.doc[: exc.pos].rstrip()
    closing = exc.doc[exc.pos : exc.pos + 1]
    if not before.endswith(",") or closing not in ("}", "]"):
        return ""
    line = before.count("\n") + 1
    column = len(before) - before.rfind("\n")
    return f"; remove the trailing comma at line {line}, column {column - 1}: JSON allows no comma before {closing!r}"


Parse = Callable[[str, str, str], object]
"""(the file's path as diagnostics name it, its text, its format) -> `parse_text(text, format)`,
raising what it raises (the build cache hands one that may read the data back instead)."""


def parse_file(rel: str, text: str, fmt: str) -> object:
    """`parse_text(text, fmt)`, as a `Parse`."""
    return parse_text(text, fmt)


Read = Callable[[Path], bytes]
"""A contract file's path -> its bytes, raising what `read_contract_bytes` raises (the no-change
probe hands one that gives the bytes it already read)."""


def load_file(
    path: Path, settings: Settings, parse: Parse = parse_file, read: Read | None = None
) -> tuple[RawDocument | None, list[Diagnostic]]:
    """Read and parse one contract file (`parse`: `parse_file`, or what gives the same data;
    `read`: `read_contract_bytes`, or what gives the same bytes)."""
    rel = settings.rel(path)
    fmt = path.suffix[1:].lower()
    raw, text, problem = _read_text(path, rel, read or read_contract_bytes)
    if problem is not None:
        return None, [problem]
    try:
        data = parse(rel, text, fmt)
    except (ValueError, tomllib.TOMLDecodeError, RecursionError) as exc:
        line, column = _parse_error_position(exc, text)
        message = (
            exc.msg + _comma_hint(exc) if isinstance(exc, json.JSONDecodeError) else _TOML_AT.sub("", str(exc)).strip()
        )
        if isinstance(exc, RecursionError):
            message = "nested too deeply to parse"
        return None, [_error("TG102", rel, f"malformed {fmt.upper()}: {message}", line, column)]
    locate = locator_for(text, fmt)
    unencodable = _unencodable(data, rel, locate) if fmt == "json" and _SURROGATE_ESCAPE.search(text) else []
    if unencodable:
        return None, unencodable
    digest = hashlib.sha256(raw).hexdigest()
    return RawDocument(path=path, rel=rel, format=fmt, text=text, data=data, locate=locate, digest=digest), []


def _read_text(path: Path, rel: str, read: Read) -> tuple[bytes, str, Diagnostic | None]:
    """The bytes of a contract file and their text (BOM dropped), or the TG101/TG127 that stops it."""
    try:
        raw = read(path)
    except TooLarge as exc:
        message = f"file is {exc.size:,} bytes; a contract may be at most {MAX_FILE_BYTES:,}"
        return b"", "", _error("TG127", rel, message)
    except NotRegular as exc:
        message = f"this is {exc.kind}, not a regular file; a contract must be a plain TOML or JSON file"
        return b"", "", _error("TG101", rel, message)
    except OSError as exc:
        return b"", "", _error("TG101", rel, f"cannot read the file: {exc.strerror or exc}")
    if b"\x00" in raw:
        return raw, "", _error("TG101", rel, "this is a binary file, not a TOML or JSON contract")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return raw, "", _error("TG101", rel, f"the file is not UTF-8 (byte {exc.start}); save it as UTF-8")
    return raw, text[1:] if text.startswith("\ufeff") else text, None


class NotRegular(OSError):
    """A contract path that is a FIFO, a device, a socket or a folder."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class TooLarge(OSError):
    """A contract file larger than `MAX_FILE_BYTES`."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _kind(mode: int) -> str | None:
    """None for a regular file, else what it is."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISSOCK(mode):
        return "a socket"
    return next((name for test, name in _KINDS if test(mode)), "a folder" if stat.S_ISDIR(mode) else "a special file")


def read_contract_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; raises NotRegular, TooLarge or OSError.

    It never blocks on a FIFO (opened non-blocking, after a stat says what it is, and checked again
    on the open file) and never reads more than `limit + 1` bytes, whatever the size a device reports."""
    kind = _kind(os.stat(path).st_mode)
    if kind is not None:
        raise NotRegular(kind)
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(handle)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise NotRegular(kind)
        if info.st_size > limit:
            raise TooLarge(info.st_size)
        data = _read_at_most(handle, limit + 1, info.st_size)
    finally:
        os.close(handle)
    if len(data) > limit:
        raise TooLarge(len(data))
    return data


def _read_at_most(handle: int, most: int, size: int) -> bytes:
    """At most `most` bytes of an open file, asked for as the `size` it reports (plus one byte, to
    see its end), then in pieces while it grows. A buffered `read(most)` set aside `most` bytes (1 MiB)
    for each contract of a few kB first: reading 1,000 contracts took 0.1 s, now about 0.015 s."""
    pieces: list[bytes] = []
    left = most
    ask = size + 1
    while left > 0:
        piece = os.read(handle, min(ask, left))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
        ask = 1 << 16
    return b"".join(pieces)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
"""A JSON escape of a UTF-16 surrogate: only then can the parsed data hold a lone one."""


def _unencodable(data: object, rel: str, locate: Locate) -> list[Diagnostic]:
    """TG137 for every key and string value holding a lone surrogate (none is printed: it cannot be)."""
    found: list[Diagnostic] = []
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str) and not _encodable(value):
            found.append(_surrogate(rel, pointer, "this text", value, locate))
        listed = enumerate(value) if isinstance(value, list | tuple) else ()
        items = value.items() if isinstance(value, Mapping) else listed
        for key, item in items:
            if isinstance(key, str) and not _encodable(key):
                found.append(_surrogate(rel, pointer, "a key here", key, locate))
                continue
            stack.append((positions.join(pointer, key), item))
    return sorted(found, key=Diagnostic.sort_key)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(rel: str, pointer: str, what: str, text: str, locate: Locate) -> Diagnostic:
    lone = next(f"U+{ord(c):04X}" for c in text if 0xD800 <= ord(c) <= 0xDFFF)
    message = (
        f"{what} holds a lone surrogate ({lone}, from a \\u escape), which cannot be written as UTF-8; "
        "remove it, or escape the whole character as its surrogate pair"
    )
    line, column = locate(pointer)
    return Diagnostic("TG137", Severity.ERROR, message, rel, pointer, line, column)


def load_documents(
    settings: Settings,
    parse: Parse = parse_file,
    read: Read | None = None,
    listing: Sequence[tuple[str, Path]] | None = None,
) -> tuple[list[RawDocument], list[Diagnostic]]:
    """Discover and parse every contract of the project (`parse`, `read`: as `load_file` takes them;
    `listing`: the contracts folder as `discovery.contract_files` listed it a moment ago, without a
    problem, instead of listing it again)."""
    problems: list[Diagnostic] = []
    if listing is not None:
        paths = [path for _, path in listing]
    else:
        paths, problems = discover(settings.contracts_dir, settings)
    documents: list[RawDocument] = []
    for path in paths:
        document, file_problems = load_file(path, settings, parse, read)
        problems.extend(file_problems)
        if document is not None:
            documents.append(document)
    return documents, problems


def load_named(
    settings: Settings, paths: Sequence[Path], loaded: Sequence[RawDocument]
) -> tuple[list[RawDocument], list[Diagnostic]]:
    """The contracts named on the command line that `load_documents` did not read (`loaded`): files
    anywhere, and every contract under a named folder outside the contracts folder, read with the
    same rules. A named file that is not a contract (`.toml` or `.json`, not hidden) is TG101."""
    seen = {os.path.abspath(d.path) for d in loaded}
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for path in paths:
        candidate = named_path(settings, path)
        if candidate is None:
            continue
        if candidate.is_dir():
            if not within(Path(os.path.abspath(candidate)), (Path(os.path.abspath(settings.contracts_dir)),)):
                found, trouble = discover(candidate, settings)
                files.extend(found)
                problems.extend(trouble)
        elif not is_contract_name(candidate.name):
            message = "this is not a contract: toolgen reads files ending in .toml or .json (not hidden ones)"
            problems.append(_error("TG101", settings.rel(candidate), message))
        else:
            files.append(candidate)
    documents: list[RawDocument] = []
    for file in files:
        if os.path.abspath(file) in seen:
            continue
        seen.add(os.path.abspath(file))
        document, trouble = load_file(file, settings)
        problems.extend(trouble)
        documents.extend([document] if document is not None else [])
    return documents, problems


def named_path(settings: Settings, path: Path) -> Path | None:
    """A PATH argument as it exists: from the working directory, then from the project root."""
    candidates = [path] if path.is_absolute() else [Path.cwd() / path, settings.root / path]
    return next((c for c in candidates if c.exists() or c.is_symlink()), None)


def locate(diagnostics: Iterable[Diagnostic], documents: Iterable[RawDocument]) -> list[Diagnostic]:
    """Fill in line and column for diagnostics that carry only a pointer into a contract."""
    return located(diagnostics, {d.rel: d.locate for d in documents})


def located(diagnostics: Iterable[Diagnostic], locators: Mapping[str, Locate]) -> list[Diagnostic]:
    """`locate` with each file's locator (its text and line starts, not its parsed data)."""
    out: list[Diagnostic] = []
    for diagnostic in diagnostics:
        locator = locators.get(diagnostic.file)
        if diagnostic.line is None and locator is not None:
            line, column = locator(diagnostic.pointer)
            out.append(replace(diagnostic, line=line, column=column))
        else:
            out.append(diagnostic)
    return out
