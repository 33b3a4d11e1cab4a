"""`toolgen audit`: what an implementation does that its tool's permissions do not declare.

A permission list is a declaration, not a sandbox. The audit reads implementation source without
running it: it finds each tool's implementation (a `<registry>.register("<tool>", <function>)` call
with a literal name, or a function whose first parameter is annotated with the tool's input model,
`ReadFileInput`), follows the calls it makes into functions of the scanned files, and matches every
call against `effects` (write, execute, network, read). An effect the tool does not declare is a
finding at the line of the call (TG501 to TG504); a declared permission that no effect uses is
reported as info (TG510), and so is what the reading cannot see (TG511: calls chosen at run time,
C code, modules outside the scanned files). docs/audit.md says what needs code review or a sandbox.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.audit import scan
from toolgen.catalog import Catalog, Contract
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.render.python_models import pascal

CODES = {"write": "TG501", "execute": "TG502", "network": "TG503", "read": "TG504"}
"""The finding code of an undeclared effect, by the permission it needs."""

SKIPPED_FOLDERS = frozenset({".git", ".venv", "venv", "env", "node_modules", "__pycache__", ".toolgen-cache", "build"})
"""Folders a default scan never enters (besides hidden ones and the output folder)."""

MAX_FILE_BYTES = 2 * 1024 * 1024


@dataclass(slots=True)
class Implementation:
    """One tool's implementation and everything the audit read from it."""

    tool: str
    function: scan.Function
    effects: list[tuple[scan.Effect, tuple[str, ...]]] = field(default_factory=list)
    unseen: list[scan.Unseen] = field(default_factory=list)
    outside: set[str] = field(default_factory=set)

    def as_json(self) -> dict[str, object]:
        site = self.function.site
        return {
            "tool": self.tool,
            "function": self.function.qualname,
            "file": site.file,
            "line": site.line,
            "effects": [
                {"permission": e.permission, "call": e.call, "file": e.site.file, "line": e.site.line, "via": list(v)}
                for e, v in self.effects
            ],
            "unseen": [{"what": u.what, "file": u.site.file, "line": u.site.line} for u in self.unseen],
            "outside_modules": sorted(self.outside),
        }


@dataclass(slots=True)
class Audit:
    """The result: findings as diagnostics, and every implementation found."""

    diagnostics: list[Diagnostic]
    implementations: list[Implementation]
    files: int


def python_files(root: Path, paths: Sequence[Path], output_dir: Path) -> list[Path]:
    """The files to read: the paths given (files or folders), or the project's Python files."""
    found: list[Path] = []
    for start in paths or [root]:
        if start.is_file():
            found.append(start)
            continue
        for folder, dirs, files in os.walk(start):
            here = Path(folder)
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".") and d not in SKIPPED_FOLDERS and (here / d).resolve() != output_dir.resolve()
            )
            found.extend(here / f for f in sorted(files) if f.endswith(".py"))
    return sorted(set(found))


def read_sources(files: Iterable[Path], rel: Callable[[Path], str]) -> tuple[list[scan.Module], list[Diagnostic]]:
    """Parse every file; one that cannot be read or parsed is a TG520 error at its place."""
    modules: list[scan.Module] = []
    problems: list[Diagnostic] = []
    for path in files:
        name = rel(path)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError(f"the file is larger than {MAX_FILE_BYTES // 1024 // 1024} MiB")
            modules.append(scan.parse_module(name, path.read_text(encoding="utf-8")))
        except SyntaxError as exc:
            message = f"cannot be parsed as Python: {exc.msg}"
            problems.append(Diagnostic("TG520", Severity.ERROR, message, name, "", exc.lineno, exc.offset))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            problems.append(Diagnostic("TG520", Severity.ERROR, f"cannot be read: {exc}", name))
    return modules, problems


def find_implementations(index: scan.Index, catalog: Catalog) -> tuple[list[Implementation], list[Diagnostic]]:
    """Implementations by `register("<tool>", f)` calls and by the input model annotation."""
    found: dict[tuple[str, str], Implementation] = {}
    problems: list[Diagnostic] = []
    for module in index.modules.values():
        for call, scope in scan.registrations(module):
            _registered(index, catalog, (module, call, scope), found, problems)
    inputs = {pascal(c.name) + "Input": c.name for c in catalog}
    for function in index.functions():
        is_method = "." in function.qualname and not isinstance(function.node, ast.Lambda)
        param = scan.first_parameter(function.node, is_method)
        tool = inputs.get(scan.annotation_name(param.annotation) or "") if param is not None else None
        if tool is not None:
            found.setdefault((tool, function.key), Implementation(tool, function))
    return sorted(found.values(), key=lambda i: (i.tool, i.function.key)), problems


def _registered(
    index: scan.Index,
    catalog: Catalog,
    where: tuple[scan.Module, ast.Call, str],
    found: dict[tuple[str, str], Implementation],
    problems: list[Diagnostic],
) -> None:
    """One `register()` call: its implementation, or why it was not read."""
    module, call, scope = where
    site = scan.Site(module.file, call.lineno, call.col_offset + 1)
    tool, expression = scan.literal_names(call)
    if tool is None or expression is None:
        return
    if catalog.get(tool) is None:
        message = f"register() names {tool!r}, which is not a tool of the catalog"
        problems.append(Diagnostic("TG512", Severity.WARNING, message, site.file, "", site.line, site.column))
        return
    if isinstance(expression, ast.Lambda):
        function = scan.Function(module, f"{scope}.<lambda>" if scope else "<lambda>", expression)
    else:
        target = index.resolve(module, scope, expression) if not isinstance(expression, ast.Call) else None
        if not isinstance(target, scan.Function):
            message = f"the implementation of {tool!r} is not a function of the scanned files; it was not read"
            problems.append(Diagnostic("TG511", Severity.INFO, message, site.file, "", site.line, site.column))
            return
        function = target
    found.setdefault((tool, function.key), Implementation(tool, function))


def follow(implementation: Implementation, index: scan.Index) -> None:
    """Read the implementation and every scanned function it reaches, once each."""
    seen: set[str] = set()
    stack: list[tuple[scan.Function, tuple[str, ...]]] = [(implementation.function, ())]
    while stack:
        function, via = stack.pop()
        if function.key in seen:
            continue
        seen.add(function.key)
        reading = scan.read_function(function, index)
        implementation.effects.extend((effect, via) for effect in reading.effects)
        implementation.unseen.extend(reading.unseen)
        implementation.outside |= reading.outside
        stack.extend((callee, (*via, callee.qualname)) for callee in reversed(reading.calls))


def judge(implementation: Implementation, contract: Contract) -> Iterator[Diagnostic]:
    """The findings of one implementation against its contract's permissions."""
    declared = set(contract.permissions)
    used: set[str] = set()
    for effect, via in sorted(implementation.effects, key=lambda e: (e[0].site.file, e[0].site.line, e[0].site.column)):
        used.add(effect.permission)
        if effect.permission in declared:
            continue
        path = f" (reached through {' -> '.join(via)})" if via else ""
        listed = ", ".join(contract.permissions) or "none"
        message = (
            f"tool {contract.name!r} {_verb(effect.permission)}: {effect.call}{path}, but declares "
            f"permissions: {listed}; add {effect.permission!r} to its contract or remove the effect"
        )
        severity = Severity.WARNING if effect.permission == "read" else Severity.ERROR
        site = effect.site
        yield Diagnostic(CODES[effect.permission], severity, message, site.file, "", site.line, site.column)
    yield from _unused(implementation, contract, declared - used)
    yield from _unseen(implementation, contract)


def _verb(permission: str) -> str:
    return {"write": "writes", "execute": "runs a program", "network": "opens a network connection"}.get(
        permission, "reads files"
    )


def _unused(implementation: Implementation, contract: Contract, unused: set[str]) -> Iterator[Diagnostic]:
    site = implementation.function.site
    for permission in sorted(unused):
        message = (
            f"tool {contract.name!r} declares {permission!r}, but no {permission} effect was found in "
            f"{implementation.function.qualname}() or what it calls (is the permission still needed?)"
        )
        yield Diagnostic("TG510", Severity.INFO, message, site.file, "", site.line, site.column)


def _unseen(implementation: Implementation, contract: Contract) -> Iterator[Diagnostic]:
    site = implementation.function.site
    hidden = sorted({f"{u.what} (line {u.site.line} of {u.site.file})" for u in implementation.unseen})
    if implementation.outside:
        hidden.append("calls into modules the audit does not read: " + ", ".join(sorted(implementation.outside)))
    if hidden:
        message = f"the audit cannot see all of what tool {contract.name!r} does: " + "; ".join(hidden)
        yield Diagnostic("TG511", Severity.INFO, message, site.file, "", site.line, site.column)


def audit(catalog: Catalog, files: Sequence[Path], rel: Callable[[Path], str], *, package: str = "") -> Audit:
    """Audit the implementations in `files` against the catalog's permissions.

    `package` is the generated package's import name: calls into it (`Ok`, `Err`) are no unseen code.
    """
    modules, problems = read_sources(files, rel)
    index = scan.Index(modules, known=frozenset({package}) if package else frozenset())
    implementations, found = find_implementations(index, catalog)
    problems.extend(found)
    for implementation in implementations:
        follow(implementation, index)
        contract = catalog.get(implementation.tool)
        if contract is not None:
            problems.extend(judge(implementation, contract))
    return Audit(problems, implementations, len(files))
