"""Judge `toolgen diff` and jsoncompat against an instance oracle on the same generated schema pairs.

    .venv/bin/python -m benchmarks.bench_compat                 # 12 pairs per kind of edit, 3 draws
    .venv/bin/python -m benchmarks.bench_compat --per-kind 40 --draws 5

Pairs come from the corpus sample (tests/data/corpus_sample) mutated by each kind of edit in
`benchmarks.compat_edits.EDITS`; each pair is judged in both roles (input, output). The oracle
(`benchmarks.compat_oracle`) looks for a witness: boundary values first, then hypothesis-jsonschema
draws. Per tool, per kind: **unsound** (compatible or no change, and a witness exists),
**over-strict** (breaking, and no witness found) and **agree**. toolgen's default mode is judged
against the oracle under the documented assumptions, `--assume strict` against the raw oracle, and
jsoncompat (roles `deserializer` for input, `serializer` for output) against the raw oracle, which
is what it claims. Over-strict verdicts in `DELIBERATE` kinds are counted apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from benchmarks import REPO, compat_edits, compat_oracle
from toolgen.compat import Assume, Bump, Direction, diff_schema

SAMPLE = REPO / "tests" / "data" / "corpus_sample"
DELIBERATE = frozenset({"remove-property", "close-object", "change-pattern", "narrow-pattern"})
"""Kinds where toolgen is stricter than the oracle on purpose (docs/compatibility.md, "Deliberate")."""
ROLES = ("input", "output")


@dataclass(frozen=True, slots=True)
class Verdict:
    """One tool's verdict on one pair in one role, and the oracle's."""

    tool: str
    kind: str
    breaking: bool
    witness: bool


def toolgen_breaks(old: Any, new: Any, role: str, assume: Assume) -> bool:
    """True when toolgen needs a major bump for the change."""
    direction = Direction.INPUT if role == "input" else Direction.OUTPUT
    changes = diff_schema(direction, old, new, "/s", "/s", assume=assume)
    return max((c.bump for c in changes), default=Bump.NONE) >= Bump.MAJOR


def jsoncompat_breaks(old: Any, new: Any, role: str) -> bool | None:
    """True when jsoncompat calls the change incompatible; None when it is not installed or fails."""
    try:
        import jsoncompat
    except ImportError:
        return None
    try:
        ok = jsoncompat.check_compat(
            json.dumps(old), json.dumps(new), "deserializer" if role == "input" else "serializer"
        )
    except Exception:
        return None
    return not bool(ok)


def oracle(old: Any, new: Any, role: str, assume: str, draws: int) -> tuple[bool, Any]:
    """(witness found, the witness)."""
    source, target = compat_oracle.sides(old, new, role, assume)
    found, value = compat_oracle.witness(source, target)
    if found or draws <= 0:
        return found, value
    return compat_oracle.witness(source, target, compat_oracle.draws(source, draws))


def judge(pairs: Iterable[compat_edits.Pair], draws: int, tools: Iterable[str]) -> list[Verdict]:
    """Every tool's verdict on every pair in both roles, with the oracle's."""
    wanted = set(tools)
    out: list[Verdict] = []
    for pair in pairs:
        for role in ROLES:
            raw: tuple[bool, Any] | None = None
            for tool, assume in (
                ("toolgen", "declared"),
                ("toolgen --assume strict", "strict"),
                ("jsoncompat", "strict"),
            ):
                if tool.split()[0] not in wanted:
                    continue
                if tool == "jsoncompat":
                    breaks = jsoncompat_breaks(pair.old, pair.new, role)
                    if breaks is None:
                        continue
                else:
                    breaks = toolgen_breaks(pair.old, pair.new, role, Assume(assume))
                if assume == "strict":
                    raw = raw or oracle(pair.old, pair.new, role, "strict", draws)
                    found = raw[0]
                else:
                    found = oracle(pair.old, pair.new, role, "declared", draws)[0]
                out.append(Verdict(tool, pair.kind, breaks, found))
    return out


def table(verdicts: list[Verdict]) -> list[str]:
    """Markdown: per tool a summary row, then per tool and kind unsound / over-strict / agree."""
    groups: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        cell = "unsound" if v.witness and not v.breaking else "over" if v.breaking and not v.witness else "agree"
        if cell == "over" and v.kind in DELIBERATE:
            cell = "deliberate"
        groups[v.tool, v.kind][cell] += 1
        groups[v.tool, "(all kinds)"][cell] += 1
    lines = [
        "| tool | kind | role-pairs | unsound | over-strict | deliberate | agrees |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for (tool, kind), counts in sorted(
        groups.items(), key=lambda item: (item[0][0], item[0][1] != "(all kinds)", item[0][1])
    ):
        total = sum(counts.values())
        lines.append(f"| {tool} | {kind} | {total} | {counts['unsound']} | {counts['over']} | {counts['deliberate']} | "
                     f"{100 * counts['agree'] / total:.1f} % |")  # fmt: skip
    return lines


def select(per_kind: int) -> list[compat_edits.Pair]:
    """At most `per_kind` pairs of each kind, spread over the sample's files."""
    taken: Counter[str] = Counter()
    out = []
    for pair in compat_edits.make_pairs(compat_edits.sample_schemas(SAMPLE)):
        if taken[pair.kind] < per_kind:
            taken[pair.kind] += 1
            out.append(pair)
    return out


def main(argv: list[str] | None = None, echo: Callable[[str], Any] = print) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=12, help="pairs per kind of edit")
    parser.add_argument(
        "--draws", type=int, default=3, help="hypothesis-jsonschema draws where boundary values find nothing"
    )
    parser.add_argument("--tools", default="toolgen,jsoncompat", help="comma-separated: toolgen, jsoncompat")
    args = parser.parse_args(argv)
    pairs = select(args.per_kind)
    verdicts = judge(pairs, args.draws, args.tools.split(","))
    echo(f"{len(pairs)} pairs, {len(pairs) * len(ROLES)} role-pairs; deliberate kinds: {', '.join(sorted(DELIBERATE))}")
    for line in table(verdicts):
        echo(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
