"""What keeps a large build's memory down: each file's bytes held once (compressed in a large
build), no parsed documents kept, whole-catalog JSON encoded a tool at a time."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import synth_catalog
from toolgen.config import load_settings
from toolgen.formatschema import SCHEMA_FILE
from toolgen.incremental import cache
from toolgen.incremental.executor import Building
from toolgen.incremental.parallel import Workers
from toolgen.pipeline.stages import generate, load_catalog
from toolgen.render import Artifact, catalog_json, providers
from toolgen.render.context import RenderContext
from toolgen.render.providers import FILES
from toolgen.thresholds import DEFAULT, Thresholds
from toolgen.writer import outputs, write


def test_an_artifact_is_a_plain_value() -> None:
    artifact = Artifact("a/b.py", "é = 1\n")
    assert (artifact.path, artifact.text, artifact.data()) == ("a/b.py", "é = 1\n", "é = 1\n".encode())
    assert Artifact("a", "x").data() == b"x\n" and Artifact("a", "x").text == "x"
    assert Artifact("a", "") == Artifact("a", "") and Artifact("a", "") != Artifact("a", "\n")
    with pytest.raises(UnicodeEncodeError):  # text that is not valid Unicode still fails where it did
        Artifact("a", "\ud800").data()
    assert Artifact("a", "\ud800").text == "\ud800"


def test_a_large_build_holds_each_file_compressed() -> None:
    module = "".join(f"    field_{i}: Annotated[int, Field(description='The field {i}.')]\n" for i in range(200))
    packed = outputs.held(Artifact("a/c.py", module), pack=True)
    assert isinstance(packed, outputs.Packed)
    assert isinstance(packed.body, bytes) and len(packed.body) < len(module) / 4
    assert packed.data() == module.encode() and packed.text == module
    assert packed.digest == "sha256:" + hashlib.sha256(module.encode()).hexdigest()
    assert outputs.held(Artifact("e", ""), pack=True).data() == b"\n"
    odd = outputs.held(Artifact("odd", "a\ud800b"), pack=True)  # not valid Unicode: kept as text, fails on write
    assert odd.text == "a\ud800b" and odd.digest == ""
    with pytest.raises(UnicodeEncodeError):
        odd.data()


def test_a_smaller_build_holds_each_artifact_as_it_is_with_its_digest() -> None:
    artifact = Artifact("x.json", "[\n  2\n]")
    loose = outputs.held(artifact)
    assert isinstance(loose, outputs.Loose) and (loose.path, loose.text, loose.data()) == (
        "x.json",
        "[\n  2\n]",
        b"[\n  2\n]\n",
    )
    assert outputs.held(Artifact("n", "ends\n")).text == "ends\n" and outputs.held(Artifact("e", "")).text == ""
    assert loose.digest == "sha256:" + hashlib.sha256(b"[\n  2\n]\n").hexdigest()
    assert outputs.held(loose, pack=True) is loose and b"".join(loose.chunks()) == artifact.data()
    odd = outputs.held(Artifact("odd", "\ud800"))
    assert odd.digest == ""
    with pytest.raises(UnicodeEncodeError):
        odd.data()


def test_large_files_are_compared_and_written_in_pieces(tmp_path: Path) -> None:
    big = "".join(f'  "tool_{i}": {{"type": "object", "description": "Tool {i}."}},\n' for i in range(60000))
    artifact = outputs.Packed.of(Artifact("providers/big.json", big))
    pieces = list(artifact.chunks(size=1 << 16))
    assert len(pieces) > 10 and max(map(len, pieces)) <= 1 << 16 and b"".join(pieces) == artifact.data()
    assert b"".join(outputs.Packed.of(Artifact("x", "no newline")).chunks()) == b"no newline\n"
    change = write.plan([artifact], tmp_path / "out")
    write.apply(change)
    target = tmp_path / "out" / "providers" / "big.json"
    assert target.read_bytes() == artifact.data()
    assert change.files.same_on_disk(artifact.path, target)
    assert change.files.digest(artifact.path) == "sha256:" + hashlib.sha256(artifact.data()).hexdigest()
    target.write_bytes(artifact.data()[:-2] + b"!\n")
    assert not change.files.same_on_disk(artifact.path, target)
    target.write_bytes(artifact.data() + b"more")
    assert not change.files.same_on_disk(artifact.path, target)
    assert write.plan([artifact], tmp_path / "out").write == (artifact.path,)


def test_plan_makes_each_file_from_its_artifact_when_read(tmp_path: Path) -> None:
    artifacts = [Artifact("one.txt", "1\n"), Artifact("two.txt", "2\n")]
    change = write.plan(artifacts, tmp_path / "out")
    assert isinstance(change.files, write.Files)
    assert sorted(change.files) == [write.MANIFEST, "one.txt", "two.txt"] and len(change.files) == 3
    for artifact in artifacts:
        assert change.files[artifact.path] == artifact.data()
        made = change.files._artifacts[artifact.path]  # held once, as its bytes, not beside its text
        assert isinstance(made, outputs.Loose) and made.body == artifact.data()
    write.apply(change)
    assert (tmp_path / "out" / "two.txt").read_bytes() == b"2\n"
    edited = write.plan([Artifact("one.txt", "1\n"), Artifact("two.txt", "3\n")], tmp_path / "out")
    assert edited.write == ("two.txt", write.MANIFEST) or set(edited.write) == {"two.txt", write.MANIFEST}
    assert "-2" in edited.diffs["two.txt"] and "+3" in edited.diffs["two.txt"]


def _project(root: Path, count: int) -> Path:
    synth_catalog.write_catalog(root, count)
    return root


def test_target_diagnostics_are_still_located(tmp_path: Path) -> None:
    # 130 tools: the OpenAI target warns (TG305, 128 tools a request) on a tool past the limit; the
    # parsed documents are gone by then and the locator alone must place it in its file
    root = _project(tmp_path, 130)
    (root / "toolgen.toml").write_text('targets = ["providers"]\n[rules]\nTG305 = "warning"\n', encoding="utf-8")
    settings, problems = load_settings(root)
    assert not problems
    result = generate(settings)
    found = [d for d in result.diagnostics if d.code == "TG305"]
    assert found and all(d.line is not None and d.column is not None for d in found), found
    assert all((root / d.file).is_file() for d in found)


def test_cli_build_in_a_subprocess(tmp_path: Path) -> None:
    root = _project(tmp_path, 12)
    run = subprocess.run(
        [sys.executable, "-m", "toolgen", "build", "--no-cache"], cwd=root, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    settings, _ = load_settings(root)
    again = write.plan(generate(settings).artifacts, settings.output_dir)
    assert again.up_to_date and len(again.files) > 12


def test_a_target_that_rendered_many_files_is_held_packed() -> None:
    """A cold build's pages and modules are packed; the few files a one-contract change renders
    beside the ones its cache kept unread are not (they would cost the time the change saves)."""
    many = [Artifact(f"docs/t{i}.md", "x") for i in range(DEFAULT.pack_many)]
    assert outputs.packs(many, 1000) and not outputs.packs(many[1:], 1000)
    kept = [outputs.held(a) for a in many]  # files the build already holds do not count
    assert not outputs.packs(kept, 1000) and outputs.packs(many[:1], DEFAULT.pack_from)
    few = Thresholds(pack_many=2, pack_from=10)  # set by the caller, not patched
    assert outputs.packs(many[:2], 3, few) and outputs.packs(many[:1], 10, few) and not outputs.packs(many[:1], 9, few)


def test_a_large_build_holds_the_provider_files_and_the_catalog_packed_as_made(tmp_path: Path) -> None:
    """From `pack_from` contracts the targets that write one large file a piece at a time
    (`Executor.joined`) hand it back packed, never joined, with the very bytes a plain build gives,
    with and without the build cache."""
    root = _project(tmp_path, 6)
    settings, problems = load_settings(root)
    assert not problems
    catalog, found, _ = load_catalog(settings)
    assert catalog is not None, found
    targets = {"catalog": catalog_json.render, "providers": providers.render}
    plain = {a.path: a for name, render in targets.items() for a in render(catalog, settings).artifacts}
    assert all(type(a) is Artifact for a in plain.values())
    for store in (None, "cache"):
        with cache.session(root, enabled=store is not None) as opened:
            assert (opened is None) == (store is None)
            large = Building(Workers(1), opened, thresholds=Thresholds(pack_from=6), contracts=6)
            made = [a for render in targets.values() for a in render(catalog, settings, RenderContext(large)).artifacts]
        joined = {a.path: a for a in made if a.path != SCHEMA_FILE}
        assert sorted(joined) == sorted(["catalog.json", *(f"providers/{name}" for name in FILES)])
        assert all(isinstance(a, outputs.Packed) for a in joined.values())
        assert {p: outputs.held(a).data() for p, a in joined.items()} == {
            p: outputs.held(plain[p]).data() for p in joined
        }
