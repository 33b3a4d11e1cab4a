"""The build cache and the no-change fast path: a cached build is byte-identical to a cold one, and
each kind of change (contract, template, configuration, toolgen version, pinned dependency)
invalidates exactly what it must."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

import toolgen
from benchmarks import synth_catalog
from tests.build_support import generate_counting, unseal, user_key
from tests.conftest import REPO
from toolgen import templating
from toolgen.cli import main
from toolgen.config import load_settings
from toolgen.diagnostics import Severity, sort_diagnostics
from toolgen.incremental import cache, fastpath, parallel
from toolgen.incremental.executor import Building
from toolgen.pipeline import stages as pipeline
from toolgen.thresholds import DEFAULT, Thresholds
from toolgen.writer import write

FAST = "no input changed since the last build"
"""What build and check say when the fast path answered."""


def _project(root: Path, count: int = 4) -> Path:
    synth_catalog.write_catalog(root, count)
    if count > 128:  # more tools than one OpenAI request takes (TG305): fine for a catalog this size
        (root / "toolgen.toml").write_text('[rules]\nTG305 = "off"\n', encoding="utf-8")
    return root


def _build(root: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["-C", str(root), "build", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _cold_copy(root: Path, tmp: Path) -> dict[str, bytes]:
    """Build the same project from scratch, with no cache at all, and return its output."""
    fresh = tmp / "fresh"
    if fresh.exists():
        shutil.rmtree(fresh)
    fresh.mkdir()
    for name in ("contracts", "templates", "toolgen.toml"):
        source = root / name
        if source.is_dir():
            shutil.copytree(source, fresh / name)
        elif source.is_file():
            shutil.copy(source, fresh / name)
    _build(fresh, "--no-cache")
    assert not (fresh / cache.CACHE_DIR).exists()
    return _tree(fresh / "generated")


@pytest.fixture(autouse=True)
def _fresh_fingerprints() -> None:
    cache.reset()


def test_no_change_build_and_check_take_the_fast_path(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    assert "files written" in _build(root)
    assert FAST in _build(root)
    result = CliRunner().invoke(main, ["-C", str(root), "check"])
    assert result.exit_code == 0 and "is up to date" in result.output and FAST in result.output
    sealed = (root / cache.CACHE_DIR / fastpath.STATE).read_bytes()
    state = json.loads(unseal(fastpath.STATE, sealed) or "null")
    assert state["contracts"] == 4
    assert (root / cache.CACHE_DIR / ".gitignore").read_text().strip().endswith("*")


def test_the_fast_path_record_trusts_only_files_the_plan_just_verified(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    _build(root)
    settings, _ = load_settings(root)
    change = write.plan(pipeline.generate(settings).artifacts, settings.output_dir)
    assert change.up_to_date and set(change.verified) == set(change.files)
    state = root / cache.CACHE_DIR / fastpath.STATE
    key = fastpath.input_key(settings)
    state.unlink()
    fastpath.record(settings, key, (), 4, change.files, secret=user_key(), verified=change.verified)
    assert state.is_file()  # every file verified moments ago: recorded without reading them again
    state.unlink()
    edited = next(settings.output_dir.rglob("*.md"))
    edited.write_text(edited.read_text() + "edited by hand\n")  # after the plan verified it
    fastpath.record(settings, key, (), 4, change.files, secret=user_key(), verified=change.verified)
    rel = edited.relative_to(settings.output_dir).as_posix()
    assert (
        fastpath.trusted(settings, user_key())[rel][0] == change.verified[rel] != write.file_stat(edited)
    )  # as verified
    assert fastpath.lookup(settings, key, user_key()) is None  # so no shortcut vouches for the edited file
    assert CliRunner().invoke(main, ["-C", str(root), "check"]).exit_code == 1


@pytest.mark.slow  # ~10 s: six builds of the repo catalog
def test_provider_entries_from_the_cache_give_the_same_files_diagnostics_and_notes(tmp_path: Path) -> None:
    """The providers cache each tool's entries, diagnostics and notes; a build from the cache must
    say and write exactly what a build without it does (the repo's contracts carry TG301 warnings
    and provider notes; `anthropic_strict` keeps a budget across tools and is never cached)."""
    from toolgen.render import providers

    for strict in (False, True):
        root = tmp_path / f"strict-{strict}"
        shutil.copytree(REPO / "contracts", root / "contracts")
        command = root / "contracts" / "run_command.toml"  # keep its TG301 warning, which it turns off
        command.write_text(command.read_text(encoding="utf-8").replace('rules = { TG301 = "off", TG309 = "off" }', ""))
        (root / "toolgen.toml").write_text(f"anthropic_strict = {str(strict).lower()}\n", encoding="utf-8")
        settings, _ = load_settings(root)
        plain = pipeline.generate(settings)
        catalog = plain.catalog
        assert catalog is not None and any(d.code == "TG301" for d in plain.diagnostics)
        expected_notes = providers.provider_notes(catalog, settings)
        for _ in range(2):  # filling the cache, then reading it
            with cache.session(root) as store:
                cached = pipeline.generate(settings, store=store)
                executor = Building(parallel.Workers(settings.jobs), store)
                assert providers.provider_notes(catalog, settings, executor) == expected_notes
            assert cached.diagnostics == plain.diagnostics
            assert [(a.path, a.data()) for a in cached.artifacts] == [(a.path, a.data()) for a in plain.artifacts]


def test_cached_incremental_build_is_byte_identical_to_a_cold_build(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 5)
    _build(root)
    doc = synth_catalog.contract(2)
    doc["description"] += " Changed."
    doc["input_schema"]["properties"]["extra_flag"] = {"type": "boolean", "description": "A new flag."}
    path = next((root / "contracts").rglob(f"{doc['name']}.json"))
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    next((root / "contracts").rglob("*00003.json")).unlink()
    _build(root)
    assert _tree(root / "generated") == _cold_copy(root, tmp_path)


# 4 tools go stage by stage; 60 tools, with two workers, are made whole tool by tool in the workers
# (`python._ToolModules.make`); from `Thresholds.apart_min` tools the docs render in a forked process too
# (`pipeline._render_apart`): the build must count and keep their cache use the same way
SIZES = [
    pytest.param(4, "1", id="stage-by-stage"),
    pytest.param(60, "2", id="together-in-workers"),
    pytest.param(DEFAULT.apart_min, "2", id="docs-in-a-forked-process", marks=pytest.mark.slow),  # ~13 s each
]


@pytest.mark.parametrize(("count", "jobs"), SIZES)
def test_a_changed_contract_recomputes_only_what_depends_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, jobs: str
) -> None:
    monkeypatch.setenv("TOOLGEN_JOBS", jobs)
    root = _project(tmp_path / "p", count)
    first = generate_counting(root)
    assert first.hits == 0 and first.misses > 0
    assert generate_counting(root).misses == 0
    doc = synth_catalog.contract(1)
    doc["description"] += " Reworded."
    next((root / "contracts").rglob(f"{doc['name']}.json")).write_text(json.dumps(doc), encoding="utf-8")
    store = generate_counting(root)
    # loading and validation of that file, its module, its docs page (and the tools its texts name)
    # and provider entries (and the run of tools it is in); its models
    # are kept, since only the schemas shape them, and so is black's pass over the module (it sees
    # the imports and models: `python_black.format_modules`) and over __init__.py (its catalog
    # digest is masked: `python_format.format_masked`), since no tool name changed
    changed = {"contract": 1, "module": 1, "docs": 1, "docs-links": 1, "providers": 1, "provider-runs": 1}
    changed.update({"schemas": 1, "docs-index": 1})
    assert store.missed == {**changed, "catalog": 1}


@pytest.mark.parametrize(("count", "jobs"), SIZES)
def test_a_changed_schema_remakes_that_tools_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, jobs: str
) -> None:
    monkeypatch.setenv("TOOLGEN_JOBS", jobs)
    root = _project(tmp_path / "p", count)
    first = generate_counting(root)
    assert first.missed["models"] == count and first.missed["module"] == count
    doc = synth_catalog.contract(1)
    doc["input_schema"]["properties"]["extra_flag"] = {"type": "boolean", "description": "A new flag."}
    next((root / "contracts").rglob(f"{doc['name']}.json")).write_text(json.dumps(doc), encoding="utf-8")
    store = generate_counting(root)
    remade = {"contract": 1, "models": 1, "module": 1, "docs": 1, "docs-links": 1, "providers": 1, "catalog": 1}
    remade.update({"black-pass": 1, "provider-runs": 1, "schemas": 1, "docs-index": 1})
    assert store.missed == remade


@pytest.mark.slow  # ~4 s: several builds
def test_a_template_change_invalidates_the_fast_path_and_the_output(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    builtin = Path(toolgen.__file__).resolve().parent.parent / "templates" / "python" / "tool.py.jinja"
    override = root / "templates" / "python" / "tool.py.jinja"
    override.parent.mkdir(parents=True)
    override.write_text(builtin.read_text() + "\nOVERRIDDEN = True\n", encoding="utf-8")
    page = root / "templates" / "docs" / "tool.md.jinja"
    page.parent.mkdir(parents=True)
    page.write_text((builtin.parent.parent / "docs" / "tool.md.jinja").read_text() + "\nOverridden page.\n")
    (root / "toolgen.toml").write_text('templates = "templates"\n', encoding="utf-8")
    assert "files written" in _build(root)
    modules = list((root / "generated" / "python").rglob("*_0000*.py"))
    assert modules and all("OVERRIDDEN = True" in p.read_text() for p in modules)
    pages = list((root / "generated" / "docs").glob("*_0000*.md"))
    assert pages and all("Overridden page." in p.read_text() for p in pages)  # the docs cache moved too
    assert _tree(root / "generated") == _cold_copy(root, tmp_path)
    override.write_text(builtin.read_text(), encoding="utf-8")
    assert "files written" in _build(root)
    assert all("OVERRIDDEN" not in p.read_text() for p in modules)


@pytest.mark.slow  # ~4 s: several builds
def test_a_configuration_change_invalidates_what_it_shapes(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    (root / "toolgen.toml").write_text('python_package = "other_tools"\n', encoding="utf-8")
    output = _build(root)
    assert "files written" in output
    assert (root / "generated" / "python" / "other_tools" / "__init__.py").is_file()
    assert _tree(root / "generated") == _cold_copy(root, tmp_path)
    (root / "toolgen.toml").write_text('python_package = "other_tools"\n[rules]\nTG201 = "off"\n', encoding="utf-8")
    assert FAST not in _build(root)  # severities shape diagnostics: no stale fast path
    # strict Anthropic declarations change the provider files and the docs' provider notes
    (root / "toolgen.toml").write_text('python_package = "other_tools"\nanthropic_strict = true\n', encoding="utf-8")
    _build(root)
    assert '"strict": true' in (root / "generated" / "providers" / "anthropic.json").read_text()
    assert _tree(root / "generated") == _cold_copy(root, tmp_path)


@pytest.mark.slow  # ~4 s: several builds
def test_a_new_toolgen_version_reuses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    monkeypatch.setattr(toolgen, "__version__", "99.0.0")
    cache.reset()  # what a new process running the new version computes afresh
    assert FAST not in _build(root)
    store = generate_counting(root)
    assert store.hits > 0  # the build just above filled the cache for 99.0.0
    monkeypatch.setattr(toolgen, "__version__", "99.0.1")
    cache.reset()
    assert generate_counting(root).hits == 0


@pytest.mark.slow  # ~4 s: several builds
def test_a_pinned_dependency_upgrade_reuses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    real = cache.installed_version

    def upgraded(name: str) -> str:
        return "99.0" if name == "black" else real(name)

    monkeypatch.setattr(cache, "installed_version", upgraded)
    cache.reset()  # what a new process with the new black computes afresh
    assert FAST not in _build(root)
    monkeypatch.setattr(cache, "installed_version", lambda name: "100.0" if name == "black" else real(name))
    cache.reset()
    assert generate_counting(root).hits == 0


def test_edited_output_is_never_taken_for_current(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    page = next((root / "generated" / "docs").glob("*_00001.md"))
    original = page.read_bytes()
    page.write_text("hand edit\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "check"])
    assert result.exit_code == 1 and "stale" in result.output and "TG132" in result.output
    result = CliRunner().invoke(main, ["-C", str(root), "build"])
    assert result.exit_code == 1 and "TG132" in result.output, "a hand edit is never overwritten silently"
    assert "1 file written" in _build(root, "--force")
    assert page.read_bytes() == original
    page.unlink()
    assert "1 file written" in _build(root)


def test_a_corrupt_cache_is_a_miss_not_a_wrong_answer(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 3)
    _build(root)
    for entry in (root / cache.CACHE_DIR).rglob("*"):
        if entry.is_file() and entry.name != ".gitignore":
            entry.write_text('{"not": "what was stored"', encoding="utf-8")
    shutil.rmtree(root / "generated")
    _build(root)
    assert _tree(root / "generated") == _cold_copy(root, tmp_path)


def test_cached_validation_reports_exactly_what_validate_documents_reports(tmp_path: Path) -> None:
    from toolgen.load import load_documents
    from toolgen.validate import validate_documents

    root = _project(tmp_path / "p", 3)
    doc = synth_catalog.contract(7)
    doc["description"] = "Short."
    doc["rules"] = {"TG201": "off"}
    (root / "contracts" / "crm" / f"{doc['name']}.json").write_text(json.dumps(doc), encoding="utf-8")
    (root / "contracts" / "crm" / "broken.json").write_text('{"name": "broken", "version": "x"}', encoding="utf-8")
    twin = synth_catalog.contract(0)
    (root / "contracts" / "docs" / f"{twin['name']}.json").write_text(json.dumps(twin), encoding="utf-8")
    # TG105 cannot be turned down: the settings check (TG128) must run with the cache too
    (root / "toolgen.toml").write_text('[rules]\nTG205 = "error"\nTG105 = "warning"\n', encoding="utf-8")
    settings, _ = load_settings(root)
    documents, _ = load_documents(settings)
    expected = validate_documents(documents, settings)
    assert any(d.severity is Severity.ERROR for d in expected) and any(d.code == "TG109" for d in expected)
    assert any(d.code == "TG128" for d in expected)
    for _ in range(2):  # cold, then from the cache
        with cache.session(root) as store:
            assert store is not None
            catalog, found, _ = pipeline.load_catalog(settings, store=store)
            assert catalog is None and found == sort_diagnostics(expected)
    assert store.hits == len(documents) and store.misses == 0  # every file's checks read back, the broken one's too


def test_parallel_results_do_not_depend_on_the_number_of_workers() -> None:
    items = list(range(60))
    assert parallel.Workers(2).map(lambda x: x * x, items) == [x * x for x in items]
    assert parallel.Workers(1).map(str, items) == [str(x) for x in items]


def test_the_job_count_is_settled_in_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`TOOLGEN_JOBS` is read once, into `Settings.jobs`; it never enters the settings' fingerprint."""
    monkeypatch.setenv("TOOLGEN_JOBS", "3")
    three, _ = load_settings(tmp_path)
    monkeypatch.setenv("TOOLGEN_JOBS", "1")
    one, _ = load_settings(tmp_path)
    assert (three.jobs, one.jobs) == (3, 1)
    assert three.fingerprint() == one.fingerprint()
    assert fastpath.input_key(three) == fastpath.input_key(one)


def test_a_worker_has_no_workers_of_its_own() -> None:
    """A forked worker's copy of `Workers` has one job: what it starts runs in it."""
    workers = parallel.Workers(2)

    def inner(x: int) -> tuple[int, bool, int]:
        return workers.jobs, workers.in_worker, os.getpid()

    found = workers.map(inner, list(range(30)))
    assert {(jobs, inside) for jobs, inside, _ in found} == {(1, True)}
    assert os.getpid() not in {pid for _, _, pid in found}
    assert (workers.jobs, workers.in_worker) == (2, False)


def test_a_failing_worker_raises_here() -> None:
    def fail_on_seven(x: int) -> int:
        if x == 7:
            raise ValueError("seven")
        return x

    with pytest.raises(ValueError, match="seven"):
        parallel.Workers(2).map(fail_on_seven, list(range(40)))


def test_batches_and_background_do_not_depend_on_the_number_of_workers() -> None:
    items = list(range(100))

    def squares(batch: Sequence[int]) -> list[int]:
        assert 1 <= len(batch) <= 7
        return [x * x for x in batch]

    for jobs in (2, 1):
        workers = parallel.Workers(jobs)
        assert workers.map_batches(squares, items, 7) == [x * x for x in items]
        assert workers.background(os.getpid).result() != os.getpid() or jobs == 1
        assert workers.background(lambda: sum(items)).result() == sum(items)
        failing = workers.background(lambda: 1 // 0)
        with pytest.raises(ZeroDivisionError):
            failing.result()


@pytest.mark.slow  # ~25 s: two builds of `apart_min` contracts
def test_targets_rendered_apart_give_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At `Thresholds.apart_min` contracts the providers and docs targets render in a forked process
    while the python target runs; the output is the same as rendering them one after the other."""
    synth_catalog.write_catalog(tmp_path, DEFAULT.apart_min)
    (tmp_path / "toolgen.toml").write_text('[rules]\nTG305 = "off"\n', encoding="utf-8")
    settings, _ = load_settings(tmp_path)
    outputs = []
    for jobs in ("2", "1"):
        monkeypatch.setenv("TOOLGEN_JOBS", jobs)
        steps: list[str] = []
        result = pipeline.generate(settings, progress=steps.append)
        assert result.ok and sorted(steps) == sorted(["validate", *settings.targets]), steps
        outputs.append((result.diagnostics, [(a.path, a.data()) for a in result.artifacts]))
    assert outputs[0] == outputs[1]


def test_fast_path_template_digest_covers_the_templates_rendering_uses(tmp_path: Path) -> None:
    """The digest reads the folder Jinja loads built-ins from, and moves with any override file."""
    from toolgen.templating import builtin_templates_dir

    builtin = builtin_templates_dir()
    assert builtin.is_dir() and any(builtin.rglob("*.jinja"))
    empty = templating.templates_digest(tmp_path)
    assert empty == templating.templates_digest(None), "an empty override folder changes nothing"
    (tmp_path / "x.jinja").write_text("{{ a }}", encoding="utf-8")
    one = templating.templates_digest(tmp_path)
    assert one != empty
    (tmp_path / "x.jinja").write_text("{{ b }}", encoding="utf-8")
    assert templating.templates_digest(tmp_path) != one


def test_python_dash_m_second_build_changes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 2)
    command = [sys.executable, "-m", "toolgen", "-C", str(root), "build"]
    first = subprocess.run(command, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    second = subprocess.run(command, capture_output=True, text=True, check=False)
    assert second.returncode == 0 and FAST in second.stdout


class _Terminal:
    """A stderr that says it is a terminal and keeps what was written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_bar_on_a_terminal_for_large_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgen import cliout

    root = _project(tmp_path / "p", 3)
    settings, _ = load_settings(root)
    with cliout.progress_bar(settings) as step:
        assert step is None  # stderr under pytest is not a terminal
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with cliout.progress_bar(settings) as step:
        assert step is None  # 3 contracts: too few to bother
    settings = dataclasses.replace(settings, thresholds=Thresholds(progress_min=2))
    with cliout.progress_bar(settings) as step:
        assert step is not None
        assert pipeline.generate(settings, progress=step).ok
    assert "building 3 contracts" in terminal.text and "100%" in terminal.text


def test_a_same_size_edit_of_an_output_file_is_caught(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", 2)
    _build(root)
    page = next((root / "generated" / "docs").glob("*_00001.md"))
    original = page.read_bytes()
    page.write_bytes(original.replace(b"#", b"!", 1))
    assert len(page.read_bytes()) == len(original)
    result = CliRunner().invoke(main, ["-C", str(root), "check"])
    assert result.exit_code == 1 and FAST not in result.output
    assert "1 file written" in _build(root, "--force")
    assert page.read_bytes() == original
