"""The benchmark and its synthetic catalog work (at a tiny size; no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import REPO, synth_catalog
from toolgen.cli import main


def test_synthetic_catalog_is_deterministic_and_valid(tmp_path: Path) -> None:
    first = synth_catalog.write_catalog(tmp_path / "a", 12)
    second = synth_catalog.write_catalog(tmp_path / "b", 12)
    assert first == second
    for rel in first:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
    assert any(r.endswith(".toml") for r in first) and any(r.endswith(".json") for r in first)
    assert synth_catalog.contract(5) == synth_catalog.contract(5)
    result = CliRunner().invoke(main, ["-C", str(tmp_path / "a"), "validate", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == []  # not even a review warning


def test_synthetic_contracts_cover_the_realistic_shapes() -> None:
    docs = [synth_catalog.contract(i) for i in range(60)]
    text = json.dumps(docs)
    assert '"enum"' in text and '"$ref"' in text and '["string", "null"]' in text
    assert any("output_schema" in d for d in docs) and any("output_schema" not in d for d in docs)
    assert any(p.get("type") == "array" and p["items"].get("type") == "object" for d in docs for p in _props(d))
    assert any(p.get("type") == "object" for d in docs for p in _props(d))
    assert all(d["errors"] and d["examples"] for d in docs)


def test_the_benchmark_edits_keep_a_contract_valid_and_change_what_they_say(tmp_path: Path) -> None:
    """`change_one`'s two edits: a description (patch bump) and a new input property (minor bump)."""
    from benchmarks import runs
    from toolgen.config import load_settings
    from toolgen.pipeline import stages

    project = runs.new_project(tmp_path, "p", 4)
    runs.change_one(project, 2, 1, "description")
    runs.change_one(project, 3, 1, "property")
    settings, _ = load_settings(project)
    catalog, problems, _ = stages.load_catalog(settings)
    assert catalog is not None and not [p for p in problems if p.is_error]
    edited = {c.name: c for c in catalog}
    described, widened = synth_catalog.contract(2), synth_catalog.contract(3)
    assert edited[described["name"]].description.endswith("Revised note 1.")
    assert "revision_note_1" in edited[widened["name"]].input_schema["properties"]
    assert edited[widened["name"]].version.split(".")[1] == str(int(widened["version"].split(".")[1]) + 1)


def _props(doc: dict[str, object]) -> list[dict[str, object]]:
    schema = doc["input_schema"]
    assert isinstance(schema, dict)
    return list(schema["properties"].values())


def _benchmark(module: str, *args: str, timeout: float = 600) -> str:
    """What `python -m benchmarks.MODULE ARGS` prints, run from the checkout (it must exit 0)."""
    command = [sys.executable, "-m", f"benchmarks.{module}", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=timeout, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_benchmark_runs_end_to_end_at_a_tiny_size(tmp_path: Path) -> None:
    report = tmp_path / "bench.json"
    out = _benchmark("bench_build", "--sizes", "3", "6", "--cli-runs", "1", "--repeat", "1", "--json", str(report))
    assert "| toolgen cold build, 3 contracts |" in out
    assert "| no-change build |" in out and "| one description edited |" in out
    assert "| one property added |" in out
    figures = json.loads(report.read_text())
    assert figures["verified_files"] > 6  # the incremental output was compared with a cold build
    assert set(figures["anchors"]) >= {"generate_default", "generate_none", "cli_per_contract"}
    assert figures["cold_large"]["peak_mb"] > 0
    assert figures["description"]["seconds"] > 0 and figures["property"]["seconds"] > 0


def test_every_benchmark_imports_as_a_module_of_the_package() -> None:
    """Each script runs as `python -m benchmarks.NAME`: an import that assumes the folder is on sys.path fails here."""
    import importlib
    import pkgutil

    import benchmarks

    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__))
    assert {"bench_build", "bench_floor", "bench_nochange", "bench_enforce", "mutation", "conformance"} <= set(names)
    for name in names:
        importlib.import_module(f"benchmarks.{name}")


def test_the_floor_report_gives_each_figure_against_the_interpreter_and_its_target() -> None:
    from benchmarks import bench_floor

    lines = bench_floor.report({"interpreter": 0.02, "description edit imports": 0.25, "property edit adds": 0.7})
    rows = {line[:28].strip(): line[28:].split() for line in lines[1:]}
    assert rows["interpreter"] == ["0.020", "1.0"]
    assert rows["description edit imports"] == ["0.250", "12.5", "50%"]
    assert rows["property edit adds"] == ["0.700", "35.0", "100%"]


def test_the_watch_table_gives_medians_their_ratio_and_the_target_only_at_its_size() -> None:
    from benchmarks import bench_watch

    times = {"description": ([1.0, 0.9, 1.2], [0.4, 0.6, 0.3]), "property": ([2.0], [0.8])}
    rows = [line.split(" | ") for line in bench_watch.table(times, 1000)[2:]]
    assert rows[0][1:] == ["1.000 s", "0.400 s", "0.40", "<= 0.5 s", "yes |"]
    assert rows[1][1:] == ["2.000 s", "0.800 s", "0.40", "<= 0.7 s", "no |"]
    assert bench_watch.table(times, 200)[2].endswith("| - |")


@pytest.mark.slow
def test_the_watch_benchmark_runs() -> None:
    """A watch child is started, sees each edit, and stops: both figures come out."""
    out = _benchmark("bench_watch", "--size", "4", "--repeat", "1")
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith(("| description", "| property"))]
    assert [row[0] for row in rows] == ["| description", "| property"]
    assert all(float(row[2].removesuffix(" s")) > 0 for row in rows)


@pytest.mark.slow
def test_the_floor_benchmark_runs() -> None:
    """Each child program runs (the imports exist, datamodel-code-generator's call is right)."""
    out = _benchmark("bench_floor", "--rounds", "1", timeout=300)
    rows = {line[:28].strip(): line[28:].split() for line in out.splitlines()[1:]}
    assert set(rows) == {"interpreter", "description edit imports", "property edit adds"}
    assert float(rows["description edit imports"][0]) > float(rows["interpreter"][0]) > 0
