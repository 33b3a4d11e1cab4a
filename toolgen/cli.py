"""The command line. Thin by design: parse options, call the library, print, choose the exit code.

Exit codes: 0 success, 1 invalid contracts / drift / incompatible change, 2 usage error, 3 internal
error (a bug in toolgen: rerun with --debug for the traceback). Bad input never shows a traceback.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import click

from toolgen import __version__
from toolgen.build import cache, fastpath, pipeline, write
from toolgen.cli_common import FORMATS, Context, emit, guarded, settings_or_exit
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, has_errors


def _counts(found: Sequence[Diagnostic]) -> str:
    errors = sum(1 for d in found if d.is_error)
    warnings = len(found) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolgen")
@click.option(
    "-C",
    "--project",
    "project",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root (where pyproject.toml or toolgen.toml and contracts/ are).",
)
@click.option("--debug", is_flag=True, help="Show Python tracebacks for internal errors.")
@click.pass_context
def main(click_ctx: click.Context, project: Path, debug: bool) -> None:
    """toolgen: one contract per tool, projected into Python, provider declarations, docs and mocks."""
    click_ctx.obj = Context(project, debug)


@main.command()
@click.option("--force", is_flag=True, help="Overwrite files in the output folder that toolgen did not generate.")
@click.option("--format", "fmt", type=FORMATS, default="text", help="Format of diagnostics.")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the build cache (.toolgen-cache/).")
@click.pass_obj
@guarded
def build(ctx: Context, force: bool, fmt: str, no_cache: bool) -> None:
    """Validate the contracts and write every target; unchanged files are not rewritten."""
    started = time.perf_counter()
    settings = settings_or_exit(ctx)
    out = settings.rel(settings.output_dir)
    key = None if no_cache else fastpath.input_key(settings)
    state = fastpath.lookup(settings, key)
    if state is not None:
        emit(state.diagnostics, fmt)
        elapsed = time.perf_counter() - started
        summary = f"{state.contracts} contracts: nothing changed, {state.files} files in {out}/ up to date"
        click.echo(f"{summary} (no input changed since the last build; {elapsed:.2f}s)")
        return
    with cache.session(settings.root, enabled=not no_cache) as store, progress_bar(settings) as step:
        result = pipeline.generate(settings, progress=step)
        emit(result.diagnostics, fmt)
        if not result.ok:
            click.echo(f"toolgen: build failed ({_counts(result.diagnostics)}); nothing was written.", err=True)
            sys.exit(1)
        change = write.plan(result.artifacts, settings.output_dir)
        write.apply(change, force=force)
        contracts = len(result.catalog) if result.catalog is not None else 0
        if store is not None:
            fastpath.record(settings, key, result.diagnostics, contracts, change.files, verified=change.verified)
            store.prune()
    elapsed = time.perf_counter() - started
    if change.up_to_date:
        files = len(change.unchanged)
        click.echo(f"{contracts} contracts: nothing changed, {files} files in {out}/ up to date ({elapsed:.2f}s)")
    else:
        click.echo(
            f"{contracts} contracts: {len(change.write)} files written, {len(change.unchanged)} unchanged, "
            f"{len(change.remove)} removed in {out}/ ({elapsed:.2f}s)"
        )


PROGRESS_MIN_CONTRACTS = 200
"""A build of at least this many contracts shows a progress bar (on a terminal only)."""


@contextlib.contextmanager
def progress_bar(settings: Settings) -> Iterator[Callable[[str], None] | None]:
    """A progress bar on stderr over the build's steps, when stderr is a terminal and the catalog is large."""
    files = fastpath.contract_files(settings.contracts_dir) if sys.stderr.isatty() else None
    if files is None or len(files) < PROGRESS_MIN_CONTRACTS:
        yield None
        return
    steps = ["validate", *settings.targets]
    label = f"building {len(files)} contracts"
    with click.progressbar(length=len(steps), label=label, file=sys.stderr, item_show_func=lambda s: s) as bar:
        yield lambda step: bar.update(1, current_item=step)


@main.command()
@click.option("--format", "fmt", type=FORMATS, default="text", help="Format of diagnostics.")
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the build cache (.toolgen-cache/).")
@click.pass_obj
@guarded
def check(ctx: Context, fmt: str, no_cache: bool) -> None:
    """Prove the generated files are current: generate in memory and compare; writes nothing."""
    settings = settings_or_exit(ctx)
    out = settings.rel(settings.output_dir)
    key = None if no_cache else fastpath.input_key(settings)
    recorded = fastpath.lookup(settings, key)
    if recorded is not None:
        emit(recorded.diagnostics, fmt)
        click.echo(f"{out}/ is up to date ({recorded.files} files; no input changed since the last build)")
        return
    with cache.session(settings.root, enabled=not no_cache):
        result = pipeline.generate(settings)
    emit(result.diagnostics, fmt)
    if not result.ok:
        click.echo(f"toolgen: contracts are invalid ({_counts(result.diagnostics)})", err=True)
        sys.exit(1)
    change = write.plan(result.artifacts, settings.output_dir)
    if change.up_to_date:
        if not no_cache:
            contracts = len(result.catalog) if result.catalog is not None else 0
            fastpath.record(settings, key, result.diagnostics, contracts, change.files, verified=change.verified)
        click.echo(f"{out}/ is up to date ({len(change.unchanged)} files)")
        return
    for path in change.write:
        state = "missing" if path in change.missing else "stale"
        click.echo(f"{out}/{path}: {state}")
        if path in change.diffs:
            click.echo(change.diffs[path], nl=False)
    for path in change.remove:
        click.echo(f"{out}/{path}: orphaned (its contract or target is gone)")
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

    settings = settings_or_exit(ctx)
    found = validate_paths(settings, list(paths))
    if strict:
        found = [d if d.is_error else d.promoted() for d in found]
    emit(found, fmt)
    if fmt == "text":
        click.echo(f"{_counts(found)}", err=True)
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
    """Scaffold a contract NAME that passes `toolgen validate --strict`; never overwrites."""
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
    click.echo(f"wrote {settings.rel(path)}; replace the TODOs, then run `toolgen validate`")


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

    settings = settings_or_exit(ctx)
    catalog, problems, _ = pipeline.load_catalog(settings)
    if catalog is None:
        emit(problems, "text")
        click.echo(f"toolgen: contracts are invalid ({_counts(problems)})", err=True)
        sys.exit(1)
    measured = stats.measure(providers.project(catalog, settings))
    if fmt == "json":
        click.echo(json.dumps(measured.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(stats.render_text(measured), nl=False)


def _permission_list(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    from toolgen.catalog import PERMISSIONS

    if value is None:
        return None
    chosen = tuple(p.strip() for p in value.split(",") if p.strip() and p.strip() != "none")
    unknown = [p for p in chosen if p not in PERMISSIONS]
    if unknown:
        raise click.BadParameter(f"unknown {', '.join(unknown)}; choose from {', '.join(PERMISSIONS)} or none")
    return chosen


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
    callback=_permission_list,
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
    from toolgen.importing import importer, write

    if force and update:
        raise click.UsageError("--force and --update exclude each other: --update keeps what a person decided")
    settings = settings_or_exit(ctx)
    options = importer.Options(
        file.as_posix(), repair=repair, fmt=fmt, force=force, permissions=permissions, update=update
    )
    plan, lines = write.import_file(file, shape, settings, options)
    for line in lines:
        click.echo(line)
    emit(plan.diagnostics, "text")
    rejected = plan.records - len(plan.planned)
    click.echo(f"{plan.records} declarations: {len(plan.planned)} imported, {rejected} rejected", err=True)
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
    settings = settings_or_exit(ctx)
    try:
        base = compat.read_base_file(base_file) if base_file else compat.read_base_at_ref(settings, base_ref or "")
    except compat.BaseError as exc:
        click.echo(f"toolgen: {exc}", err=True)
        sys.exit(2)
    head, problems, documents = pipeline.load_catalog(settings)
    if head is None:
        emit(problems, "github" if fmt == "github" else "text")
        click.echo(f"toolgen: contracts are invalid ({_counts(problems)}); fix them before diffing", err=True)
        sys.exit(1)
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
        click.echo(f"toolgen: contracts are invalid ({_counts(problems)}); nothing to serve", err=True)
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
