"""The Jinja2 classes behind `templating.environment`: a project's own template that fails is its
author's problem, reported as `templating.TemplateFailed` (its file and line), not a bug in toolgen.

A template comes from the project's `templates` folder (an override) or from toolgen's built-ins.
When an override fails to compile (a syntax error, in it or in a template it includes), fails as it
renders (an undefined name, a filter given the wrong value: the innermost template line of the
error is in an override), or renders a Python module (`*.py.jinja`) that does not parse, the error
is raised as `templating.TemplateFailed`, naming the override and the line in it (for invalid Python, the
template line that the offending rendered line comes from when it appears once there, verbatim;
else the message quotes the rendered line). An error in a built-in template stays what it is.
Imported only when a template is rendered (it loads jinja2).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Mapping, MutableMapping
from types import TracebackType
from typing import Any

import jinja2

Failure = Callable[[str, int | None, str], Exception]
"""What an override's failure is raised as: `templating.TemplateFailed(path, line, message)`
(handed in by `templating`, which imports this module, so that this one need not import it)."""


class GuardedEnvironment(jinja2.Environment):
    """An environment whose templates from `override` (the project's folder) fail as `TemplateFailed`."""

    override: str | None = None
    """The project's templates folder, with a trailing separator; None when there is none."""
    failure: Failure = RuntimeError
    """The exception an override's failure is raised as (`make`)."""

    def owns(self, filename: str | None) -> bool:
        """Whether `filename` is a template of the project's folder (not a built-in)."""
        return self.override is not None and filename is not None and filename.startswith(self.override)

    def get_template(
        self,
        name: str | jinja2.Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        """The template `name`; an override that does not compile is `TemplateFailed`."""
        try:
            return super().get_template(name, parent, globals)
        except jinja2.TemplateSyntaxError as exc:
            failed = _syntax(self, exc)
            if failed is None:
                raise
            raise failed from None


class GuardedTemplate(jinja2.Template):
    """A template whose rendering fails as `TemplateFailed` when the failing line is an override's."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        """The rendered text; an override's error (or its invalid Python) is `TemplateFailed`."""
        environment = self.environment
        assert isinstance(environment, GuardedEnvironment)
        try:
            text = super().render(*args, **kwargs)
        except jinja2.TemplateSyntaxError as exc:  # an included template that does not compile
            failed = _syntax(environment, exc)
            if failed is None:
                raise
            raise failed from None
        except Exception as exc:
            failed = _at_runtime(environment, exc)
            if failed is None:
                raise
            raise failed from None
        if environment.owns(self.filename) and (self.name or "").endswith(".py.jinja"):
            _parses(self, text, environment.failure)
        return text


def make(search_path: tuple[str, ...], filters: Mapping[str, Any], failure: Failure) -> GuardedEnvironment:
    """The environment over `search_path` (the project's folder first when there are two), raising
    an override's failure as `failure`."""
    env = GuardedEnvironment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
    )
    env.template_class = GuardedTemplate
    env.override = os.path.join(search_path[0], "") if len(search_path) > 1 else None
    env.failure = failure
    env.filters.update(filters)
    return env


def _syntax(environment: GuardedEnvironment, exc: jinja2.TemplateSyntaxError) -> Exception | None:
    if not environment.owns(exc.filename):
        return None
    assert exc.filename is not None
    return environment.failure(exc.filename, exc.lineno, f"template syntax error: {exc.message}")


def _at_runtime(environment: GuardedEnvironment, exc: Exception) -> Exception | None:
    """The failure of an override, when the error's innermost template line is in one (for a Jinja
    error, such as an undefined name), or its innermost line of all is (any other error)."""
    frames = list(_frames(exc.__traceback__))
    templates = [f for f in frames if f[0].endswith(".jinja")]
    if not templates or (not isinstance(exc, jinja2.TemplateError) and frames[-1] != templates[-1]):
        return None
    filename, line = templates[-1]
    if not environment.owns(filename):
        return None
    what = "an undefined name" if isinstance(exc, jinja2.UndefinedError) else type(exc).__name__
    return environment.failure(filename, line, f"template failed as it rendered ({what}): {exc}")


def _frames(tb: TracebackType | None) -> list[tuple[str, int]]:
    found = []
    while tb is not None:
        found.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return found


def _parses(template: jinja2.Template, text: str, failure: Failure) -> None:
    """Raise `failure` when a Python template's text does not parse."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        lines = text.splitlines()
        rendered = lines[exc.lineno - 1] if exc.lineno and exc.lineno <= len(lines) else ""
        assert template.filename is not None
        line = _source_line(template.filename, rendered)
        message = f"template renders invalid Python: {exc.msg} at line {exc.lineno} of its text: `{rendered.strip()}`"
        raise failure(template.filename, line, message) from None


def _source_line(filename: str, rendered: str) -> int | None:
    """The line of the template file that reads as `rendered` does, when exactly one does."""
    wanted = rendered.strip()
    try:
        with open(filename, encoding="utf-8") as stream:
            hits = [n for n, line in enumerate(stream, 1) if wanted and line.strip() == wanted]
    except (OSError, UnicodeDecodeError):
        return None
    return hits[0] if len(hits) == 1 else None
