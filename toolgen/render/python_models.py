"""Pydantic v2 models for the Python target, made by datamodel-code-generator (dcg) in-process.

This is the only module that calls dcg. `models_for(contracts)` takes many contracts at once: it
caches the models per tool and makes the missing ones with one dcg run per batch of tools
(`batch_models`), in forked workers. dcg is pinned exactly (output changes between releases) and
called with explicit settings: no timestamp, no formatter (the target runs black itself with a
fixed mode), Python 3.11, field descriptions as `Field(description=...)` (dcg writes them with
`repr`, so no contract text reaches a docstring), enums as `Literal`. Every class dcg names is
prefixed with the tool's `<Pascal>Input` or `<Pascal>Output`, so the input and output models of a
tool never collide with each other or with the names the tool module adds (`ErrorCode`,
`CONTRACT`, `Implementation`).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.catalog import Contract, canonical_json, sha256
from toolgen.diagnostics import Diagnostic
from toolgen.frozen import as_array, as_object
from toolgen.render.context import PLAIN, Executor
from toolgen.render.python_widen import widen
from toolgen.render.units import Table, Values, batch, never
from toolgen.thresholds import DEFAULT
from toolgen.versions import installed_version

DCG_VERSION = installed_version("datamodel-code-generator")
"""The dcg version the models are made with (recorded in each generated header)."""

TYPE_MAPPINGS: tuple[str, ...] = ("string+email=string", "string+idn-email=string", "string+password=string")
"""Formats kept as `str`: pydantic's `EmailStr` needs the email-validator package (the generated code
may need only pydantic and jsonschema), and `SecretStr` would dump a masked value as the tool's output.
jsonschema still checks the format in the registry."""

_WORD_RE = re.compile(r"[^0-9A-Za-z]+")


def pascal(name: str) -> str:
    """`read_file` -> `ReadFile`: the Pascal-case form of a tool or property name."""
    return "".join(part[:1].upper() + part[1:] for part in _WORD_RE.split(name) if part)


@dataclass(frozen=True, slots=True)
class ToolModels:
    """The model code of one tool: merged import lines and class definitions."""

    imports: tuple[str, ...]
    body: str
    input_class: str
    output_class: str | None
    notes: tuple[tuple[str, str], ...] = ()
    """What dcg warned about, as (schema pointer, message): constraints a model cannot carry."""
    widened: tuple[tuple[str, str], ...] = ()
    """Where the model holds a wider type than the schema states, as (schema pointer, why): TG355."""


def _class_namer(root: str) -> Callable[[str], str]:
    def name(raw: str) -> str:
        return root if raw == "Model" else root + pascal(raw)

    return name


def _settings(package: str) -> dict[str, Any]:
    """The dcg settings every call shares (the class names are set per call)."""
    from datamodel_code_generator import InputFileType, LiteralType, PythonVersion
    from datamodel_code_generator.enums import DataModelType

    return {
        "input_file_type": InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "target_python_version": PythonVersion.PY_311,
        "disable_timestamp": True,
        "formatters": [],
        "field_extra_keys": {"description"},
        "enum_field_as_literal": LiteralType.All,
        "use_standard_collections": True,
        "use_union_operator": True,
        "use_annotated": True,
        "field_constraints": True,
        "strict_nullable": True,
        "base_class": f"{package}._runtime.ToolModel",
        "type_mappings": list(TYPE_MAPPINGS),
    }


def _plain(schema: Mapping[str, object]) -> dict[str, object]:
    """The schema dcg sees: widened where no model states it exactly (`python_widen`), root unnamed."""
    plain = widen(schema, "")[0]
    for key in ("title", "$id"):  # dcg would name the root class after these; the root is named `root`
        plain.pop(key, None)
    return plain


class ModelsFailed(Exception):
    """datamodel-code-generator could not make models for a schema (what it raised is the cause).

    The fallbacks (a failed batch made tool by tool, a failed tool a TG350 diagnostic) catch this
    alone: an error of toolgen's own code is never taken for dcg's and never silently retried."""


class ModelsMissing(Exception):
    """dcg could not make the models of some tools to render (TG350 for each, in `problems`)."""

    def __init__(self, problems: Sequence[Diagnostic]) -> None:
        super().__init__(f"{len(problems)} tools without models")
        self.problems = tuple(problems)


def _generate(source: Path | Mapping[str, object], **options: Any) -> object:
    """`datamodel_code_generator.generate`; whatever it raises from inside is its failure on this
    schema (its own `Error`, or an error of its internals on a schema it cannot handle)."""
    from datamodel_code_generator import generate

    try:
        return generate(source, **options)
    except Exception as exc:  # the boundary of dcg's call: nothing of toolgen's runs inside it
        raise ModelsFailed(f"{type(exc).__name__}: {exc}") from exc


PRIMED: Mapping[str, object] = {"type": "object", "properties": {"note": {"type": "string"}}}
"""The schema `prime` makes models of."""


def prime(package: str) -> None:
    """Pay datamodel-code-generator's and black's first use now: about half a second in a new process,
    a few milliseconds after. For a process that builds again and again (`toolgen watch`), before
    the edit that first needs them."""
    from toolgen.render.python_format import fixed_mode, format_source

    format_source(_dcg(PRIMED, "Primed", package), fixed_mode())


def _checked(code: object, root: str) -> str:
    if not isinstance(code, str):
        wrong = TypeError(f"datamodel-code-generator returned {type(code).__name__} for {root}")
        raise ModelsFailed(str(wrong)) from wrong
    if not re.search(rf"^class {root}\(", code, re.MULTILINE):
        missing = ValueError(f"datamodel-code-generator did not make the class {root}")
        raise ModelsFailed(str(missing)) from missing
    return code


def _dcg(schema: Mapping[str, object], root: str, package: str) -> str:
    code = _generate(
        _plain(schema), class_name=root, custom_class_name_generator=_class_namer(root), **_settings(package)
    )
    return _checked(code, root)


def _split(code: str) -> tuple[list[ast.Import | ast.ImportFrom], str]:
    """The leading import statements of dcg's output, and the code after them."""
    tree = ast.parse(code)
    imports: list[ast.Import | ast.ImportFrom] = []
    lines = code.splitlines()
    start = len(lines)
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(node)
            continue
        start = node.lineno - 1
        break
    return imports, "\n".join(lines[start:]).strip()


def _merge_imports(nodes: Iterable[ast.Import | ast.ImportFrom]) -> tuple[str, ...]:
    plain: set[str] = set()
    from_names: dict[str, set[str]] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            plain.update(ast.unparse(ast.Import(names=[alias])) for alias in node.names)
        elif node.module != "__future__":
            names = from_names.setdefault("." * node.level + (node.module or ""), set())
            names.update(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names)
    lines = sorted(plain)
    lines.extend(f"from {module} import {', '.join(sorted(names))}" for module, names in sorted(from_names.items()))
    return tuple(lines)


def _noted(schema: Mapping[str, object], root: str, package: str, pointer: str) -> tuple[str, list[tuple[str, str]]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = _dcg(schema, root, package)
    return code, sorted({(pointer, str(w.message)) for w in caught})


def _schemas(contract: Contract) -> list[tuple[Mapping[str, object], str, str]]:
    """(schema, root class, pointer) for the input and, when declared, the output of a contract."""
    base = pascal(contract.name)
    found = [(contract.input_schema, base + "Input", "/input_schema")]
    if contract.output_schema is not None:
        found.append((contract.output_schema, base + "Output", "/output_schema"))
    return found


def _assemble(contract: Contract, codes: Sequence[str], notes: Iterable[tuple[str, str]]) -> ToolModels:
    """The ToolModels of a contract from dcg's code for its input (and output) schema."""
    imports: list[ast.Import | ast.ImportFrom] = []
    bodies: list[str] = []
    for code in codes:
        found, body = _split(code)
        imports.extend(found)
        bodies.append(body)
    roots = [root for _, root, _ in _schemas(contract)]
    output_class = roots[1] if len(roots) > 1 else None
    widened = tuple(note for schema, _, pointer in _schemas(contract) for note in widen(schema, pointer)[1])
    body = "\n\n\n".join(bodies)
    return ToolModels(_merge_imports(imports), body, roots[0], output_class, tuple(notes), widened)


def tool_models(contract: Contract, package: str) -> ToolModels:
    """The input (and output) models of one contract; they derive from `<package>._runtime.ToolModel`."""
    codes: list[str] = []
    notes: list[tuple[str, str]] = []
    for schema, root, pointer in _schemas(contract):
        code, found = _noted(schema, root, package, pointer)
        codes.append(code)
        notes.extend(found)
    return _assemble(contract, codes, notes)


BATCH_MARK = "Tgbatchq"
"""The class-name prefix of a batched dcg run, replaced by each schema's root class name afterwards.
A contract whose schemas hold these letters in any case is never batched (so only class names carry it)."""


def _batch_namer(raw: str) -> str:
    return BATCH_MARK if raw == "Model" else BATCH_MARK + pascal(raw)


def batch_models(contracts: Sequence[Contract], package: str) -> list[ToolModels]:
    """`tool_models` of each contract, with one dcg run over all their schemas where that is safe.

    dcg run over a folder of schema files makes one module per file, each with its own names, so a
    schema's classes come out as a run of its own would make them (a test holds the two equal over the
    corpora), named with `BATCH_MARK` in place of the root class name, which is then put back. A batch
    that fails or warns is made again one schema at a time, so errors and notes name their tool, and
    so is a contract with a class name ending in a digit (dcg may have numbered it to avoid a clash).
    """
    batched = [c for c in contracts if not _unbatchable(c, package)]
    made = _batch(batched, package) if len(batched) > 1 else {}
    return [made[c.name] if c.name in made else tool_models(c, package) for c in contracts]


def _unbatchable(contract: Contract, package: str) -> bool:
    mark = BATCH_MARK.lower()
    texts = [package, *(canonical_json(schema) for schema, _, _ in _schemas(contract))]
    return any(mark in text.lower() for text in texts)


def _batch(contracts: Sequence[Contract], package: str) -> dict[str, ToolModels]:
    """The models of `contracts` from one dcg run, by tool name; empty when the run failed or warned."""
    import tempfile

    files: list[tuple[Contract, list[tuple[str, str]]]] = []
    with tempfile.TemporaryDirectory(prefix="toolgen-dcg-") as folder:
        for index, contract in enumerate(contracts):
            names: list[tuple[str, str]] = []
            for part, (schema, root, _) in enumerate(_schemas(contract)):
                stem = f"s{index:05d}_{part}"
                text = json.dumps(_plain(schema), ensure_ascii=False)
                (Path(folder) / f"{stem}.json").write_text(text, encoding="utf-8")
                names.append((stem, root))
            files.append((contract, names))
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = _generate(Path(folder), custom_class_name_generator=_batch_namer, **_settings(package))
        except ModelsFailed:
            caught, out = [], None
    if caught or not isinstance(out, dict):
        return {}
    made: dict[str, ToolModels] = {}
    for contract, names in files:
        texts = [out.get((f"{stem}.py",)) for stem, _ in names]
        if not all(isinstance(text, str) and not _NUMBERED.search(text) for text in texts):
            continue  # made alone, as the caller does for every contract not in the result
        try:
            pairs = zip(texts, names, strict=True)
            codes = [_checked(str(text).replace(BATCH_MARK, root), root) for text, (_, root) in pairs]
        except ModelsFailed:
            continue
        made[contract.name] = _assemble(contract, codes, ())
    return made


_NUMBERED = re.compile(rf"^class {BATCH_MARK}\w*[0-9]\(", re.MULTILINE)
"""A class dcg numbered to keep its name unique. dcg keeps class names unique across the modules of
one run before it settles each module's names, so a numbered name may differ from a run of its own."""


def models_for(
    contracts: Iterable[Contract], package: str, executor: Executor = PLAIN, batch_size: int = DEFAULT.models_batch
) -> dict[str, ToolModels]:
    """The models of many contracts, by tool name (the one entry point into dcg).

    Remembered per tool on what shapes its models (name, schemas, package; the build cache adds the
    toolgen and dcg versions); the tools not remembered are made batch by batch, spread by the executor.
    """
    ordered = list(contracts)

    def make(todo: Sequence[Contract]) -> list[ToolModels]:
        return executor.map_batches(functools.partial(batch_models, package=package), todo, batch_size)

    made = executor.run(models_units(package, make), ordered)
    return {contract.name: models for contract, models in zip(ordered, made, strict=True)}


def models_units(
    package: str,
    make: Callable[[Sequence[Contract]], Sequence[ToolModels]] | None = None,
    schemas: Mapping[str, str] | None = None,
) -> Values[Contract, ToolModels]:
    """The tools' models as units, each made from what `models_key` names (`schemas`: each tool's
    `schemas_digest` when the caller has them; `make`: None where they are only named, in a
    tool module's `remade_from`, never made)."""
    known = schemas or {}
    return Values(
        "models",
        depends_on=lambda c: models_key(c, package, known.get(c.name)),
        make=make or never,
        encode=_encode,
        decode=_decode,
    )


def models_key(contract: Contract, package: str, schemas: str | None = None) -> tuple[str, ...]:
    """What decides a tool's models: its name, its schemas (`schemas_digest`, or `schemas` when the
    caller has it) and the package."""
    return (package, contract.name, schemas if schemas is not None else schemas_digest(contract))


def schemas_digest(contract: Contract) -> str:
    """`sha256:<hex>` of a tool's input and output schemas as canonical JSON."""
    output = canonical_json(contract.output_schema) if contract.output_schema is not None else ""
    return sha256(f"{canonical_json(contract.input_schema)}\0{output}")


def schemas_digests(contracts: Sequence[Contract], executor: Executor) -> dict[str, str]:
    """Each tool's `schemas_digest` by name, remembered by contract digest: a build keeps the models of
    the tools whose module it leaves unread, and writing 1,000 tools' schemas as JSON to key them
    took a one-contract build 30 ms."""

    def decode(value: object) -> str:
        if not isinstance(value, str) or not value.startswith("sha256:"):
            raise TypeError("a remembered schemas digest is not one")
        return value

    found = executor.table(
        Table(
            "schemas",
            (),
            item_key=lambda c: c.digest,
            make=batch(schemas_digest),
            encode=str,
            decode=decode,
            resident=True,
        ),
        contracts,
    )
    return {c.name: digest for c, digest in zip(contracts, found, strict=True)}


def _encode(models: ToolModels) -> dict[str, object]:
    return dataclasses.asdict(models)


def _decode(data: object) -> ToolModels:
    """`_encode` reversed; TypeError (or KeyError, ValueError) for data of another shape."""
    fields = as_object(data)
    output_class = fields["output_class"]
    return ToolModels(
        imports=tuple(str(line) for line in as_array(fields["imports"])),
        body=str(fields["body"]),
        input_class=str(fields["input_class"]),
        output_class=None if output_class is None else str(output_class),
        notes=_pairs(fields["notes"]),
        widened=_pairs(fields["widened"]),
    )


def _pairs(data: object) -> tuple[tuple[str, str], ...]:
    """(pointer, text) pairs read back from JSON lists of two."""
    return tuple((str(pointer), str(text)) for pointer, text in map(as_array, as_array(data)))
