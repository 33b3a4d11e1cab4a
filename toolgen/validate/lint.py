"""The review checklist: TG2xx warnings about contracts that are valid but likely to mislead a model
or a reviewer. `--strict` turns them into errors; each can be set per project or per contract.

Every check tolerates malformed data (the TG1xx checks report that), so the checklist runs on every
contract and one run shows every problem.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping

from toolgen.catalog import normalize_text
from toolgen.positions import join
from toolgen.validate.report import Reporter, did_you_mean
from toolgen.validate.schemacheck import subschemas

MIN_DESCRIPTION = 20
"""A description narrower than this (columns, trimmed; wide characters count twice) says too little (TG201)."""
MAX_DESCRIPTION = 1024
"""OpenAI Chat Completions rejects longer descriptions (TG202)."""
UNCONFIRMED_TAG = "permissions:unconfirmed"
"""The tag `toolgen import` puts on contracts whose permissions it guessed (TG212)."""
CHANGED_TAG = "schema:unconfirmed"
"""The tag `toolgen import --repair` puts on contracts a repair changed what they accept (TG450)."""

VERSION_SUFFIX = re.compile(r"_v\d+$")
"""A name ending like `_v2` (TG208)."""
_PATH = re.compile(
    r"(?<![\w.:/~])(?:/(?:home|Users|root|etc|var|usr|opt|tmp|mnt|private)/[^\s`'\"]*"
    r"|~/[^\s`'\"]+|[A-Za-z]:\\[^\s`'\"]*)"
)
_PLACEHOLDER = re.compile(r"(?m)^\s*(?:TODO|FIXME|TBD)\b")
"""A line that starts as a note to fill in, like those `toolgen new` writes (TG150); example values may say TODO."""
_SECRET = re.compile(
    r"(?:sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----|AIza[0-9A-Za-z_-]{35}"
    r"|(?i:password|passwd|secret|api[_-]?key|token)\s*[=:]\s*['\"]?[A-Za-z0-9/+_.-]{12,})"
)


def review(data: Mapping[str, object], report: Reporter) -> None:
    """Run every TG2xx check on one contract document."""
    raw_name = data.get("name")
    name = raw_name if isinstance(raw_name, str) else ""
    _description(data, name, report)
    for key in ("input_schema", "output_schema"):
        schema = data.get(key)
        if isinstance(schema, Mapping):
            _schema_checks(schema, f"/{key}", report)
    listed = data.get("permissions")
    permissions = {p for p in listed if isinstance(p, str)} if isinstance(listed, list) else set()
    _input_root(data.get("input_schema"), permissions, report)
    _errors(data.get("errors"), permissions, report)
    if VERSION_SUFFIX.search(name):
        report("TG208", "/name", f"name {name!r} ends in a version suffix; keep the name and bump `version` instead")
    for pointer, text in _texts(data):
        _text_checks(pointer, text, report)
    _tags(data.get("tags"), report)


def _tags(tags: object, report: Reporter) -> None:
    """TG212 and TG450: what `toolgen import` could not decide for a human."""
    if not isinstance(tags, list):
        return
    if UNCONFIRMED_TAG in tags:
        report(
            "TG212",
            join("/tags", tags.index(UNCONFIRMED_TAG)),
            f"permissions were guessed by `toolgen import`; check them, then remove the {UNCONFIRMED_TAG!r} tag",
        )
    if CHANGED_TAG in tags:
        report(
            "TG450",
            join("/tags", tags.index(CHANGED_TAG)),
            "an import repair changed what this tool accepts (its report line starts `changes what is accepted`); "
            f"check the schema, then remove the {CHANGED_TAG!r} tag",
        )


def _description(data: Mapping[str, object], name: str, report: Reporter) -> None:
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        return
    text = normalize_text(description)
    plain = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
    title = re.sub(r"[^a-z0-9]+", " ", str(data.get("title") or "").lower()).strip()
    repeats = bool(plain) and plain in {name.replace("_", " "), title}
    if repeats or _width(text) < MIN_DESCRIPTION:
        report(
            "TG201",
            "/description",
            "the description only repeats the name or is very short; say when to use the tool, its limits "
            "and what it returns",
        )
    elif len(text) > MAX_DESCRIPTION:
        report(
            "TG202",
            "/description",
            f"the description has {len(text)} characters; OpenAI rejects more than {MAX_DESCRIPTION}, so move "
            "details into property descriptions or the docs",
        )


def _width(text: str) -> int:
    """Length in columns: a wide character (Chinese, Japanese, Korean) says about as much as two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _schema_checks(schema: Mapping[str, object], pointer: str, report: Reporter) -> None:
    """TG203 (property without description) and TG209 (required and default)."""
    for here, node in subschemas(schema, pointer):
        properties = node.get("properties")
        if not isinstance(properties, Mapping):
            continue
        for prop, sub in properties.items():
            if isinstance(sub, Mapping) and "description" not in sub and "$ref" not in sub:
                report("TG203", join(here, "properties", prop), f"property {prop!r} has no description; add one")
        required = node.get("required")
        for index, prop in enumerate(required if isinstance(required, list) else []):
            _undefined_required(node, properties, prop, join(here, "required", index), report)
            sub = properties.get(prop) if isinstance(prop, str) else None
            if isinstance(sub, Mapping) and "default" in sub:
                report(
                    "TG209",
                    join(here, "required", index),
                    f"property {prop!r} is required and also has a default; drop the default or make it optional",
                )


def _undefined_required(
    node: Mapping[str, object], properties: Mapping[str, object], prop: object, at: str, report: Reporter
) -> None:
    """TG215: a required name that `properties` does not define (often a typo)."""
    if not isinstance(prop, str) or prop in properties or "patternProperties" in node:
        return
    if isinstance(node.get("additionalProperties"), Mapping):
        return
    hint = did_you_mean(prop, [str(p) for p in properties])
    closed = node.get("additionalProperties") is False
    consequence = "so no value can satisfy this schema" if closed else "so it can hold anything"
    report(
        "TG215",
        at,
        f"property {prop!r} is required but not defined under `properties`, {consequence}; "
        f"define it or fix the name{hint}",
    )


def _input_root(schema: object, permissions: set[str], report: Reporter) -> None:
    if not isinstance(schema, Mapping):
        return
    extra = schema.get("additionalProperties", True)
    if "additionalProperties" not in schema:
        report(
            "TG204",
            "/input_schema",
            "the input schema does not state `additionalProperties`; add `additionalProperties = false` "
            "(or true, if extra arguments are really accepted)",
        )
    risky = sorted(permissions & {"write", "execute"})
    if risky and extra is not False:
        report(
            "TG205",
            "/input_schema",
            f"a {'/'.join(risky)} tool accepts input properties it does not declare; set "
            "`additionalProperties = false` on the input schema",
        )


def _errors(errors: object, permissions: set[str], report: Reporter) -> None:
    entries = errors if isinstance(errors, list) else []
    codes = {e["code"] for e in entries if isinstance(e, Mapping) and isinstance(e.get("code"), str)}
    if permissions & {"write", "execute"} and not codes:
        report(
            "TG210",
            "/permissions",
            "a tool with side effects declares no errors; declare how it fails under [[errors]] "
            "(for example CONFLICT, or its own codes)",
        )
    if "network" in permissions and not codes & {"TIMEOUT", "UNAVAILABLE"}:
        report(
            "TG211",
            "/permissions",
            "a network tool declares neither TIMEOUT nor UNAVAILABLE; declare the one it can return so "
            "callers know to retry",
        )


def _texts(data: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    """Every string in descriptions, titles, schemas and examples, with its pointer (iterative)."""
    stack: list[tuple[str, object]] = [
        (f"/{k}", data[k])
        for k in ("title", "description", "deprecated", "input_schema", "output_schema", "errors", "examples")
        if k in data
    ]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str):
            yield pointer, value
        elif isinstance(value, Mapping):
            stack.extend((join(pointer, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((join(pointer, i), v) for i, v in enumerate(value))


def _text_checks(pointer: str, text: str, report: Reporter) -> None:
    if _PLACEHOLDER.search(text) and not pointer.startswith("/examples"):
        report(
            "TG150", pointer, "this is placeholder text (`TODO`); write what it should say for the model and reviewers"
        )
    path = _PATH.search(text)
    if path:
        report(
            "TG206",
            pointer,
            f"{path.group()!r} looks like an absolute path or home directory from someone's machine; "
            "use a path relative to the workspace",
        )
    if _SECRET.search(text):
        report(
            "TG207", pointer, "this text looks like a secret (a key, token or password); replace it with a placeholder"
        )
