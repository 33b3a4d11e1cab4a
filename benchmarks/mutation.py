"""Mutation testing of the modules whose promises matter most, with mutmut, in a scratch copy.

Not part of the test suite. Each module group is run in its own copy of the checkout (so `mutants/`
and mutmut's state never land in the work tree), with the fast tests that cover it, under a time
budget, and the surviving mutants are printed per module:

    nice -n 15 .venv/bin/python benchmarks/mutation.py                 # every group
    nice -n 15 .venv/bin/python benchmarks/mutation.py catalog compat  # some groups
    .venv/bin/python benchmarks/mutation.py --list                     # the groups and their tests

`--budget` is the wall time per group in seconds (default 420: the groups fit a few minutes each on
2 cores); a group cut short says so and reports what it finished (`not checked`: never run).
`--resume --workdir DIR` goes on where a cut run in DIR stopped (a mutmut group run in pieces): the
verdicts stand, the survivors are tried again with the current tests. `--show`
prints each survivor's diff; `--without TEST` leaves a test file out, to measure what it kills.

The registry's schema walks are runtime modules that every build copies byte for byte into the
generated package, so mutmut's trampoline (which imports mutmut) must not sit in them: group `walks`
is `toolgen/runtime/_schemas.py` (null-dropping, error messages), group `redact` is
`toolgen/runtime/_redact.py` (the secrets walk), each `in_file`. `benchmarks/mutation_templates.py`
takes mutmut's mutations of the module and writes each mutant into the scratch copy's file; the unit
tests of the walks (`WALK_TESTS`) import `_redact`/`_schemas` from it without a
build (`tests/runtime/test_walks_*.py` import them), in a worker that imports pytest once and forks a run per
mutant, so a mutant costs a second or two. A mutant they leave alive is judged again by the group's
`confirm` tests (the registry tests, which build a package: 10-30 s). On 2 busy cores `walks` (290
mutants) took 11 min and `redact` (561) 28 min, most of it confirming the equivalent survivors, so
give them `--budget 2400`; a run cut short resumes with the same `--workdir`, and `--without` leaves
`confirm` tests out too (a quick first pass: 9 and 20 min). `--show` prints each surviving template
mutant as a diff. Group
`compat-import` writes mutants into `toolgen/compat/table.py` the same way, one pytest run each:
its `_build` makes the decision table at import, before mutmut's trampoline can switch it, so
mutmut's own run (group `compat`) lists those mutants as survivors whatever the tests check.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchmarks import mutation_templates

REPO = Path(__file__).resolve().parent.parent
COPIED = ("toolgen", "templates", "tests", "docs", "contracts", "README.md", "pyproject.toml", ".pre-commit-hooks.yaml")


@dataclass(frozen=True)
class Group:
    """Modules mutated together and the tests that judge them."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]
    rewrite: tuple[str, ...] = ()
    """Functions of the (one) Python module that run at import, before mutmut's trampoline can switch
    them to a mutant: their mutants are written into the file itself and judged like a template's."""
    confirm: tuple[str, ...] = ()
    """`in_file` groups only: slower tests, run on a mutant that `tests` leave alive."""
    in_file: bool = False
    """Each mutant is written into the (one) module itself (`mutation_templates`), not switched by mutmut."""


WALK_TESTS = ("tests/runtime/test_walks_schemas.py", "tests/runtime/test_walks_secrets.py")
"""The unit tests of the runtime walks: they import `_redact`/`_schemas` from the runtime source, no build."""

GROUPS = {
    "catalog": Group(
        ("toolgen/catalog.py", "toolgen/frozen.py"),
        ("tests/compat/test_catalog_normalization.py", "tests/compat/test_compat_table.py"),
    ),
    "compat": Group(
        ("toolgen/compat/contracts.py", "toolgen/compat/model.py", "toolgen/compat/table.py"),
        (
            "tests/compat/test_compat_rules_stated.py",
            "tests/compat/test_compat_table.py",
            "tests/compat/test_compat_schema.py",
        ),
    ),
    "compat-schema": Group(
        (
            "toolgen/compat/schema.py",
            "toolgen/compat/keywords.py",
            "toolgen/compat/canonical.py",
            "toolgen/compat/objects.py",
            "toolgen/compat/wraps.py",
            "toolgen/compat/refs.py",
        ),
        (
            "tests/compat/test_compat_schema_stated.py",
            "tests/compat/test_compat_keywords_stated.py",
            "tests/compat/test_compat_rules_stated.py",
            "tests/compat/test_compat_schema.py",
            "tests/compat/test_compat_table.py",
            "tests/compat/test_compat_properties.py",
        ),
    ),
    "compat-report": Group(
        ("toolgen/compat/report.py", "toolgen/compat/base.py"),
        (
            "tests/compat/test_compat_report_stated.py",
            "tests/compat/test_compat_report_formats.py",
            "tests/compat/test_compat_base_stated.py",
            "tests/compat/test_compat_schema.py",
            "tests/compat/test_compat_table.py",
            "tests/cli/test_cli_diff.py",
        ),
    ),
    "compat-import": Group(
        ("toolgen/compat/table.py",),
        ("tests/compat/test_compat_table.py", "tests/compat/test_compat_rules_stated.py"),
        rewrite=("_build",),
    ),
    "walks": Group(
        ("toolgen/runtime/_schemas.py",),
        WALK_TESTS,
        (
            "tests/runtime/test_python_nulls.py",
            "tests/runtime/test_strict_nulls_combinators.py",
            "tests/runtime/test_secret_sentinels.py",
        ),
        in_file=True,
    ),
    "redact": Group(
        ("toolgen/runtime/_redact.py",),
        WALK_TESTS,
        ("tests/runtime/test_redaction_keywords.py", "tests/runtime/test_secret_sentinels.py"),
        in_file=True,
    ),
    "write": Group(
        ("toolgen/writer/write.py",),
        (
            "tests/writer/test_write.py",
            "tests/writer/test_writer_promises.py",
            "tests/writer/test_journal_promises.py",
            "tests/writer/test_safe_edits.py",
            "tests/pipeline/test_case_collisions.py",
            "tests/writer/test_symlinks.py",
        ),
    ),
    "write-journal": Group(
        ("toolgen/writer/journal.py", "toolgen/writer/safepaths.py"),
        (
            "tests/writer/test_journal_promises.py",
            "tests/writer/test_writer_promises.py",
            "tests/writer/test_write.py",
            "tests/writer/test_safe_edits.py",
            "tests/writer/test_symlinks.py",
            "tests/writer/test_interrupt.py",
        ),
    ),
    "write-diff": Group(
        ("toolgen/writer/shortdiff.py",),
        ("tests/writer/test_perf_write.py", "tests/writer/test_write.py", "tests/writer/test_writer_promises.py"),
    ),
}
"""Run in this order. The writer is three groups (the writer, its journal and path probe, its short
diffs) so that each fits the default budget."""


def _scratch(workdir: Path, *, keep: bool = False) -> Path:
    """A copy of the checkout under `workdir`, with `shared/` beside it as the tests expect.

    Fresh, or with `keep` the files copied over an existing copy whose `mutants/` (mutmut's results)
    stays.
    """
    root = workdir / "checkout"
    if not keep:
        shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", ".toolgen-cache")
            shutil.copytree(source, root / name, ignore=ignore, dirs_exist_ok=True)
        elif source.is_file():
            shutil.copy2(source, root / name)
    shared = REPO.parent / "shared"
    if shared.is_dir() and not (workdir / "shared").exists():
        (workdir / "shared").symlink_to(shared)
    return root


def missing_tests() -> list[str]:
    """Test files a group names that do not exist (a moved test would otherwise leave its group unjudged)."""
    return sorted({t for group in GROUPS.values() for t in group.tests if not (REPO / t).is_file()})


def _selected(group: Group, without: tuple[str, ...]) -> list[str]:
    return [t for t in group.tests if t not in without]


PYTEST_ARGS = ("-p", "no:cacheprovider", "-n0", "-x", "-q")
"""Every pytest run in one process, stopped at the first failure. The default addopts spread tests
over xdist workers: mutmut then sees no test reach a mutant in its stats run, and each mutant's run
starts workers (slow enough to time out under load) and exits 2 ("interrupted") when a test fails."""


def _mutmut_config(group: Group, without: tuple[str, ...]) -> str:
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["toolgen"]\n'
        f"only_mutate = {json.dumps(list(group.modules))}\n"
        'also_copy = ["templates", "contracts", "docs", "README.md", ".pre-commit-hooks.yaml"]\n'
        f"pytest_add_cli_args = {json.dumps(list(PYTEST_ARGS))}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(_selected(group, without))}\n"
    )


def _mutmut(root: Path, mutants: list[str], budget: float) -> bool:
    """`mutmut run` (all untried mutants, or these again) in its own session; False when cut by the budget."""
    mutmut = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [str(mutmut), "run", "--max-children", "2", *mutants]
    with (root.parent / "mutmut.log").open("ab") as log:  # why a run checked nothing (a failing clean run)
        proc = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        proc.wait(timeout=max(budget, 1))
        return True
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)  # mutmut's forked workers too, not only mutmut
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return False


def _results(root: Path) -> tuple[Counter[str], list[str]]:
    mutmut = Path(sys.executable).with_name("mutmut")
    listing = subprocess.run(
        [str(mutmut), "results", "--all", "true"], cwd=root, capture_output=True, text=True, check=False
    ).stdout
    counts: Counter[str] = Counter()
    survivors = []
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if match:
            counts[match.group(2)] += 1
            if match.group(2) == "survived":
                survivors.append(match.group(1))
    return counts, survivors


def run_mutmut(
    name: str, group: Group, workdir: Path, budget: float, without: tuple[str, ...] = (), *, resume: bool = False
) -> tuple[Counter[str], list[str], bool]:
    """Run mutmut over the group; (outcome counts, surviving mutant names, finished).

    With `resume` the group's earlier scratch copy is kept: mutants already judged keep their verdict,
    except the survivors, which are tried again with the current tests.
    """
    started = time.monotonic()
    root = _scratch(workdir / name, keep=resume)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + _mutmut_config(group, without), encoding="utf-8")
    again = _results(root)[1] if resume and (root / "mutants").is_dir() else []
    finished = _mutmut(root, [], budget)
    if finished and again:
        finished = _mutmut(root, again, budget - (time.monotonic() - started))
    counts, survivors = _results(root)
    return counts, survivors, finished


def show(workdir: Path, name: str, mutant: str) -> str:
    mutmut = Path(sys.executable).with_name("mutmut")
    checkout = workdir / name / "checkout"
    proc = subprocess.run([str(mutmut), "show", mutant], cwd=checkout, capture_output=True, text=True, check=False)
    return proc.stdout


def run_template(
    name: str, group: Group, workdir: Path, budget: float, without: tuple[str, ...] = ()
) -> tuple[Counter[str], list[str], bool]:
    """Mutate the template group's file mutant by mutant (`benchmarks/mutation_templates.py`)."""
    root = _scratch(workdir / name)
    pyproject = root / "pyproject.toml"  # mutmut reads its settings from here even to list mutations
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + _mutmut_config(group, without), encoding="utf-8")
    (template,) = group.modules
    confirm = tuple(t for t in group.confirm if (REPO / t).exists() and t not in without)
    return mutation_templates.run_template(root, template, _selected(group, without), confirm, budget)


def run_rewrite(
    name: str, group: Group, workdir: Path, budget: float, without: tuple[str, ...] = ()
) -> tuple[Counter[str], list[str], bool]:
    """Write each mutant of the group's import-time functions into its module and run the tests on it."""
    started = time.monotonic()
    root = _scratch(workdir / name)
    pyproject = root / "pyproject.toml"  # mutmut reads its settings from here even to list mutations
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + _mutmut_config(group, without), encoding="utf-8")
    (module,) = group.modules
    here = Path.cwd()
    os.chdir(root)
    try:
        mutants = mutation_templates.template_mutants((root / module).read_text(encoding="utf-8"))
    finally:
        os.chdir(here)
    folder = workdir / name / "mutants"
    folder.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()
    survivors: list[str] = []
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for mutant, text in (m for m in mutants if m[0].split("__")[0] in group.rewrite):
        left = budget - (time.monotonic() - started)
        if left <= 0:
            return counts, survivors, False
        (root / module).write_text(text, encoding="utf-8")
        (folder / f"{mutant}.jinja").write_text(text, encoding="utf-8")  # for --show
        command = [sys.executable, "-m", "pytest", *PYTEST_ARGS, *_selected(group, without)]
        try:
            proc = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=min(left, 120), check=False)
        except subprocess.TimeoutExpired:
            counts["timeout"] += 1
            continue
        counts["survived" if proc.returncode == 0 else "killed"] += 1
        if proc.returncode == 0:
            survivors.append(mutant)
    return counts, survivors, True


def _run_group(
    name: str, group: Group, workdir: Path, args: argparse.Namespace
) -> tuple[Counter[str], list[str], bool]:
    without = tuple(args.without)
    if group.rewrite:
        return run_rewrite(name, group, workdir, args.budget, without)
    if group.in_file:
        return run_template(name, group, workdir, args.budget, without)
    return run_mutmut(name, group, workdir, args.budget, without, resume=args.resume)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"groups to run, of {', '.join(GROUPS)} (default: all)")
    parser.add_argument("--budget", type=float, default=420.0, help="seconds per group (default 420)")
    parser.add_argument("--workdir", type=Path, default=None, help="scratch folder (default: a new temporary one)")
    parser.add_argument("--show", action="store_true", help="print the diff of every surviving mutant")
    parser.add_argument(
        "--without", action="append", default=[], metavar="TEST", help="leave this test file out (to measure it)"
    )
    parser.add_argument("--list", action="store_true", help="list the groups, their modules and tests")
    parser.add_argument(
        "--resume", action="store_true", help="mutmut groups: go on in --workdir's copy (survivors tried again)"
    )
    args = parser.parse_args()
    if args.list:
        for name, group in GROUPS.items():
            print(f"{name}: {', '.join(group.modules)}\n    tests: {' '.join(group.tests)}")
        return 0
    unknown = [name for name in args.groups if name not in GROUPS]
    if unknown:
        parser.error(f"no such group: {', '.join(unknown)} (groups: {', '.join(GROUPS)})")
    if missing_tests():
        parser.error(f"groups name test files that do not exist: {', '.join(missing_tests())}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="toolgen-mutation-"))
    print(f"scratch folder: {workdir}")
    for name in args.groups or list(GROUPS):
        group = GROUPS[name]
        started = time.monotonic()
        template = group.in_file or bool(group.rewrite)
        counts, survivors, finished = _run_group(name, group, workdir, args)
        total = sum(counts.values())
        state = "" if finished else " (budget spent: partial)"
        outcomes = ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts.items()))
        print(f"\n== {name}: {total} mutants, {outcomes}{state} in {time.monotonic() - started:.0f}s")
        if total and counts["not checked"] == total:
            print(f"   nothing was checked: see {workdir / name / 'mutmut.log'}")
        by_module = Counter(mutant.rsplit(".", 1)[0] if "." in mutant else group.modules[0] for mutant in survivors)
        for module, count in sorted(by_module.items()):
            print(f"   {module}: {count} survived")
        for mutant in survivors:
            print(f"   survived: {mutant}")
            if args.show and not template:
                print(show(workdir, name, mutant))
            elif args.show:
                original = (REPO / group.modules[0]).read_text(encoding="utf-8")
                text = (workdir / name / "mutants" / f"{mutant}.jinja").read_text(encoding="utf-8")
                print(mutation_templates.diff(original, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
