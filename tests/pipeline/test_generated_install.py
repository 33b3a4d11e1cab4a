"""The generated package installs with pip: `pip install ./generated/python` (and `-e`) in a fresh venv.

The venv sees this environment's site-packages through a `.pth` line (pydantic, jsonschema and the
pinned hatchling are there), so pip needs no network: `--no-index --no-build-isolation`. The package
is then imported from outside the project folder and called.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

from tests.python_support import basic_contracts, build, write_package, write_project
from toolgen.config import load_settings
from toolgen.render.python_project import BUILD_BACKEND, RUNTIME_DEPENDENCIES

PACKAGE = "installed_tools"
CALL = """
import importlib.metadata, json, sys
import installed_tools
from installed_tools import Ok, Policy, Registry, read_file
registry = Registry(Policy(allow={"read"}))
registry.register(read_file.CONTRACT, lambda a: Ok(read_file.ReadFileOutput(content=a.path)))
result = registry.tool(read_file.CONTRACT).call({"path": "a.py"})
print(json.dumps({"file": installed_tools.__file__, "content": result.data.content,
                  "version": importlib.metadata.version("installed-tools")}))
"""


def _project(root: Path, extra: str = "") -> Path:
    write_project(root, basic_contracts(), PACKAGE)
    if extra:
        with (root / "toolgen.toml").open("a", encoding="utf-8") as config:
            config.write(extra)
    return root


def test_the_python_target_writes_a_pyproject_beside_the_package(tmp_path: Path) -> None:
    files = build(_project(tmp_path / "plain"))
    project = tomllib.loads(files["python/pyproject.toml"])
    assert project["build-system"] == {"requires": [BUILD_BACKEND], "build-backend": "hatchling.build"}
    assert project["project"]["name"] == "installed-tools"
    assert project["project"]["version"].startswith("0+catalog.")
    assert project["project"]["dependencies"] == list(RUNTIME_DEPENDENCIES)
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == [PACKAGE]
    assert f"python/{PACKAGE}/py.typed" in files
    named = build(_project(tmp_path / "named", 'python_distribution = "acme-tools"\npython_version = "1.4.0"\n'))
    assert tomllib.loads(named["python/pyproject.toml"])["project"] | {"dependencies": []} == {
        "name": "acme-tools",
        "version": "1.4.0",
        "description": project["project"]["description"],
        "requires-python": ">=3.11",
        "dependencies": [],
    }


def test_bad_distribution_settings_are_refused_where_they_are(tmp_path: Path) -> None:
    root = _project(tmp_path, 'python_distribution = "-no"\npython_version = "one"\n')
    _, problems = load_settings(root)
    assert sorted((d.code, d.pointer) for d in problems) == [
        ("TG100", "/python_distribution"),
        ("TG100", "/python_version"),
    ]
    assert all(d.file == "toolgen.toml" for d in problems)


@pytest.mark.slow
@pytest.mark.parametrize("editable", [False, True], ids=["install", "editable"])
def test_pip_installs_the_generated_package_into_a_fresh_venv(tmp_path: Path, editable: bool) -> None:
    root = _project(tmp_path / "project")
    folder = write_package(build(root), root / "generated")
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    site = next((env / "lib").glob("python3*/site-packages"))
    (site / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    python = env / "bin" / "python"
    command = [str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-cache-dir", "-q"]
    installed = subprocess.run(
        [*command, *(["-e"] if editable else []), str(folder)], capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    called = subprocess.run(
        [str(python), "-c", CALL], cwd=tmp_path, capture_output=True, text=True, check=False, env={"PATH": "/usr/bin"}
    )
    assert called.returncode == 0, called.stderr
    import json

    found = json.loads(called.stdout)
    assert found["content"] == "a.py" and found["version"].startswith("0+catalog.")
    home = folder if editable else site
    assert found["file"] == str(home / PACKAGE / "__init__.py")
    assert (home / PACKAGE / "py.typed").is_file()
    assert sys.executable != str(python)
