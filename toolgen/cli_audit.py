"""`toolgen audit` and `toolgen replay`: checks of what runs against what the contracts declare.

Kept apart from cli.py, which registers these commands; the same conventions hold (exit 0 clean, 1
findings, 2 usage, 3 internal; bad input never shows a traceback).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolgen import diagnostics
from toolgen.cliout import Context, refuse, settings_or_exit
from toolgen.diagnostics import Severity
from toolgen.summaries import plural

if TYPE_CHECKING:  # the commands import their modules when they run, to keep `toolgen --help` fast
    from toolgen.audit import Audit
    from toolgen.replay import Replay


def audit_summary(result: Audit, tools: int) -> str:
    """One line: files read, implementations found, findings by severity."""
    counts = {s: sum(1 for d in result.diagnostics if d.severity is s) for s in Severity}
    found = {i.tool for i in result.implementations}
    implementations = plural(len(result.implementations), "implementation")
    return (
        f"toolgen audit: {plural(result.files, 'file')} read, {implementations} "
        f"of {len(found)} of {plural(tools, 'tool')}; {plural(counts[Severity.ERROR], 'error')}, "
        f"{plural(counts[Severity.WARNING], 'warning')}, {counts[Severity.INFO]} info"
    )


@click.command("audit")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", help="Output format.")
@click.pass_obj
def audit_command(ctx: Context, paths: tuple[Path, ...], fmt: str) -> None:
    """Read implementation source and report effects their tools' permissions do not declare (exit 1)."""
    from toolgen import audit
    from toolgen.pipeline import stages as pipeline

    settings = settings_or_exit(ctx, fmt=fmt)
    catalog, problems, _ = pipeline.load_catalog(settings)
    if catalog is None:
        refuse(problems, fmt, "toolgen: contracts are invalid; fix them before auditing")
    files = audit.python_files(settings.root, [p.resolve() for p in paths], settings.output_dir)
    result = audit.audit(catalog, files, settings.rel, package=settings.python_package)
    missing = sorted(set(catalog.names) - {i.tool for i in result.implementations})
    if fmt == "json":
        document = {
            "findings": [d.as_json() for d in diagnostics.sort_diagnostics(result.diagnostics)],
            "implementations": [i.as_json() for i in result.implementations],
            "missing": missing,
        }
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        click.echo(diagnostics.render(result.diagnostics, fmt), nl=False)
        if missing and fmt == "text":
            click.echo(f"no implementation found for: {', '.join(missing)}")
    click.echo(audit_summary(result, len(catalog)), err=True)
    if diagnostics.has_errors(result.diagnostics):
        sys.exit(1)


def replay_text(result: Replay, fmt: str) -> str:
    """The replay report: findings, then a table per tool (text or markdown)."""
    lines = diagnostics.render(result.findings, "text").splitlines() if fmt == "text" else []
    if fmt == "markdown":
        lines += ["## Replay of recorded calls", ""]
        lines += [f"- `{d.code}` {d.message}" for d in diagnostics.sort_diagnostics(result.findings)]
        lines += ["", "| tool | calls | versions seen | refused | uncertain | skipped |"]
        lines += ["|---|---:|---|---:|---:|---:|"]
        for tool, s in sorted(result.tools.items()):
            versions = ", ".join(sorted(s.versions)) or "-"
            lines.append(f"| `{tool}` | {s.calls} | {versions} | {s.refused} | {s.uncertain} | {s.skipped} |")
    else:
        for tool, s in sorted(result.tools.items()):
            versions = ", ".join(sorted(s.versions)) or "no version"
            counts = f"{s.refused} refused, {s.uncertain} uncertain, {s.skipped} skipped"
            lines.append(f"{tool}: {plural(s.calls, 'call')} ({versions}), {counts}")
    lines.append(
        f"{plural(result.calls, 'recorded call')}: {result.refused} would now be refused; "
        f"{result.skipped} skipped (refused when recorded: INVALID_INPUT or UNKNOWN_TOOL); "
        f"{plural(result.uncertain_checks, 'check')} uncertain (redacted or shortened values)"
    )
    return "\n".join(lines) + "\n"


@click.command("replay")
@click.argument("traces", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", help="Output format.")
@click.pass_obj
def replay_command(ctx: Context, traces: Path, fmt: str) -> None:
    """Judge recorded calls (a JsonlTracer file) against the contracts on disk (exit 1 if any is refused now)."""
    from toolgen import replay
    from toolgen.pipeline import stages as pipeline

    settings = settings_or_exit(ctx, fmt=fmt)
    catalog, problems, _ = pipeline.load_catalog(settings)
    if catalog is None:
        refuse(problems, fmt, "toolgen: contracts are invalid; fix them before replaying")
    try:
        result = replay.replay(traces, settings.rel(traces), catalog, settings.python_package)
    except OSError as exc:
        click.echo(f"toolgen: cannot read {traces}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    if fmt == "json":
        document = {
            "findings": [d.as_json() for d in diagnostics.sort_diagnostics(result.findings)],
            "tools": {tool: s.as_json() for tool, s in sorted(result.tools.items())},
            "calls": result.calls,
            "refused": result.refused,
            "skipped": result.skipped,
            "uncertain_checks": result.uncertain_checks,
        }
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        click.echo(replay_text(result, fmt), nl=False)
    if diagnostics.has_errors(result.findings):
        sys.exit(1)
