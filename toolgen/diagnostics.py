"""Diagnostics: problems found in contracts, as data with a location.

Every stage reports problems as `Diagnostic` values instead of raising. Only the CLI decides what a
severity means for the exit code, and rendering (text, JSON, GitHub annotations) lives here, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum


class Severity(StrEnum):
    """How bad a diagnostic is. `OFF` only appears in configuration, never on a diagnostic."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: where it is, which rule found it, and how to fix it."""

    code: str
    severity: Severity
    message: str
    file: str
    pointer: str = ""
    line: int | None = None
    column: int | None = None

    @property
    def is_error(self) -> bool:
        """True when this diagnostic stops a build."""
        return self.severity is Severity.ERROR

    def promoted(self) -> Diagnostic:
        """This diagnostic as an error (`--strict`)."""
        return replace(self, severity=Severity.ERROR)

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        """Order by file, then position, then code: the order a reader scans in."""
        return (self.file, self.line or 0, self.column or 0, self.pointer, self.code, self.message)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Diagnostic:
        """The inverse of `as_json()` (the build cache stores diagnostics so); raises on anything malformed."""
        line, column = data["line"], data["column"]
        if not (line is None or isinstance(line, int)) or not (column is None or isinstance(column, int)):
            raise TypeError("line and column must be integers")
        return cls(
            code=str(data["code"]),
            severity=Severity(str(data["severity"])),
            message=str(data["message"]),
            file=str(data["file"]),
            pointer=str(data["pointer"]),
            line=line,
            column=column,
        )

    def as_json(self) -> dict[str, object]:
        """The `--format json` record."""
        return {
            "file": self.file,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
        }


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error."""
    return any(d.is_error for d in diagnostics)


def resolve_severities(
    diagnostics: Iterable[Diagnostic],
    project: Mapping[str, Severity],
    per_file: Mapping[str, Mapping[str, object]] | None = None,
) -> list[Diagnostic]:
    """Apply severity overrides, a contract's own (keyed by its file) before the project's.

    A diagnostic whose rule is set to `off` is dropped.
    """
    out: list[Diagnostic] = []
    for diagnostic in diagnostics:
        level = (per_file or {}).get(diagnostic.file, {}).get(diagnostic.code) or project.get(diagnostic.code)
        if level is None:
            out.append(diagnostic)
        elif Severity(str(level)) is not Severity.OFF:
            out.append(replace(diagnostic, severity=Severity(str(level))))
    return out


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Stable reading order, duplicates removed."""
    return sorted(set(diagnostics), key=Diagnostic.sort_key)


def printable(text: str) -> str:
    """`text` with every character that is not printable (newlines, escape bytes, bidirectional
    controls, often taken from property names) written as its Python escape, so one diagnostic
    stays one line and cannot restyle or reorder a terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def format_text(diagnostic: Diagnostic) -> str:
    """`path:line:col: CODE message`, like ruff and mypy; the pointer follows when there is one.

    Every part is passed through `printable`."""
    where = printable(diagnostic.file)
    if diagnostic.line is not None:
        where += f":{diagnostic.line}"
        if diagnostic.column is not None:
            where += f":{diagnostic.column}"
    level = "" if diagnostic.is_error else f" ({diagnostic.severity.value})"
    at = f" [at {printable(diagnostic.pointer)}]" if diagnostic.pointer else ""
    return f"{where}: {diagnostic.code}{level} {printable(diagnostic.message)}{at}"


def _github_escape(text: str, *, property_value: bool = False) -> str:
    text = printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_command(kind: str, message: str, **props: object) -> str:
    """A GitHub Actions workflow command (`::error file=...,line=...::message`); None props are left out."""
    given = ",".join(f"{k}={_github_escape(str(v), property_value=True)}" for k, v in props.items() if v is not None)
    return f"::{kind} {given}::{_github_escape(message)}"


def format_github(diagnostic: Diagnostic) -> str:
    """A diagnostic as a GitHub Actions annotation on its file, line and column."""
    kind = {Severity.ERROR: "error", Severity.INFO: "notice"}.get(diagnostic.severity, "warning")
    at = f" [at {diagnostic.pointer}]" if diagnostic.pointer else ""
    props = {"file": diagnostic.file, "line": diagnostic.line, "col": diagnostic.column, "title": diagnostic.code}
    return github_command(kind, diagnostic.message + at, **props)


def render(diagnostics: Sequence[Diagnostic], fmt: str) -> str:
    """Render diagnostics in one of the formats `text`, `json` or `github`."""
    ordered = sort_diagnostics(diagnostics)
    if fmt == "json":
        return json.dumps([d.as_json() for d in ordered], indent=2, ensure_ascii=False) + "\n"
    line = format_github if fmt == "github" else format_text
    return "".join(line(d) + "\n" for d in ordered)
