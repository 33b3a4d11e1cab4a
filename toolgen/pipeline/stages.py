"""The pipeline: configuration → load → validate → catalog → render, in memory.

`generate()` is the in-memory half of `build` and `check` (`project.build_project` is the whole):
it returns the catalog, every artifact of every configured target and every diagnostic, and writes
nothing. A target runs only
when validation found no error; an error from any target means nothing may be written.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import cast

from toolgen.catalog import Catalog, Contract, build_catalog, contract_from_document
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, Severity, has_errors, resolve_severities, sort_diagnostics
from toolgen.discovery import template_files
from toolgen.incremental import cache, loadcache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.incremental.resident import Resident
from toolgen.load import RawDocument, Read, load_documents, located, parse_file
from toolgen.render import File, RenderResult, Target, parts, targets
from toolgen.render.context import RenderContext
from toolgen.templating import TemplateFailed
from toolgen.writer.outputs import Output, held, packs


@dataclass(frozen=True, slots=True)
class Generated:
    """The outcome of a generation run: artifacts only when nothing failed."""

    settings: Settings
    diagnostics: tuple[Diagnostic, ...]
    catalog: Catalog | None = None
    artifacts: tuple[Output, ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()
    """(path under the contracts folder, sha256 of the bytes read) of every contract this run read:
    what the no-change shortcut records (`fastpath.loaded_key`)."""

    @property
    def ok(self) -> bool:
        """True when there is no error and so the artifacts may be written."""
        return not has_errors(self.diagnostics)


def load_catalog(
    settings: Settings,
    read: Read | None = None,
    store: cache.Store | None = None,
    resident: Resident | None = None,
    listing: Sequence[tuple[str, Path]] | None = None,
) -> tuple[Catalog | None, list[Diagnostic], list[RawDocument]]:
    """Load and validate every contract (`read`: as `load.load_file` takes it); the catalog is None
    when any contract has an error.

    When there is a catalog, the documents returned no longer hold their parsed `data` (their text
    and locator remain, to place diagnostics). With the build's cache `store` each file's own checks,
    contract digest and TOML data are remembered (`loadcache`), and the loaded contracts are left
    for the next build in one piece (`incremental.snapshot`): a file it knows comes as its `Contract`.
    `resident`: where this process keeps that snapshot between its builds of the project (`Project`);
    `listing`: the contracts folder as the no-change probe just listed it (`load_documents`)."""
    limits = settings.thresholds
    workers = Workers(settings.jobs, limits.fork_min)
    remembered = None
    if store is not None:
        remembered = loadcache.Remembered(store, limits.snapshot_overlay, workers, resident)
    parse = remembered.parse if remembered is not None else parse_file
    documents, problems = load_documents(settings, parse, read, listing)
    problems.extend(validate_all(documents, settings, workers, remembered))
    problems = sort_diagnostics(problems)
    if has_errors(problems):
        for document in documents:
            if remembered is not None:  # the checks are kept: the next build checks only what changed
                remembered.keep(document, None)
        return None, problems, documents
    contracts = []
    for index, document in enumerate(documents):
        contracts.append(_contract(document, remembered))
        # the parsed data weighs as much as the contract made from it: drop it as the catalog grows
        documents[index] = replace(document, data=None)
    if remembered is not None:
        remembered.save_snapshot(documents, contracts)
    return build_catalog(contracts), problems, documents


def _contract(document: RawDocument, remembered: loadcache.Remembered | None) -> Contract:
    """The contract of a document that passed validation (the snapshot's, when it gave it)."""
    if isinstance(document.data, Contract):  # the last build's snapshot knew the file
        return document.data
    known = remembered.digest(document) if remembered is not None else None
    frozen = type(document.data) is MappingProxyType  # parsed frozen: its entry says it passed
    contract = contract_from_document(document.data, document.rel, known, frozen=frozen)
    if remembered is not None:
        remembered.keep(document, contract.digest)
    return contract


def validate_all(
    documents: Sequence[RawDocument],
    settings: Settings,
    workers: Workers,
    remembered: loadcache.Remembered | None = None,
) -> list[Diagnostic]:
    """`validate.validate_documents`, with each document's own checks remembered on its path and text.

    The per-document checks (`validate.check_document`) of files `remembered` does not know run in
    parallel (`workers`, the build's) and are stored; `validate_documents` then runs the checks across documents and
    against the settings, and resolves severities, as it does without a cache.
    """
    from toolgen import validate

    if remembered is None:
        return validate.validate_documents(documents, settings)
    checked = [remembered.checked(d) for d in documents]
    todo = [d for d, known in zip(documents, checked, strict=True) if known is None]
    made = iter(workers.map(validate.check_document, todo))
    own: list[loadcache.Checked] = []
    for document, known in zip(documents, checked, strict=True):
        if known is not None:
            own.append(known)
            continue
        own.append(next(made))
        remembered.note(document, own[-1])
    return validate.validate_documents(documents, settings, own)


def generate(
    settings: Settings,
    *,
    progress: Callable[[str], None] | None = None,
    read: Read | None = None,
    meanwhile: Callable[[], object] | None = None,
    store: cache.Store | None = None,
    resident: Resident | None = None,
    listing: Sequence[tuple[str, Path]] | None = None,
) -> Generated:
    """Validate and render every configured target in memory.

    `progress` is called with each step's name as it finishes ("validate", then each target); `read`
    gives each contract file's bytes (`load.Read`); `meanwhile` runs here once this process's targets
    are rendered, while a forked one may still render others; `store`: the build's cache session
    (None: make everything, the same bytes); `resident`, `listing`: as `load_catalog` takes them."""
    step = progress or _quiet
    catalog, problems, documents = load_catalog(settings, read, store, resident, listing)
    step("validate")
    if catalog is None:
        return Generated(settings, tuple(problems))
    # the parsed documents weigh as much as the catalog: keep only what places a target's diagnostics
    locators = {d.rel: d.locate for d in documents}
    inputs = tuple(sorted((_under(d.path, settings.contracts_dir), d.digest) for d in documents))
    del documents
    per_file = {c.source: c.rules for c in catalog}
    refused = template_problems(settings)
    if refused:
        return Generated(settings, tuple(sort_diagnostics([*problems, *refused])), catalog)
    limits = settings.thresholds
    workers = Workers(settings.jobs, limits.fork_min)
    executor = Building(workers, store, thresholds=limits, contracts=len(catalog), resident=resident)
    try:
        with _settled():
            results = _render_targets(catalog, settings, executor, step, meanwhile)
    except TemplateFailed as exc:
        failed = Diagnostic("TG139", Severity.ERROR, exc.message, settings.rel(Path(exc.path)), "", exc.line)
        return Generated(settings, tuple(sort_diagnostics([*problems, failed])), catalog)
    artifacts: list[Output] = []
    for name in list(results):
        result = results.pop(name)
        found = resolve_severities(result.diagnostics, settings.rule_severities, per_file)
        problems.extend(located(found, locators))
        artifacts.extend(cast("tuple[Output, ...]", result.artifacts))  # made outputs by `_held`
    artifacts.sort(key=lambda a: a.path)
    problems.extend(case_collisions(artifacts, catalog))
    diagnostics = tuple(sort_diagnostics(problems))
    if has_errors(diagnostics):
        return Generated(settings, diagnostics, catalog)
    return Generated(settings, diagnostics, catalog, tuple(artifacts), inputs)


def template_problems(settings: Settings) -> list[Diagnostic]:
    """TG138 for each of the project's templates that must not be read: a link that leaves the
    project, a FIFO or device, an unreadable folder (`discovery.template_files`, the contracts' guard)."""
    if settings.templates_dir is None:
        return []
    return template_files(settings.templates_dir, settings)[1]


@contextlib.contextmanager
def _settled() -> Iterator[None]:
    """While the targets render, every object alive before (the modules, the frozen catalog: a
    million objects at 1,000 contracts) is out of the cycle collector's reach (`gc.freeze`). None
    of them becomes garbage meanwhile, yet each full collection walked them all again, here and in
    every forked process, whose copy of each page the walk also touched: a tenth of a one-contract
    build. They are handed back to the collector after (`gc.unfreeze`): a library caller's garbage
    is collected as before."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _under(path: Path, folder: Path) -> str:
    """`path` relative to `folder`, as the no-change shortcut lists contract files (by its text
    where it plainly starts with the folder's: pathlib's `relative_to` over 1,000 contracts was
    about 15 ms of a warm one-contract build)."""
    text, start = str(path), str(folder)
    if os.sep == "/" and text.startswith(start + "/"):
        return text[len(start) + 1 :]
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return path.as_posix()


def case_collisions(artifacts: Sequence[File], catalog: Catalog) -> list[Diagnostic]:
    """TG136 for each two output paths (files or folders) that differ only in case, naming the tools
    they are made from; on macOS and Windows one would overwrite the other."""
    seen: dict[str, str] = {}
    found: list[Diagnostic] = []
    for artifact in artifacts:
        parts = artifact.path.split("/")
        for end in range(1, len(parts) + 1):
            prefix = "/".join(parts[:end])
            other = seen.setdefault(prefix.casefold(), prefix)
            if other != prefix:
                found.append(_collision(other, prefix, catalog))
                break
    return found


def _collision(first: str, second: str, catalog: Catalog) -> Diagnostic:
    tools = [c for c in (catalog.get(PurePosixPath(p).stem) for p in (first, second)) if c is not None]
    owners = [f"`{c.name}` ({c.source})" for c in tools] or ["toolgen's own files"]
    message = (
        f"the generated paths {first} and {second} differ only in case (made for {' and '.join(owners)}); "
        "on macOS and Windows one would overwrite the other: rename the tool"
    )
    return Diagnostic("TG136", Severity.ERROR, message, tools[0].source if tools else first)


APART: frozenset[str] = frozenset({"providers", "docs"})
"""Targets rendered in a forked process while the python target runs (their use of the build cache
is reported back to this process). Of a target in two parts (`render.parts`, the docs), the first
renders here meanwhile: the docs index needs no declarations. The mocks render here too: the forked
process, which makes the providers' files and then the pages that show them, is the longer one."""


def _render_targets(
    catalog: Catalog,
    settings: Settings,
    executor: Building,
    step: Callable[[str], None],
    meanwhile: Callable[[], object] | None = None,
) -> dict[str, RenderResult]:
    """Every configured target's result, in the order of `settings.targets` (the docs after the
    providers, which hand them their declarations); `meanwhile` (`generate`) before the forked
    process's results are waited for."""
    registry = targets()
    names = [name for name in settings.targets if name in registry]  # the providers before the docs
    # the python target keeps every core busy only part of the time: the others render meanwhile,
    # unless this process keeps what they are made of between its builds (`Building.renders_here`)
    big = len(catalog) >= settings.thresholds.apart_min and not executor.renders_here
    apart = [n for n in names if n in APART] if "python" in names and big else []
    background = (
        executor.workers.background(partial(_render_apart, apart, catalog, settings, executor)) if apart else None
    )
    try:
        results = _render_all([n for n in names if n not in apart], catalog, settings, executor, step)
        here = _first_parts(apart, catalog, settings, executor)
        if meanwhile is not None:
            meanwhile()
    except BaseException:
        if background is not None:
            background.stop()  # this process failed: the forked one's files will not be asked for
        raise
    if background is not None:
        done, usage = background.result()
        results.update(done)
        cache.absorb(executor.store, usage)  # so pruning keeps the entries the forked process read and wrote
        for name, first in here.items():
            results[name] = replace(results[name], artifacts=(*first.artifacts, *results[name].artifacts))
        for name in apart:
            step(name)
    return {name: results[name] for name in names}


def _first_parts(
    apart: Sequence[str], catalog: Catalog, settings: Settings, executor: Building
) -> dict[str, RenderResult]:
    """The first part of each target in two parts (`render.parts`) that renders apart: rendered
    here, while the forked process renders the rest."""
    made: dict[str, RenderResult] = {}
    for name, (first, _) in parts().items():
        if name in apart:
            result = first(catalog, settings, RenderContext(executor))
            made[name] = _held(result, pack=packs(result.artifacts, len(catalog), settings.thresholds))
    return made


def _render_apart(
    names: Sequence[str], catalog: Catalog, settings: Settings, executor: Building
) -> tuple[dict[str, RenderResult], cache.Usage | None]:
    """The `names` targets' results, and what they did with the build cache when run in a fork
    (of a target in two parts, `render.parts`, the rest: its first part renders in the parent)."""
    rest = {**targets(), **{name: second for name, (_, second) in parts().items()}}
    render = lambda: _render_all(names, catalog, settings, executor, _quiet, registry=rest)  # noqa: E731
    return cache.tracked(
        executor.store, render, in_worker=executor.workers.in_worker
    )  # held there: packed before the trip back


def _render_all(
    names: Sequence[str],
    catalog: Catalog,
    settings: Settings,
    executor: Building,
    step: Callable[[str], None],
    *,
    registry: Mapping[str, Target] | None = None,
) -> dict[str, RenderResult]:
    """Each of the `names` targets' results, in order, with the build executor (and `registry`'s
    functions, else `targets()`); when the docs come too, the providers' declarations and notes are
    handed to them in the render context."""
    registry = registry or targets()
    context = RenderContext(executor)
    results: dict[str, RenderResult] = {}
    for name in names:
        if name == "providers" and "docs" in names:
            from toolgen.render import providers

            results[name], declared = providers.render_declared(catalog, settings, context)
            context = replace(context, declarations=declared)
        else:
            results[name] = registry[name](catalog, settings, context)
        results[name] = _held(results[name], pack=packs(results[name].artifacts, len(catalog), settings.thresholds))
        step(name)
    return results


def _held(result: RenderResult, *, pack: bool) -> RenderResult:
    """The result with its files as the build holds them until the writer runs (`outputs.held`):
    packed in a large build, as each target finishes, so only one target's plain texts are ever
    held at once."""
    return replace(result, artifacts=tuple(held(a, pack=pack) for a in result.artifacts))


def _quiet(step: str) -> None:
    """No progress display."""
