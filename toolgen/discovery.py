"""Discovery: which files under a folder are contracts. The one listing of contract files: the loader
reads these, the no-change fast path digests them, the progress bar counts them (one function, so the
filters cannot drift apart; tests/pipeline/test_one_discovery.py). The same walk guards a project's
template overrides (`template_files`): nothing is read through a link that leaves the project.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity

CONTRACT_SUFFIXES = (".json", ".toml")
"""Matched whatever their case (`tool.TOML` is a TOML contract)."""


def is_contract_name(name: str) -> bool:
    """A file name `contract_files` lists: not hidden, ending in .json or .toml in any case."""
    return not name.startswith(".") and name.lower().endswith(CONTRACT_SUFFIXES)


def is_template_name(name: str) -> bool:
    """A file name `template_files` lists: not hidden, ending in .jinja."""
    return not name.startswith(".") and name.endswith(".jinja")


@dataclass(frozen=True, slots=True)
class _Kind:
    """What a walk lists and how it reports what it refuses."""

    code: str
    noun: str
    wanted: Callable[[str], bool]


_CONTRACTS = _Kind("TG101", "contract", is_contract_name)
_TEMPLATES = _Kind("TG138", "template", is_template_name)


def _error(rel: str, message: str, code: str = "TG101") -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, rel, "")


def contract_files(folder: Path, settings: Settings) -> tuple[list[tuple[str, Path]], list[Diagnostic]]:
    """Every contract file under `folder` as (its path relative to `folder`, its path), sorted by the
    first, and the TG101 of each thing that cannot be listed. The one listing of contract files: the
    loader reads these, the no-change fast path digests them, the progress bar counts them.

    Names that are hidden or not `.toml`/`.json` (any case) are left out; a folder named like a
    contract, a symlink loop, a link leaving the project (`settings.root`) and `folder`, and an
    unreadable folder are problems. A FIFO or a broken link named like a contract is listed: reading
    it (`read_contract_bytes`) says what it is."""
    if not folder.is_dir():
        message = "the contracts folder does not exist; create it or set `contracts` in the configuration"
        return [], [_error(settings.rel(folder), message)]
    return _listing(folder, settings, _CONTRACTS)


def template_files(folder: Path, settings: Settings) -> tuple[list[tuple[str, Path]], list[Diagnostic]]:
    """Every template (`.jinja`) under a project's templates folder, as `contract_files` lists
    contracts, and the TG138 of each that must not be read: a link leaving the project
    (`settings.root`) and `folder`, a symlink loop, an unreadable folder, and a FIFO, device or
    broken link (whose reading would hang or fail). Nothing when there is no such folder."""
    if not folder.is_dir():
        return [], []
    found, problems = _listing(folder, settings, _TEMPLATES)
    for _, path in found:
        try:
            regular = stat.S_ISREG(path.stat().st_mode)
        except OSError as exc:
            problems.append(_error(settings.rel(path), f"cannot read this template: {exc.strerror}", "TG138"))
            continue
        if not regular:
            problems.append(_error(settings.rel(path), "this is not a regular file; a template must be one", "TG138"))
    return found, problems


def _listing(folder: Path, settings: Settings, kind: _Kind) -> tuple[list[tuple[str, Path]], list[Diagnostic]]:
    walk = _Walk(settings, (settings.root, folder.resolve()), kind)
    pending = [("", folder)]
    while pending:
        prefix, here = pending.pop()
        pending.extend(reversed(walk.folder(prefix, here)))
    return sorted(walk.found), walk.problems


class _Walk:
    """The state of one walk (`contract_files`, `template_files`): what it found, what it refused, the
    folders it read."""

    def __init__(self, settings: Settings, allowed: tuple[Path, ...], kind: _Kind) -> None:
        self.settings = settings
        self.allowed = allowed
        self.kind = kind
        self.found: list[tuple[str, Path]] = []
        self.problems: list[Diagnostic] = []
        self.seen: set[Path] = set()

    def refuse(self, path: Path, message: str) -> None:
        self.problems.append(_error(self.settings.rel(path), message, self.kind.code))

    def folder(self, prefix: str, here: Path) -> list[tuple[str, Path]]:
        """List one folder: its contracts into `found`; the subfolders to read next, in order."""
        real = here.resolve()
        if real in self.seen or not within(real, self.allowed):
            loop = "symlink loop: this folder was already read through another path"
            self.refuse(here, f"{loop if real in self.seen else _OUTSIDE}; remove the link")
            return []
        self.seen.add(real)
        try:
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            where = Path(exc.filename) if exc.filename else here
            self.refuse(where, f"cannot read this folder: {exc.strerror or exc}")
            return []
        folders: list[tuple[str, Path]] = []
        for entry in entries:
            rel, path = f"{prefix}{entry.name}", Path(entry.path)
            if _is_folder(entry):
                if entry.name.startswith("."):
                    continue
                if self.kind.wanted(entry.name):
                    noun = self.kind.noun
                    self.refuse(path, f"this is a folder named like a {noun} file; a {noun} must be a file")
                folders.append((rel + "/", path))
            elif not self.kind.wanted(entry.name):
                continue
            elif entry.is_symlink() and _leaves(path, self.allowed):
                self.refuse(path, f"{_OUTSIDE}; copy the file in")
            else:
                self.found.append((rel, path))
        return folders


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether an entry is a folder, through a link too (as `os.walk` decides it)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


_OUTSIDE = "this is a symlink that leads outside the project, and toolgen reads nothing through one"


def _leaves(path: Path, allowed: tuple[Path, ...]) -> bool:
    """Whether `path` (a symlink) leads to a regular file outside the project (a link to a device or
    a FIFO is left to `load_file`, which names what it is)."""
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False
    return regular and not within(path.resolve(), allowed)


def within(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether `path` is one of `folders` or inside one."""
    return any(path.is_relative_to(folder) for folder in folders)
