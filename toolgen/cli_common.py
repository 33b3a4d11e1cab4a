"""What every command of the command line shares: its context, the error guard, settings, output.

Kept apart from cli.py so that the modules of further commands (cli_audit.py) use the same
conventions without importing cli.py, which registers them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from toolgen import diagnostics
from toolgen.build import write
from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic, has_errors

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = click.Choice(["text", "json", "github"])


class Context:
    """What every command shares: the project root and whether to show tracebacks."""

    def __init__(self, root: Path, debug: bool) -> None:
        self.root = root
        self.debug = debug


def guarded(func: F) -> F:
    """Turn unexpected exceptions into a one-line message and exit 3 (a traceback with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except write.WriteError as exc:
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


def settings_or_exit(ctx: Context, overrides: dict[str, Any] | None = None) -> Settings:
    """Resolve the configuration; print its problems and exit 1 when it is invalid."""
    settings, problems = load_settings(ctx.root, overrides)
    if has_errors(problems):
        emit(problems, "text")
        sys.exit(1)
    return settings


def emit(found: Sequence[Diagnostic], fmt: str, *, stream_err: bool = True) -> None:
    """Print diagnostics in the chosen format (text and github to stderr, json to stdout)."""
    if not found and fmt != "json":
        return
    text = diagnostics.render(found, fmt)
    click.echo(text, nl=False, err=stream_err and fmt != "json")
