"""`toolgen stats`: what the catalog costs in every request, per provider and per tool.

Bytes are the UTF-8 bytes of the compact JSON (`separators=(",", ":")`) of what the provider receives:
the whole tools parameter per provider, one declaration per tool. Tokens are an estimate from a
regex tokenizer, no network and no model files: every match of `TOKEN_PATTERN` (a run of up to 8
ASCII letters, a run of up to 3 digits, a run of whitespace, or any other single character,
including each non-ASCII character) counts as one token. Punctuation-heavy JSON makes bytes/4 too
low; this counts every brace and quote. It is not calibrated against a real tokenizer, and what a
model sees after the provider renders the tools differs again, so read it as a relative measure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from toolgen.render.providers import FILES, Projection

TOKEN_PATTERN = re.compile(r"[A-Za-z]{1,8}|[0-9]{1,3}|\s+|[^\sA-Za-z0-9]")
"""One match is one estimated token."""

ESTIMATOR = "regex tokenizer: runs of <=8 ASCII letters, <=3 digits, whitespace runs, other characters"


def compact(value: Any) -> str:
    """The compact JSON text of a value, as an SDK would send it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def estimate_tokens(text: str) -> int:
    """The estimated token count of `text` (see the module docstring)."""
    return len(TOKEN_PATTERN.findall(text))


@dataclass(frozen=True, slots=True)
class Size:
    """Bytes and estimated tokens of one piece of JSON."""

    bytes: int
    tokens: int

    @classmethod
    def of(cls, value: Any) -> Size:
        """Measure a JSON value."""
        text = compact(value)
        return cls(len(text.encode("utf-8")), estimate_tokens(text))


@dataclass(frozen=True, slots=True)
class Stats:
    """Sizes per provider file and per tool, each list largest first."""

    providers: tuple[tuple[str, int, Size], ...]
    tools: tuple[tuple[str, dict[str, Size]], ...]

    def to_json(self) -> dict[str, Any]:
        """The `--format json` document."""
        return {
            "estimator": ESTIMATOR,
            "providers": [
                {"provider": p.removesuffix(".json"), "tools": n, "bytes": s.bytes, "tokens": s.tokens}
                for p, n, s in self.providers
            ],
            "tools": [{"name": name, **_sizes(sizes)} for name, sizes in self.tools],
        }


def _sizes(sizes: dict[str, Size]) -> dict[str, Any]:
    return {p.removesuffix(".json"): {"bytes": s.bytes, "tokens": s.tokens} for p, s in sizes.items()}


def measure(projection: Projection) -> Stats:
    """Measure every provider payload and every tool declaration in it."""
    providers = [(p.file, len(p.tools), Size.of(p.document)) for p in projection.payloads]
    providers.sort(key=lambda row: (-row[2].bytes, FILES.index(row[0])))
    per_tool: dict[str, dict[str, Size]] = {}
    for payload in projection.payloads:
        for name, declaration in payload.tools.items():
            per_tool.setdefault(name, {})[payload.file] = Size.of(declaration)
    tools = sorted(per_tool.items(), key=lambda item: (-max(s.bytes for s in item[1].values()), item[0]))
    return Stats(tuple(providers), tuple(tools))


def render_text(stats: Stats) -> str:
    """A plain-text report: providers, then tools, largest first."""
    lines = [f"{'provider':<18} {'tools':>5} {'bytes':>11} {'~tokens':>10}"]
    for file, count, size in stats.providers:
        lines.append(f"{file.removesuffix('.json'):<18} {count:>5} {size.bytes:>11,} {size.tokens:>10,}")
    columns = [f.removesuffix(".json") for f in FILES]
    width = max([len("tool"), *(len(name) for name, _ in stats.tools)])
    lines += ["", f"{'tool':<{width}} " + " ".join(f"{c:>17}" for c in columns) + "   (bytes/~tokens)"]
    for name, sizes in stats.tools:
        cells = [f"{sizes[f].bytes:,}/{sizes[f].tokens:,}" if f in sizes else "-" for f in FILES]
        lines.append(f"{name:<{width}} " + " ".join(f"{c:>17}" for c in cells))
    lines += ["", f"tokens are estimated ({ESTIMATOR})"]
    return "\n".join(lines) + "\n"
