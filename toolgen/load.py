"""Loading: find contract files under the contracts folder and parse them into raw documents.

Nothing here judges content; `validate.py` does. Problems reading or parsing a file (I/O errors,
binary files, malformed TOML/JSON, symlink loops, oversized files) become diagnostics naming the file.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.positions import locator_for

MAX_FILE_BYTES = 1024 * 1024
"""A contract larger than this is refused (TG127) before it is parsed."""

CONTRACT_SUFFIXES = (".json", ".toml")

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
    locate: Locate

    @property
    def stem(self) -> str:
        """The file name without its suffix: must equal the tool name."""
        return self.path.stem


def _error(code: str, rel: str, message: str, line: int | None = None, column: int | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, rel, "", line, column)


def discover(contracts_dir: Path, settings: Settings) -> tuple[list[Path], list[Diagnostic]]:
    """Every contract file under `contracts_dir`, sorted; symlink loops and unreadable folders reported."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    if not contracts_dir.is_dir():
        message = "the contracts folder does not exist; create it or set `contracts` in the configuration"
        problems.append(_error("TG101", settings.rel(contracts_dir), message))
        return found, problems
    seen: set[Path] = set()

    def on_error(exc: OSError) -> None:
        where = settings.rel(Path(exc.filename)) if exc.filename else settings.rel(contracts_dir)
        problems.append(_error("TG101", where, f"cannot read this folder: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(contracts_dir, followlinks=True, onerror=on_error):
        here = Path(dirpath)
        real = here.resolve()
        if real in seen:
            message = "symlink loop: this folder was already read through another path; remove the link"
            problems.append(_error("TG101", settings.rel(here), message))
            dirnames[:] = []
            continue
        seen.add(real)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in dirnames:
            if name.endswith(CONTRACT_SUFFIXES):
                message = "this is a folder named like a contract file; a contract must be a file"
                problems.append(_error("TG101", settings.rel(here / name), message))
        for name in sorted(filenames):
            if name.startswith(".") or not name.endswith(CONTRACT_SUFFIXES):
                continue
            found.append(here / name)
    return sorted(found, key=settings.rel), problems


def parse_text(text: str, fmt: str) -> Any:
    """Parse contract text; raises ValueError (JSON) or tomllib.TOMLDecodeError on malformed input."""
    if fmt == "json":
        return json.loads(text, parse_constant=_reject_constant)
    return tomllib.loads(text)


def _reject_constant(name: str) -> Any:
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


def load_file(path: Path, settings: Settings) -> tuple[RawDocument | None, list[Diagnostic]]:
    """Read and parse one contract file."""
    rel = settings.rel(path)
    fmt = path.suffix[1:]
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [_error("TG127", rel, f"file is {size:,} bytes; a contract may be at most {MAX_FILE_BYTES:,}")]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [_error("TG101", rel, f"cannot read the file: {exc.strerror or exc}")]
    if b"\x00" in raw:
        return None, [_error("TG101", rel, "this is a binary file, not a TOML or JSON contract")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [_error("TG101", rel, f"the file is not UTF-8 (byte {exc.start}); save it as UTF-8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = parse_text(text, fmt)
    except (ValueError, tomllib.TOMLDecodeError, RecursionError) as exc:
        line, column = _parse_error_position(exc, text)
        message = (
            exc.msg + _comma_hint(exc) if isinstance(exc, json.JSONDecodeError) else _TOML_AT.sub("", str(exc)).strip()
        )
        if isinstance(exc, RecursionError):
            message = "nested too deeply to parse"
        return None, [_error("TG102", rel, f"malformed {fmt.upper()}: {message}", line, column)]
    return RawDocument(path=path, rel=rel, format=fmt, text=text, data=data, locate=locator_for(text, fmt)), []


def load_documents(settings: Settings) -> tuple[list[RawDocument], list[Diagnostic]]:
    """Discover and parse every contract of the project."""
    paths, problems = discover(settings.contracts_dir, settings)
    documents: list[RawDocument] = []
    for path in paths:
        document, file_problems = load_file(path, settings)
        problems.extend(file_problems)
        if document is not None:
            documents.append(document)
    return documents, problems
