"""The built wheel carries the templates and the contract schema, and builds a project on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO
from factory import contract, write_json


def test_wheel_ships_templates_and_builds_from_an_installed_copy(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = dist.glob("toolgen-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    templates = sorted(n for n in names if n.startswith("toolgen/templates/"))
    expected = sorted(
        "toolgen/templates/" + p.relative_to(REPO / "templates").as_posix()
        for p in (REPO / "templates").rglob("*")
        if p.is_file()
    )
    assert templates == expected

    target = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    project = tmp_path / "project"
    write_json(project, contract("echo_text"))
    env = {**os.environ, "PYTHONPATH": str(target)}
    script = "import toolgen, toolgen.templating as t; print(toolgen.__file__, t.builtin_templates_dir())"
    probe = subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    module_file, templates_dir = probe.stdout.split()
    assert module_file.startswith(str(target)), "the test must exercise the installed copy, not the checkout"
    assert templates_dir.startswith(str(target))
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "build"], cwd=project, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (project / "generated" / "catalog.json").is_file()
