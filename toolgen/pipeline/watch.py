"""`toolgen watch`: build the project, then build it again whenever one of its inputs changes, in one
process that stays warm between builds.

A build in a new process first pays for what it imports (about 0.35 s at 1,000 contracts, before any
work: `benchmarks/bench_floor.py`), and an edit that touches a tool's models pays for
datamodel-code-generator's and black's first use on top. A watching process pays that once; each
later build also takes from memory, rather than from the cache, the contracts the last one loaded
and the values of the units declared resident (`Project` keeps them: `resident.Resident`), and
renders every target in this process, where they are. Every build is `Project.build()` itself:
the same no-change shortcut, cache session, safe write and record as `toolgen build`, so its
output is the same bytes, and a hand-edited output file is refused the same way.

What changed is decided by the stat of every input (`stamps.inputs`): the configuration files at
the root, and every file under the contracts folder and the templates folder, links not followed;
a file changed too recently for its stat to vouch for its bytes is compared by its bytes.
When to look is `notify.Waiter`'s: on Linux the system says when a file in one of those folders
was written and closed, moved, made or deleted, and the inputs are looked at then (and every
`SAFETY_NET` seconds regardless); elsewhere they are looked at every `interval` seconds (1,000
stats take about 7 ms). A change starts a build at once; what changes while it runs starts the
next one. A change of the configuration opens the project again; settings with an error are
reported and watched until they are mended. Nothing in the output folder or the cache is watched,
so a build never starts another.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from toolgen.config import load_settings
from toolgen.diagnostics import has_errors
from toolgen.pipeline import stamps
from toolgen.pipeline.notify import Waiter
from toolgen.pipeline.project import BuildReport, Project
from toolgen.pipeline.stamps import CONFIG_FILES, Stamps, inputs

__all__ = ["CONFIG_FILES", "SAFETY_NET", "Round", "Watch", "inputs"]


SAFETY_NET = 5.0
"""Seconds between two looks at the inputs when the system notifies changes (a file system that
does not, such as some network mounts, is still looked at this often)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One build of the watch: its report, how long it took, and the inputs that started it."""

    report: BuildReport
    seconds: float
    changed: tuple[str, ...] = ()
    """The changed input files, relative to the project root (none for the first build)."""
    cache_problem: str | None = None
    """Why the project runs without the build cache, in the round that opened it (first, or after
    a change of the settings) and no other: `toolgen build` says it once a run, the watch once an opening."""


@dataclass
class Watch:
    """A project built again whenever one of its inputs changes (`run`)."""

    root: Path
    overrides: Mapping[str, object] | None = None
    """Settings from the command line, as `load_settings` takes them."""
    use_cache: bool = True
    interval: float = 0.1
    """Seconds between two looks at the inputs where the system does not notify changes."""

    def run(
        self,
        built: Callable[[Round], None],
        stop: Callable[[], bool] = lambda: False,
        wait: Callable[[float], object] | None = None,
        ready: Callable[[], None] = lambda: None,
    ) -> None:
        """Build now, then after every change, calling `built` with each round, until `stop()`. After
        the first build of a project (and of a project opened again) it is warmed (`Project.warm`);
        `ready` is called once the first is. `wait(seconds)` returns after a change or `seconds`
        (default: a `notify.Waiter` of the input folders)."""
        waiter = Waiter() if wait is None else None
        project, report = self._open()
        seen = self._look(project, waiter)
        built(self._build(project, report, (), opened=True))
        warmed = _warm(project)
        ready()
        try:
            while not stop():
                if waiter is not None:
                    waiter.wait(SAFETY_NET if waiter.notified else self.interval)
                elif wait is not None:
                    wait(self.interval)
                now = self._look(project, waiter, seen)  # a folder made since is watched from now on
                changed = stamps.changed(seen, now, self.root)
                seen = now
                if not changed:
                    continue
                opened = project is None or any(name in CONFIG_FILES for name in changed)
                if opened:
                    project, report = self._open()
                seen = self._look(project, waiter, now)
                built(self._build(project, report, changed, opened=opened))
                if project is not warmed:
                    warmed = _warm(project)
        finally:
            if waiter is not None:
                waiter.close()

    def _look(self, project: Project | None, waiter: Waiter | None, earlier: Stamps | None = None) -> Stamps:
        """The inputs' stamps now (`earlier`: the look before); with a `waiter`, every folder they
        are in is watched from now on."""
        folders: set[str] = set()
        found = stamps.inputs(self.root, project.settings if project is not None else None, folders, earlier)
        if waiter is not None:
            waiter.watch([str(self.root), *folders])
        return found

    def _open(self) -> tuple[Project | None, BuildReport | None]:
        """The project under its settings now, or the report of settings with an error."""
        settings, problems = load_settings(self.root, self.overrides)
        if has_errors(problems):
            return None, BuildReport(False, "", tuple(problems), "settings")
        return Project(settings, use_cache=self.use_cache), None

    @staticmethod
    def _build(
        project: Project | None, report: BuildReport | None, changed: tuple[str, ...], *, opened: bool = False
    ) -> Round:
        started = time.perf_counter()
        if project is not None:
            report = project.build()
        assert report is not None  # `_open` gives a project or the report of why there is none
        problem = project.cache_problem if opened and project is not None else None
        return Round(report, time.perf_counter() - started, changed, problem)


def _warm(project: Project | None) -> Project | None:
    if project is not None:
        project.warm()
    return project
