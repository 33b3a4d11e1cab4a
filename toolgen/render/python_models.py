"""Pydantic v2 models for the Python target, made by datamodel-code-generator (dcg) in-process.

This is the only module that calls dcg. `models_for(contracts)` takes many contracts at once so a
later change can batch or cache the calls without touching the target. dcg is pinned exactly
(output changes between releases) and called with explicit settings: no timestamp, no formatter
(the target runs black itself with a fixed mode), Python 3.11, field descriptions as
`Field(description=...)` (dcg writes them with `repr`, so no contract text reaches a docstring),
enums as `Literal`. Every class dcg names is prefixed with the tool's `<Pascal>Input` or
`<Pascal>Output`, so the input and output models of a tool never collide with each other or with
the names the tool module adds (`ErrorCode`, `CONTRACT`, `Implementation`).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from toolgen import cache
from toolgen.catalog import Contract, canonical_json
from toolgen.frozen import thaw
from toolgen.parallel import pmap

DCG_VERSION = metadata.version("datamodel-code-generator")
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


def _class_namer(root: str) -> Callable[[str], str]:
    def name(raw: str) -> str:
        return root if raw == "Model" else root + pascal(raw)

    return name


def _dcg(schema: Mapping[str, object], root: str, package: str) -> str:
    from datamodel_code_generator import InputFileType, LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType

    plain = thaw(schema)
    for key in ("title", "$id"):  # dcg would name the root class after these; the root is named `root`
        plain.pop(key, None)
    code = generate(
        plain,
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.PydanticV2BaseModel,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        formatters=[],
        class_name=root,
        custom_class_name_generator=_class_namer(root),
        field_extra_keys={"description"},
        enum_field_as_literal=LiteralType.All,
        use_standard_collections=True,
        use_union_operator=True,
        use_annotated=True,
        field_constraints=True,
        strict_nullable=True,
        base_class=f"{package}._runtime.ToolModel",
        type_mappings=list(TYPE_MAPPINGS),
    )
    if not isinstance(code, str):
        raise TypeError(f"datamodel-code-generator returned {type(code).__name__} for {root}")
    if not re.search(rf"^class {root}\(", code, re.MULTILINE):
        raise ValueError(f"datamodel-code-generator did not make the class {root}")
    return code


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


def tool_models(contract: Contract, package: str) -> ToolModels:
    """The input (and output) models of one contract; they derive from `<package>._runtime.ToolModel`."""
    base = pascal(contract.name)
    code, notes = _noted(contract.input_schema, base + "Input", package, "/input_schema")
    imports, input_body = _split(code)
    bodies = [input_body]
    output_class = None
    if contract.output_schema is not None:
        output_class = base + "Output"
        code, output_notes = _noted(contract.output_schema, output_class, package, "/output_schema")
        output_imports, output_body = _split(code)
        imports.extend(output_imports)
        bodies.append(output_body)
        notes.extend(output_notes)
    return ToolModels(_merge_imports(imports), "\n\n\n".join(bodies), base + "Input", output_class, tuple(notes))


def models_for(contracts: Iterable[Contract], package: str) -> dict[str, ToolModels]:
    """The models of many contracts, by tool name (the one entry point into dcg).

    Cached per tool on what shapes its models (name, schemas, package; `toolgen.cache` adds the
    toolgen and dcg versions); the tools not in the cache are made in parallel (`toolgen.parallel`).
    """
    ordered = list(contracts)

    def make(todo: Sequence[Contract]) -> list[ToolModels]:
        return pmap(functools.partial(tool_models, package=package), todo)

    made = cache.memo_many(
        "models",
        ordered,
        parts_of=functools.partial(_key, package=package),
        compute_many=make,
        encode=_encode,
        decode=_decode,
    )
    return {contract.name: models for contract, models in zip(ordered, made, strict=True)}


def _key(contract: Contract, package: str) -> tuple[str, ...]:
    output = canonical_json(contract.output_schema) if contract.output_schema is not None else ""
    return (package, contract.name, canonical_json(contract.input_schema), output)


def _encode(models: ToolModels) -> dict[str, object]:
    return dataclasses.asdict(models)


def _decode(data: Any) -> ToolModels:
    return ToolModels(
        imports=tuple(str(line) for line in data["imports"]),
        body=str(data["body"]),
        input_class=str(data["input_class"]),
        output_class=None if data["output_class"] is None else str(data["output_class"]),
        notes=tuple((str(pointer), str(text)) for pointer, text in data["notes"]),
    )
