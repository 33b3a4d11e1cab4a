"""How often `Any` appears in toolgen's own code: the token `Any` per 1,000 lines of
`toolgen/**/*.py`, leaving out `toolgen/runtime/` (its `Any` are the JSON values of the generated
package, which the package's users see).

    .venv/bin/python -m benchmarks.any_density          # the total and the ten densest modules
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks import REPO

TOKEN = re.compile(r"\bAny\b")


@dataclass(frozen=True)
class Density:
    """The count of `Any` and of lines, over the modules counted."""

    anys: int
    lines: int
    per_module: tuple[tuple[str, int], ...]

    @property
    def per_thousand(self) -> float:
        """`Any` per 1,000 lines."""
        return 1000 * self.anys / max(self.lines, 1)


def measure(package: Path = REPO / "toolgen") -> Density:
    """The density of `Any` in `package`, without its `runtime/` folder."""
    counts: list[tuple[str, int]] = []
    lines = 0
    for path in sorted(package.rglob("*.py")):
        if "runtime" in path.relative_to(package).parts:
            continue
        text = path.read_text(encoding="utf-8")
        counts.append((path.relative_to(package.parent).as_posix(), len(TOKEN.findall(text))))
        lines += len(text.splitlines())
    return Density(sum(n for _, n in counts), lines, tuple(counts))


def main() -> int:
    """Print the total and the densest modules."""
    found = measure()
    print(f"{found.anys} Any in {found.lines} lines: {found.per_thousand:.1f} per 1,000 (toolgen/, not runtime/)")
    for name, count in sorted(found.per_module, key=lambda pair: -pair[1])[:10]:
        print(f"  {count:4d} {name}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `| head`: the reader left; nothing more to say
        sys.stderr.close()
        sys.exit(0)
