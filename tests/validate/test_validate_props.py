"""Properties of validation and normalization, and the frozen catalog.

- load → validate → normalize → serialize (`catalog.json` entry) → load again is stable;
- the digest changes exactly when the normalized contract changes: re-indenting the description or
  reordering permissions keeps it, any real change moves it;
- the TOML and JSON spellings of one contract give the same digest;
- the catalog is frozen both ways: later changes to the source data change nothing, and nothing can
  be changed through the catalog.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen.catalog import PERMISSIONS, build_catalog, contract_from_document, contract_from_json
from toolgen.config import Settings
from toolgen.load import RawDocument, parse_text
from toolgen.positions import locator_for
from toolgen.validate import validate_documents

SETTINGS = Settings(root=Path("/project"), contracts_dir=Path("/project/contracts"), output_dir=Path("/project/out"))

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
sentences = st.lists(words, min_size=6, max_size=14).map(lambda w: " ".join(w).capitalize() + ".")
prop_names = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)
codes = st.from_regex(r"[A-Z]{2,8}(_[A-Z]{2,6})?", fullmatch=True)


@st.composite
def contracts(draw: st.DrawFn) -> dict[str, Any]:
    """A valid contract without warnings."""
    name = draw(st.from_regex(r"[a-z][a-z0-9_]{0,30}[a-z]", fullmatch=True).filter(lambda n: "_v" not in n))
    props = draw(st.dictionaries(prop_names, st.sampled_from(["string", "integer", "boolean"]), min_size=1, max_size=4))
    permissions = draw(st.lists(st.sampled_from(sorted(set(PERMISSIONS) - {"network"})), unique=True))
    errors = [
        {"code": code, "description": draw(sentences), "retryable": draw(st.booleans())}
        for code in draw(st.lists(codes, min_size=1, max_size=3, unique=True))
    ]
    return {
        "name": name,
        "version": f"{draw(st.integers(0, 9))}.{draw(st.integers(0, 20))}.{draw(st.integers(0, 99))}",
        "description": "Use it to " + "\n\n".join(draw(st.lists(sentences, min_size=1, max_size=3))),
        "permissions": permissions,
        "tags": draw(st.lists(words, unique=True, max_size=3)),
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": sorted(props)[:1],
            "properties": {p: {"type": t, "description": draw(sentences)} for p, t in props.items()},
        },
        "errors": errors,
    }


def document(data: dict[str, Any], fmt: str = "json", text: str | None = None) -> RawDocument:
    text = json.dumps(data) if text is None else text
    path = Path(f"/project/contracts/{data['name']}.{fmt}")
    rel = f"contracts/{data['name']}.{fmt}"
    return RawDocument(path, rel, fmt, text, parse_text(text, fmt), locator_for(text, fmt))


def to_toml(data: dict[str, Any]) -> str:
    """A TOML spelling: scalars and arrays first, then schema tables, then arrays of tables."""

    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v) if isinstance(v, str) else str(v)

    lines = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict) and k != "errors"]
    schema = data["input_schema"]
    lines += ["", "[input_schema]", *(f"{k} = {value(v)}" for k, v in schema.items() if k != "properties")]
    for prop, sub in schema["properties"].items():
        lines += ["", f"[input_schema.properties.{prop}]", *(f"{k} = {value(v)}" for k, v in sub.items())]
    for error in data["errors"]:
        lines += ["", "[[errors]]", *(f"{k} = {value(v)}" for k, v in error.items())]
    return "\n".join(lines) + "\n"


def normalized(data: dict[str, Any], fmt: str = "json", text: str | None = None) -> Any:
    doc = document(data, fmt, text)
    found = validate_documents([doc], SETTINGS)
    assert [d for d in found if d.is_error] == []
    return contract_from_document(doc.data, doc.rel)


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(contracts())
def test_load_normalize_serialize_load_is_stable(data: dict[str, Any]) -> None:
    first = normalized(data)
    entry = json.loads(json.dumps(build_catalog([first]).to_json()))["tools"][0]
    again = contract_from_json(entry, first.source)
    assert again.to_json() == first.to_json()
    assert again.digest == first.digest == entry["digest"]
    # The serialized entry, read as a contract file again, is still valid and normalizes the same.
    body = {k: v for k, v in entry.items() if v is not None and k != "digest"}
    assert normalized(body).digest == first.digest


@FAST
@given(contracts(), st.integers(1, 8), st.randoms())
def test_digest_ignores_layout_of_description_and_permission_order(data: dict[str, Any], indent: int, rnd: Any) -> None:
    original = normalized(data).digest
    moved = copy.deepcopy(data)
    pad = " " * indent
    moved["description"] = "\n\n" + "\n".join(pad + line for line in data["description"].split("\n")) + "\n\n"
    rnd.shuffle(moved["permissions"])
    rnd.shuffle(moved["errors"])
    assert normalized(moved).digest == original


def _changes(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for mutate in (
        lambda d: d.update(version=str(int(d["version"].split(".")[0]) + 1) + d["version"][d["version"].index(".") :]),
        lambda d: d.update(description=d["description"] + " Also more."),
        lambda d: d.update(permissions=[*d["permissions"], "network"]),
        lambda d: d["errors"][0].update(retryable=not d["errors"][0]["retryable"]),
        lambda d: d.update(idempotent=True),
        lambda d: d["input_schema"].update(required=[]),
        lambda d: next(iter(d["input_schema"]["properties"].values())).update(description="Something else."),
        lambda d: d.update(tags=[*d["tags"], "zzzzzzzzz"]),
    ):
        changed = copy.deepcopy(data)
        mutate(changed)
        out.append(changed)
    return out


@FAST
@given(contracts())
def test_every_real_change_changes_the_digest(data: dict[str, Any]) -> None:
    original = normalized(data).digest
    changed = [c for c in _changes(data) if c != data]
    assert len(changed) >= 6
    for other in changed:
        if other["input_schema"]["required"] == [] and data["input_schema"]["required"] == []:
            continue
        assert normalized(other).digest != original, other


@FAST
@given(contracts())
def test_toml_and_json_spellings_give_the_same_digest(data: dict[str, Any]) -> None:
    from_json = normalized(data)
    from_toml = normalized(data, "toml", to_toml(data))
    assert from_toml.digest == from_json.digest
    assert from_toml.to_json() == from_json.to_json()


def test_trailing_whitespace_line_in_description_does_not_change_the_digest() -> None:
    data = _examples()[0]
    spaced = {**data, "description": "\n  " + data["description"] + "\n      \n"}
    assert normalized(spaced).digest == normalized(data).digest


def test_catalog_is_unchanged_when_the_source_data_changes() -> None:
    data = json.loads(json.dumps(next(iter(_examples()))))
    contract = normalized(data)
    before = contract.to_json()
    data["input_schema"]["properties"]["text"]["type"] = "integer"
    data["permissions"].append("write")
    data["errors"][0]["retryable"] = not data["errors"][0]["retryable"]
    data["input_schema"]["required"].append("more")
    assert contract.to_json() == before
    assert contract.digest == contract.compute_digest()


def test_nothing_can_be_mutated_through_the_catalog() -> None:
    contract = normalized(next(iter(_examples())))
    catalog = build_catalog([contract])
    schema = catalog.contracts[0].input_schema
    with pytest.raises(TypeError):
        schema["type"] = "array"  # type: ignore[index]
    with pytest.raises(TypeError):
        schema["properties"]["text"]["type"] = "integer"  # type: ignore[index]
    with pytest.raises(AttributeError):
        schema["required"].append("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.contracts[0].name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        catalog.contracts.append(contract)  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.contracts[0].errors[0].retryable = True  # type: ignore[misc]
    assert catalog.contracts[0].input_schema["type"] == "object"


def _examples() -> list[dict[str, Any]]:
    return [
        {
            "name": "echo_text",
            "version": "1.0.0",
            "description": "Echo the given text back unchanged, for tests of the validation pipeline.",
            "permissions": ["read"],
            "input_schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["text"],
                "properties": {"text": {"type": "string", "description": "The text to echo."}},
            },
            "errors": [{"code": "TOO_LONG", "description": "The text is too long.", "retryable": False}],
        }
    ]


KEYS = st.sampled_from(
    [
        *("name", "version", "description", "permissions", "input_schema", "output_schema", "errors"),
        *("examples", "rules", "tags", "type", "properties", "required", "$ref", "items", "code"),
        *("retryable", "input", "output", "error", "message", "allOf", "$defs", "additionalProperties"),
        *("default", "enum", "format", "TG203", "x", "pattern", "patternProperties", "$anchor", "const"),
    ]
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.sampled_from(["object", "read", "#/$defs/x", "https://x", "NOT_FOUND", "off", "1.0.0", "", "email", "("])
    | st.sampled_from(["#/required", "#/properties", "#x", "#/$defs/x/items", "string", "array", "date-time", "#"])
)
ANY = st.recursive(LEAVES, lambda c: st.lists(c, max_size=3) | st.dictionaries(KEYS, c, max_size=5), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, ANY, max_size=8) | ANY)
def test_validation_never_raises_on_arbitrary_documents(data: Any) -> None:
    text = json.dumps(data)
    doc = RawDocument(
        Path("/project/contracts/fuzz.json"), "contracts/fuzz.json", "json", text, data, locator_for(text, "json")
    )
    for diagnostic in validate_documents([doc], SETTINGS):
        assert diagnostic.code[:3] in ("TG1", "TG2")
        assert diagnostic.line is not None
        assert diagnostic.message
