"""Templates: the Jinja2 environment every text target renders through.

Built-in templates live in the top-level `templates/` folder of the repository and ship inside the
wheel as `toolgen/templates`; a project's `templates` setting names a folder whose files override
built-ins of the same name. Templates hold only loops, simple conditionals and the named filters of
`FILTERS`; all decisions are made in Python before rendering. An override that fails is its
author's to fix, named with its line (`TemplateFailed`, raised by `templateguard`), and the build
reads no override through a link that leaves the project (`discovery.template_files`, TG138).
`templates_digest` names every template a build can use, for the build cache and the no-change
fast path (jinja2 itself loads only when a template is rendered, so that stays cheap).

Only what varies with the catalog is a template: the tool modules, the package's `__init__.py` and
the docs. The runtime every package carries is ordinary Python in `toolgen/runtime/`, copied byte
for byte (`toolgen.render.python_runtime`), so ruff, mypy, coverage and mutation testing see the
source that ships; a project's `templates` folder overrides templates only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolgen.frozen import thaw

if TYPE_CHECKING:
    import jinja2


def builtin_templates_dir() -> Path:
    """The folder of built-in templates: inside the installed package, or the repository's top level.

    Found beside this file, not through `importlib.resources`, whose readers load `zipfile` (a
    hundredth of a one-contract build) to say the same of a package on disk."""
    here = Path(__file__).resolve().parent
    packaged = here / "templates"
    return packaged if packaged.is_dir() else here.parent / "templates"


def templates_digest(override_dir: Path | None) -> str:
    """A digest of every template file rendering can use (the override folder, then the built-ins)."""
    return _folders_digest((override_dir, builtin_templates_dir()))


def _folders_digest(folders: Sequence[Path | None]) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _tojson(value: Any, indent: int | None = 2) -> str:
    """JSON text of a (possibly frozen) value, keys in the given order, non-ASCII kept."""
    return json.dumps(thaw(value), indent=indent, ensure_ascii=False)


def _pystr(value: str) -> str:
    """A Python string literal that holds `value` exactly, whatever it contains."""
    return json.dumps(value, ensure_ascii=True)


FILTERS: Mapping[str, Callable[..., Any]] = {
    "tojson": _tojson,
    "pystr": _pystr,
}
"""Every filter templates may use. Targets may add theirs through `environment(extra_filters=...)`."""


class TemplateFailed(Exception):
    """A template of the project's own (an override) that does not compile, fails as it renders, or
    renders a Python module that does not parse: its file, the line in it when known, and why. The
    build reports it as TG139 (`pipeline.generate`); an error in a built-in template is not one."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        super().__init__(path, line, message)  # the arguments: it crosses from a forked worker pickled
        self.path = path
        self.line = line
        self.message = message


@lru_cache(maxsize=8)
def _environment(
    search_path: tuple[str, ...],
    extra: tuple[tuple[str, Callable[..., Any]], ...],
    files: tuple[tuple[str, int, int], ...],
) -> jinja2.Environment:
    """The environment over `search_path`, kept per process. Not a pure function of the folder names:
    the environment compiles each template once and never looks at its file again (`auto_reload` is
    off), so the key also holds every template file's path, size and modification time (`files`,
    `_signature`): a template edited while a library caller's process lives gets a new environment."""
    del files  # part of the key only
    from toolgen import templateguard

    return templateguard.make(search_path, {**FILTERS, **dict(extra)}, TemplateFailed)


def environment(
    override_dir: Path | None = None, extra_filters: Mapping[str, Callable[..., Any]] | None = None
) -> jinja2.Environment:
    """The shared environment: the override folder first, then the built-ins."""
    path = [str(override_dir)] if override_dir is not None else []
    path.append(str(builtin_templates_dir()))
    return _environment(tuple(path), tuple(sorted((extra_filters or {}).items())), _signature(path))


def _signature(folders: Sequence[str]) -> tuple[tuple[str, int, int], ...]:
    """Each file under `folders`: its path, size and modification time (ns)."""
    found: list[tuple[str, int, int]] = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            with contextlib.suppress(OSError):
                info = path.stat()
                found.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(found)
