"""Reading implementation source without running it: imports, functions, and what each call does.

`read_modules` parses the files; `Index` resolves a call's callee through the file's imports (`import
subprocess as sp`, `from os import remove`, relative imports) to a fully qualified name, to a function
of the scanned files (followed), or to nothing the audit can know (a method of an object of unknown
type, matched by name only: `effects.METHODS`). Everything is a static reading: a callee chosen at
run time (getattr, eval, an import by name) is reported as unseen, never guessed.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.audit import effects

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True, slots=True)
class Site:
    """Where something is in a scanned file (1-based line, 1-based column)."""

    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Effect:
    """One call that needs a permission."""

    permission: str
    call: str
    site: Site


@dataclass(frozen=True, slots=True)
class Unseen:
    """Something that hides what runs next: a dynamic call, C code, a module the audit does not read."""

    what: str
    site: Site


@dataclass(slots=True)
class Module:
    """One parsed file: its dotted name, its import aliases and its functions by qualified name."""

    name: str
    file: str
    tree: ast.Module
    aliases: dict[str, str] = field(default_factory=dict)
    functions: dict[str, FunctionNode] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Function:
    """A function of the scanned files: the module it is in and its qualified name there."""

    module: Module
    qualname: str
    node: FunctionNode

    @property
    def key(self) -> str:
        return f"{self.module.name}:{self.qualname}"

    @property
    def site(self) -> Site:
        return Site(self.module.file, self.node.lineno, self.node.col_offset + 1)


@dataclass(slots=True)
class Reading:
    """What one function does directly: its effects, what hides the rest, and the functions it calls."""

    effects: list[Effect] = field(default_factory=list)
    unseen: list[Unseen] = field(default_factory=list)
    outside: set[str] = field(default_factory=set)
    calls: list[Function] = field(default_factory=list)


def module_name(relative: str) -> str:
    """`src/pkg/helpers.py` -> `src.pkg.helpers`; a package's `__init__.py` is the package."""
    parts = list(Path(relative).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or "__main__"


def parse_module(relative: str, text: str) -> Module:
    """Parse one file (raises SyntaxError, ValueError) and collect its aliases and functions."""
    module = Module(module_name(relative), relative, ast.parse(text, filename=relative))
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                module.aliases[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(module, node)
            for alias in node.names:
                module.aliases[alias.asname or alias.name] = f"{origin}.{alias.name}" if origin else alias.name
    _collect_functions(module, module.tree.body, "")
    return module


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.name.split(".")
    is_package = module.file.endswith("__init__.py")
    base = package[: len(package) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _collect_functions(module: Module, body: Iterable[ast.stmt], prefix: str) -> None:
    for statement in body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions[prefix + statement.name] = statement
            _collect_functions(module, statement.body, f"{prefix}{statement.name}.")
        elif isinstance(statement, ast.ClassDef):
            _collect_functions(module, statement.body, f"{prefix}{statement.name}.")


def dotted(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None when the chain does not start at a name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def literal_text(node: ast.expr | None) -> str | None:
    """The value of a string literal, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class Index:
    """Every scanned module, and the functions they define, for resolving calls across files."""

    def __init__(self, modules: Sequence[Module], known: frozenset[str] = frozenset()) -> None:
        self.modules = {m.name: m for m in modules}
        self.known = known
        """Top-level packages that are no unseen code (the generated package)."""
        self._by_name: dict[str, list[Function]] = {}
        for module in modules:
            for qualname, node in module.functions.items():
                self._by_name.setdefault(qualname.rsplit(".", 1)[-1], []).append(Function(module, qualname, node))

    def functions(self) -> Iterator[Function]:
        for module in self.modules.values():
            for qualname, node in module.functions.items():
                yield Function(module, qualname, node)

    def scanned_module(self, name: str) -> Module | None:
        """The scanned module imported as `name` (exact, or by its tail: `src.pkg.x` is `pkg.x`)."""
        if name in self.modules:
            return self.modules[name]
        found = [m for n, m in self.modules.items() if n.endswith("." + name)]
        return found[0] if len(found) == 1 else None

    def function_named(self, module: Module, qualified: str) -> Function | None:
        """The scanned function a fully qualified import name points at (`pkg.helpers.save`)."""
        head, _, name = qualified.rpartition(".")
        target = self.scanned_module(head) if head else None
        if target is not None and name in target.functions:
            return Function(target, name, target.functions[name])
        return None

    def resolve(self, module: Module, scope: str, func: ast.expr) -> str | Function | None:
        """The callee of a call: a scanned Function, a fully qualified name, or None (unknown receiver)."""
        parts = dotted(func)
        if parts is None:
            return None
        head = parts[0]
        if head in ("self", "cls") and len(parts) == 2:
            return self._method(module, scope, parts[1])
        if head in module.aliases:
            qualified = ".".join([module.aliases[head], *parts[1:]])
            return self.function_named(module, qualified) or qualified
        if len(parts) == 1:
            return self._local(module, scope, head) or head
        return None

    @staticmethod
    def _local(module: Module, scope: str, name: str) -> Function | None:
        """A bare name: a function nested in an enclosing scope, else one at module level."""
        parts = scope.split(".") if scope else []
        for end in range(len(parts), -1, -1):
            qualname = ".".join([*parts[:end], name])
            if qualname in module.functions:
                return Function(module, qualname, module.functions[qualname])
        return None

    @staticmethod
    def _method(module: Module, scope: str, name: str) -> Function | None:
        """`self.name()` inside a method: a method of an enclosing class."""
        parts = scope.split(".") if scope else []
        for end in range(len(parts) - 1, 0, -1):
            qualname = ".".join([*parts[:end], name])
            if qualname in module.functions:
                return Function(module, qualname, module.functions[qualname])
        return None


def is_outside(qualified: str, index: Index) -> str | None:
    """The top module of a call into code the audit does not read (not the standard library)."""
    top = qualified.split(".", maxsplit=1)[0]
    if top in sys.stdlib_module_names or top in index.known or index.scanned_module(top):
        return None
    if "." not in qualified:
        return None
    return top


def read_function(function: Function, index: Index) -> Reading:
    """Every call in a function's body (nested functions and lambdas included): effects and callees."""
    reading = Reading()
    for node in ast.walk(function.node):
        if isinstance(node, ast.Call):
            _read_call(node, function, index, reading)
    return reading


def _read_call(node: ast.Call, function: Function, index: Index, reading: Reading) -> None:
    module = function.module
    site = Site(module.file, node.lineno, node.col_offset + 1)
    callee = index.resolve(module, function.qualname, node.func)
    if isinstance(callee, Function):
        reading.calls.append(callee)
        return
    if callee is None:
        _read_method(node, site, reading)
        return
    if callee in effects.UNSEEN_CALLS:
        reading.unseen.append(Unseen(effects.UNSEEN_CALLS[callee], site))
        return
    if callee.split(".")[0] in ("ctypes", "cffi"):
        reading.unseen.append(Unseen("C code through " + callee.split(".")[0], site))
    permission = _call_effect(callee, node, site, reading)
    if permission is not None:
        reading.effects.append(Effect(permission, _describe(callee, node), site))
        return
    outside = is_outside(callee, index)
    if outside is not None:
        reading.outside.add(outside)


def _call_effect(callee: str, node: ast.Call, site: Site, reading: Reading) -> str | None:
    if callee in ("open", "io.open", "builtins.open", "codecs.open"):
        mode_node = node.args[1] if len(node.args) > 1 else _keyword(node, "mode")
        mode = literal_text(mode_node)
        if mode_node is not None and mode is None:
            reading.unseen.append(Unseen("open() with a mode chosen at run time", site))
            return "write"
        return effects.open_effect(mode)
    if callee == "os.open":
        flags = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
        return "write" if any(f in flags for f in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC")) else "read"
    return effects.effect_of(callee)


def _describe(callee: str, node: ast.Call) -> str:
    """The call as a reader recognizes it: `subprocess.run()`, `open(..., 'a')`."""
    if callee in ("open", "io.open", "builtins.open", "codecs.open", "os.open") and len(node.args) > 1:
        return f"{callee}(..., {ast.unparse(node.args[1])})"
    mode = _keyword(node, "mode")
    return f"{callee}(..., mode={ast.unparse(mode)})" if mode is not None else f"{callee}()"


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def _read_method(node: ast.Call, site: Site, reading: Reading) -> None:
    if not isinstance(node.func, ast.Attribute):
        if isinstance(node.func, ast.Call | ast.Subscript):
            reading.unseen.append(Unseen("a call of a value computed at run time", site))
        return
    name = node.func.attr
    if name == "open":
        mode = literal_text(node.args[0] if node.args else _keyword(node, "mode"))
        reading.effects.append(Effect(effects.open_effect(mode), ".open()", site))
        return
    known = effects.METHODS.get(name)
    if known is None:
        return
    permission, counts = known
    if counts is None or len(node.args) in counts:
        reading.effects.append(Effect(permission, f".{name}()", site))


def annotation_name(node: ast.expr | None) -> str | None:
    """The last name of an annotation: `read_file.ReadFileInput`, `"ReadFileInput"` -> `ReadFileInput`."""
    text = literal_text(node)
    if text is not None:
        return text.rsplit(".", 1)[-1].strip()
    parts = dotted(node) if node is not None else None
    return parts[-1] if parts else None


def first_parameter(node: FunctionNode, is_method: bool) -> ast.arg | None:
    """The first parameter a caller passes (after `self`/`cls` of a method)."""
    params = [*node.args.posonlyargs, *node.args.args]
    if is_method and params and params[0].arg in ("self", "cls"):
        params = params[1:]
    return params[0] if params else None


def literal_names(call: ast.Call) -> tuple[str | None, ast.expr | None]:
    """(tool name, implementation expression) of a `register(...)` call."""
    name_node = call.args[0] if call.args else _keyword(call, "name")
    impl = call.args[1] if len(call.args) > 1 else _keyword(call, "implementation")
    return literal_text(name_node), impl


def registrations(module: Module) -> Iterator[tuple[ast.Call, str]]:
    """Every `<anything>.register(...)` call of a module, with the enclosing function's qualname."""
    yield from _registrations(module.tree.body, "")


def _registrations(body: Iterable[ast.stmt], scope: str) -> Iterator[tuple[ast.Call, str]]:
    for statement in body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield from _registrations(statement.body, f"{scope}{statement.name}.")
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register":
                yield node, scope.rstrip(".")
