"""What one process keeps between its builds of one project (a `Project` built again: `toolgen watch`).

A build in a new process reads back from the cache what earlier builds left: the snapshot of the
loaded contracts (`snapshot`), and each unit's entry, read and decoded. A process that builds the
same project again keeps both in memory instead, as its last build left them:

- `snapshot`: the loaded contracts (a file is still taken from it only when its text gives the key
  it was kept under);
- `values`: the decoded value of every unit of a kind declared `resident` (`units.Values`,
  `units.Table`: values nothing changes once made) that the last build used, by its entry's name.
  An entry's key decides its value, so a value found here is the entry's value: a cache hit
  without the read, the seal's check and the decode. Only what the last build used is kept
  (`settle`), so memory stays one build's working set.

Everything here was made by this process; the cache on disk is still written as by any build, so
the next build of another process finds what it needs there.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from typing import Any

from toolgen.incremental.snapshot import Snapshot


@dataclass
class Resident:
    """The loaded contracts and the resident units' values this process's last build left."""

    snapshot: Snapshot | None = None
    values: dict[str, Any] = field(default_factory=dict)
    """Entry name (`cache.entry_name`) -> the value its unit has."""
    here: bool = False
    """True once the project was warmed (`Project.warm`): every target then renders in this
    process, where the values are, not in a forked process whose values would die with it."""

    def settle(self, used: Set[str]) -> None:
        """Keep only the values of the entries the build just done used (`cache.Store.used`)."""
        self.values = {name: value for name, value in self.values.items() if name in used}
