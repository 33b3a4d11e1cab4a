"""The Python target's diagnostics about a valid catalog (TG350, TG351, TG353, TG354), without a file rendered.

`render` reports them with the package; `check` makes the same diagnostics alone, for `toolgen
validate`, so the pre-commit hook sees what the build would. The rules of the target live here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping

from toolgen.catalog import Catalog, Contract
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.positions import join
from toolgen.render.context import Executor
from toolgen.render.python_models import ModelsFailed, ToolModels, models_for
from toolgen.rules import RULES
from toolgen.validate.schemacheck import subschemas

MODELS_FAILED = RULES["TG350"]
MODEL_WEAKER = RULES["TG351"]
TEMPLATE_FAILED = RULES["TG352"]
OBJECT_DEFAULT = RULES["TG353"]
NORMALIZED_NAME = RULES["TG354"]
MODEL_WIDER = RULES["TG355"]


def notes(catalog: Catalog, models: Mapping[str, ToolModels]) -> list[Diagnostic]:
    """TG351 (from dcg's warnings), TG353 and TG354 for a catalog whose models were made."""
    found = weaker_notes(catalog, models)
    for contract in catalog:
        found.extend(contract_notes(contract))
    return found


def weaker_notes(catalog: Catalog, models: Mapping[str, ToolModels]) -> list[Diagnostic]:
    """TG351, from dcg's warnings about the models it made."""
    made = sorted((c for c in catalog if c.name in models), key=lambda c: c.name)
    return [d for contract in made for d in weaker_notes_of(contract, models[contract.name])]


def weaker_notes_of(contract: Contract, models: ToolModels) -> list[Diagnostic]:
    """TG351 and TG355 for one tool (the python target remembers them with the tool's module)."""
    rule, wide = MODEL_WEAKER, MODEL_WIDER
    found = [
        Diagnostic(rule.code, rule.severity, weaker(contract.name, t), contract.source, p) for p, t in models.notes
    ]
    found.extend(
        Diagnostic(wide.code, wide.severity, wider(contract.name, t), contract.source, p) for p, t in models.widened
    )
    return found


def wider(name: str, why: str) -> str:
    """The TG355 message: where a model holds a wider type than its schema states."""
    return (
        f"python: the model of tool {name!r} holds this value as JSON data, wider than its schema, because {why}; "
        "the registry still judges it by the schema (add `type` or simplify the schema to get a typed field)"
    )


def contract_notes(contract: Contract) -> list[Diagnostic]:
    """TG353 and TG354 for one contract: they depend on its schemas and its file alone (the python
    target remembers them with the tool's module)."""
    found: list[Diagnostic] = []
    for here, node in _schema_nodes(contract):
        found.extend(_object_default(contract, here, node))
        found.extend(_normalized_names(contract, here, node))
    return found


def model_failure(contract: Contract, exc: Exception) -> Diagnostic:
    """TG350 for a contract dcg cannot make models for: where and why, when dcg's schema reader says so."""
    cause: BaseException | None = exc
    while cause is not None and not hasattr(cause, "errors"):
        cause = cause.__cause__ or cause.__context__
    errors = _reader_errors(cause) if cause is not None else []
    for key, schema in (("input_schema", contract.input_schema), ("output_schema", contract.output_schema)):
        for location, text in errors:
            pointer = _pointer_in(schema, location, f"/{key}")
            if pointer is not None:
                message = (
                    f"cannot make Python models for tool {contract.name!r}: its schema reader refuses this: {text}"
                )
                return Diagnostic(MODELS_FAILED.code, Severity.ERROR, message, contract.source, pointer)
    message = f"cannot make Python models for tool {contract.name!r}: {type(exc).__name__}: {exc}"
    return Diagnostic(MODELS_FAILED.code, Severity.ERROR, message, contract.source, "/input_schema")


def _reader_errors(error: BaseException) -> list[tuple[tuple[object, ...], str]]:
    """(location, message) of each error of a pydantic ValidationError, the union's other branches left out."""
    try:
        found = error.errors()  # type: ignore[attr-defined]
    except Exception:
        return []
    out = []
    for item in found:
        if isinstance(item, Mapping) and item.get("type") != "bool_type":
            shown = repr(item.get("input"))
            out.append((tuple(item.get("loc", ())), f"{item.get('msg')} (the value {shown[:80]})"))
    return out


def _pointer_in(schema: object, location: tuple[object, ...], pointer: str) -> str | None:
    """The pointer of `location` in `schema`, skipping the reader's own names (such as `JsonSchemaObject`)."""
    node = schema
    for part in location:
        entries = dict(enumerate(node)) if isinstance(node, list | tuple) else node  # a list by its indexes
        if isinstance(entries, Mapping) and part in entries:
            node, pointer = entries[part], join(pointer, part)
        elif not (isinstance(part, str) and part[:1].isupper()):
            return None
    return pointer


def weaker(name: str, text: str) -> str:
    """The TG351 message for one of dcg's warnings."""
    if text.startswith("format of ") and "not understood" in text:
        enforced = "jsonschema does not check a format it does not know either, so nothing does (see TG220)"
    else:
        enforced = "the registry still enforces the schema with jsonschema"
    return f"python: the model of tool {name!r} is weaker than its schema ({text}); {enforced}"


def _schema_nodes(contract: Contract) -> Iterator[tuple[str, Mapping[str, object]]]:
    for key, schema in (("input_schema", contract.input_schema), ("output_schema", contract.output_schema)):
        if schema is not None:
            yield from subschemas(schema, f"/{key}")


def _object_default(contract: Contract, here: str, node: Mapping[str, object]) -> list[Diagnostic]:
    """TG353: dcg writes an object default of a model-typed field as a dict, which mypy --strict rejects."""
    if not (isinstance(node.get("default"), Mapping) and ("properties" in node or "$ref" in node)):
        return []
    message = (
        "python: this object default becomes a dict assigned to a model-typed field, which "
        "`mypy --strict` rejects in the generated package (pydantic accepts it); drop the default "
        "or describe it in the description"
    )
    return [Diagnostic(OBJECT_DEFAULT.code, OBJECT_DEFAULT.severity, message, contract.source, join(here, "default"))]


def _normalized_names(contract: Contract, here: str, node: Mapping[str, object]) -> list[Diagnostic]:
    """TG354: Python reads identifiers in NFKC form, so `ｘ` is the field `x` and `ﬁle` collides with `file`."""
    properties = node.get("properties")
    if not isinstance(properties, Mapping):
        return []
    by_form: dict[str, list[str]] = {}
    for name in properties:
        by_form.setdefault(unicodedata.normalize("NFKC", str(name)), []).append(str(name))
    found: list[Diagnostic] = []
    for name in properties:
        form = unicodedata.normalize("NFKC", name)
        others = [other for other in by_form[form] if other != name]
        if not others and (form == name or not name.isidentifier()):
            continue  # a name that is no identifier gets a field name of its own and keeps its alias
        if others:
            message = (
                f"python: property names {name!r} and {others[0]!r} are the same Python name after Unicode "
                "normalization (NFKC, which Python applies to identifiers), so the model would keep one field "
                "and refuse every call; rename one"
            )
        else:
            message = (
                f"python: property name {name!r} becomes {form!r} under Unicode normalization (NFKC, which "
                f"Python applies to identifiers), so the model would read the wrong key; rename it, like {form!r}"
            )
        found.append(
            Diagnostic(
                NORMALIZED_NAME.code, NORMALIZED_NAME.severity, message, contract.source, join(here, "properties", name)
            )
        )
    return found


def module_extra(contract: Contract, models: ToolModels, black_pass: str) -> dict[str, object]:
    """What a tool module's cache entry keeps beside its text (`module_notes` reads it back): what
    the module reports (TG351 from its models, TG353 and TG354), and the digest of black's pass
    over it ("" when black saw all of it: `python_black.format_modules`)."""
    found = [*weaker_notes_of(contract, models), *contract_notes(contract)]
    return {"notes": [d.as_json() for d in found], "pass": black_pass}


def module_notes(extra: object) -> tuple[list[Diagnostic], str]:
    """A module's notes and the digest of black's pass over it, as `module_extra` made them."""
    found, black_pass = (extra.get("notes"), extra.get("pass")) if isinstance(extra, dict) else (None, None)
    if not isinstance(found, list) or not isinstance(black_pass, str):
        raise TypeError("a module's notes are not of the shape toolgen keeps")
    if black_pass and not _HEX64.fullmatch(black_pass):
        raise ValueError("a module's pass digest is not a digest")
    return [Diagnostic.from_json(d) for d in found], black_pass


_HEX64 = re.compile(r"[0-9a-f]{64}")


def models_with_failures(
    catalog: Iterable[Contract], package: str, executor: Executor
) -> tuple[dict[str, ToolModels], list[Diagnostic]]:
    """Models per tool; a tool dcg cannot handle becomes a diagnostic naming its file."""
    try:
        return models_for(catalog, package, executor), []
    except ModelsFailed:
        pass
    found: dict[str, ToolModels] = {}
    problems: list[Diagnostic] = []
    for contract in catalog:
        try:
            found.update(models_for([contract], package, executor))
        except ModelsFailed as exc:  # what dcg raised is its cause, which says where and why
            problems.append(model_failure(contract, exc.__cause__ if isinstance(exc.__cause__, Exception) else exc))
    return found, problems
