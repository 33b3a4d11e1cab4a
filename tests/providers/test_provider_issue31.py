"""One test per provider-declaration defect of issue 31, each from the issue's repro.

Each builds the repro in memory and judges the declaration as the JSON-Schema-Test-Suite tier does:
the original schema's verdict against the declared schema's, and what the tool's text announces.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.providers_support import catalog_of, make_contract, settings
from toolgen.catalog import Contract
from toolgen.diagnostics import Diagnostic
from toolgen.render import providers


def project(tmp_path: Path, *contracts: Contract, anthropic_strict: bool = False) -> tuple[Any, list[Diagnostic]]:
    result = providers.project(catalog_of(*contracts), settings(tmp_path, anthropic_strict=anthropic_strict))
    return {p.file: p.tools for p in result.payloads}, list(result.diagnostics)


def one(value_schema: Any) -> dict[str, Any]:
    """The schema placed as the required property `v`, as the suite tier places every group."""
    return {"type": "object", "additionalProperties": False, "required": ["v"], "properties": {"v": value_schema}}


def texts(node: Any) -> str:
    """Every description in a declaration, joined (what the model reads besides the shape)."""
    if isinstance(node, dict):
        own = [node["description"]] if isinstance(node.get("description"), str) else []
        return "\n".join(own + [texts(v) for v in node.values()])
    if isinstance(node, list):
        return "\n".join(texts(v) for v in node)
    return ""


def accepts(schema: dict[str, Any], value: Any) -> bool:
    return bool(Draft202012Validator(schema).is_valid({"v": value}))


ONE_OF = {"oneOf": [{"type": "integer"}, {"minimum": 2}]}


def test_openai_one_of_widened_to_any_of_is_announced_in_the_tool_and_a_diagnostic(tmp_path: Path) -> None:
    files, diagnostics = project(tmp_path, make_contract("pick", one(ONE_OF)))
    for file, entry in (
        ("chat", files["openai_chat.json"]["pick"]["function"]),
        ("resp", files["openai_responses.json"]["pick"]),
    ):
        schema = entry["parameters"]
        assert accepts(schema, 3), file  # anyOf: the value matching both branches now passes
        assert "exactly one" in texts(entry).lower(), (file, texts(entry))
    said = [d for d in diagnostics if d.code == "TG312" and "pick" in d.message]
    assert said and said[0].pointer == "/input_schema/properties/v/oneOf", [d.message for d in diagnostics]


def test_openai_one_of_with_disjoint_branches_is_exact_and_says_nothing(tmp_path: Path) -> None:
    disjoint = {"oneOf": [{"type": "integer"}, {"type": "string"}]}
    files, diagnostics = project(tmp_path, make_contract("pick", one(disjoint)))
    assert "anyOf" in files["openai_chat.json"]["pick"]["function"]["parameters"]["properties"]["v"]
    assert not [d for d in diagnostics if d.code == "TG312"]


def test_boolean_and_typeless_subschemas_are_never_strict(tmp_path: Path) -> None:
    for shape in (
        one(True),
        one(False),
        one({"anyOf": [True, True]}),
        {**one({"$ref": "#/$defs/x"}), "$defs": {"x": True}},
        one({"type": "array", "items": True}),
    ):
        files, diagnostics = project(tmp_path, make_contract("free", shape), anthropic_strict=True)
        assert files["openai_chat.json"]["free"]["function"]["strict"] is False, shape
        assert files["anthropic.json"]["free"]["strict"] is False, shape
        assert any(d.code == "TG301" for d in diagnostics), shape


def test_gemini_pattern_properties_moved_do_not_leave_additional_properties_refusing_their_keys(tmp_path: Path) -> None:
    shape = one({"properties": {"foo": {}}, "patternProperties": {"^v": {}}, "additionalProperties": False})
    files, _ = project(tmp_path, make_contract("keys", shape))
    schema = files["gemini.json"]["keys"]["parametersJsonSchema"]
    assert accepts(shape, {"foo": 1, "vroom": 2})
    assert accepts(schema, {"foo": 1, "vroom": 2})
    assert "^v" in texts(schema)


def test_gemini_one_of_whose_branches_lose_constraints_keeps_valid_values(tmp_path: Path) -> None:
    shape = one({"type": "string", "oneOf": [{"minLength": 2}, {"maxLength": 4}]})
    files, _ = project(tmp_path, make_contract("word", shape))
    schema = files["gemini.json"]["word"]["parametersJsonSchema"]
    assert accepts(shape, "foobar")
    assert accepts(schema, "foobar")  # was: two empty branches, so oneOf failed for every value
    assert "exactly one" in texts(schema).lower()


def test_gemini_merging_a_one_branch_all_of_does_not_change_what_additional_properties_covers(tmp_path: Path) -> None:
    shape = one({"allOf": [{"properties": {"foo": {}}}], "additionalProperties": {"type": "boolean"}})
    files, _ = project(tmp_path, make_contract("flags", shape))
    schema = files["gemini.json"]["flags"]["parametersJsonSchema"]
    assert not accepts(shape, {"foo": 1, "bar": True})
    assert not accepts(schema, {"foo": 1, "bar": True}) or "allOf" in texts(schema)
    items = one({"allOf": [{"prefixItems": [{}]}], "items": {"type": "integer"}})
    files, _ = project(tmp_path, make_contract("row", items))
    schema = files["gemini.json"]["row"]["parametersJsonSchema"]
    assert not accepts(items, ["x", "y"])
    assert not accepts(schema, ["x", "y"]) or "allOf" in texts(schema)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_gemini_has_no_ref_that_resolves_to_nothing(tmp_path: Path) -> None:
    anchored = {**one({"$ref": "#foo"}), "$defs": {"A": {"$anchor": "foo", "type": "integer"}}}
    moved = one({"not": {"type": "string"}, "properties": {"a": {"$ref": "#/properties/v/not"}}})
    for name, shape in (("anchored", anchored), ("moved", moved)):
        files, _ = project(tmp_path, make_contract(name, shape))
        schema = files["gemini.json"][name]["parametersJsonSchema"]
        resolver = Registry().with_resource("urn:t", DRAFT202012.create_resource(schema)).resolver("urn:t")
        for ref in _refs(schema):
            assert resolver.lookup(ref).contents is not None, (name, ref)
        assert accepts(schema, 1) == accepts(shape, 1) or name == "moved"


def test_gemini_moved_constraints_read_as_sentences(tmp_path: Path) -> None:
    shape = one({"type": "object", "propertyNames": {"maxLength": 3}, "minProperties": 1})
    files, _ = project(tmp_path, make_contract("names", shape))
    said = texts(files["gemini.json"]["names"]["parametersJsonSchema"]).lower()
    assert "{" not in said, said  # no JSON blob
    assert "at most 3 characters" in said and "at least 1 property" in said, said


def test_deprecated_is_said_once_in_every_provider(tmp_path: Path) -> None:
    contract = make_contract(
        "old",
        one({"type": "string"}),
        description="Find lines.\n\nDeprecated: use `search_code`, which is faster.",
        deprecated="use search_code",
    )
    files, _ = project(tmp_path, contract)
    for file, tools in files.items():
        entry = tools["old"]
        text = (entry.get("function") or entry)["description"]
        assert text.lower().count("deprecated") == 1, (file, text)
    plain = make_contract("older", one({"type": "string"}), description="Find lines.", deprecated="use search_code")
    files, _ = project(tmp_path, plain)
    assert files["mcp.json"]["older"]["description"].startswith("Deprecated")


def test_descriptions_reach_providers_as_paragraphs(tmp_path: Path) -> None:
    source = "Read a file\nand return it.\n\n- one item\n- two\n\n```\ncode\nkept\n```"
    contract = make_contract("read", one({"type": "string", "description": "The path\nto read."}), description=source)
    files, _ = project(tmp_path, contract)
    want = "Read a file and return it.\n\n- one item\n- two\n\n```\ncode\nkept\n```"
    for file, tools in files.items():
        entry = tools["read"]
        assert (entry.get("function") or entry)["description"] == want, file
    assert "The path to read." in texts(files["mcp.json"]["read"]["inputSchema"])


EXAMPLES = [
    {"title": "ok", "input": {"v": "fine"}, "output": {"done": True}},
    {"title": "bad", "input": {"v": "foo("}, "error": {"code": "INVALID_INPUT", "message": "bad regex"}},
]


def test_anthropic_input_examples_carry_only_successful_examples(tmp_path: Path) -> None:
    contract = make_contract("grep", one({"type": "string"}), examples=EXAMPLES)
    files, _ = project(tmp_path, contract)
    assert files["anthropic.json"]["grep"]["input_examples"] == [{"v": "fine"}]


def test_anthropic_sensitive_example_is_masked_as_the_docs_mask_it(tmp_path: Path) -> None:
    shape = one({"type": "string", "x-sensitive": True})
    contract = make_contract("login", shape, examples=[{"input": {"v": "hunter2"}, "output": {"ok": True}}])
    files, _ = project(tmp_path, contract)
    assert files["anthropic.json"]["login"]["input_examples"] == [{"v": "***"}]
    said = providers.provider_notes(catalog_of(contract), settings(tmp_path))["login"]
    assert any("masked" in n for n in said), said
