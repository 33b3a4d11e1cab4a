"""Benchmark `toolgen build` / `check` against datamodel-code-generator, all in one run.

    .venv/bin/python -m benchmarks.bench_build                      # 1,000 and 10,000 contracts
    .venv/bin/python -m benchmarks.bench_build --sizes 200 --skip-10k --cli-runs 10   # a quick look

For the base size (default 1,000) it writes a synthetic catalog (`synth_catalog.py`) into a fresh
temporary project and times, each as a child process (`python -m toolgen`, every target on):
a cold build (no output, no cache), a no-change build, `toolgen check`, a build after one
description edited and one after a property added to one input schema (`runs.change_one`), each
the median of `--repeat` runs (after one `toolgen --version`, which compiles toolgen's bytecode as
installing it does: `runs.child_environment`); peak memory is the largest max RSS of the child or any
process it forked (`os.wait4`). Then a cold build of the large size (default 10,000). In the same
run it times the anchors over the same tools (input and output schemas): datamodel-code-generator's
in-process `generate()` in one call, with its default formatters and with none (only the call is
timed, in a fresh child; the median of `--repeat` runs), and the `datamodel-codegen` CLI once per
contract for `--cli-runs` contracts (their mean), extrapolated to the base size. Unless
`--no-verify`, the incrementally built output is compared byte for byte with a fresh cold build.
Each figure is printed with its target and ratio; the exit code is 1 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from benchmarks import REPO, synth_catalog
from benchmarks.anchors import anchor_schema, child_generate, tool_defs
from benchmarks.runs import (
    EDITS,
    ENV,
    PYTHON,
    Report,
    Row,
    Run,
    change_one,
    expect,
    machine,
    median_run,
    new_project,
    run_child,
    toolgen,
    tree_bytes,
)

CODEGEN = str(Path(sys.executable).parent / "datamodel-codegen")

TARGETS = {"nochange": 0.15, "description": 0.5, "property": 0.7, "cold_vs_generate": 0.5, "large_vs_cold": 11.0}
"""Issue 32's targets at the base size (seconds) and the ratios the cold builds must stay under."""


def bench_toolgen(base: Path, count: int, repeat: int, verify: bool, report: Report) -> dict[str, Run]:
    """Cold, no-change, check, description-edited and property-added runs at the base size."""
    project = new_project(base, f"toolgen-{count}", count)
    runs: dict[str, Run] = {}
    # compile toolgen's bytecode first, as installing it does: the first cold build must not pay for it
    expect(toolgen(project, "--version"), "warm-up", report)
    print(f"  toolgen cold build of {count} (median of {repeat}) ...", flush=True)
    cold: list[Run] = []
    for _ in range(repeat):
        shutil.rmtree(project / "generated", ignore_errors=True)
        shutil.rmtree(project / ".toolgen-cache", ignore_errors=True)
        cold.append(expect(toolgen(project, "build"), "cold build", report))
    runs["cold"] = median_run(cold)
    runs["nochange"] = median_run([expect(toolgen(project, "build"), "no-change build", report) for _ in range(repeat)])
    runs["check"] = median_run([expect(toolgen(project, "check"), "check", report) for _ in range(repeat)])
    for edit in EDITS:
        changed: list[Run] = []
        for step in range(1, repeat + 1):
            change_one(project, (count * step) // (repeat + 1), step, edit)
            changed.append(expect(toolgen(project, "build"), f"{edit} edited build", report))
        runs[edit] = median_run(changed)
    if verify:
        runs["verify"] = verify_identical(project, base / f"fresh-{count}", report)
    return runs


def verify_identical(project: Path, fresh: Path, report: Report) -> Run:
    """Copy the contracts to a new project, build cold, and compare the output trees byte for byte."""
    fresh.mkdir()
    shutil.copytree(project / "contracts", fresh / "contracts")
    shutil.copy(project / "toolgen.toml", fresh / "toolgen.toml")
    run = expect(toolgen(fresh, "build"), "verification cold build", report)
    incremental, cold = tree_bytes(project / "generated"), tree_bytes(fresh / "generated")
    if incremental != cold:
        differ = sorted(p for p in set(incremental) | set(cold) if incremental.get(p) != cold.get(p))
        report.failed.append(f"incremental output differs from a cold build in {len(differ)} files: {differ[:5]}")
    report.raw["verified_files"] = len(cold)
    return run


def bench_anchors(base: Path, count: int, cli_runs: int, report: Report, repeat: int = 1) -> dict[str, float]:
    """datamodel-code-generator: generate() with and without formatters (median of `repeat` runs, as
    toolgen's cold build), and its CLI per contract (the mean of `cli_runs` runs)."""
    schema_path = base / "anchor.json"
    schema_path.write_text(json.dumps(anchor_schema(count)), encoding="utf-8")
    figures: dict[str, float] = {}
    for mode in ("default", "none"):
        print(f"  datamodel-code-generator generate() over {count} tools, formatters={mode} ...", flush=True)
        times: list[float] = []
        peak = 0.0
        for _ in range(repeat):
            args = [PYTHON, "-m", "benchmarks.bench_build", "--child-generate", str(schema_path), mode]
            run = expect(run_child(args, cwd=REPO), f"generate {mode}", report)
            times.append(json.loads(run.stdout)["seconds"] if run.returncode == 0 else float("nan"))
            peak = max(peak, run.peak_mb)
        figures[f"generate_{mode}"] = sorted(times)[len(times) // 2]
        figures[f"generate_{mode}_peak_mb"] = peak
    print(f"  datamodel-codegen CLI x {cli_runs} ...", flush=True)
    folder = base / "cli"
    folder.mkdir()
    total = 0.0
    for index in range(cli_runs):
        source = folder / f"tool_{index}.json"
        source.write_text(json.dumps({"$defs": tool_defs(synth_catalog.contract(index))}), encoding="utf-8")
        args = [CODEGEN, "--input", str(source), "--input-file-type", "jsonschema"]
        args += ["--output-model-type", "pydantic_v2.BaseModel", "--disable-timestamp"]
        args += ["--output", str(folder / f"tool_{index}.py")]
        total += expect(run_child(args), "datamodel-codegen CLI", report).seconds
    figures["cli_per_contract"] = total / max(cli_runs, 1)
    figures["cli_extrapolated"] = figures["cli_per_contract"] * count
    return figures


def ratio_row(figure: str, value: float, limit: float, target: str, unit: str = "s") -> Row:
    """A row whose ratio is value / limit (<= 1.0 passes)."""
    ratio = value / limit if limit else float("inf")
    return Row(figure, f"{value:.2f} {unit}", target, f"{ratio:.2f}", ratio <= 1.0)


def build_rows(count: int, large: int | None, runs: dict[str, Run], anchors: dict[str, float], report: Report) -> None:
    """Turn the measurements into table rows with their targets."""
    rows = report.rows
    cold, nochange = runs["cold"].seconds, runs["nochange"].seconds
    if anchors:
        rows.extend(anchor_rows(count, cold, anchors, runs["cold"].peak_mb))
    else:
        rows.append(Row(f"toolgen cold build, {count} contracts", _s(cold)))
    rows.append(ratio_row("no-change build", nochange, TARGETS["nochange"], "<= 0.15 s"))
    rows.append(
        ratio_row("toolgen check (nothing changed)", runs["check"].seconds, 1.5 * nochange, "<= 1.5 x no-change")
    )
    rows.append(ratio_row("one description edited", runs["description"].seconds, TARGETS["description"], "<= 0.5 s"))
    rows.append(ratio_row("one property added", runs["property"].seconds, TARGETS["property"], "<= 0.7 s"))
    if large is not None and "cold_large" in runs:
        big = runs["cold_large"]
        limit = TARGETS["large_vs_cold"]
        rows.append(ratio_row(f"toolgen cold build, {large} contracts", big.seconds, limit * cold, "<= 11 x cold"))
        rows.append(ratio_row(f"peak memory, cold build of {large}", big.peak_mb, 400, "<= 400 MB", "MB"))
        rows.append(memory_growth_row(count, large, runs["cold"].peak_mb, big.peak_mb))
    peak = max(r.peak_mb for r in runs.values())
    rows.append(ratio_row("peak memory, any toolgen run above", peak, 400, "<= 400 MB", "MB"))


def memory_growth_row(count: int, large: int, base_mb: float, large_mb: float) -> Row:
    """Peak memory of the large cold build against the base one (the same run), with the growth per
    contract and where it leads at 10,000 contracts (the 400 MB target)."""
    per = (large_mb - base_mb) / max(large - count, 1)
    at_10k = large_mb + per * (10000 - large)
    figure = f"peak memory growth, {count} -> {large} contracts ({per * 1000:.1f} MB per 1,000)"
    return Row(figure, f"{large_mb / base_mb:.2f} x", f"<= 400 MB at 10,000 ({at_10k:.0f} MB)", "", at_10k <= 400)


def anchor_rows(count: int, cold: float, anchors: dict[str, float], peak_mb: float) -> list[Row]:
    """The anchors' rows, and toolgen's cold build against them."""
    per = anchors["cli_per_contract"]
    speedup = anchors["cli_extrapolated"] / cold
    return [
        Row(f"datamodel-code-generator generate(), default formatters, {count} tools", _s(anchors["generate_default"])),
        Row(f"datamodel-code-generator generate(), no formatters, {count} tools", _s(anchors["generate_none"])),
        Row(f"datamodel-codegen CLI per contract ({per:.2f} s each) x {count}", _s(anchors["cli_extrapolated"])),
        ratio_row(
            f"toolgen cold build, {count} contracts",
            cold,
            TARGETS["cold_vs_generate"] * anchors["generate_default"],
            "<= 0.5 x generate() default",
        ),
        ratio_row(
            f"toolgen cold build peak memory, {count} contracts",
            peak_mb,
            anchors.get("generate_default_peak_mb", 0.0),
            "<= 1.0 x generate() default's peak",
            "MB",
        ),
        Row("speed-up over the CLI per contract", f"{speedup:.1f} x", ">= 50 x", f"{50 / speedup:.2f}", speedup >= 50),
    ]


def _s(seconds: float) -> str:
    return f"{seconds:.2f} s"


def print_table(report: Report) -> None:
    """The result as a Markdown table (pasted into README.md)."""
    print("\n| figure | measured | target | ratio | pass |")
    print("|---|---:|---|---:|---|")
    for row in report.rows:
        verdict = "" if row.ok is None else ("yes" if row.ok else "**no**")
        print(f"| {row.figure} | {row.value} | {row.target} | {row.ratio} | {verdict} |")


def resume(path: Path, report: Report) -> tuple[dict[str, Run], dict[str, float]]:
    """The base-size runs and anchors recorded by an earlier `--json` (same machine, run just before)."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    runs = {
        name: Run(figure["seconds"], figure["peak_mb"], 0, "", "")
        for name, figure in recorded.items()
        if isinstance(figure, dict) and "seconds" in figure and name != "cold_large"
    }
    report.raw["resumed_from"] = str(path)
    report.raw["verified_files"] = recorded.get("verified_files")
    return runs, dict(recorded.get("anchors", {}))


def arguments() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000], help="base size [large size]")
    parser.add_argument("--skip-10k", action="store_true", help="skip the large catalog")
    parser.add_argument("--skip-anchors", action="store_true", help="time toolgen only")
    parser.add_argument("--cli-runs", type=int, default=50, help="datamodel-codegen CLI runs to extrapolate from")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each measurement but the large build and the CLI (median)"
    )
    parser.add_argument("--no-verify", action="store_true", help="skip the byte-for-byte check against a cold build")
    parser.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects")
    parser.add_argument(
        "--toolgen-path",
        type=Path,
        nargs="+",
        help="run toolgen from this folder (a snapshot: `git archive HEAD toolgen templates`); with two "
        "or more, time them in turns and print ratios to the first (`bench_compare`)",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        help="take the base-size figures from the --json file of an earlier run and time only the large build",
    )
    parser.add_argument("--child-generate", nargs=2, help=argparse.SUPPRESS)
    return parser


def main() -> int:
    """Run the benchmark and print the table."""
    args = arguments().parse_args()
    if args.child_generate:
        child_generate(*args.child_generate)
        return 0
    if args.toolgen_path and len(args.toolgen_path) > 1:
        from benchmarks import bench_compare

        return bench_compare.compare(args.toolgen_path, args.sizes, args.repeat, args.skip_10k)
    if args.toolgen_path:
        ENV["PYTHONPATH"] = str(args.toolgen_path[0].resolve())
    count = args.sizes[0]
    large = None if args.skip_10k or len(args.sizes) < 2 else args.sizes[1]
    report = Report()
    base = Path(tempfile.mkdtemp(prefix="toolgen-bench-"))
    print(f"machine: {machine()}\nworking in {base}", flush=True)
    try:
        if args.resume:
            runs, anchors = resume(args.resume, report)
        else:
            runs = bench_toolgen(base, count, args.repeat, not args.no_verify, report)
            cli_runs = min(args.cli_runs, count)
            anchors = {} if args.skip_anchors else bench_anchors(base, count, cli_runs, report, args.repeat)
        if large is not None:
            print(f"  toolgen cold build of {large} ...", flush=True)
            runs["cold_large"] = expect(
                toolgen(new_project(base, f"toolgen-{large}", large), "build"), "large build", report
            )
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    build_rows(count, large, runs, anchors, report)
    report.raw.update({k: {"seconds": r.seconds, "peak_mb": r.peak_mb} for k, r in runs.items()})
    report.raw["anchors"] = anchors
    report.raw["machine"] = machine()
    print_table(report)
    print(f"\nmachine: {machine()}")
    print("command: .venv/bin/python benchmarks/bench_build.py " + " ".join(sys.argv[1:]))
    if args.json:
        args.json.write_text(json.dumps(report.raw, indent=2) + "\n", encoding="utf-8")
    for failure in report.failed:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
