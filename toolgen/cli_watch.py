"""`toolgen watch`: build, then build again on every change of the contracts, templates or settings.

Kept apart from cli.py, which registers it; the same conventions hold. Each build prints what
`toolgen build` prints (its diagnostics, then its summary line, after the inputs that changed); a
build with errors writes nothing, says so and the watch goes on. It never overwrites a hand-edited
output file (there is no `--force`: a watch that overwrote edits would do it on every save).
Ctrl-C (or SIGTERM) stops it with exit 0.
"""

from __future__ import annotations

import signal
import sys
import time
from types import FrameType
from typing import TYPE_CHECKING

import click

from toolgen.cliout import Context, counts, emit, say_no_cache, summary
from toolgen.summaries import built_line

if TYPE_CHECKING:  # the watch is imported when it runs: every other command loads the command line
    from toolgen.pipeline.watch import Round

SHOWN_CHANGES = 3
"""How many changed inputs a round names before it says how many more there are."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@click.command("watch")
@click.option("--format", "fmt", type=click.Choice(["text", "github"]), default="text", help="Format of diagnostics.")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the build cache (.toolgen-cache/).")
@click.option(
    "--interval",
    type=click.FloatRange(0.02, 60.0),
    default=0.1,
    show_default=True,
    help="Seconds between two looks at the inputs where the system does not notify changes (Linux does).",
)
@click.pass_obj
def watch_command(ctx: Context, fmt: str, no_cache: bool, interval: float) -> None:
    """Build now, then again whenever a contract, template or the settings change (Ctrl-C stops)."""
    from toolgen.pipeline.watch import Watch

    watch = Watch(ctx.root.resolve(), use_cache=not no_cache, interval=interval)
    signal.signal(signal.SIGTERM, _interrupt)

    def ready() -> None:
        click.echo(f"toolgen: watching {watch.root} for changes (Ctrl-C stops)", err=True)

    try:
        watch.run(lambda done: print_round(done, fmt), ready=ready)
    except KeyboardInterrupt:
        click.echo("toolgen: stopped watching", err=True)


def print_round(done: Round, fmt: str) -> None:
    """One round as `toolgen build` prints it, after what changed (stdout flushed: a reader sees each
    round); a round that opened the project without a usable cache key says so, as `build` does."""
    report = done.report
    if done.cache_problem is not None:
        say_no_cache(done.cache_problem)
    if done.changed:
        named = ", ".join(done.changed[:SHOWN_CHANGES])
        more = len(done.changed) - SHOWN_CHANGES
        tail = f" and {more} more" if more > 0 else ""
        click.echo(f"toolgen: {time.strftime('%H:%M:%S')} changed: {named}{tail}", err=True)
    emit(report.found, fmt)
    for note in report.notes:
        click.echo(f"toolgen: {note}", err=True)
    if report.failed == "write":
        click.echo(f"toolgen: build stopped; none of its files were written ({counts(report.refusals)})", err=True)
    elif not report.ok:
        click.echo(f"toolgen: build failed ({counts(report.diagnostics)}); nothing was written.", err=True)
    else:
        line = built_line(
            report.contracts,
            report.output,
            unchanged=report.unchanged,
            written=report.written,
            removed=report.removed,
            seconds=done.seconds,
            fast=report.fast,
        )
        summary(line, fmt)
    sys.stdout.flush()
