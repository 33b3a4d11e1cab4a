"""A project's templates are guarded like its contracts, and their errors are their author's.

A template override read through a symlink that leads out of the project (or a FIFO named like a
template) is refused (TG138), with the contracts' own guard (`discovery`); an override with a Jinja
syntax error, an undefined name at render time, or that renders a Python module that does not parse
is TG139, naming the template file and line, exit 1, nothing written: never "a bug in toolgen".
"""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from tests.build_support import run, tree, two_tools
from toolgen import templating

BUG = "bug in toolgen"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with two tools whose `templates` setting names `tpl/` (docs and mocks only, unless
    a test sets the python target too)."""
    root = tmp_path / "project"
    two_tools(root)
    (root / "tpl" / "docs").mkdir(parents=True)
    _targets(root, ["docs", "mocks"])
    return root


def _targets(root: Path, targets: list[str]) -> None:
    listed = ", ".join(f'"{t}"' for t in targets)
    (root / "toolgen.toml").write_text(f'templates = "tpl"\ntargets = [{listed}]\n', encoding="utf-8")


def _fails(root: Path, code: str, where: str) -> str:
    """Build `root`: exit 1, the diagnostic `code` at `where` (`file` or `file:line`), nothing written."""
    exit_code, stdout, stderr = run(root, "build")
    assert exit_code == 1, stdout + stderr
    assert f"{where}: {code} " in stderr, stderr
    assert BUG not in stderr and "Traceback" not in stderr
    assert not (root / "generated").exists()
    return stderr


def test_a_template_linked_out_of_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("the password is hunter2\n", encoding="utf-8")
    (project / "tpl" / "docs" / "tool.md.jinja").symlink_to(secret)
    stderr = _fails(project, "TG138", "tpl/docs/tool.md.jinja")
    assert "leads outside the project" in stderr


def test_a_template_folder_linked_out_of_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "tool.md.jinja").write_text("# {{ nothing }}\n", encoding="utf-8")
    shutil.rmtree(project / "tpl" / "docs")
    (project / "tpl" / "docs").symlink_to(outside, target_is_directory=True)
    _fails(project, "TG138", "tpl/docs")


def test_a_template_linked_inside_the_project_is_read(project: Path) -> None:
    """A link that stays in the project is no escape: it is read, as a contract linked so is."""
    shared = project / "shared" / "page.md.jinja"
    shared.parent.mkdir()
    shared.write_text("# {{ heading }} (linked page)\n", encoding="utf-8")
    (project / "tpl" / "docs" / "tool.md.jinja").symlink_to(shared)
    code, stdout, stderr = run(project, "build")
    assert code == 0, stdout + stderr
    page = (project / "generated" / "docs" / "echo_text.md").read_text()
    assert page.startswith("# ") and "echo_text" in page and page.endswith("(linked page)\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_named_like_a_template_is_refused_not_read(project: Path) -> None:
    os.mkfifo(project / "tpl" / "docs" / "tool.md.jinja")
    stderr = _fails(project, "TG138", "tpl/docs/tool.md.jinja")
    assert "not a regular file" in stderr


def test_a_syntax_error_names_the_template_and_line(project: Path) -> None:
    (project / "tpl" / "docs" / "tool.md.jinja").write_text("# {{ heading }}\n{% if x %}\nopen\n")
    stderr = _fails(project, "TG139", "tpl/docs/tool.md.jinja:3")
    assert "syntax error" in stderr and "endif" in stderr


def test_an_undefined_name_names_the_template_and_line(project: Path) -> None:
    (project / "tpl" / "docs" / "tool.md.jinja").write_text("# {{ heading }}\n\n{{ no_such_thing }}\n")
    stderr = _fails(project, "TG139", "tpl/docs/tool.md.jinja:3")
    assert "'no_such_thing' is undefined" in stderr


def test_an_error_in_an_included_override_names_that_file(project: Path) -> None:
    (project / "tpl" / "docs" / "tool.md.jinja").write_text('# {{ heading }}\n{% include "docs/part.jinja" %}\n')
    (project / "tpl" / "docs" / "part.jinja").write_text("ok\n{{ missing.attribute }}\n")
    _fails(project, "TG139", "tpl/docs/part.jinja:2")


def test_a_python_template_that_renders_invalid_python_names_the_line(project: Path) -> None:
    _targets(project, ["python"])
    (project / "tpl" / "python").mkdir()
    body = '"""A tool."""\n\nVALUE = 1\ndef broken(:\n    pass\n'
    (project / "tpl" / "python" / "tool.py.jinja").write_text(body, encoding="utf-8")
    stderr = _fails(project, "TG139", "tpl/python/tool.py.jinja:4")
    assert "invalid Python" in stderr and "def broken(:" in stderr


def test_the_built_in_templates_copied_as_overrides_build_the_same(project: Path, tmp_path: Path) -> None:
    """Every built-in template, copied into the project's folder unchanged, is a valid override:
    no false alarm (the Python ones render modules that parse), the same files."""
    _targets(project, ["python", "docs", "mocks", "providers", "catalog"])
    shutil.rmtree(project / "tpl")
    shutil.copytree(templating.builtin_templates_dir(), project / "tpl")
    code, stdout, stderr = run(project, "build", "--no-cache")
    assert code == 0, stdout + stderr
    plain = tmp_path / "plain"
    shutil.copytree(project / "contracts", plain / "contracts")
    assert run(plain, "build", "--no-cache")[0] == 0
    assert tree(project / "generated") == tree(plain / "generated")


def test_a_template_failure_crosses_a_fork() -> None:
    failed = templating.TemplateFailed("/p/tpl/docs/tool.md.jinja", 3, "template syntax error: x")
    back = pickle.loads(pickle.dumps(failed))
    assert (back.path, back.line, back.message) == (failed.path, failed.line, failed.message)
