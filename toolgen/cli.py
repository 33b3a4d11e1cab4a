"""The command line. Thin by design: parse options, call the library, print, choose the exit code.

Exit codes: 0 success, 1 invalid contracts / drift / incompatible change, 2 usage error, 3 internal
error (a bug in toolgen: rerun with --debug for the traceback). Bad input never shows a traceback.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from toolgen import __version__
from toolgen.build import cache, fastpath, pipeline, write
from toolgen.cliout import (
    Context,
    build_result,
    built_line,
    check_result,
    counts,
    drift,
    emit,
    emit_unless_json,
    guarded,
    permission_list,
    plural,
    print_drift,
    progress_bar,
    refuse,
    settings_or_exit,
    summary,
)
from toolgen.config import find_root
from toolgen.diagnostics import has_errors

FORMATS = click.Choice(["text", "json", "github"])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolgen")
@click.option(
    "-C",
    "--project",
    "project",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Project root (default: the nearest folder up from here with toolgen.toml, [tool.toolgen] or contracts/).",
)
@click.option("--debug", is_flag=True, help="Show Python tracebacks for internal errors.")
@click.pass_context
def main(click_ctx: click.Context, project: Path | None, debug: bool) -> None:
    """toolgen: one contract per tool, projected into Python, provider declarations, docs and mocks."""
    click_ctx.obj = Context(project if project is not None else find_root(Path.cwd()), debug)


@main.command()
@click.option("--force", is_flag=True, help="Overwrite files in the output folder that toolgen did not generate.")
@click.option("--format", "fmt", type=FORMATS, default="text", help="Format of diagnostics (json: one document).")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the build cache (.toolgen-cache/).")
@click.pass_obj
@guarded
def build(ctx: Context, force: bool, fmt: str, no_cache: bool) -> None:
    """Validate the contracts and write every target; unchanged files are not rewritten."""
    started = time.perf_counter()
    settings = settings_or_exit(ctx, fmt=fmt)
    out = settings.rel(settings.output_dir)
    key = None if no_cache else fastpath.input_key(settings)
    state = fastpath.lookup(settings, key)
    if state is not None:
        emit_unless_json(state.diagnostics, fmt)
        build_result(fmt, state.diagnostics, out, contracts=state.contracts, unchanged=state.files)
        seconds = time.perf_counter() - started
        summary(built_line(state.contracts, out, unchanged=state.files, seconds=seconds, fast=True), fmt)
        return
    with cache.session(settings.root, enabled=not no_cache) as store, progress_bar(settings) as step:
        result = pipeline.generate(settings, progress=step)
        emit_unless_json(result.diagnostics, fmt)
        if not result.ok:
            build_result(fmt, result.diagnostics, out, contracts=0, unchanged=0, ok=False)
            click.echo(f"toolgen: build failed ({counts(result.diagnostics)}); nothing was written.", err=True)
            sys.exit(1)
        change = write.plan(result.artifacts, settings.output_dir)
        write.apply(change, force=force)
        contracts = len(result.catalog) if result.catalog is not None else 0
        if store is not None:
            fastpath.record(settings, key, result.diagnostics, contracts, change.files, verified=change.verified)
            store.prune()
    unchanged, written, removed = len(change.unchanged), change.write, change.remove
    build_result(
        fmt, result.diagnostics, out, contracts=contracts, unchanged=unchanged, written=written, removed=removed
    )
    seconds = time.perf_counter() - started
    summary(built_line(contracts, out, unchanged=unchanged, written=written, removed=removed, seconds=seconds), fmt)


@main.command()
@click.option("--format", "fmt", type=FORMATS, default="text", help="Format of diagnostics.")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the build cache (.toolgen-cache/).")
@click.pass_obj
@guarded
def check(ctx: Context, fmt: str, no_cache: bool) -> None:
    """Prove the generated files are current: generate in memory and compare; writes nothing."""
    settings = settings_or_exit(ctx, fmt=fmt)
    out = settings.rel(settings.output_dir)
    key = None if no_cache else fastpath.input_key(settings)
    recorded = fastpath.lookup(settings, key)
    if recorded is not None:
        check_result(fmt, recorded.diagnostics, out, current=recorded.files)
        summary(f"{out}/ is up to date ({plural(recorded.files, 'file')}; no input changed since the last build)", fmt)
        return
    with cache.session(settings.root, enabled=not no_cache):
        result = pipeline.generate(settings)
    if not result.ok:
        check_result(fmt, result.diagnostics, out, ok=False)
        click.echo(f"toolgen: contracts are invalid ({counts(result.diagnostics)})", err=True)
        sys.exit(1)
    change = write.plan(result.artifacts, settings.output_dir)
    drifted = drift(out, change.write, change.missing, change.remove)
    check_result(fmt, result.diagnostics, out, current=len(change.unchanged), drifted=drifted)
    if change.up_to_date:
        if not no_cache:
            contracts = len(result.catalog) if result.catalog is not None else 0
            fastpath.record(settings, key, result.diagnostics, contracts, change.files, verified=change.verified)
        summary(f"{out}/ is up to date ({plural(len(change.unchanged), 'file')})", fmt)
        return
    if fmt != "json":
        print_drift(drifted, change.diffs, out, fmt)
    click.echo(f"toolgen: {out}/ is out of date; run `toolgen build` and commit the result", err=True)
    sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=FORMATS, default="text", help="Output format.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.pass_obj
@guarded
def validate(ctx: Context, paths: tuple[Path, ...], fmt: str, strict: bool) -> None:
    """Validate contracts (all of them, or only PATHS) and report every problem."""
    from toolgen.validate import validate_paths

    settings = settings_or_exit(ctx, fmt="json-list" if fmt == "json" else fmt)
    found = validate_paths(settings, list(paths))
    if strict:
        found = [d if d.is_error else d.promoted() for d in found]
    emit(found, fmt)
    if fmt == "text":
        click.echo(f"{counts(found)}", err=True)
    if has_errors(found):
        sys.exit(1)


# Further commands register below, each a thin wrapper around its library module.


@main.command()
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["toml", "json"]), default="toml", help="Contract file format.")
@click.option("--dir", "folder", default=None, help="Subfolder of the contracts folder to write into.")
@click.pass_obj
@guarded
def new(ctx: Context, name: str, fmt: str, folder: str | None) -> None:
    """Scaffold a contract NAME that validates; --strict passes once its TODOs are written. Never overwrites."""
    from toolgen import scaffold

    settings = settings_or_exit(ctx)
    try:
        scaffold.check_name(name)
    except scaffold.ScaffoldError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from exc
    try:
        path = scaffold.create(settings, name, fmt, folder)
    except scaffold.ScaffoldError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(1)
    click.echo(f"wrote {settings.rel(path)}; replace the TODOs (TG150), then run `toolgen validate --strict`")


@main.command()
@guarded
def schema() -> None:
    """Print the JSON Schema of the contract format (for editors: `$schema` / taplo `#:schema`)."""
    from toolgen.formatschema import schema_text

    click.echo(schema_text(), nl=False)


@main.command("stats")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.pass_obj
@guarded
def stats_command(ctx: Context, fmt: str) -> None:
    """Size of the catalog per provider and per tool (bytes, tokens), largest first.

    Tokens are o200k_base counts when bpe-openai is installed (pip install 'toolgen[tokens]', offline);
    otherwise an estimate calibrated against o200k_base (median error 3.4%, 90% of tools within 7.8%).
    The output says which.
    """
    import json

    from toolgen.render import providers
    from toolgen.render.providers import stats

    settings = settings_or_exit(ctx, fmt=fmt)
    catalog, problems, _ = pipeline.load_catalog(settings)
    if catalog is None:
        refuse(problems, fmt, f"toolgen: contracts are invalid ({counts(problems)})")
    measured = stats.measure(providers.project(catalog, settings))
    if fmt == "json":
        click.echo(json.dumps(measured.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(stats.render_text(measured), nl=False)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--from",
    "shape",
    type=click.Choice(["openai", "anthropic", "gemini", "mcp"]),
    required=True,
    help="The provider format of FILE (JSON or JSON Lines).",
)
@click.option("--repair", is_flag=True, help="Fix what real catalogs get wrong, reporting every repair per tool.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["toml", "json"]),
    default=None,
    help="Format of the contracts written [default: toml; a rewritten contract keeps its own].",
)
@click.option("--force", is_flag=True, help="Overwrite contracts that already exist.")
@click.option(
    "--update", is_flag=True, help="Rewrite only what changed in contracts that already exist, and report it."
)
@click.option(
    "--permissions",
    callback=permission_list,
    help="Comma-separated permissions for every imported tool (or `none`); default: proposed from MCP "
    "annotations, else all four, unconfirmed.",
)
@click.pass_obj
@guarded
def import_command(
    ctx: Context,
    *,
    file: Path,
    shape: str,
    repair: bool,
    fmt: str | None,
    force: bool,
    update: bool,
    permissions: tuple[str, ...] | None,
) -> None:
    """Write one contract per tool declared in FILE (a provider's tools, a tools/list result, JSON Lines)."""
    from toolgen.importing import importer
    from toolgen.importing.write import import_file

    if force and update:
        raise click.UsageError("--force and --update exclude each other: --update keeps what a person decided")
    settings = settings_or_exit(ctx)
    options = importer.Options(
        file.as_posix(), repair=repair, fmt=fmt, force=force, permissions=permissions, update=update
    )
    plan, lines = import_file(file, shape, settings, options)
    for line in lines:
        click.echo(line)
    emit(plan.diagnostics, "text")
    rejected = plan.records - len(plan.planned)
    click.echo(f"{plural(plan.records, 'declaration')}: {len(plan.planned)} imported, {rejected} rejected", err=True)
    if plan.planned and permissions is None:
        click.echo(
            "Permissions were proposed (from MCP annotations where given, else all four) and marked unconfirmed "
            "(TG212): review each tool's `permissions`, then remove its `permissions:unconfirmed` tag.",
            err=True,
        )
    if has_errors(plan.diagnostics):
        sys.exit(1)


@main.command("diff")
@click.option("--base", "base_ref", metavar="REF", help="Git ref whose committed catalog.json is the base.")
@click.option("--base-file", type=click.Path(dir_okay=False, path_type=Path), help="A catalog.json to compare with.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown", "github"]),
    default="text",
    show_default=True,
    help="Output format (markdown is ready to paste as a pull-request comment).",
)
@click.option("--allow-escalation", is_flag=True, help="Accept added permissions (still reported).")
@click.option("--allow-removal", is_flag=True, help="Accept removed tools (still reported).")
@click.pass_obj
@guarded
def diff_command(
    ctx: Context, *, base_ref: str | None, base_file: Path | None, fmt: str, allow_escalation: bool, allow_removal: bool
) -> None:
    """Classify every change against a base catalog and check each tool's version bump (exit 1 if incompatible)."""
    from toolgen import compat

    if (base_ref is None) == (base_file is None):
        raise click.UsageError("give exactly one of --base REF and --base-file PATH")
    settings = settings_or_exit(ctx, fmt=fmt)
    try:
        base = compat.read_base_file(base_file) if base_file else compat.read_base_at_ref(settings, base_ref or "")
    except compat.BaseError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(2)
    head, problems, documents = pipeline.load_catalog(settings)
    if head is None:  # what stops the diff; the warnings are `toolgen validate`'s to list
        errors = [d for d in problems if d.is_error]
        refuse(errors, fmt, f"toolgen: contracts are invalid ({counts(problems)}); fix the errors before diffing")
    off = frozenset(code for code, level in settings.rule_severities.items() if level == "off")
    report = compat.diff_catalogs(base, head, allow_escalation=allow_escalation, allow_removal=allow_removal, off=off)
    click.echo(compat.render(report, fmt, {d.rel: d.locate for d in documents}), nl=False)
    if not report.compatible:
        sys.exit(1)


@main.command("mock-server")
@click.pass_obj
@guarded
def mock_server_command(ctx: Context) -> None:
    """Serve the catalog's mock tools over MCP stdio (needs the MCP SDK: toolgen[mcp])."""
    from toolgen import mock_server

    try:
        mock_server.require_mcp()
    except mock_server.MissingDependencyError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(1)
    settings = settings_or_exit(ctx)
    catalog, problems, _ = pipeline.load_catalog(settings)
    if catalog is None:
        emit(problems, "text")
        click.echo(f"toolgen: contracts are invalid ({counts(problems)}); nothing to serve", err=True)
        sys.exit(1)
    tools = f"{len(catalog)} tool{'s' * (len(catalog) != 1)}"
    try:
        mock_server.check_package_name(settings.python_package)
        click.echo(f"toolgen: serving the mocks of {tools} over MCP stdio (stdout is the protocol)", err=True)
        mock_server.run(catalog, settings)
    except mock_server.ServeError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(1)
    except mock_server.GenerationError as exc:
        emit(exc.diagnostics, "text")
        click.echo("toolgen: the mocks could not be generated; nothing to serve", err=True)
        sys.exit(1)


def _register_checks() -> None:
    from toolgen.cli_audit import audit_command, replay_command

    for command in (audit_command, replay_command):
        assert command.callback is not None
        command.callback = guarded(command.callback)
        main.add_command(command)


_register_checks()
