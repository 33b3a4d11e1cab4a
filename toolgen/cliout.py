"""What the commands print (diagnostics, counts, the one JSON document of `--format json`, progress,
an internal error as one line), and the context and option parsers the commands share.

The conventions (ruff's, mypy's): with `--format json` stdout holds exactly one JSON document, which
carries everything the text output says (diagnostics, files written, drift), and any summary line
goes to stderr; in text and github formats diagnostics go to stderr and the summary to stdout.
`--format github` annotates files a reviewer cannot otherwise see in the pull request: stale,
missing and orphaned generated files, at the first changed line where there is one.
`build` and `check` run the library's `toolgen.pipeline.project.Project` (the no-change fast path,
the cache, the write and its record are there) and only print its `BuildReport`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click

from toolgen import diagnostics
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic, has_errors
from toolgen.discovery import contract_files
from toolgen.incremental import cache, cachekey
from toolgen.pipeline.project import Project
from toolgen.summaries import plural
from toolgen.writer.errors import WriteError

if TYPE_CHECKING:  # the importer loads only for `toolgen import`
    from toolgen.importing.importer import ImportPlan

_HUNK = re.compile(r"@@ -(\d+)")
"""A unified diff's hunk header, with the hunk's first line in the old file (check's diffs: the file on disk)."""


F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True, slots=True)
class Context:
    """What every command shares: the project root and whether to show tracebacks."""

    root: Path
    debug: bool
    kept: list[object] = field(default_factory=list, compare=False, repr=False)
    """What a command leaves to end with the process (`keep`)."""
    probed: Project | None = field(default=None, compare=False, repr=False)
    """The project `toolgen.quick` probed for this command (`build` or `check`, plainly): the command
    goes on with it instead of resolving the settings and probing every input again."""

    def keep(self, value: object) -> None:
        """Hold `value` as long as this context: a build's result (the frozen catalog, about a million
        small objects at 1,000 contracts) took a one-contract build 10 ms to free, object by object,
        as the command returned. The process entry (`toolgen.__main__.run`) ends the process with
        the context still alive; called as a library, `main` frees it with its context."""
        self.kept.append(value)


def guarded(func: F) -> F:
    """Turn unexpected exceptions into a one-line message and exit 3 (a traceback with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            try:
                return _once(func, *args, **kwargs)
            finally:
                sys.stdout.flush()  # a closed pipe shows here, not as a warning at exit
        except BrokenPipeError:
            _drop_stdout()
            sys.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except WriteError as exc:
            for note in exc.notes:  # what a recovery did before the build stopped
                click.echo(f"toolgen: {note}", err=True)
            click.echo(f"toolgen: {exc}", err=True)
            sys.exit(1)
        except Exception as exc:
            ctx = click.get_current_context().find_object(Context)
            if ctx is not None and ctx.debug:
                raise
            click.echo(f"toolgen: internal error: {type(exc).__name__}: {exc}", err=True)
            click.echo("This is a bug in toolgen; rerun with --debug for the traceback and report it.", err=True)
            sys.exit(3)

    return wrapper  # type: ignore[return-value]


def _once(func: Callable[..., object], *args: object, **kwargs: object) -> object:
    """`func(...)`, run once more when a file the build cache kept unread could not be read back
    from its entry (`cache.LostEntry`, raised while planning, before anything is written or
    printed): the file record that promised it is deleted then, so the second run reads every
    entry and recomputes what is corrupt, as for any other bad entry."""
    try:
        return func(*args, **kwargs)
    except cache.LostEntry:
        return func(*args, **kwargs)


def _drop_stdout() -> None:
    """Point stdout at the null device, so nothing more fails on the pipe whose reader left."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def counts(found: Sequence[Diagnostic]) -> str:
    """`1 error, 2 warnings`."""
    errors = sum(1 for d in found if d.is_error)
    return f"{plural(errors, 'error')}, {plural(len(found) - errors, 'warning')}"


def emit(found: Sequence[Diagnostic], fmt: str) -> None:
    """Print diagnostics in the chosen format (text and github to stderr, json to stdout)."""
    if not found and fmt != "json":
        return
    click.echo(diagnostics.render(found, fmt), nl=False, err=fmt != "json")


def emit_unless_json(found: Sequence[Diagnostic], fmt: str) -> None:
    """Diagnostics now, unless they go into the command's JSON document at the end."""
    if fmt != "json":
        emit(found, fmt)


def refuse(found: Sequence[Diagnostic], fmt: str, why: str) -> NoReturn:
    """Stop with exit 1: the problems in `fmt` (json: the one document; json-list: `validate`'s list of
    diagnostics; markdown and text: text on stderr), then `why` on stderr."""
    if fmt == "json":
        document(found, ok=False)
    else:
        emit(found, {"json-list": "json", "github": "github"}.get(fmt, "text"))
    click.echo(why, err=True)
    sys.exit(1)


def summary(line: str, fmt: str) -> None:
    """The closing line: stdout, or stderr when stdout holds the JSON document."""
    click.echo(line, err=fmt == "json")


def document(found: Sequence[Diagnostic], **fields: object) -> None:
    """Print the command's one JSON document: `fields`, then every diagnostic in reading order."""
    records = [d.as_json() for d in diagnostics.sort_diagnostics(found)]
    click.echo(json.dumps({**fields, "diagnostics": records}, indent=2, ensure_ascii=False))


def build_result(
    fmt: str,
    found: Sequence[Diagnostic],
    out: str,
    *,
    contracts: int,
    unchanged: int,
    written: Sequence[str] = (),
    removed: Sequence[str] = (),
    ok: bool = True,
) -> None:
    """A build's JSON document (in the other formats its diagnostics are printed already)."""
    if fmt == "json":
        written_paths, removed_paths = [f"{out}/{p}" for p in written], [f"{out}/{p}" for p in removed]
        document(
            found,
            ok=ok,
            output=out,
            contracts=contracts,
            written=written_paths,
            unchanged=unchanged,
            removed=removed_paths,
        )


def check_result(
    fmt: str,
    found: Sequence[Diagnostic],
    out: str,
    *,
    current: int = 0,
    drifted: Sequence[Mapping[str, str]] = (),
    ok: bool = True,
) -> None:
    """`check`'s diagnostics, or its JSON document: drift as data, each file with its state."""
    if fmt != "json":
        emit(found, fmt)
        return
    fresh = ok and not drifted
    document(found, ok=fresh, up_to_date=fresh, output=out, current=current, drift=list(drifted))


def drift(out: str, write: Sequence[str], missing: Sequence[str], remove: Sequence[str]) -> list[dict[str, str]]:
    """Every generated file that differs from what the contracts make: path (project-relative) and state."""
    found = [{"path": f"{out}/{p}", "state": "missing" if p in missing else "stale"} for p in write]
    return found + [{"path": f"{out}/{p}", "state": "orphaned"} for p in remove]


_WHY = {
    "stale": "differs from what the contracts generate",
    "missing": "is not there although the contracts generate it",
    "orphaned": "was generated for a contract or target that is gone",
}


def first_changed_line(diff: str) -> int | None:
    """The line of the file on disk that a unified diff changes first (past its context lines)."""
    line = None
    for text in diff.splitlines():
        hunk = _HUNK.match(text)
        if hunk:
            line = int(hunk.group(1))
        elif line is not None and text[:1] in ("+", "-"):
            return max(line, 1)
        elif line is not None and text[:1] == " ":
            line += 1
    return None


def print_drift(entries: Sequence[Mapping[str, str]], diffs: Mapping[str, str], out: str, fmt: str) -> None:
    """The drift `check` found, as text (with short diffs) or as GitHub annotations on each file."""
    for entry in entries:
        path, state = entry["path"], entry["state"]
        diff = diffs.get(path.removeprefix(f"{out}/"), "") if state == "stale" else ""
        if fmt == "github":
            line = first_changed_line(diff)
            message = f"{path} {_WHY[state]}; run `toolgen build` and commit the result"
            click.echo(diagnostics.github_command("error", message, file=path, line=line, title=f"toolgen: {state}"))
        elif state == "orphaned":
            click.echo(f"{path}: orphaned (its contract or target is gone)")
        else:
            click.echo(f"{path}: {state}")
            click.echo(diff, nl=False)


@contextlib.contextmanager
def progress_bar(settings: Settings) -> Iterator[Callable[[str], None] | None]:
    """A progress bar on stderr over the build's steps, when stderr is a terminal and the catalog is large."""
    files = contract_files(settings.contracts_dir, settings)[0] if sys.stderr.isatty() else []
    if len(files) < settings.thresholds.progress_min:
        yield None
        return
    steps = ["validate", *settings.targets]
    label = f"building {len(files)} contracts"
    with click.progressbar(length=len(steps), label=label, file=sys.stderr, item_show_func=lambda s: s) as bar:
        yield lambda step: bar.update(1, current_item=step)


def permission_list(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    """`--permissions read,write` (or `none`) as a tuple; unknown names are a usage error."""
    from toolgen.catalog import PERMISSIONS

    if value is None:
        return None
    chosen = tuple(p.strip() for p in value.split(",") if p.strip() and p.strip() != "none")
    unknown = [p for p in chosen if p not in PERMISSIONS]
    if unknown:
        raise click.BadParameter(f"unknown {', '.join(unknown)}; choose from {', '.join(PERMISSIONS)} or none")
    return chosen


def settings_or_exit(ctx: Context, overrides: dict[str, object] | None = None, fmt: str = "text") -> Settings:
    """Resolve the configuration; print its problems (as `fmt` would) and exit 1 when it is invalid."""
    settings, problems = load_settings(ctx.root, overrides)
    if has_errors(problems):
        refuse(problems, fmt, "toolgen: the configuration is invalid")
    return settings


def open_project(ctx: Context, fmt: str, no_cache: bool) -> Project:
    """The project `build` and `check` run on: its settings (exit 1 when they are invalid) and the
    cache key (none with --no-cache; when there is no usable key the command runs without the cache
    and says so, once)."""
    if ctx.probed is not None and not no_cache:
        project = ctx.probed
    else:
        project = Project(settings_or_exit(ctx, fmt=fmt), use_cache=not no_cache)
    if project.cache_problem is not None:
        say_no_cache(project.cache_problem)
    return project


def say_no_cache(problem: str) -> None:
    """Say on stderr that a command runs without the build cache, why, and what else would do."""
    click.echo(f"toolgen: running without the build cache: {problem} (or set {cachekey.ENV})", err=True)


def import_report(plan: ImportPlan, *, proposed: bool) -> None:
    """An import's diagnostics and counts on stderr (and the permissions to review when they were
    `proposed`, not given); exit 1 when it has an error."""
    emit(plan.diagnostics, "text")
    rejected = plan.records - len(plan.planned)
    click.echo(f"{plural(plan.records, 'declaration')}: {len(plan.planned)} imported, {rejected} rejected", err=True)
    if plan.planned and proposed:
        click.echo(
            "Permissions were proposed (from MCP annotations where given, else all four) and marked unconfirmed "
            "(TG212): review each tool's `permissions`, then remove its `permissions:unconfirmed` tag.",
            err=True,
        )
    if has_errors(plan.diagnostics):
        sys.exit(1)
