"""What a build cache keeps of the providers: each tool's part, and runs of consecutive tools.

With a build cache, every provider that declares each tool alone (`Spec.independent`) is assembled
from cached pieces, each decided by the contracts it is made from, the settings and the providers.

- A tool's part: its entry in each file (already encoded), its diagnostics and its notes.
- A run: about 32 consecutive tools of the catalog (`Thresholds.provider_run`), each file's
  entries of them already joined, so that a file of 1,000 tools is assembled from about 32 texts
  (`Run.texts`: a list's items joined by ",\\n" at the top level are placed by `jsontext` as one
  `Raw`). One changed contract makes its run again, from its tools' parts; a run read back names
  its tools' parts (`remade_from`), which stay unread for the next change.

Where a run ends is decided by the name of its last tool (a hash), not by its position: a tool
added or removed changes the run it falls in, not the runs after it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.catalog import Contract
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic
from toolgen.render import jsontext
from toolgen.render.context import Executor
from toolgen.render.providers.common import ProviderResult, Spec
from toolgen.render.units import Values, batch, never
from toolgen.thresholds import Thresholds

SEPARATOR = ",\n"
"""Between two entries of a run's text: what `json.dumps(indent=2)` writes between list items, at
the top level (`jsontext` indents it with the entries to where the run sits)."""


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive tools of the catalog: their names, each tool's head (per provider: the files it
    is in, the length of its entry in each, its diagnostics and notes), and per file the tools'
    entries joined by `SEPARATOR`, in order (a file none of them is in has no text)."""

    names: tuple[str, ...]
    heads: tuple[Mapping[str, Any], ...]
    texts: Mapping[str, str]


def shared_key(settings: Settings, specs: Sequence[Spec]) -> tuple[str, ...]:
    """What every tool's part is keyed on: the settings and the providers (once: 1,000 tools, one
    fingerprint)."""
    return (settings.fingerprint(), *(spec.name for spec in specs))


def part_key(shared: tuple[str, ...], contract: Contract) -> tuple[str, ...]:
    """What decides one tool's part: `shared`, and its contract and file."""
    return (shared[0], contract.source, contract.digest, *shared[1:])


def runs(contracts: Sequence[Contract], settings: Settings, specs: Sequence[Spec], executor: Executor) -> list[Run]:
    """The runs of `contracts` (the catalog, in order), each read back or made from its tools' parts
    (a run read back keeps its tools' parts, unread: its next change makes it from them)."""
    shared = shared_key(settings, specs)
    groups = list(_grouped(contracts, settings.thresholds))
    parts = _parts(settings, specs, never)
    found = executor.run(
        Values(
            "provider-runs",
            depends_on=lambda group: (*shared, *(f"{c.source}\0{c.digest}" for c in group)),
            make=batch(lambda group: _made(group, settings, specs, executor)),
            encode=_encode_run,
            decode=lambda text: _decoded_run(text, specs),
            raw=True,
            remade_from=lambda group: [(parts, c) for c in group],
            resident=True,  # a run is read, never changed
        ),
        groups,
    )
    return [
        run if run.names == tuple(c.name for c in group) else _made(group, settings, specs, executor)
        for group, run in zip(groups, found, strict=True)
    ]


def _grouped(contracts: Sequence[Contract], thresholds: Thresholds) -> Iterator[Sequence[Contract]]:
    start, ends_at, longest = 0, thresholds.provider_run, thresholds.provider_run_max
    for index, contract in enumerate(contracts):
        ends = int.from_bytes(hashlib.sha256(contract.name.encode()).digest()[:4], "big") % ends_at == 0
        if ends or index + 1 - start >= longest:
            yield contracts[start : index + 1]
            start = index + 1
    if start < len(contracts):
        yield contracts[start:]


def _made(group: Sequence[Contract], settings: Settings, specs: Sequence[Spec], executor: Executor) -> Run:
    """The run of `group`, from its tools' parts (read back, or made)."""
    heads: list[dict[str, Any]] = []
    texts: dict[str, list[str]] = {}
    for part in tool_parts(group, settings, specs, executor):
        head: dict[str, Any] = {}
        for spec in specs:
            mine = part[spec.name]
            entries: Mapping[str, str] = mine["entries"]
            head[spec.name] = {
                "files": list(entries),
                "lengths": [len(text) for text in entries.values()],
                "diagnostics": mine["diagnostics"],
                "notes": mine["notes"],
            }
            for file, text in entries.items():
                texts.setdefault(file, []).append(text)
        heads.append(head)
    joined = {file: SEPARATOR.join(found) for file, found in texts.items()}
    return Run(tuple(c.name for c in group), tuple(heads), joined)


def tool_parts(
    contracts: Sequence[Contract], settings: Settings, specs: Sequence[Spec], executor: Executor
) -> list[dict[str, Any]]:
    """Each tool's part: per provider its entries by file (encoded), diagnostics and notes."""

    def compute(todo: Sequence[Contract]) -> list[dict[str, Any]]:
        makers = [(spec, spec.tools(settings)) for spec in specs]
        made: list[dict[str, Any]] = []
        for contract in todo:
            part: dict[str, Any] = {}
            for spec, make in makers:
                out = ProviderResult()
                entries = make(contract, out)
                part[spec.name] = {
                    "entries": {file: jsontext.encode(entry).text for file, entry in entries.items()},
                    "diagnostics": list(out.diagnostics),
                    "notes": out.notes.get(contract.name, []),
                }
            made.append(part)
        return made

    return executor.run(_parts(settings, specs, compute), list(contracts))


def _parts(
    settings: Settings, specs: Sequence[Spec], compute: Callable[[Sequence[Contract]], list[dict[str, Any]]]
) -> Values[Contract, dict[str, Any]]:
    """The tools' parts as units: each made from its contract and file, the settings and the specs
    (`compute`: `units.never` where they are only named, never made)."""
    shared = shared_key(settings, specs)
    return Values(
        "providers",
        depends_on=lambda c: part_key(shared, c),
        make=compute,
        encode=encode_part,
        decode=lambda text: decoded_part(text, specs),
        raw=True,
    )


def _head_json(head: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: {**mine, "diagnostics": [d.as_json() for d in mine["diagnostics"]], "notes": list(mine["notes"])}
        for name, mine in head.items()
    }


def encode_part(part: Mapping[str, Any]) -> str:
    """A tool part as one text: a line of JSON with each provider's diagnostics, notes and the
    length of each of its entries, then the entries' texts as they are. The texts are JSON already;
    escaped again into JSON strings, reading 1,000 parts back cost more than assembling the files."""
    head: dict[str, Any] = {}
    for name, mine in part.items():
        head[name] = {
            "files": list(mine["entries"]),
            "lengths": [len(text) for text in mine["entries"].values()],
            "diagnostics": [d.as_json() for d in mine["diagnostics"]],
            "notes": mine["notes"],
        }
    texts = "".join(text for mine in part.values() for text in mine["entries"].values())
    return json.dumps(head, ensure_ascii=False, separators=(",", ":")) + "\n" + texts


def decoded_part(text: str, specs: Sequence[Spec]) -> dict[str, Any]:
    """A cached tool part (`encode_part`), checked to have every provider's entries, diagnostics and
    notes, its texts exactly filling the rest, its diagnostics made objects once (a part of any other
    shape is a miss, never a crash later)."""
    line, newline, body = text.partition("\n")
    head = json.loads(line)
    if not newline or not isinstance(head, dict) or not all(_is_head(head.get(spec.name), spec) for spec in specs):
        raise TypeError("a cached provider entry is not of the shape toolgen stores")
    part: dict[str, Any] = {}
    start = 0
    for name, mine in head.items():  # the texts follow in the order the line lists them
        entries: dict[str, str] = {}
        for file, length in zip(mine["files"], mine["lengths"], strict=True):
            entries[file], start = body[start : start + length], start + length
        # from_json raises on a malformed diagnostic, which makes the entry a miss too
        found = [Diagnostic.from_json(d) for d in mine["diagnostics"]]
        part[name] = {"entries": entries, "diagnostics": found, "notes": mine["notes"]}
    if start != len(body) or len(part) != len(specs):
        raise ValueError("a cached provider entry's texts do not fill it")
    return part


def _encode_run(run: Run) -> str:
    """A run as one text: a line of JSON (the names, each tool's head, each file's text length),
    then the files' texts as they are."""
    files = sorted(run.texts)
    line = {"names": list(run.names), "heads": [_head_json(h) for h in run.heads], "files": files}
    line["lengths"] = [len(run.texts[file]) for file in files]
    return json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" + "".join(run.texts[f] for f in files)


def _decoded_run(text: str, specs: Sequence[Spec]) -> Run:
    """A cached run (`_encode_run`), checked whole: every head of the shape a part has, each file's
    text exactly its tools' entries and separators (a run of any other shape is a miss)."""
    line, newline, body = text.partition("\n")
    data = json.loads(line)
    if not newline or not isinstance(data, dict):
        raise TypeError("a cached provider run is not of the shape toolgen stores")
    names, heads, files, lengths = (data.get(k) for k in ("names", "heads", "files", "lengths"))
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise TypeError("a cached provider run names no tools")
    if not isinstance(heads, list) or len(heads) != len(names) or not all(_is_run_head(h, specs) for h in heads):
        raise TypeError("a cached provider run's heads are not of the shape toolgen stores")
    if not isinstance(files, list) or not isinstance(lengths, list) or len(files) != len(lengths):
        raise TypeError("a cached provider run's files are not listed")
    texts, start = {}, 0
    for file, length in zip(files, lengths, strict=True):
        if not isinstance(file, str) or type(length) is not int or length < 0:
            raise TypeError("a cached provider run's files are not listed")
        texts[file], start = body[start : start + length], start + length
    if start != len(body) or sorted(texts) != _filled(heads, specs, texts):
        raise ValueError("a cached provider run's texts do not fill it")
    return Run(tuple(names), tuple(_decoded_head(h) for h in heads), texts)


def _decoded_head(head: Mapping[str, Any]) -> dict[str, Any]:
    """A run's head of one tool with its diagnostics made objects (a malformed one raises: a miss)."""
    return {
        name: {**mine, "diagnostics": [Diagnostic.from_json(d) for d in mine["diagnostics"]]}
        for name, mine in head.items()
    }


def _is_run_head(head: Any, specs: Sequence[Spec]) -> bool:
    return isinstance(head, dict) and len(head) == len(specs) and all(_is_head(head.get(s.name), s) for s in specs)


def _filled(heads: Sequence[Mapping[str, Any]], specs: Sequence[Spec], texts: Mapping[str, str]) -> list[str]:
    """The files the heads put entries in, each checked to be as long as its entries and their
    separators (ValueError otherwise)."""
    sizes: dict[str, list[int]] = {}
    for head in heads:
        for spec in specs:
            for file, length in zip(head[spec.name]["files"], head[spec.name]["lengths"], strict=True):
                sizes.setdefault(file, []).append(length)
    for file, found in sizes.items():
        if file not in texts or len(texts[file]) != sum(found) + len(SEPARATOR) * (len(found) - 1):
            raise ValueError("a cached provider run's text is not its tools' entries")
    return sorted(sizes)


def _is_head(value: Any, spec: Spec) -> bool:
    if not isinstance(value, dict):
        return False
    files, lengths, diagnostics, notes = (value.get(k) for k in ("files", "lengths", "diagnostics", "notes"))
    if not isinstance(files, list) or not isinstance(lengths, list) or len(files) != len(lengths):
        return False
    if not all(file in spec.files for file in files) or len(set(files)) != len(files):
        return False
    if not all(type(n) is int and n >= 0 for n in lengths):
        return False
    return isinstance(diagnostics, list) and isinstance(notes, list) and all(isinstance(n, str) for n in notes)


class Places:
    """Where each tool of `runs` is: its run and its position in it (found once, for every file)."""

    def __init__(self, runs: Sequence[Run]) -> None:
        self.runs = runs
        self._found: dict[str, tuple[Run, int]] | None = None

    def of(self, name: str) -> tuple[Run, int] | None:
        """The run of the tool `name` and its position there, or None."""
        if self._found is None:
            self._found = {name: (run, i) for run in self.runs for i, name in enumerate(run.names)}
        return self._found.get(name)


class RunEntries(Mapping[str, jsontext.Raw]):
    """One file's entries of every tool in the runs, by tool name, each cut from its run's text
    when asked for (the docs ask only for the pages they make again)."""

    def __init__(self, places: Places, spec: str, file: str) -> None:
        self._places = places
        self._spec = spec
        self._file = file

    def _span(self, name: str) -> tuple[str, int, int] | None:
        """The text of the run holding `name`'s entry, where the entry starts and its length."""
        place = self._places.of(name)
        if place is None:
            return None
        run, position = place
        start, file = 0, self._file
        for index, head in enumerate(run.heads[: position + 1]):
            mine = head[self._spec]
            length = mine["lengths"][mine["files"].index(file)] if file in mine["files"] else None
            if index == position:
                return (run.texts[file], start, length) if length is not None else None
            if length is not None:
                start += length + len(SEPARATOR)
        return None

    def __getitem__(self, name: str) -> jsontext.Raw:
        span = self._span(name)
        if span is None:
            raise KeyError(name)
        text, start, length = span
        return jsontext.Raw(text[start : start + length])

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._span(name) is not None

    def __iter__(self) -> Iterator[str]:
        return (name for run in self._places.runs for name in run.names if name in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)
