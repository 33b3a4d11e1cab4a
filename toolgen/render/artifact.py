"""`Artifact`: one generated file, as a target hands it to the build: a plain value.

How the build holds it until the writer runs (as it is, or compressed) is the build layer's
choice (`toolgen.writer.outputs`); `File` is what every target's result holds: an `Artifact`, or a
file the build layer already has (one its cache kept unread).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Artifact:
    """One generated file: its path relative to the output folder (POSIX) and its text."""

    path: str
    text: str = field(repr=False)

    def data(self) -> bytes:
        """The bytes written to disk: UTF-8, LF line endings, a trailing newline (UnicodeEncodeError
        for a text that is not valid Unicode)."""
        text = self.text
        return (text if text.endswith("\n") else text + "\n").encode("utf-8")


class File(Protocol):
    """A generated file in a target's result: its path and its text."""

    @property
    def path(self) -> str:
        """Relative to the output folder, POSIX."""

    @property
    def text(self) -> str:
        """The text of the file."""
