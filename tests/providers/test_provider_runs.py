"""Runs of tools: with a build cache the provider files are assembled from about 32 texts each, one
per run of consecutive tools, and one changed contract makes its own run again.

What a build from runs writes must be what a build without a cache writes, tools left out of a
file included; a run read back must be exactly the one written, and one of any other shape (even
under a valid seal, even another run's) is made again, never read wrong.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks import synth_catalog
from tests.build_support import generate_counting, run, seal, tree, unseal
from toolgen.catalog import contract_from_document
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.incremental import cache
from toolgen.incremental.executor import DECODE_ERRORS, RAW
from toolgen.render.providers import _SPECS, cached
from toolgen.thresholds import DEFAULT, Thresholds

COUNT = 70
"""Tools in the projects here: a few runs."""


def _contracts(names: list[str]) -> list[object]:
    return [contract_from_document(synth_catalog.contract(0) | {"name": name}, f"{name}.json") for name in names]


def test_a_run_ends_where_its_last_name_says_not_where_it_stands() -> None:
    names = [f"tool_{i:04d}" for i in range(400)]
    before = [tuple(c.name for c in g) for g in cached._grouped(_contracts(names), DEFAULT)]  # type: ignore[arg-type]
    assert [n for group in before for n in group] == names
    assert 4 <= len(before) <= 40 and all(len(group) <= DEFAULT.provider_run_max for group in before)
    added = sorted([*names, "tool_0200_new"])
    after = [tuple(c.name for c in g) for g in cached._grouped(_contracts(added), DEFAULT)]  # type: ignore[arg-type]
    changed = [group for group in after if group not in before]
    assert len(changed) == 1 and "tool_0200_new" in changed[0]  # only the run it falls in


def test_the_runs_follow_the_thresholds_set_on_the_settings() -> None:
    """How long a run is comes from `Settings.thresholds`, which a test sets (no constant patched)."""
    contracts = _contracts([f"tool_{i:04d}" for i in range(60)])
    short = [len(g) for g in cached._grouped(contracts, Thresholds(provider_run_max=4))]  # type: ignore[arg-type]
    alone = [len(g) for g in cached._grouped(contracts, Thresholds(provider_run=1))]  # type: ignore[arg-type]
    assert sum(short) == 60 and max(short) == 4 and len(short) >= 15
    assert alone == [1] * 60  # every name's hash is a multiple of 1: each tool ends its run


def _run() -> cached.Run:
    warning = Diagnostic("TG301", Severity.WARNING, "a warning", "contracts/x.json", "/input_schema")
    heads: list[dict[str, object]] = []
    texts: dict[str, list[str]] = {}
    for tool in range(3):
        head: dict[str, object] = {}
        for spec in _SPECS:
            files = [f for f in spec.files if not (tool == 1 and f == "gemini.json")]  # one left out of a file
            entries = {f: json.dumps({"name": f"t{tool}", "s": "é\n"}, indent=2) for f in files}
            head[spec.name] = {
                "files": files,
                "lengths": [len(t) for t in entries.values()],
                "diagnostics": [warning] if tool == 2 else [],
                "notes": [f"note {tool}"],
            }
            for file, text in entries.items():
                texts.setdefault(file, []).append(text)
        heads.append(head)
    joined = {file: cached.SEPARATOR.join(found) for file, found in texts.items()}
    return cached.Run(("t0", "t1", "t2"), tuple(heads), joined)


def test_a_run_reads_back_as_it_was_written_and_its_entries_cut_out_whole() -> None:
    made = _run()
    assert cached._decoded_run(cached._encode_run(made), _SPECS) == made
    entries = cached.RunEntries(cached.Places([made]), "Gemini", "gemini.json")
    assert list(entries) == ["t0", "t2"] and "t1" not in entries
    assert json.loads(entries["t2"].text) == {"name": "t2", "s": "é\n"}


@pytest.mark.parametrize("change", ["short", "long", "names", "heads", "lengths", "file"])
def test_a_run_of_another_shape_is_refused(change: str) -> None:
    line, _, body = cached._encode_run(_run()).partition("\n")
    data = json.loads(line)
    if change == "short":
        body = body[:-1]
    elif change == "long":
        body += "x"
    elif change == "names":
        data["names"] = data["names"][:2]
    elif change == "heads":
        data["heads"][0].pop("MCP")
    elif change == "lengths":
        data["heads"][0]["MCP"]["lengths"] = [data["heads"][0]["MCP"]["lengths"][0] + 1]
    elif change == "file":
        data["files"][0] = "other.json"
    with pytest.raises(DECODE_ERRORS):
        cached._decoded_run(json.dumps(data) + "\n" + body, _SPECS)


def _project(root: Path) -> list[str]:
    written = synth_catalog.write_catalog(root, COUNT)
    left_out = [Path(p).stem for p in written[5:40:7]]
    exclude = f"gemini = {json.dumps(left_out)}\nmcp = {json.dumps(left_out[:2])}\n"
    (root / "toolgen.toml").write_text(f'[rules]\nTG305 = "off"\n[providers.exclude]\n{exclude}', encoding="utf-8")
    return written


def _without_cache(root: Path) -> dict[str, bytes]:
    reference = root.parent / f"{root.name}-reference"
    shutil.rmtree(reference, ignore_errors=True)
    shutil.copytree(root / "contracts", reference / "contracts")
    shutil.copy(root / "toolgen.toml", reference / "toolgen.toml")
    assert run(reference, "build", "--no-cache")[0] == 0
    return tree(reference / "generated")


def _changed(root: Path, written: list[str], index: int) -> None:
    path = root / written[index]
    if path.suffix == ".json":
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["description"] += " Changed."
        path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    else:
        path.write_text(path.read_text(encoding="utf-8").replace('description = "', 'description = "Changed. ', 1))


def test_a_build_from_runs_writes_what_a_build_without_a_cache_writes(tmp_path: Path) -> None:
    root = tmp_path / "p"
    written = _project(root)
    assert run(root, "build")[0] == 0
    assert tree(root / "generated") == _without_cache(root)
    for index in (12, 26, 33):  # tools left out of a file among them
        _changed(root, written, index)
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr
    assert tree(root / "generated") == _without_cache(root)


def test_a_run_swapped_for_another_under_a_valid_seal_is_made_again(tmp_path: Path) -> None:
    root = tmp_path / "p"
    written = _project(root)
    assert run(root, "build")[0] == 0
    entries = sorted((root / cache.CACHE_DIR).rglob("provider-runs/*/*"))
    assert len(entries) >= 2
    texts = [unseal(p.name, p.read_bytes()) for p in entries]
    assert all(t is not None and t.startswith(RAW) for t in texts)
    for path, text in zip(entries, [*texts[1:], texts[0]], strict=True):
        path.write_bytes(seal(path.name, str(text)))  # each sealed as toolgen seals it
    (root / cache.CACHE_DIR / "state.json").unlink()
    _changed(root, written, 3)
    code, stdout, stderr = run(root, "build")
    assert code == 0, stdout + stderr
    assert tree(root / "generated") == _without_cache(root)


def test_the_parts_of_runs_read_back_whole_are_kept_for_their_next_change(tmp_path: Path) -> None:
    """A run read back leaves its tools' parts unread; pruning keeps them, so the next change in
    that run declares one tool again, not the whole run."""
    root = tmp_path / "p"
    written = _project(root)
    generate_counting(root, prune=True)
    groups = list(cached._grouped(_contracts(sorted(Path(p).stem for p in written)), DEFAULT))  # type: ignore[arg-type]
    assert len(groups) >= 2
    for group in (groups[-1], groups[-2]):  # a change in one run, then in another
        _changed(root, written, [Path(p).stem for p in written].index(group[0].name))
        store = generate_counting(root, prune=True)
        assert (store.missed.get("providers"), store.missed.get("provider-runs")) == (1, 1)
