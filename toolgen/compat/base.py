"""The base side of a diff: `catalog.json` as committed at a git ref, or read from a file.

Every failure (not a git repository, unknown ref, no catalog at that ref, malformed JSON, a
document that is not a catalog) is a `BaseError` with a message that says what to do; the CLI
turns it into exit 2.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

from toolgen.catalog import Catalog, catalog_from_json
from toolgen.config import Settings


class BaseError(Exception):
    """The base catalog cannot be read; the message names the ref or file and the fix."""


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, encoding="utf-8", check=False)
    except OSError as exc:
        raise BaseError(f"cannot run git: {exc}") from exc


def catalog_path_in_repo(settings: Settings) -> tuple[Path, str]:
    """The repository's top folder and the path of `catalog.json` relative to it (forward slashes)."""
    top = _git(settings.root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise BaseError(f"{settings.root} is not inside a git repository; use --base-file PATH instead of --base")
    repo = Path(top.stdout.strip()).resolve()
    catalog = (settings.output_dir / "catalog.json").resolve()
    try:
        return repo, catalog.relative_to(repo).as_posix()
    except ValueError as exc:
        raise BaseError(f"the output folder {settings.output_dir} is outside the git repository {repo}") from exc


def read_base_at_ref(settings: Settings, ref: str) -> Catalog:
    """The catalog committed at `ref` (`git show REF:<output>/catalog.json`)."""
    if not ref or ref.startswith("-"):
        raise BaseError(f"invalid git ref {ref!r}")
    repo, path = catalog_path_in_repo(settings)
    if _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode != 0:
        raise BaseError(f"unknown git ref {ref!r} (fetch it first, for example `git fetch origin main`)")
    shown = _git(repo, "show", f"{ref}:{path}")
    if shown.returncode != 0:
        raise BaseError(
            f"{path} does not exist at {ref}; commit the output of `toolgen build` there, or use --base-file PATH"
        )
    return parse_base(shown.stdout, f"{ref}:{path}", settings.rel(settings.output_dir / "catalog.json"))


def read_base_file(path: Path) -> Catalog:
    """The catalog in the file at `path`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BaseError(f"cannot read {path}: {exc}") from exc
    return parse_base(text, str(path))


def parse_base(text: str, where: str, source: str | None = None) -> Catalog:
    """Parse a `catalog.json` document; anything malformed is a `BaseError` naming `where`.

    Each contract's `source` becomes `source` (default `where`): a removed tool is reported there.
    """
    try:
        document: object = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaseError(f"{where}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    if not isinstance(document, Mapping) or not isinstance(document.get("tools"), list):
        raise BaseError(f"{where}: not a toolgen catalog.json (expected an object with a `tools` list)")
    if document.get("catalog_version", 1) != 1:
        raise BaseError(f"{where}: catalog_version {document.get('catalog_version')!r} is not supported (expected 1)")
    for index, tool in enumerate(document["tools"]):
        problem = _tool_problem(tool)
        if problem:
            raise BaseError(f"{where}: tools[{index}]: {problem}")
    try:
        return catalog_from_json(document, source or where)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BaseError(f"{where}: malformed catalog entry: {type(exc).__name__}: {exc}") from exc


def _tool_problem(tool: object) -> str:
    if not isinstance(tool, Mapping):
        return "not an object"
    for key, kind in (("name", str), ("version", str), ("description", str), ("input_schema", Mapping)):
        if not isinstance(tool.get(key), kind):
            return f"`{key}` is missing or has the wrong type"
    for key in ("permissions", "errors", "examples", "owners", "tags", "content_kinds"):
        if not isinstance(tool.get(key, []), list):
            return f"`{key}` is not a list"
    return ""
