"""The sizes at which a build changes how it works (never what it makes): one settings object.

Each threshold chooses between two ways to the same bytes (fork or not, pack or not, one pass or
stage by stage); the byte-identity tests hold both sides of each. A build reads them from its
`Settings.thresholds` (`DEFAULT` unless a caller sets others), and a test that needs the other side
of one at a small size passes `dataclasses.replace(settings, thresholds=Thresholds(...))` rather
than patching a module constant. Imports nothing of toolgen: every layer may read it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Sizes, in contracts (or items), from which a build takes its other path."""

    fork_min: int = 24
    """Below this many items a map runs here: forking costs more than it saves (`parallel.Workers`)."""
    apart_min: int = 200
    """From this many contracts the providers and docs render in a forked process while the python
    target runs (`pipeline.stages`)."""
    together_min: int = 48
    """From this many tool modules still to make (and with two cores), the python target makes each
    module in one pass in workers (models, template, black) rather than stage by stage."""
    render_chunk: int = 2000
    """Files (docs pages, tool modules) are made this many at a time (`incremental.executor`, and
    the python target's stage-by-stage way), each chunk packed as made when the build packs: only
    a chunk's plain texts are held at once."""
    models_batch: int = 32
    """Tools per batch handed to datamodel-code-generator in a worker."""
    pack_from: int = 2000
    """From this many contracts the build holds every file it made compressed (`writer.outputs`)."""
    pack_many: int = 200
    """Below `pack_from`, a target's files are held compressed when it rendered this many."""
    provider_run: int = 32
    """The providers' tools are remembered in runs of about this many consecutive tools
    (`render.providers.cached`): a tool ends its run when the hash of its name is a multiple of it.
    Longer runs join fewer texts per file; shorter ones make less again after a one-tool change."""
    provider_run_max: int = 128
    """No run of the providers' tools is longer (a long stretch of names that end none stops here)."""
    progress_min: int = 200
    """From this many contract files `toolgen build` shows a progress bar on stderr, when stderr is a
    terminal (`cliout.progress_bar`)."""
    snapshot_overlay: int = 64
    """Contract files changed since the cache's snapshot of the loaded contracts was written whole
    are kept in its small overlay up to this many; past it the whole is written again
    (`incremental.snapshot`)."""
    full_prune: int = 16
    """Every this many builds, pruning the cache lists its whole folder (`incremental.pruning`)."""


DEFAULT = Thresholds()
"""The thresholds of every build unless a caller sets others (measured on 2 to 8 cores)."""
