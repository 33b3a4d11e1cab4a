"""The `python` target: a typed package under `python/<package>/` made from the catalog.

Files: the runtime (`_runtime.py`, `_results.py`, `_schemas.py`, the adapters under `integrations/`
and the rest of `python_runtime.PACKAGE_MODULES`), copied byte for byte from `toolgen/runtime/`;
one `<module>.py` per tool (`templates/python/tool.py.jinja`, models from `python_models`);
`__init__.py` (`CATALOG`, `CONTRACTS` and the runtime's public names, `templates/python/__init__.py.jinja`)
and `py.typed`; `python/pyproject.toml` makes it installable (`python_project`). Each tool module
also carries its OpenAI and MCP declarations
(`python_shared.provider_entries`). The mocks target adds `mocks.py` and its synthesizer.

Module names: a tool's module is its name, with a trailing underscore when the name is a Python
keyword or one of the package's own modules (`RESERVED_MODULES`), and more underscores until it
differs from every other tool's module. All contract text reaches Python as `repr` literals
(`pyliteral`), never inside a docstring or comment, so nothing can break out of its string; header
comments are escaped the same way. Every file is black-formatted in-process with a fixed mode, so
a user's black configuration cannot change the output. In a tool module black formats only the
models (`python_format`): the header and imports above them are written in black's layout, and
everything below them sits between `# fmt: off` and `# fmt: on`, laid out by `pyblock` (the schema
and example literals) and by `call_lines` / `tuple_lines` / `signature_lines` as black splits them.
"""

from __future__ import annotations

import functools
import json
import keyword
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import jinja2

from toolgen.catalog import Catalog, Contract
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic
from toolgen.render import Artifact, File, RenderResult, header_lines
from toolgen.render.context import PLAIN_CONTEXT, Executor, RenderContext
from toolgen.render.python_black import PASSES, format_modules, format_python
from toolgen.render.python_checks import (
    TEMPLATE_FAILED,
    models_with_failures,
    module_extra,
    module_notes,
    notes,
)
from toolgen.render.python_format import InvalidSource, format_masked
from toolgen.render.python_imports import import_block
from toolgen.render.python_layout import (
    LAYOUT_WIDTH,
    call_lines,
    error_lines,
    permission_lines,
    pyblock,
    pyliteral,
    safe_comment,
    signature_lines,
    tuple_lines,
)
from toolgen.render.python_models import (
    DCG_VERSION,
    ModelsFailed,
    ModelsMissing,
    ToolModels,
    models_for,
    models_units,
    schemas_digests,
)
from toolgen.render.python_project import pyproject
from toolgen.render.python_runtime import PACKAGE_MODULES, source
from toolgen.render.python_shared import provider_entries
from toolgen.render.units import Files, Unit, Values
from toolgen.templating import template_environment, templates_digest
from toolgen.versions import installed_version

BLACK_VERSION = installed_version("black")
"""The black version every generated Python file is formatted with."""


TOOL_IMPORTS: tuple[str, ...] = (
    "from collections.abc import Mapping",
    "from typing import Any, Final, Literal, Protocol",
    "from . import _runtime",
)
"""What every tool module imports besides its models' imports."""

RESERVED_MODULES: frozenset[str] = frozenset({"integrations", "mocks"})
"""Module names the package uses itself (besides `_runtime` and `__init__`, which no tool name can be)."""


def module_names(names: Iterable[str]) -> dict[str, str]:
    """Tool name -> module name: keywords and reserved names get underscores until unique."""
    ordered = sorted(names)
    taken = {n for n in ordered if not _needs_suffix(n)}
    result: dict[str, str] = {}
    for name in ordered:
        module = name
        if _needs_suffix(name):
            module = name + "_"
            while module in taken:
                module += "_"
            taken.add(module)
        result[name] = module
    return result


def _needs_suffix(name: str) -> bool:
    return keyword.iskeyword(name) or name in RESERVED_MODULES


def _header(sources: str) -> list[str]:
    lines = header_lines(sources)
    lines.append(f"Models by datamodel-code-generator {DCG_VERSION}; formatted by black {BLACK_VERSION}.")
    return [safe_comment(line) for line in lines]


def _errors_literal(contract: Contract) -> list[str]:
    return [
        f"_runtime.ErrorInfo({pyliteral(e.code)}, {pyliteral(e.description)}, {e.retryable!r})" for e in contract.errors
    ]


def _tool_view(contract: Contract, module: str, models: ToolModels, settings: Settings) -> dict[str, Any]:
    output = contract.output_schema
    return {
        "header": _header(contract.source),
        "module": module,
        "tool_name": contract.name,  # validated: [a-z][a-z0-9_]*, safe in a docstring
        "imports": import_block([*models.imports, *TOOL_IMPORTS], settings.python_package),
        "models": models.body,
        "input_class": models.input_class,
        "output_class": models.output_class,
        "error_codes": [pyliteral(code) for code in contract.all_error_codes],
        "name": pyliteral(contract.name),
        "version": pyliteral(contract.version),
        "title": pyliteral(contract.title),
        "description": pyliteral(contract.description),
        "permissions": [pyliteral(p) for p in contract.permissions],
        "input_schema": pyblock(contract.input_schema),
        "output_schema": pyblock(output) if output is not None else "None",
        "errors": _errors_literal(contract),
        "error_lines": error_lines(contract),
        "permission_lines": permission_lines(contract),
        "signature_lines": signature_lines(models.input_class, models.output_class),
        "idempotent": repr(contract.idempotent),
        "deprecated": pyliteral(contract.deprecated),
        "digest": pyliteral(contract.digest),
        "examples": pyblock([e.to_json() for e in contract.examples]),
        "timeout_ms": repr(contract.timeout_ms) if contract.timeout_ms is not None else None,
        "content_kinds": _tuple(contract.content_kinds),
        "tags": _tuple(contract.tags),
        "excluded_errors": _tuple(contract.excluded_errors),
        "declarations": pyblock(provider_entries(contract, settings)),
    }


def _tuple(texts: tuple[str, ...]) -> str | None:
    """A tuple of strings as black writes it (double quotes); None for an empty one."""
    if not texts:
        return None
    items = ", ".join(pyliteral(t) for t in texts)
    return f"({items},)" if len(texts) == 1 else f"({items})"


def _render(settings: Settings, template: str, view: Mapping[str, Any], executor: Executor, varying: str = "") -> str:
    env = template_environment(settings.templates_dir)
    return format_masked(env.get_template(template).render(**view), varying, lambda text: format_python(text, executor))


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the package: runtime, one module per tool, `__init__.py` and `py.typed`."""
    tools = _ToolModules(catalog, settings, context.executor)
    try:
        made = context.executor.files(tools.units(), list(catalog))
        tools.share()
    except ModelsMissing as exc:
        return RenderResult(diagnostics=exc.problems)
    except (jinja2.TemplateError, InvalidSource) as exc:
        return RenderResult(diagnostics=(_template_problem(settings, exc),))
    artifacts = [*tools.shared, *(artifact for artifact, _ in made)]
    found = [d for _, (notes_of, _) in made for d in notes_of]
    return RenderResult(artifacts=tuple(sorted(artifacts, key=lambda a: a.path)), diagnostics=tuple(found))


ModelsOf = Callable[[Sequence[Contract]], Mapping[str, ToolModels]]
"""The models of some tools, by name: only the tools whose module is made again need them."""


def check(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> list[Diagnostic]:
    """What `render` reports about the contracts (TG350, TG351, TG353, TG354), without rendering a file.

    `toolgen validate` runs it; only TG352, about template overrides, needs the files rendered."""
    models, problems = models_with_failures(catalog, settings.python_package, context.executor)
    return problems or notes(catalog, models)


class _ToolModules:
    """The tool modules of one package as units (`units`): each made from its contract (its digest
    and file), its module name, the package, the `[providers]` table (the declarations follow it)
    and the templates. The executor makes only those it does not have (`make`); a module it leaves
    unread names what its next edit is made from (`remade_from`: its models, black's pass over it).
    The package's own modules (`shared`) render while workers make tool modules, or after them."""

    def __init__(self, catalog: Catalog, settings: Settings, executor: Executor) -> None:
        self.catalog = catalog
        self.settings = settings
        self.executor = executor
        self.modules = module_names(catalog.names)
        self.templates = templates_digest(settings.templates_dir)
        self.shared: list[File] = []
        self._models: Values[Contract, ToolModels] | None = None

    def units(self) -> Files[Contract]:
        """The tool modules as units."""
        package, modules, templates = self.settings.python_package, self.modules, self.templates
        providers = json.dumps(self.settings.providers, sort_keys=True)
        return Files(
            "module",
            depends_on=lambda c: (templates, package, providers, modules[c.name], c.source, c.digest),
            path_of=lambda c: f"python/{package}/{modules[c.name]}.py",
            make=self.make,
            decode_extra=module_notes,
            remade_from=self.remade_from,
        )

    def share(self) -> None:
        """The package's shared modules (`_shared`), once, and the models' units as a module left
        unread names them (each tool's schemas digest, remembered: the next build needs them)."""
        if not self.shared:
            self.shared.extend(_shared(self.catalog, self.settings, self.executor))
        self.models()

    def models(self) -> Values[Contract, ToolModels]:
        """The tools' models as units, keyed on each tool's schemas digest (`schemas_digests`, once:
        writing 1,000 tools' schemas as JSON to key them took a one-contract build 30 ms)."""
        if self._models is None:
            schemas = schemas_digests(list(self.catalog), self.executor)
            self._models = models_units(self.settings.python_package, schemas=schemas)
        return self._models

    def remade_from(self, contract: Contract, extra: tuple[list[Diagnostic], str]) -> list[Unit]:
        """What the module of `contract` is made again from: its models, and black's pass over it
        (`extra`: its notes and that pass's digest, "" when black saw all of it)."""
        digest = extra[1]
        return [(self.models(), contract), (PASSES, digest)] if digest else [(self.models(), contract)]

    def make(self, todo: Sequence[Contract]) -> list[tuple[str, dict[str, Any]]]:
        """Each module's text and its extra (`module_extra`), in order.

        With two cores and at least `together_min` of them, each batch's modules are made in one
        pass in forked workers (models, template, black): no core waits at the end of one stage for
        the next, and the shared modules render here meanwhile. Otherwise, or when that failed (the
        stage by stage way then reports it against its contract), stage by stage a chunk at a time
        (`render_chunk`: only a chunk's views are held at once), the models and black spread out."""
        thresholds = self.settings.thresholds
        if self.executor.jobs >= 2 and len(todo) >= thresholds.together_min:
            try:
                return self.executor.map_batches(self._one_pass, todo, thresholds.models_batch, during=self.share)
            except (ModelsFailed, jinja2.TemplateError, InvalidSource):
                pass
        step = thresholds.render_chunk
        return [made for start in range(0, len(todo), step) for made in self._texts(todo[start : start + step])]

    def _one_pass(self, batch: Sequence[Contract]) -> list[tuple[str, dict[str, Any]]]:
        """One batch's modules (in a worker, where the executor forks no further)."""
        package, size = self.settings.python_package, self.settings.thresholds.models_batch
        return self._texts(
            batch, functools.partial(models_for, package=package, executor=self.executor, batch_size=size)
        )

    def _texts(self, todo: Sequence[Contract], models_of: ModelsOf | None = None) -> list[tuple[str, dict[str, Any]]]:
        """Each module's formatted text and extra; the models by `models_of`, else as `render` reports
        them (`ModelsMissing` when dcg cannot make some)."""
        models = (models_of or self._models_or_problems)(todo)
        template = template_environment(self.settings.templates_dir).get_template("python/tool.py.jinja")
        views = (_tool_view(c, self.modules[c.name], models[c.name], self.settings) for c in todo)
        texts = format_modules([template.render(**view) for view in views], self.executor)
        return [(text, module_extra(c, models[c.name], digest)) for c, (text, digest) in zip(todo, texts, strict=True)]

    def _models_or_problems(self, todo: Sequence[Contract]) -> Mapping[str, ToolModels]:
        models, problems = models_with_failures(todo, self.settings.python_package, self.executor)
        if problems:
            raise ModelsMissing(problems)
        return models


def _template_problem(settings: Settings, exc: Exception) -> Diagnostic:
    where = str(settings.templates_dir) if settings.templates_dir is not None else "built-in templates"
    name = "InvalidInput" if isinstance(exc, InvalidSource) else type(exc).__name__  # black's own name for it
    message = f"python: a template ({where}) failed: {name}: {exc}"
    return Diagnostic(TEMPLATE_FAILED.code, TEMPLATE_FAILED.severity, message, settings.config_file or "")


def _shared(catalog: Catalog, settings: Settings, executor: Executor) -> list[Artifact]:
    """The modules every package has: the runtime (copied as it is), `__init__.py`, `py.typed`; and
    `pyproject.toml` beside the package folder (`python_project`)."""
    base = f"python/{settings.python_package}/"
    modules = module_names(catalog.names)
    shared = [Artifact(f"{base}{name}.py", source(name)) for name in PACKAGE_MODULES]
    init = _render(settings, "python/__init__.py.jinja", _init_view(catalog, modules), executor, catalog.digest)
    return [
        Artifact(base + "py.typed", ""),
        *shared,
        Artifact(base + "__init__.py", init),
        pyproject(catalog, settings),
    ]


def _init_view(catalog: Catalog, modules: Mapping[str, str]) -> dict[str, Any]:
    count = len(catalog)
    return {
        "header": _header(f"{count} contract{'s' if count != 1 else ''} (catalog {catalog.digest})"),
        "modules": [modules[name] for name in catalog.names],
        "imported": sorted(["_runtime", *modules.values()], key=str.lower),
    }


__all__ = [
    "LAYOUT_WIDTH",
    "RESERVED_MODULES",
    "call_lines",
    "check",
    "format_python",
    "module_names",
    "pyblock",
    "pyliteral",
    "render",
    "safe_comment",
    "signature_lines",
    "tuple_lines",
]
