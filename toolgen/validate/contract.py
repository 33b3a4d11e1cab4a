"""Validation: every rule of SPEC.md "Validation" over raw documents, as diagnostics.

One pass per contract reports every problem it finds (never only the first): the shape of the
document and its keys here, schemas and examples in `toolgen.validate.schemacheck`, the review checklist
(TG2xx warnings) in `toolgen.validate.lint`. Then names are checked across the catalog and severity
overrides (project configuration, then the contract's own `rules` table) are applied.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from toolgen import provideroptions, rules
from toolgen.catalog import CONTENT_KINDS, CONTRACT_KEYS, PERMISSIONS, STANDARD_ERRORS, Contract
from toolgen.config import Settings, unmatched_exclusions
from toolgen.diagnostics import Diagnostic, Severity, resolve_severities, sort_diagnostics
from toolgen.load import RawDocument
from toolgen.positions import join, json_duplicates, locator_for, unescape
from toolgen.validate import lint
from toolgen.validate.annotations import check_annotations
from toolgen.validate.report import Reporter, did_you_mean, type_name
from toolgen.validate.schemacheck import check_defaults, check_schema, validate_instance, walk_limits
from toolgen.validate.standard_errors import check_excluded
from toolgen.validate.timeouts import check_timeout

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_NAME = 64
VERSION_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
ERROR_CODE_RE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")

TOP_KEYS: tuple[str, ...] = (*CONTRACT_KEYS, "rules", "providers", "$schema")
"""Every key a contract file may hold (`$schema` lets editors find the contract-format schema)."""
REQUIRED: tuple[str, ...] = ("name", "version", "description", "permissions", "input_schema")
ERROR_KEYS = ("code", "description", "retryable")
EXAMPLE_KEYS = ("title", "input", "output", "error")
EXAMPLE_ERROR_KEYS = ("code", "message")

_TYPES: Mapping[str, tuple[type, ...]] = {
    "name": (str,),
    "version": (str,),
    "title": (str,),
    "description": (str,),
    "permissions": (list,),
    "idempotent": (bool,),
    "deprecated": (bool, str),
    "owners": (list,),
    "tags": (list,),
    "content_kinds": (list,),
    "errors": (list,),
    "examples": (list,),
    "rules": (dict,),
    "providers": (dict,),
    "$schema": (str,),
}
_EXPECTED = {str: "a string", list: "an array", bool: "true or false", dict: "a table/object"}
_FIXES: Mapping[str, str] = {
    "permissions": '; write it like permissions = ["read"] (an empty array for a pure tool)',
    "idempotent": "; write idempotent = true or idempotent = false, without quotes",
    "deprecated": '; write deprecated = true, or a note like deprecated = "use search_code instead"',
    "owners": '; write it like owners = ["@team"]',
    "tags": '; write it like tags = ["filesystem"]',
    "errors": "; in TOML give each error its own [[errors]] table (double brackets)",
    "examples": "; in TOML give each example its own [[examples]] table (double brackets)",
    "rules": '; write it like rules = { TG203 = "off" }',
}
"""How to write a top-level key that has the wrong type (TG106), for the keys whose form is not obvious."""


def suggest_name(name: str) -> str:
    """A valid snake_case name close to `name` (for messages)."""
    fixed = re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_").lstrip("0123456789_")
    return fixed[:MAX_NAME].rstrip("_") or "my_tool"


def _keys(table: Mapping[str, object], allowed: Sequence[str], pointer: str, what: str, report: Reporter) -> None:
    """Unknown keys (TG104, with a did-you-mean)."""
    for key in table:
        if key not in allowed:
            hint = did_you_mean(key, allowed) or f"; allowed keys: {', '.join(allowed)}"
            report("TG104", join(pointer, key), f"unknown key {key!r} in {what}{hint}")


def _required(table: Mapping[str, object], keys: Sequence[str], pointer: str, what: str, report: Reporter) -> None:
    for key in keys:
        if key not in table:
            report("TG105", pointer, f"{what} is missing the required key {key!r}; add it")


def _string_list(value: list[object], pointer: str, report: Reporter) -> list[str]:
    """The strings of a list of strings; other items are TG106."""
    out: list[str] = []
    for index, item in enumerate(value):
        if isinstance(item, str):
            out.append(item)
        else:
            report("TG106", join(pointer, index), f"each entry must be a string, not {type_name(item)}; quote it")
    return out


def check_top(data: Mapping[str, object], stem: str, report: Reporter) -> None:
    """Keys, types, name, version, description and permissions."""
    _keys(data, TOP_KEYS, "", "the contract", report)
    _required(data, REQUIRED, "", "the contract", report)
    for key, types in _TYPES.items():
        if key in data and not isinstance(data[key], types):
            want = " or ".join(_EXPECTED[t] for t in types)
            report("TG106", f"/{key}", f"`{key}` must be {want}, not {type_name(data[key])}{_FIXES.get(key, '')}")
    name = data.get("name")
    if isinstance(name, str):
        if not NAME_RE.match(name) or len(name) > MAX_NAME:
            fixed = suggest_name(name)
            report(
                "TG107",
                "/name",
                f"name {name!r} must be snake_case (^[a-z][a-z0-9_]*$) and at most {MAX_NAME} characters, "
                f"like {fixed!r}",
            )
        if name != stem:
            report(
                "TG108", "/name", f"name {name!r} does not match the file name {stem!r}; rename one to match the other"
            )
    version = data.get("version")
    if isinstance(version, str) and not VERSION_RE.match(version):
        report("TG110", "/version", f'version {version!r} is not MAJOR.MINOR.PATCH; write it like "1.0.0"')
    description = data.get("description")
    if isinstance(description, str) and not description.strip():
        report(
            "TG111", "/description", "description is blank; say when to use the tool, its limits and what it returns"
        )
    for key in ("owners", "tags"):
        if isinstance(listed := data.get(key), list):
            _string_list(listed, f"/{key}", report)
    if isinstance(permissions := data.get("permissions"), list):
        _check_permissions(permissions, report)
    if isinstance(kinds := data.get("content_kinds"), list):
        _check_kinds(kinds, report)


def _check_kinds(kinds: list[object], report: Reporter) -> None:
    """TG106 for an entry of `content_kinds` that is not one of `CONTENT_KINDS`."""
    choices = ", ".join(CONTENT_KINDS)
    for index, kind in enumerate(kinds):
        if kind not in CONTENT_KINDS:
            shown = repr(kind) if isinstance(kind, str) else type_name(kind)
            hint = did_you_mean(kind, CONTENT_KINDS) if isinstance(kind, str) else ""
            fix = hint or f"; use one of {choices}"
            report("TG106", join("/content_kinds", index), f"unknown content kind {shown}{fix}")


def _check_permissions(permissions: list[object], report: Reporter) -> None:
    seen: set[str] = set()
    choices = ", ".join(PERMISSIONS)
    for index, permission in enumerate(permissions):
        pointer = join("/permissions", index)
        if not isinstance(permission, str):
            report("TG106", pointer, f"a permission must be a string, one of {choices}; not {type_name(permission)}")
        elif permission not in PERMISSIONS:
            hint = did_you_mean(permission, PERMISSIONS)
            report("TG112", pointer, f"unknown permission {permission!r}{hint or '; use one of ' + choices}")
        elif permission in seen:
            report("TG113", pointer, f"permission {permission!r} is listed twice; remove the repeat")
        if isinstance(permission, str):
            seen.add(permission)


def check_errors(errors: list[object], report: Reporter) -> set[str]:
    """Declared errors (TG104-TG106, TG122, TG123, TG125); returns the declared codes."""
    codes: set[str] = set()
    for index, error in enumerate(errors):
        pointer = join("/errors", index)
        if not isinstance(error, dict):
            report(
                "TG106",
                pointer,
                'each error must be a table like { code = "X", description = "...", retryable = false }',
            )
            continue
        _keys(error, ERROR_KEYS, pointer, "an error", report)
        _required(error, ("code", "description"), pointer, "this error", report)
        code = error.get("code")
        if "description" in error and not isinstance(error["description"], str):
            report("TG106", join(pointer, "description"), "an error's description must be a string")
        if "retryable" in error and not isinstance(error["retryable"], bool):
            report(
                "TG106",
                join(pointer, "retryable"),
                f"`retryable` must be true or false, not {type_name(error['retryable'])}"
                + _boolean_hint(error["retryable"]),
            )
        if "code" in error and not isinstance(code, str):
            report("TG106", join(pointer, "code"), "an error code must be a string")
        if not isinstance(code, str):
            continue
        if not ERROR_CODE_RE.match(code):
            fixed = re.sub(r"[^A-Z0-9]+", "_", code.upper()).strip("_") or "SOME_ERROR"
            report("TG122", join(pointer, "code"), f"error code {code!r} must be UPPER_SNAKE_CASE, like {fixed!r}")
        if code in codes:
            report("TG125", join(pointer, "code"), f"error code {code!r} is declared twice; keep one")
        codes.add(code)
        if "retryable" not in error and code not in STANDARD_ERRORS:
            report(
                "TG123",
                pointer,
                f"{code!r} is not a standard error code, so it needs `retryable = true` or `retryable = false`",
            )
    return codes


def check_examples(
    data: Mapping[str, object],
    schemas: Mapping[str, object],
    declared: set[str],
    report: Reporter,
    excluded: frozenset[str] | set[str] = frozenset(),
) -> None:
    """Examples: shape (TG104-TG106, TG124), input/output against the schemas, error codes (TG121)."""
    known = declared | (set(STANDARD_ERRORS) - set(excluded))
    examples = data.get("examples", [])
    for index, example in enumerate(examples if isinstance(examples, list) else ()):
        pointer = join("/examples", index)
        if not isinstance(example, dict):
            report("TG106", pointer, "each example must be a table like { input = { ... }, output = { ... } }")
            continue
        _keys(example, EXAMPLE_KEYS, pointer, "an example", report)
        _required(example, ("input",), pointer, "this example", report)
        if "title" in example and not isinstance(example["title"], str):
            report("TG106", join(pointer, "title"), "an example's title must be a string")
        if "output" in example and "error" in example:
            report(
                "TG124",
                pointer,
                "an example has either an `output` or an `error`, not both; split it into two examples",
            )
        for part, code in (("input", "TG119"), ("output", "TG120")):
            if part not in example:
                continue
            if not isinstance(example[part], dict):
                report("TG106", join(pointer, part), f"an example's {part} must be a table/object")
            elif part == "output" and "output_schema" not in data:
                report(
                    "TG120", join(pointer, part), "the example has an output but the contract has no `output_schema`"
                )
            elif isinstance(schema := schemas.get(f"{part}_schema"), Mapping):
                validate_instance(schema, example[part], join(pointer, part), code, report)
        if "error" in example:
            _check_example_error(example["error"], join(pointer, "error"), known, report)


def _check_example_error(error: object, pointer: str, known: set[str], report: Reporter) -> None:
    if not isinstance(error, dict):
        report("TG106", pointer, 'an example error must be a table like { code = "NOT_FOUND", message = "..." }')
        return
    _keys(error, EXAMPLE_ERROR_KEYS, pointer, "an example error", report)
    _required(error, EXAMPLE_ERROR_KEYS, pointer, "this example error", report)
    for key in EXAMPLE_ERROR_KEYS:
        if key in error and not isinstance(error[key], str):
            report("TG106", join(pointer, key), f"`{key}` must be a string")
    code = error.get("code")
    if isinstance(code, str) and code in STANDARD_ERRORS and code not in known:
        message = f"example error {code!r} is listed in `excluded_standard_errors`: the tool never returns it"
        report("TG121", join(pointer, "code"), message + "; remove the example or the exclusion")
    elif isinstance(code, str) and code not in known:
        hint = did_you_mean(code, known)
        report(
            "TG121",
            join(pointer, "code"),
            f"example error {code!r} is neither declared in `errors` nor standard{hint}; declare it under [[errors]]",
        )


_YES_NO = {"no": False, "false": False, "0": False, "n": False, "yes": True, "true": True, "1": True, "y": True}
"""Strings people write for a boolean."""


def _boolean_hint(value: object) -> str:
    """`; write retryable = false, without quotes` for a string that means a boolean, else nothing."""
    meant = _YES_NO.get(value.strip().lower()) if isinstance(value, str) else None
    return "" if meant is None else f"; write retryable = {str(meant).lower()}, without quotes"


def check_rules_table(table: Mapping[str, object], report: Reporter) -> dict[str, str]:
    """The contract's own `rules` overrides (TG128); returns the valid ones."""
    out: dict[str, str] = {}
    for code, level in table.items():
        pointer = join("/rules", code)
        rule = rules.get(code)
        if not rules.is_known_code(code) or (rule is None and code[:3] in ("TG1", "TG2")):
            report("TG128", pointer, f"unknown rule code {code!r}{did_you_mean(code, list(rules.RULES))}")
        elif level not in ("error", "warning", "off"):
            report("TG128", pointer, f'severity of {code} must be "error", "warning" or "off", not {level!r}')
        elif rule is not None and rules.locked(code) and level != "error":
            report("TG128", pointer, f"{code} is a contract error and cannot be turned down; fix the contract instead")
        else:
            out[code] = level
    return out


def check_document(document: RawDocument) -> tuple[list[Diagnostic], dict[str, str]]:
    """Every problem of one contract, at default severities, and its valid rule overrides."""
    report = Reporter(document.rel, document.locate)
    data = document.data
    if not isinstance(data, dict):
        report(
            "TG103",
            "",
            f"the contract must be one table/object at the top, not {type_name(data)}; write one tool per file",
        )
        return report.found, {}
    if not walk_limits(data, report):
        return report.found, {}
    if document.format == "json":
        for pointer, line, column in json_duplicates(document.text):
            key = unescape(pointer.rsplit("/", 1)[-1])
            message = f"key {key!r} appears twice in this object and only the last one counts; remove one"
            report("TG129", pointer, message, (line, column))
    check_top(data, document.stem, report)
    check_timeout(data, report)
    declared = check_errors(data["errors"], report) if isinstance(data.get("errors"), list) else set()
    excluded = check_excluded(data, declared, report)
    schemas: dict[str, object] = {}
    for key in ("input_schema", "output_schema"):
        if key in data and check_schema(data[key], f"/{key}", report):
            schemas[key] = data[key]
            check_defaults(data[key], f"/{key}", report)
    if isinstance(data.get("examples"), list):
        check_examples(data, schemas, declared, report, excluded)
    overrides = check_rules_table(data["rules"], report) if isinstance(data.get("rules"), dict) else {}
    if isinstance(data.get("providers"), dict):
        for where, message in provideroptions.problems(
            data["providers"], provideroptions.CONTRACT_SCHEMA, "/providers"
        ):
            report("TG106", where, f"the providers table: {message}")
        check_annotations(data, report)
    lint.review(data, report)
    return report.found, overrides


def _duplicates(documents: Sequence[RawDocument]) -> list[Diagnostic]:
    by_name: dict[str, list[RawDocument]] = {}
    for document in documents:
        data = document.data  # frozen when its entry is known; the contract when the snapshot is
        name = data.name if isinstance(data, Contract) else data.get("name") if isinstance(data, Mapping) else None
        if isinstance(name, str):
            by_name.setdefault(name, []).append(document)
    out: list[Diagnostic] = []
    for name, holders in sorted(by_name.items()):
        if len(holders) < 2:
            continue
        files = ", ".join(sorted(d.rel for d in holders))
        for document in holders:
            report = Reporter(document.rel, document.locate)
            report("TG109", "/name", f"the name {name!r} is used by {files}; tool names must be unique, rename one")
            out.extend(report.found)
    return out


def validate_documents(
    documents: Sequence[RawDocument],
    settings: Settings,
    checked: Sequence[tuple[list[Diagnostic], Mapping[str, object]]] | None = None,
) -> list[Diagnostic]:
    """Every problem in every document, severities resolved, rules turned off dropped.

    `checked` holds each document's own checks (`check_document`) when the caller already has them
    (the build cache); the checks across documents and against the settings always run here.
    """
    found: list[Diagnostic] = []
    per_file: dict[str, Mapping[str, object]] = {}
    own = checked if checked is not None else [check_document(d) for d in documents]
    for document, (problems, overrides) in zip(documents, own, strict=True):
        found.extend(problems)
        per_file[document.rel] = overrides
    found.extend(_duplicates(documents))
    found.extend(unmatched_exclusions(settings, {d.stem for d in documents}))
    project = {c: s for c, s in settings.rule_severities.items() if not rules.locked(c) or s is Severity.ERROR}
    ignored = _ignored_project_rules(settings, set(settings.rule_severities) - set(project))
    return sort_diagnostics([*resolve_severities(found, project, per_file), *ignored])


def _ignored_project_rules(settings: Settings, codes: set[str]) -> list[Diagnostic]:
    """A warning for each project setting that tries to lower a TG1xx error (it is ignored)."""
    if not codes or settings.config_file is None:
        return []
    try:
        text = (settings.root / settings.config_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    base = "/tool/toolgen/rules" if settings.config_file == "pyproject.toml" else "/rules"
    report = Reporter(settings.config_file, locator_for(text, "toml"))
    for code in sorted(codes):
        report("TG128", join(base, code), f"{code} is a contract error and cannot be turned down; remove this line")
    return [replace(d, severity=Severity.WARNING) for d in report.found]
