"""The `python` target: a typed package under `python/<package>/` made from the catalog.

Files: the runtime (`_runtime.py`, `_results.py`, `_schemas.py`, the adapters under `integrations/`
and the rest of `python_runtime.PACKAGE_MODULES`), copied byte for byte from `toolgen/runtime/`;
one `<module>.py` per tool (`templates/python/tool.py.jinja`, models from `python_models`);
`__init__.py` (`CATALOG`, `CONTRACTS` and the runtime's public names, `templates/python/__init__.py.jinja`)
and `py.typed`; `python/pyproject.toml` makes it installable (`python_project`). Each tool module
also carries its OpenAI and MCP declarations
(`python_shared.declarations`). The mocks target adds `mocks.py` and its synthesizer.

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
from toolgen.render.python_black import format_modules, format_python, keep_passes
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
from toolgen.render.python_shared import declarations
from toolgen.render.units import Files
from toolgen.templating import environment, templates_digest
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
        "declarations": pyblock(declarations(contract, settings)),
    }


def _tuple(texts: tuple[str, ...]) -> str | None:
    """A tuple of strings as black writes it (double quotes); None for an empty one."""
    if not texts:
        return None
    items = ", ".join(pyliteral(t) for t in texts)
    return f"({items},)" if len(texts) == 1 else f"({items})"


def _render(settings: Settings, template: str, view: Mapping[str, Any], executor: Executor, varying: str = "") -> str:
    env = environment(settings.templates_dir)
    return format_masked(env.get_template(template).render(**view), varying, lambda text: format_python(text, executor))


def render(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> RenderResult:
    """Render the package: runtime, one module per tool, `__init__.py` and `py.typed`."""
    executor = context.executor
    together = _tools_together(catalog, settings, executor)
    try:
        artifacts, found = together if together is not None else _package(catalog, settings, executor)
    except ModelsMissing as exc:
        return RenderResult(diagnostics=exc.problems)
    except (jinja2.TemplateError, InvalidSource) as exc:
        return RenderResult(diagnostics=(_template_problem(settings, exc),))
    return RenderResult(artifacts=tuple(sorted(artifacts, key=lambda a: a.path)), diagnostics=tuple(found))


Made = tuple[list[File], list[Diagnostic]]
"""The package's files, and what its tool modules report of their contracts (TG351, TG353, TG354)."""

ModelsOf = Callable[[Sequence[Contract]], Mapping[str, ToolModels]]
"""The models of some tools, by name: only the tools whose module is made again need them."""


def check(catalog: Catalog, settings: Settings, context: RenderContext = PLAIN_CONTEXT) -> list[Diagnostic]:
    """What `render` reports about the contracts (TG350, TG351, TG353, TG354), without rendering a file.

    `toolgen validate` runs it; only TG352, about template overrides, needs the files rendered."""
    models, problems = models_with_failures(catalog, settings.python_package, context.executor)
    return problems or notes(catalog, models)


def _tools_together(catalog: Catalog, settings: Settings, executor: Executor) -> Made | None:
    """Each tool's module, made batch by batch in forked workers: models, template, black.

    One pass over the tools instead of three (models in workers, templates here, black in workers):
    no core waits at the end of one stage for the next, and the templates render in the workers
    too (the executor brings back what each worker did with the build cache). None when it does
    not pay (one core, few tools) or anything failed: the stage by stage path then runs and reports
    the failure against its contract.
    """
    together = settings.thresholds.together_min
    if executor.jobs < 2 or len(catalog) < together:
        return None
    modules = module_names(catalog.names)
    templates = templates_digest(settings.templates_dir)
    if executor.pending(_module_units(settings, modules, templates), list(catalog)) < together:
        return None  # most modules are remembered: read here, make the few others stage by stage
    make = functools.partial(_tool_batch, settings=settings, modules=modules, templates=templates, executor=executor)
    shared: list[File] = []

    def during() -> None:  # here while the workers make the tools: the package's shared modules,
        shared.extend(_shared(catalog, settings, executor))
        if executor.incremental:  # and what the next build keeps unread models by
            schemas_digests(list(catalog), executor)

    try:
        made = executor.map_batches(make, list(catalog), settings.thresholds.models_batch, during=during)
    except (ModelsFailed, jinja2.TemplateError, InvalidSource):  # the stage by stage path reports it
        return None
    return [*shared, *(artifact for artifact, _ in made)], [d for _, found in made for d in found]


def _tool_batch(
    batch: Sequence[Contract], settings: Settings, modules: Mapping[str, str], templates: str, executor: Executor
) -> list[tuple[File, list[Diagnostic]]]:
    """One batch's tool modules and their notes (in a worker, where the executor forks no further)."""
    batch_size = settings.thresholds.models_batch
    models_of = functools.partial(models_for, package=settings.python_package, executor=executor, batch_size=batch_size)
    return _tool_texts(batch, settings, modules, models_of, templates, executor=executor)


def _template_problem(settings: Settings, exc: Exception) -> Diagnostic:
    where = str(settings.templates_dir) if settings.templates_dir is not None else "built-in templates"
    name = "InvalidInput" if isinstance(exc, InvalidSource) else type(exc).__name__  # black's own name for it
    message = f"python: a template ({where}) failed: {name}: {exc}"
    return Diagnostic(TEMPLATE_FAILED.code, TEMPLATE_FAILED.severity, message, settings.config_file or "")


def _package(catalog: Catalog, settings: Settings, executor: Executor) -> Made:
    """The package's files, tool modules made here chunk by chunk, and their notes; the models only
    of the tools whose module is made (`ModelsMissing` when dcg cannot make some)."""

    def models_of(todo: Sequence[Contract]) -> Mapping[str, ToolModels]:
        models, problems = models_with_failures(todo, settings.python_package, executor)
        if problems:
            raise ModelsMissing(problems)
        return models

    modules = module_names(catalog.names)
    artifacts: list[File] = [*_shared(catalog, settings, executor)]
    found: list[Diagnostic] = []
    templates = templates_digest(settings.templates_dir)
    contracts = list(catalog)
    schemas = schemas_digests(contracts, executor) if executor.incremental else {}
    step = settings.thresholds.render_chunk
    for start in range(0, len(contracts), step):  # only a chunk's texts are ever held at once
        chunk = contracts[start : start + step]
        made = _tool_texts(chunk, settings, modules, models_of, templates, executor=executor, schemas=schemas)
        for artifact, notes_of in made:
            artifacts.append(artifact)
            found.extend(notes_of)
    return artifacts, found


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


def _tool_texts(
    contracts: Sequence[Contract],
    settings: Settings,
    modules: Mapping[str, str],
    models_of: ModelsOf,
    templates: str,
    *,
    executor: Executor,
    schemas: Mapping[str, str] | None = None,
) -> list[tuple[File, list[Diagnostic]]]:
    """Each contract's formatted module and its notes (`contract_notes`), cached on what shapes
    them: the contract (its digest and file), its module name, the package and the templates
    (`toolgen.incremental.cache` adds toolgen's source and the pinned versions). A one-contract change
    renders one module, not every module's view, and walks one contract's schemas for the notes;
    the incremental layer need not even read the other modules (`Executor.files`). `schemas`: each
    tool's `schemas_digest`, when the caller has them, to keep the models of the modules left unread."""

    computed: set[str] = set()

    def make(todo: Sequence[Contract]) -> list[tuple[str, dict[str, Any]]]:
        computed.update(c.name for c in todo)
        models = models_of(todo)
        template = environment(settings.templates_dir).get_template("python/tool.py.jinja")
        views = (_tool_view(c, modules[c.name], models[c.name], settings) for c in todo)
        texts = format_modules([template.render(**view) for view in views], executor)
        return [(text, module_extra(c, models[c.name], digest)) for c, (text, digest) in zip(todo, texts, strict=True)]

    made = executor.files(_module_units(settings, modules, templates, make), contracts)
    unread = [c for c in contracts if c.name not in computed]  # their models and black's pass: the next edit needs them
    executor.keep(models_units(settings.python_package, schemas=schemas), unread)
    keep_passes([digest for _, (_, digest) in made], executor)
    return [(artifact, notes) for artifact, (notes, _) in made]


def _module_units(
    settings: Settings,
    modules: Mapping[str, str],
    templates: str,
    make: Callable[[Sequence[Contract]], Sequence[tuple[str, Any]]] | None = None,
) -> Files[Contract]:
    """The tool modules as units, each made from its contract (its digest and file), its module
    name, the package, the `[providers]` table (the declarations follow it) and the templates
    (`make`: None where they are only counted)."""
    package = settings.python_package
    providers = json.dumps(settings.providers, sort_keys=True)
    return Files(
        "module",
        depends_on=lambda c: (templates, package, providers, modules[c.name], c.source, c.digest),
        path_of=lambda c: f"python/{package}/{modules[c.name]}.py",
        make=make or _never,
        decode_extra=module_notes,
    )


def _never(todo: Sequence[Contract]) -> list[tuple[str, Any]]:
    raise AssertionError("units declared only to be counted are never made")


def catalog_source(catalog: Catalog, name: str) -> str:
    """The contract file of the tool `name`."""
    contract = catalog.get(name)
    return contract.source if contract is not None else name


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
