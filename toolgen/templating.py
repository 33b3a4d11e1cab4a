"""Templates: the Jinja2 environment every text target renders through.

Built-in templates live in the top-level `templates/` folder of the repository and ship inside the
wheel as `toolgen/templates`; a project's `templates` setting names a folder whose files override
built-ins of the same name. Templates hold only loops, simple conditionals and the named filters of
`FILTERS`; all decisions are made in Python before rendering.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from toolgen.frozen import thaw


def builtin_templates_dir() -> Path:
    """The folder of built-in templates: inside the installed package, or the repository's top level."""
    packaged = resources.files("toolgen") / "templates"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "templates"


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


@lru_cache(maxsize=8)
def _environment(search_path: tuple[str, ...], extra: tuple[tuple[str, Callable[..., Any]], ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
    )
    env.filters.update(FILTERS)
    env.filters.update(dict(extra))
    return env


def environment(
    override_dir: Path | None = None, extra_filters: Mapping[str, Callable[..., Any]] | None = None
) -> jinja2.Environment:
    """The shared environment: the override folder first, then the built-ins."""
    path = [str(override_dir)] if override_dir is not None else []
    path.append(str(builtin_templates_dir()))
    return _environment(tuple(path), tuple(sorted((extra_filters or {}).items())))
