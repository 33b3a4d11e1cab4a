"""The catalog's normalization and digests, stated one behaviour at a time.

Every target reads the catalog, and `catalog.json` digests are compared across builds and versions
(`toolgen diff`, caches): a change here changes what every output means. These tests pin what each
function promises; they were written against the surviving mutants of `benchmarks/mutation.py catalog`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from types import MappingProxyType
from typing import Any

import pytest

from toolgen import catalog as cat
from toolgen.frozen import SHARED_TEXT, freeze, thaw


def document(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "lookup_word",
        "version": "1.2.0",
        "description": "Look up a word. Returns its definition.",
        "permissions": ["read"],
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
    }
    data.update(overrides)
    return data


def contract(**overrides: Any) -> cat.Contract:
    return cat.contract_from_document(document(**overrides), "contracts/lookup_word.json")


# --- text -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("  One line.  ", "One line."),
        ("a\r\nb\rc", "a\nb\nc"),
        ("First line.\n    Indented body\n      more.\n", "First line.\nIndented body\n  more."),
        ("\n\n  Text \t\n\n  More  \n\n", "Text\n\nMore"),
        ("a  \nb\t\n", "a\nb"),
        ("keep   inner   spaces", "keep   inner   spaces"),
        ("\n    Indented more\n  than this.", "  Indented more\nthan this."),
        ("X marks the spot X", "X marks the spot X"),
    ],
)
def test_normalize_text_trims_dedents_and_uses_lf(raw: str, normalized: str) -> None:
    assert cat.normalize_text(raw) == normalized


def test_canonical_json_is_compact_keeps_key_order_and_non_ascii() -> None:
    value = freeze({"b": [1, 2.5, None, True], "a": "naïve “x”"})
    assert cat.canonical_json(value) == '{"b":[1,2.5,null,true],"a":"naïve “x”"}'


def test_canonical_json_refuses_nan() -> None:
    with pytest.raises(ValueError):
        cat.canonical_json({"x": float("nan")})


def test_sha256_is_prefixed_hex_of_the_utf8_bytes() -> None:
    assert cat.sha256("abc") == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert cat.sha256("é") == "sha256:" + hashlib.sha256("é".encode()).hexdigest()


# --- JSON forms -----------------------------------------------------------------------------------


def test_error_and_example_json_forms() -> None:
    assert cat.ErrorSpec("GONE", "It went.", True).to_json() == {
        "code": "GONE",
        "description": "It went.",
        "retryable": True,
    }
    assert cat.ExampleError("GONE", "no such word").to_json() == {"code": "GONE", "message": "no such word"}
    full = cat.Example("T", freeze({"a": 1}), freeze({"b": 2}), cat.ExampleError("E", "m"))
    assert full.to_json() == {
        "title": "T",
        "input": {"a": 1},
        "output": {"b": 2},
        "error": {"code": "E", "message": "m"},
    }
    assert list(full.to_json()) == ["title", "input", "output", "error"]
    assert cat.Example(None, freeze({})).to_json() == {"input": {}}
    assert cat.Example(None, freeze({}), freeze({})).to_json() == {"input": {}, "output": {}}


def test_contract_json_has_every_key_in_order_then_the_digest() -> None:
    c = contract(
        title="Look up",
        errors=[{"code": "GONE", "description": "It went.", "retryable": True}],
        examples=[{"title": "Hi", "input": {"word": "hi"}, "output": {"definition": "a greeting"}}],
        idempotent=True,
        deprecated="Use define.",
        owners=["ann", "bob"],
        tags=["words"],
        output_schema={"type": "object"},
    )
    data = c.to_json()
    optional = {"timeout_ms", "excluded_standard_errors", "content_kinds", "providers"}  # written only when set
    assert list(data) == [*[k for k in cat.CONTRACT_KEYS if k not in optional], "digest"]
    assert data == {
        "name": "lookup_word",
        "version": "1.2.0",
        "title": "Look up",
        "description": "Look up a word. Returns its definition.",
        "permissions": ["read"],
        "idempotent": True,
        "deprecated": "Use define.",
        "owners": ["ann", "bob"],
        "tags": ["words"],
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}},
        "output_schema": {"type": "object"},
        "errors": [{"code": "GONE", "description": "It went.", "retryable": True}],
        "examples": [{"title": "Hi", "input": {"word": "hi"}, "output": {"definition": "a greeting"}}],
        "digest": c.digest,
    }
    bare = contract().to_json()
    assert bare["title"] is None and bare["output_schema"] is None
    assert bare["deprecated"] is False and bare["idempotent"] is False
    assert bare["owners"] == bare["tags"] == bare["errors"] == bare["examples"] == []


# --- digests --------------------------------------------------------------------------------------


def test_the_digest_of_a_contract_is_stable_across_versions() -> None:
    """Pinned: digests are stored in catalog.json and compared by later builds and `toolgen diff`."""
    assert contract().digest == "sha256:ef8ec1c4f0083918a5488dc10b489201160fa1a2295c06437f30b473506e2fda"
    body = {k: v for k, v in contract().to_json().items() if k != "digest"}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    assert contract().digest == "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    assert contract().compute_digest() == contract().digest


@pytest.mark.parametrize(
    "change",
    [
        {"name": "lookup_words"},
        {"version": "1.2.1"},
        {"title": "Look"},
        {"description": "Look up a word."},
        {"permissions": ["read", "network"]},
        {"idempotent": True},
        {"deprecated": True},
        {"owners": ["ann"]},
        {"tags": ["x"]},
        {"input_schema": {"type": "object"}},
        {"output_schema": {"type": "object"}},
        {"errors": [{"code": "GONE", "description": "d"}]},
        {"examples": [{"input": {}}]},
    ],
)
def test_every_part_of_a_contract_changes_its_digest(change: dict[str, Any]) -> None:
    assert contract(**change).digest != contract().digest


def test_the_digest_ignores_the_source_the_rules_and_layout() -> None:
    one = cat.contract_from_document(document(), "a.json")
    two = cat.contract_from_document(
        document(rules={"TG203": "off"}, description="  Look up a word. Returns its definition.\n"), "b.toml"
    )
    assert one.digest == two.digest and one.source != two.source
    assert cat.contract_from_document(document(permissions=["read", "read"]), "x").digest == one.digest


def test_the_catalog_digest_names_every_contract_and_its_digest_in_name_order() -> None:
    a, b = contract(name="alpha"), contract(name="beta")
    catalog = cat.build_catalog([b, a])
    assert catalog.contracts == (a, b) and catalog.names == ("alpha", "beta")
    assert catalog.digest == cat.sha256(f"alpha {a.digest}\nbeta {b.digest}\n")
    assert cat.build_catalog([a, b]).digest == catalog.digest
    assert cat.build_catalog([a, contract(name="beta", version="9.0.0")]).digest != catalog.digest
    assert cat.build_catalog([]).digest == cat.sha256("")


# --- normalization of a document ------------------------------------------------------------------


def test_a_document_is_normalized() -> None:
    c = contract(
        title="  Look up\n",
        description="  Look up.\r\n  More.  ",
        permissions=["write", "read", "write"],
        errors=[{"code": "ZED", "description": " z "}, {"code": "ALPHA"}, {"code": "TIMEOUT"}],
        examples=[{"title": "second", "input": {"b": 1}}, {"input": {"a": 1}}],
        idempotent=1,
        deprecated="  Use define.  ",
        owners=["zed", "ann"],
        tags=["b", "a", "b"],
    )
    assert c.title == "Look up" and c.description == "Look up.\nMore."
    assert c.permissions == ("read", "write")
    assert [e.code for e in c.errors] == ["ALPHA", "TIMEOUT", "ZED"]
    assert [e.description for e in c.errors] == ["", "", "z"]
    assert [e.retryable for e in c.errors] == [False, True, False], "TIMEOUT takes its standard retryable"
    assert [e.title for e in c.examples] == ["second", None]
    assert c.idempotent is True and c.deprecated == "Use define."
    assert c.owners == ("zed", "ann"), "owners keep their order"
    assert c.tags == ("a", "b")
    assert c.source == "contracts/lookup_word.json"


def test_defaults_of_a_minimal_document() -> None:
    c = cat.contract_from_document(
        {"name": "n", "version": "1", "description": "D.", "input_schema": {"type": "object"}}, "s"
    )
    assert c.permissions == () and c.errors == () and c.examples == () and c.owners == () and c.tags == ()
    assert c.title is None and c.output_schema is None and c.idempotent is False and c.deprecated is False
    assert dict(c.rules) == {}
    assert cat.contract_from_document(document(deprecated=True), "s").deprecated is True
    assert cat.contract_from_document(document(title=3), "s").title is None


def test_declared_retryable_wins_over_the_standard_one() -> None:
    c = contract(errors=[{"code": "TIMEOUT", "retryable": False}, {"code": "BUSY", "retryable": True}])
    assert [e.retryable for e in c.errors] == [True, False]
    assert c.retryable("TIMEOUT") is False and c.retryable("BUSY") is True
    assert c.retryable("RATE_LIMITED") is True and c.retryable("NOT_FOUND") is False
    assert c.retryable("NOBODY_KNOWS") is False
    assert contract().retryable("TIMEOUT") is True


def test_all_error_codes_are_the_declared_and_standard_ones_sorted() -> None:
    c = contract(errors=[{"code": "ZED"}, {"code": "AAA"}, {"code": "TIMEOUT"}])
    assert c.all_error_codes == tuple(sorted({"ZED", "AAA", *cat.STANDARD_ERRORS}))


def test_examples_keep_input_output_and_error() -> None:
    c = contract(
        examples=[
            {"input": {"w": "x"}, "output": {}},
            {"title": "err", "input": {"w": "y"}, "error": {"code": "GONE", "message": "gone"}},
            {"input": {"w": "z"}, "error": {"code": "GONE"}},
            {},
        ]
    )
    first, second, third, fourth = c.examples
    assert dict(first.input) == {"w": "x"} and first.output is not None and dict(first.output) == {}
    assert first.error is None and first.title is None
    assert second.title == "err" and second.output is None
    assert second.error == cat.ExampleError("GONE", "gone")
    assert third.error == cat.ExampleError("GONE", "")
    assert dict(fourth.input) == {} and fourth.output is None and fourth.error is None


def test_the_contract_is_a_copy_and_read_only() -> None:
    data = document(tags=["a"], rules={"TG203": "off"})
    c = cat.contract_from_document(data, "s")
    data["input_schema"]["properties"]["word"]["type"] = "integer"
    data["tags"].append("b")
    assert c.input_schema["properties"]["word"]["type"] == "string" and c.tags == ("a",)
    with pytest.raises(TypeError):
        c.input_schema["type"] = "array"  # type: ignore[index]
    assert dict(c.rules) == {"TG203": "off"}
    with pytest.raises(TypeError):
        c.rules["TG203"] = "error"  # type: ignore[index]


def test_summary_is_the_first_sentence_of_the_first_paragraph() -> None:
    assert contract(description="Look up a word. Then more.").summary == "Look up a word."
    assert contract(description="Look up\na word. More.").summary == "Look up a word."
    assert contract(description="No full stop here\n\nSecond paragraph. Yes.").summary == "No full stop here"
    assert contract(description="Version 1.2 works.").summary == "Version 1.2 works."


# --- the catalog ----------------------------------------------------------------------------------


def test_catalog_lookup_and_json() -> None:
    a, b = contract(name="alpha"), contract(name="beta")
    catalog = cat.build_catalog([b, a])
    assert list(catalog) == [a, b] and len(catalog) == 2
    assert catalog.get("beta") is b and catalog.get("gamma") is None
    assert catalog.json_head() == {"catalog_version": 1, "digest": catalog.digest}
    data = catalog.to_json()
    assert list(data) == ["catalog_version", "digest", "tools"]
    assert data["tools"] == [a.to_json(), b.to_json()]


def test_catalog_json_reads_back_to_the_same_catalog() -> None:
    full = contract(
        title="T",
        output_schema={"type": "object"},
        errors=[{"code": "GONE", "description": "d", "retryable": True}],
        examples=[{"title": "x", "input": {"word": "a"}, "error": {"code": "GONE", "message": "m"}}],
        deprecated="Use other.",
        owners=["o"],
        tags=["t"],
        idempotent=True,
    )
    catalog = cat.build_catalog([full, contract(name="bare")])
    again = cat.catalog_from_json(json.loads(json.dumps(catalog.to_json())))
    assert again.to_json() == catalog.to_json()
    assert again.digest == catalog.digest
    assert {c.source for c in again} == {"catalog.json"}
    assert cat.catalog_from_json({}).contracts == ()
    assert cat.contract_from_json(full.to_json(), "here.json").source == "here.json"
    assert cat.contract_from_json(full.to_json()).source == "catalog.json"
    assert {c.source for c in cat.catalog_from_json(catalog.to_json(), "base.json")} == {"base.json"}


# --- frozen values --------------------------------------------------------------------------------


def test_freeze_makes_read_only_copies_at_every_depth() -> None:
    value = {"a": [1, {"b": [2]}], "c": (3,)}
    frozen = freeze(value)
    assert isinstance(frozen, MappingProxyType) and frozen["a"] == (1, MappingProxyType({"b": (2,)}))
    assert frozen["c"] == (3,)
    assert isinstance(frozen["a"][1], MappingProxyType)
    value["a"][1]["b"].append(9)
    assert frozen["a"][1]["b"] == (2,)


def test_freeze_shares_keys_and_short_texts() -> None:
    short = "".join(["x"] * SHARED_TEXT)
    other = "".join(["x"] * SHARED_TEXT)
    assert short is not other
    assert freeze(short) is freeze(other) is sys.intern(short)
    key_one, key_two = "".join(["k", "ey", "9"]), "".join(["ke", "y9"])
    (first,) = freeze({key_one: 1}).keys()
    (second,) = freeze({key_two: 1}).keys()
    assert first is second
    assert freeze(1) == 1 and freeze(None) is None and freeze("y" * (SHARED_TEXT + 1)) == "y" * (SHARED_TEXT + 1)


def test_thaw_gives_a_mutable_copy() -> None:
    frozen = freeze({"a": [1, {"b": [2]}]})
    thawed = thaw(frozen)
    assert thawed == {"a": [1, {"b": [2]}]}
    assert type(thawed) is dict and type(thawed["a"]) is list and type(thawed["a"][1]) is dict
    thawed["a"][1]["b"].append(3)
    assert frozen["a"][1]["b"] == (2,)
    assert thaw((1, (2,))) == [1, [2]] and thaw("s") == "s"


def test_provider_settings_are_kept_and_digested_only_when_given() -> None:
    """`providers` (how provider files declare the tool) is part of the body when set, absent otherwise,
    so catalogs written before the key existed keep their digests."""
    settings = {"exclude": ["gemini"]}
    with_settings = contract(providers=settings)
    assert dict(with_settings.providers) == {"exclude": ("gemini",)}
    assert with_settings.to_json()["providers"] == settings
    assert with_settings.digest != contract().digest
    assert "providers" not in contract().to_json() and dict(contract().providers) == {}
    again = cat.contract_from_json(with_settings.to_json())
    assert again.digest == with_settings.digest and dict(again.providers) == {"exclude": ("gemini",)}
    with pytest.raises(TypeError):
        with_settings.providers["exclude"] = ()  # type: ignore[index]
