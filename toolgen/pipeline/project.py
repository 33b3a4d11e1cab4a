"""The library entry point of `toolgen build` and `toolgen check`: a project, built or checked whole.

`build_project(root)` does everything `toolgen build` does, in this order: the no-change shortcut
(`fastpath`: when no input changed since the last build, answer from its record and stop), the
cache session (`cache.session`, under the user's cache key, `cachekey`), generation in memory
(`stages.generate`, which reads ahead, while a forked process renders, what the writer and pruning
will need: `Ahead`), the write (`write.update`: journaled, refusing to overwrite hand edits), the
record of the build for the next shortcut, and pruning of the cache entries this build did not use.
`check_project(root)` does the same up to the plan and writes nothing but the record. Both return a
`BuildReport`; bad input (settings, contracts, a refused write) is a report with diagnostics, never
an exception. The command line (`toolgen.cli`) only parses its options and prints the report.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toolgen.config import Settings, load_settings
from toolgen.diagnostics import Diagnostic, has_errors
from toolgen.incremental import cache, cachekey, fastpath
from toolgen.incremental.stackroom import roomy

if TYPE_CHECKING:  # imported when a build must run: the no-change shortcut loads none of them
    from toolgen.incremental import resident
    from toolgen.pipeline import stages
    from toolgen.writer import write

Step = Callable[[str], None]
"""Called with the name of each step of a build as it finishes (`stages.generate`'s `progress`)."""

Progress = Callable[[Settings], AbstractContextManager[Step | None]]
"""Opened once a build must render (not for the no-change shortcut): gives the `Step` to call, if any."""

Failure = Literal["", "settings", "contracts", "write"]


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build or check did, or why it stopped (`failed`); nothing is written when it failed."""

    ok: bool
    """True when the build wrote its files (or the check found them current)."""
    output: str
    """The output folder as the user names it (relative to the project root)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """What validation and the targets found (warnings even when `ok`)."""
    failed: Failure = ""
    """Where it stopped: the settings, the contracts, or the write (refused: see `refusals`)."""
    refusals: tuple[Diagnostic, ...] = ()
    """Why the output may not be written (TG132 to TG135)."""
    contracts: int = 0
    written: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    unchanged: int = 0
    """Output files left as they were (for `check`: found current)."""
    fast: bool = False
    """True when the no-change shortcut answered: nothing was loaded or rendered."""
    up_to_date: bool = False
    """For `check`: the output folder holds exactly what the contracts make."""
    plan: write.Plan | None = field(default=None, repr=False)
    """For `check` (and a build): what the writer found, with the drift and its diffs."""
    notes: tuple[str, ...] = ()
    """What the writer did besides (a recovery of an interrupted build)."""
    generated: stages.Generated | None = field(default=None, repr=False)
    """The generation run (catalog and artifacts): the command line keeps it alive to the end."""

    @property
    def found(self) -> tuple[Diagnostic, ...]:
        """Every diagnostic to show: the build's, then the write's refusals."""
        return (*self.diagnostics, *self.refusals)


@dataclass
class Ahead:
    """What a build and a check read of the last build while a forked process renders
    (`stages.generate`'s `meanwhile`), rather than after the build: the output files the last
    build verified (`fastpath.trusted`) and the cache entries it used (`pruning.last_used`)."""

    settings: Settings
    secret: bytes | None
    """The cache key: None without the cache."""
    store: cache.Store | None = None
    _trusted: Mapping[str, tuple[write.Stat, str]] | None = None
    last_used: tuple[frozenset[str] | None, int] | None = None

    def read(self) -> None:
        """Read both now."""
        self._trusted = self.trusted()
        if self.store is not None:
            from toolgen.incremental import pruning

            self.last_used = pruning.last_used(self.store)

    def trusted(self) -> Mapping[str, tuple[write.Stat, str]]:
        """`fastpath.trusted` (nothing without the cache), read now unless it was read ahead."""
        if self._trusted is None:
            self._trusted = {} if self.secret is None else fastpath.trusted(self.settings, self.secret)
        return self._trusted


@contextlib.contextmanager
def _no_progress(_settings: Settings) -> Iterator[Step | None]:
    yield None


class Project:
    """A project's build and check under one cache key (`use_cache=False`: no cache, as `--no-cache`)."""

    def __init__(self, settings: Settings, *, use_cache: bool = True) -> None:
        self.settings = settings
        key = cachekey.load() if use_cache else None
        self.secret: bytes | None = key.secret if key is not None else None
        self.cache_problem: str | None = key.problem if key is not None else None
        """Why the cache is not used although it was asked for (the build runs without it)."""
        self._probed: tuple[fastpath.Inputs | None, fastpath.State | None] | None = None
        """The probe `unchanged` made when the shortcut did not answer, for the next build or check."""
        self._resident: resident.Resident | None = None
        """What this project's last build or check in this process left in memory (the contracts it
        loaded, the resident units' values: `resident.Resident`): the next one takes them from here,
        not from the cache."""

    @property
    def output(self) -> str:
        """The output folder, as the user names it."""
        return self.settings.rel(self.settings.output_dir)

    def build(self, *, force: bool = False, progress: Progress | None = None) -> BuildReport:
        """`toolgen build`: write every target's files, unless nothing changed since the last build."""
        return _again_when_lost(lambda: self._build(force, progress or _no_progress))

    def check(self) -> BuildReport:
        """`toolgen check`: whether the output folder holds what the contracts make; writes no output."""
        return _again_when_lost(self._check)

    def unchanged(self, *, check: bool = False) -> BuildReport | None:
        """The report `build()` (or `check()`) gives when the no-change shortcut answers, else None:
        then the probe is kept for this project's next build or check, which reads nothing again."""
        probe, state = self._shortcut()
        if state is None:
            self._probed = (probe, state)
            return None
        return self._answered(state, check=check)

    def _answered(self, state: fastpath.State, *, check: bool) -> BuildReport:
        """The report of a build or check the no-change shortcut answered from `state`."""
        found, files = state.diagnostics, state.files
        return BuildReport(
            True, self.output, found, contracts=state.contracts, unchanged=files, fast=True, up_to_date=check
        )

    def _shortcut(self) -> tuple[fastpath.Inputs | None, fastpath.State | None]:
        """The probe of every input (None without the cache key) and the record, when nothing changed
        (the probe `unchanged` kept, once, else a new one)."""
        probed, self._probed = self._probed, None
        if probed is not None:
            return probed
        if self.secret is None:
            return None, None
        state = fastpath.recorded(self.settings, self.secret)
        probe = fastpath.probe(self.settings, state.seen if state is not None else None)
        found = fastpath.current(self.settings, probe.key, state)
        if found is not None:  # contracts that settled since the record need not be read next time
            fastpath.refresh(self.settings, found, probe.seen, self.secret)
        return probe, found

    def _build(self, force: bool, progress: Progress) -> BuildReport:
        settings, secret, out = self.settings, self.secret, self.output
        probe, state = self._shortcut()
        if state is not None:
            return self._answered(state, check=False)
        from toolgen.incremental import pruning
        from toolgen.pipeline import stages

        with cache.session(settings.root, enabled=bool(secret), secret=secret) as store, progress(settings) as step:
            ahead = Ahead(settings, secret, store)
            reader, listing = (probe.reader(), probe.listing) if probe is not None else (None, None)
            result = stages.generate(
                settings,
                progress=step,
                read=reader,
                meanwhile=ahead.read,
                store=store,
                resident=self._kept(),
                listing=listing,
            )
            if not result.ok:
                return BuildReport(False, out, result.diagnostics, "contracts", generated=result)
            report = self._write(result, force, ahead)
            if store is not None:
                self._kept().settle(store.used)  # what this build used, for the next in this process
            if report.ok and store is not None and report.plan is not None:
                self._remember(probe, result, report.plan)
                pruning.prune(store, ahead.last_used, full_prune=settings.thresholds.full_prune)
        return report

    def warm(self) -> None:
        """Load now what this project's next build would load first, for a process that builds it
        again and again (`toolgen watch`): the stages and targets, datamodel-code-generator's and
        black's first use, the last build's contracts and the values its units keep in memory
        (`resident.Resident`: one generation in memory from the cache, written nowhere). From then
        on every target of its builds renders in this process, where those values are."""
        from toolgen.incremental import snapshot
        from toolgen.pipeline import stages
        from toolgen.render import python_models

        python_models.prime(self.settings.python_package)
        kept = self._kept()
        kept.here = True
        if self.secret is None:
            return
        with cache.session(self.settings.root, read_only=True, secret=self.secret) as store:
            if store is None:
                return
            if kept.snapshot is None:
                kept.snapshot = snapshot.read(store)
            if stages.generate(self.settings, store=store, resident=kept).ok:
                kept.settle(store.used)

    def _kept(self) -> resident.Resident:
        from toolgen.incremental import resident

        if self._resident is None:
            self._resident = resident.Resident()
        return self._resident

    def _write(self, result: stages.Generated, force: bool, ahead: Ahead) -> BuildReport:
        """Apply a generation run to the output folder: the report of the write, or of its refusal."""
        from toolgen.writer import write
        from toolgen.writer.errors import WriteError

        out = self.output
        try:
            trusted = ahead.trusted()
            change, notes = write.update(
                result.artifacts, self.settings.output_dir, force=force, label=out, trusted=trusted
            )
        except WriteError as exc:
            if not exc.diagnostics:
                raise
            refused = tuple(exc.diagnostics)
            return BuildReport(False, out, result.diagnostics, "write", refused, notes=tuple(exc.notes))
        return BuildReport(
            True,
            out,
            result.diagnostics,
            contracts=len(result.catalog) if result.catalog is not None else 0,
            written=tuple(change.write),
            removed=tuple(change.remove),
            unchanged=len(change.unchanged),
            plan=change,
            notes=tuple(notes),
            generated=result,
        )

    def _check(self) -> BuildReport:
        settings, secret, out = self.settings, self.secret, self.output
        probe, recorded = self._shortcut()
        if recorded is not None:
            return self._answered(recorded, check=True)
        from toolgen.pipeline import stages
        from toolgen.writer import write

        ahead = Ahead(settings, secret)
        with cache.session(settings.root, enabled=bool(secret), secret=secret) as store:
            reader, listing = (probe.reader(), probe.listing) if probe is not None else (None, None)
            result = stages.generate(
                settings, read=reader, meanwhile=ahead.read, store=store, resident=self._kept(), listing=listing
            )
            if result.ok and store is not None:
                self._kept().settle(store.used)
        if not result.ok:
            return BuildReport(False, out, result.diagnostics, "contracts", generated=result)
        change = write.plan(result.artifacts, settings.output_dir, label=out, trusted=ahead.trusted())
        refusals = (*write.interrupted(settings.output_dir, out), *change.refusals())
        current = change.up_to_date and not has_errors(refusals)
        if current:
            self._remember(probe, result, change)
        contracts = len(result.catalog) if result.catalog is not None else 0
        return BuildReport(
            current,
            out,
            result.diagnostics,
            refusals=refusals,
            contracts=contracts,
            unchanged=len(change.unchanged),
            up_to_date=current,
            plan=change,
            generated=result,
        )

    def _remember(self, probe: fastpath.Inputs | None, result: stages.Generated, change: write.Plan) -> None:
        """Record a build or check that left the output current, keyed by what it read and sealed
        under the cache key, so the next run of either takes the no-change shortcut."""
        if probe is None or self.secret is None:
            return
        contracts = len(result.catalog) if result.catalog is not None else 0
        key = fastpath.loaded_key(self.settings, probe, result.inputs)
        loaded = set(result.inputs)  # a contract changed after the probe vouches for nothing
        seen = {rel: (info, sha) for rel, (info, sha) in probe.seen.items() if (rel, sha) in loaded}
        fastpath.record(
            self.settings,
            key,
            result.diagnostics,
            contracts,
            change.files,
            secret=self.secret,
            verified=change.verified,
            seen=seen,
        )


def _again_when_lost(run: Callable[[], BuildReport]) -> BuildReport:
    """`run()`, once more when a file the cache kept unread could not be read back from its entry
    (`cache.LostEntry`, raised while planning, before anything is written): the record that promised
    it is deleted then, so the second run reads every entry and recomputes what is corrupt. Each
    run has room on the frame stack (`stackroom.roomy`): a build that renders here (`toolgen watch`)
    runs datamodel-code-generator and black in this process."""
    try:
        return roomy(run)
    except cache.LostEntry:
        return roomy(run)


def build_project(
    root: str | os.PathLike[str] | Settings,
    *,
    force: bool = False,
    check: bool = False,
    use_cache: bool = True,
    overrides: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the project at `root` (a folder, or its resolved `Settings`) as `toolgen build` does, or
    check it as `toolgen check` does (`check=True`). `force` overwrites hand-edited output;
    `use_cache=False` neither reads nor writes `.toolgen-cache/`; `overrides` as `load_settings`
    takes them. Bad settings or contracts give a report with diagnostics, not an exception."""
    if isinstance(root, Settings):
        settings = root
    else:
        settings, problems = load_settings(Path(root), overrides)
        if has_errors(problems):
            return BuildReport(False, "", tuple(problems), "settings")
    project = Project(settings, use_cache=use_cache)
    return project.check() if check else project.build(force=force, progress=progress)
