"""Import blocks of the generated Python modules: merged, relative within the package, and sorted.

The order is the one isort (profile black) and ruff's `I` rules give: `from __future__` first, then
the standard library, third-party packages and the package's own modules (always relative, as
`from ._runtime import ToolModel`), a blank line between groups; `import x` before `from x import`
in a group, modules and names sorted case-insensitively, constants before classes before the rest.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable

_GROUPS = 3
"""Standard library, third party, local."""


def _group(module: str, level: int) -> int:
    if level > 0:
        return 2
    top = module.split(".", maxsplit=1)[0]
    return 0 if top in sys.stdlib_module_names else 1


def _name_key(name: str) -> tuple[int, str, str]:
    bare = name.split(" as ", maxsplit=1)[0]
    kind = 0 if bare.isupper() and len(bare) > 1 else 1 if bare[:1].isupper() else 2
    return kind, bare.lower(), name


def _relative(node: ast.ImportFrom, package: str) -> tuple[str, int]:
    module = node.module or ""
    if node.level == 0 and (module == package or module.startswith(package + ".")):
        return module[len(package) :].lstrip("."), 1
    return module, node.level


def import_block(lines: Iterable[str], package: str) -> list[str]:
    """The import statements in `lines`, merged and sorted into groups; `""` separates groups.

    An absolute import from `package` becomes relative (`from ._runtime import ToolModel`), so a
    module imports its own package one way only.
    """
    plain: list[set[str]] = [set() for _ in range(_GROUPS)]
    froms: list[dict[tuple[int, str], set[str]]] = [{} for _ in range(_GROUPS)]
    for node in ast.parse("\n".join(lines)).body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                plain[_group(alias.name, 0)].add(ast.unparse(ast.Import(names=[alias]))[len("import ") :])
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            module, level = _relative(node, package)
            names = froms[_group(module, level)].setdefault((level, module), set())
            names.update(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names)
    block: list[str] = []
    for index in range(_GROUPS):
        section = [f"import {name}" for name in sorted(plain[index], key=str.lower)]
        for (level, module), names in sorted(froms[index].items(), key=lambda item: (item[0][1].lower(), item[0])):
            section.extend(_from_lines("." * level + module, names))
        if section and block:
            block.append("")
        block.extend(section)
    return block


LINE_LENGTH = 88
"""Black's line length: a longer `from` import is exploded one name a line, as black explodes it."""


def _from_lines(module: str, names: set[str]) -> list[str]:
    """`from module import a, b`, then one line per aliased name (isort's default, as ruff's)."""
    plain = sorted((n for n in names if " as " not in n), key=_name_key)
    groups = [plain] if plain else []
    groups.extend([name] for name in sorted(names - set(plain), key=_name_key))
    lines: list[str] = []
    for group in groups:
        line = f"from {module} import {', '.join(group)}"
        if len(line) <= LINE_LENGTH:
            lines.append(line)
        else:
            lines.extend([f"from {module} import (", *(f"    {name}," for name in group), ")"])
    return lines


__all__ = ["import_block"]
