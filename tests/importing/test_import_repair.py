"""`--repair`: each fix real catalogs need, reported per tool; without it, each is an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.importing.test_import_shapes import assert_catalog_loads, read_contract, run_import
from toolgen.catalog import normalize_text
from toolgen.config import load_settings
from toolgen.importing.importer import Options, plan_import
from toolgen.importing.repair import Repair, repair_schema, snake_case

DESCRIPTION = "Add up a list of numbers and return the total, rounded as asked."


@pytest.mark.parametrize(
    ("raw", "fixed"),
    [
        ("math.sum", "math_sum"),
        ("ChaDri.change_drink", "cha_dri_change_drink"),
        ("npmVersions", "npm_versions"),
        ("getHTTPResponse", "get_http_response"),
        ("lol-champion-analysis", "lol_champion_analysis"),
        ("Summarize Detection", "summarize_detection"),
        ("Events_3_FindEvents", "events_3_find_events"),
        ("2fa-check", "tool_2fa_check"),
        ("__private__", "private"),
        ("x" * 80, "x" * 64),
    ],
)
def test_snake_case(raw: str, fixed: str) -> None:
    assert snake_case(raw) == fixed


def repaired(schema: dict[str, Any]) -> tuple[dict[str, Any], list[Repair]]:
    notes: list[Repair] = []
    return repair_schema(json.loads(json.dumps(schema)), "/parameters", notes), notes


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("dict", "object"),
        ("float", "number"),
        ("double", "number"),
        ("tuple", "array"),
        ("ArrayList", "array"),
        ("HashMap", "object"),
        ("String", "string"),
        ("Boolean", "boolean"),
        ("long", "integer"),
        ("char", "string"),
        ("str", "string"),
        ("int", "integer"),
    ],
)
def test_non_standard_types_become_json_schema(given: str, expected: str) -> None:
    schema, notes = repaired({"type": "dict", "properties": {"x": {"type": given}}})
    assert schema["type"] == "object"
    assert schema["properties"]["x"]["type"] == expected
    assert (
        Repair("/parameters/properties/x/type", f"type {given!r} is not a JSON Schema type; now {expected!r}") in notes
    )


@pytest.mark.parametrize("given", ["any", ""])
def test_any_types_accept_any_value(given: str) -> None:
    schema, notes = repaired({"type": "object", "properties": {"x": {"type": given, "description": "d"}}})
    assert schema["properties"]["x"] == {"description": "d"}
    assert "removed it (any value is accepted)" in notes[0].message
    assert not notes[0].changes


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Whatever", "changes what is accepted: type 'Whatever' is no type toolgen knows; removed it (any value)"),
        ("List[str]", "changes what is accepted: type 'List[str]' became 'array'; its element type is not kept"),
        (
            "Array<Number>",
            "changes what is accepted: type 'Array<Number>' became 'array'; its element type is not kept",
        ),
    ],
)
def test_unknown_and_generic_types_say_they_change_what_is_accepted(given: str, expected: str) -> None:
    _, notes = repaired({"type": "object", "properties": {"x": {"type": given}}})
    assert [(n.message, n.changes) for n in notes] == [(expected, True)]


def test_optional_flags_are_honoured() -> None:
    schema, notes = repaired(
        {
            "type": "object",
            "properties": {
                "a": {"type": "string", "optional": True},
                "b": {"type": "string", "optional": False},
                "c": {"type": "string", "required": True},
            },
            "required": ["a"],
        }
    )
    assert schema["required"] == ["b", "c"]
    assert all("optional" not in p and "required" not in p for p in schema["properties"].values())
    assert (
        Repair.changed("/parameters/properties/a/optional", "non-standard `optional` honoured: 'a' is optional")
        in notes
    )
    assert all(n.changes for n in notes)


def test_optional_flag_that_agrees_with_required_changes_nothing() -> None:
    schema, notes = repaired(
        {"type": "object", "properties": {"a": {"type": "string", "optional": True}}, "required": []}
    )
    assert schema == {"type": "object", "properties": {"a": {"type": "string"}}, "required": []}
    assert [n.kind for n in notes] == ["repair"]


@pytest.mark.parametrize(
    ("prop", "kept"),
    [
        ({"type": "integer", "default": "5 years"}, False),
        ({"type": "string", "default": ["a"]}, False),
        ({"type": "string", "default": None}, False),
        ({"type": "string", "enum": ["a", "b"], "default": "c"}, False),
        ({"type": "integer", "default": 2.0}, True),
        ({"type": "number", "default": 2}, True),
        ({"type": ["string", "null"], "default": None}, True),
        ({"type": "boolean", "default": True}, True),
        ({"type": "integer", "default": True}, False),
    ],
)
def test_defaults_that_do_not_match_are_dropped(prop: dict[str, Any], kept: bool) -> None:
    schema, notes = repaired({"type": "object", "properties": {"x": prop}})
    assert ("default" in schema["properties"]["x"]) is kept
    assert bool(notes) is not kept


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ({"type": "integer", "default": "5"}, 5),
        ({"type": "integer", "default": " -3 "}, -3),
        ({"type": "number", "default": "2.5"}, 2.5),
        ({"type": "boolean", "default": "false"}, False),
        ({"type": ["integer", "null"], "default": "0"}, 0),
    ],
)
def test_string_defaults_of_numbers_and_booleans_are_coerced(prop: dict[str, Any], value: Any) -> None:
    schema, notes = repaired({"type": "object", "properties": {"x": prop}})
    assert schema["properties"]["x"]["default"] == value
    assert type(schema["properties"]["x"]["default"]) is type(value)
    assert [(n.pointer, n.kind) for n in notes] == [("/parameters/properties/x/default", "repair")]


def test_duplicate_and_non_string_required_names_are_dropped_and_unknown_ones_kept() -> None:
    schema, notes = repaired(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b", "a", 3]}
    )
    assert schema["required"] == ["a", "b"]
    assert [n.pointer for n in notes] == ["/parameters/required/2", "/parameters/required/3"]
    assert not any(n.changes for n in notes)


def test_draft07_schema_and_items_list_are_modernised() -> None:
    schema, notes = repaired(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]}},
        }
    )
    assert "$schema" not in schema
    assert schema["properties"]["pair"] == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]}
    assert len(notes) == 2


def test_root_without_type_and_leftover_invalid_keywords() -> None:
    schema, notes = repaired(
        {"properties": {"a": {"type": "string", "minLength": "3", "enum": "x", "examples": "y", "title": 5}}}
    )
    assert schema == {"type": "object", "properties": {"a": {"type": "string", "minLength": 3, "examples": ["y"]}}}
    kinds = {n.pointer: n.kind for n in notes}
    assert kinds == {
        "/parameters/type": "repair",
        "/parameters/properties/a/minLength": "repair",
        "/parameters/properties/a/examples": "repair",
        "/parameters/properties/a/title": "repair",
        "/parameters/properties/a/enum": "changes",
    }


def test_openapi_nullable_becomes_a_null_type() -> None:
    schema, _ = repaired({"type": "object", "properties": {"a": {"type": "string", "nullable": True}}})
    assert schema["properties"]["a"] == {"type": ["string", "null"]}


def test_repairs_reach_nested_and_composed_schemas() -> None:
    schema, _ = repaired(
        {
            "type": "dict",
            "properties": {
                "x": {
                    "type": "array",
                    "items": {
                        "anyOf": [
                            {"type": "float"},
                            {
                                "type": "dict",
                                "properties": {"y": {"type": "tuple"}},
                                "additionalProperties": {"type": "int"},
                            },
                        ]
                    },
                }
            },
        }
    )
    branches = schema["properties"]["x"]["items"]["anyOf"]
    assert branches[0] == {"type": "number"}
    assert branches[1]["properties"]["y"] == {"type": "array"}
    assert branches[1]["additionalProperties"] == {"type": "integer"}


BFCL_LIKE = [
    {
        "name": "math.sum",
        "description": DESCRIPTION,
        "parameters": {
            "type": "dict",
            "properties": {
                "numbers": {"type": "array", "items": {"type": "float"}, "description": "Numbers."},
                "places": {"type": "integer", "default": "2", "description": "Decimal places.", "optional": True},
            },
            "required": ["numbers", "places", "ghost"],
        },
    },
    {"name": "math_sum", "description": DESCRIPTION, "parameters": {"type": "object", "properties": {}}},
    {"name": "MathSum", "description": DESCRIPTION, "parameters": {"type": "object", "properties": {}}},
]


def test_cli_repair_reports_every_fix_per_tool(project: Path) -> None:
    text = "".join(json.dumps(r) + "\n" for r in BFCL_LIKE)
    result = run_import(project, text, "openai", "--repair", name="bfcl.jsonl")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "line 1 (math.sum) -> contracts/math_sum.toml" in out
    assert "  repaired /name: name 'math.sum' is not snake_case (at most 64 characters); now 'math_sum'" in out
    assert "  repaired /parameters/type: type 'dict' is not a JSON Schema type; now 'object'" in out
    assert "  repaired /parameters/properties/numbers/items/type: type 'float'" in out
    assert "  repaired /parameters/properties/places/default: default '2' is a string; now 2" in out
    assert (
        "  repaired /parameters/properties/places/optional: changes what is accepted: non-standard `optional` "
        "honoured: 'places' is optional" in out
    )
    assert "ghost" not in out
    assert "  note: a repair changes what the tool accepts: tagged 'schema:unconfirmed' (TG450); check it" in out
    assert "line 2 (math_sum) -> contracts/math_sum_2.toml" in out
    assert "  repaired /name: the name 'math_sum' is already taken in this import; now 'math_sum_2'" in out
    assert "line 3 (MathSum) -> contracts/math_sum_3.toml" in out
    contract = read_contract(project, "math_sum")
    assert contract["input_schema"]["required"] == ["numbers", "ghost"]
    assert contract["tags"] == ["permissions:unconfirmed", "schema:unconfirmed"]
    assert (
        "tags" not in read_contract(project, "math_sum_2")
        or "schema:unconfirmed" not in read_contract(project, "math_sum_2")["tags"]
    )
    assert_catalog_loads(project, {"math_sum", "math_sum_2", "math_sum_3"})


def test_without_repair_each_problem_is_an_error_naming_line_and_place(project: Path) -> None:
    text = "".join(json.dumps(r) + "\n" for r in BFCL_LIKE)
    result = run_import(project, text, "openai", name="bfcl.jsonl")
    assert result.exit_code == 1
    err = result.stderr
    assert "bfcl.jsonl:1: TG107 line 1 (math.sum): name 'math.sum' is not snake_case" in err
    assert "--repair would fix it [at /name]" in err
    assert (
        "bfcl.jsonl:1: TG116 line 1 (math.sum): type 'dict' is not a JSON Schema type; --repair would fix it "
        "[at /parameters/type]" in err
    )
    assert "bfcl.jsonl:3: TG107 line 3 (MathSum)" in err
    assert "3 declarations: 1 imported, 2 rejected" in err
    assert sorted(p.name for p in (project / "contracts").iterdir()) == ["math_sum.toml"]


def test_duplicate_names_without_repair_name_the_first_record(project: Path) -> None:
    same = {"name": "get_x", "description": DESCRIPTION, "parameters": {"type": "object", "properties": {}}}
    result = run_import(project, [same, same], "openai")
    assert result.exit_code == 1
    assert "TG109 record #/1 (get_x): the name 'get_x' is already used by record #/0 (get_x)" in result.stderr


def test_collision_suffix_keeps_names_within_64_characters(project: Path) -> None:
    long = "a" * 70
    records = [{"name": long, "description": DESCRIPTION, "parameters": {"type": "object"}} for _ in range(3)]
    result = run_import(project, records, "openai", "--repair")
    assert result.exit_code == 0, result.output
    names = sorted(p.stem for p in (project / "contracts").iterdir())
    assert names == ["a" * 62 + "_2", "a" * 62 + "_3", "a" * 64]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "properties",
                    "required",
                    "items",
                    "anyOf",
                    "default",
                    "enum",
                    "optional",
                    "name",
                    "$ref",
                    "nullable",
                    "additionalProperties",
                    "x",
                    "$schema",
                    "minLength",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=30,
)


PROPERTY_NAMES = st.sampled_from(["path", "max_lines", "Query", "2fa", "a b", "x"])
PROPERTY = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["string", "integer", "number", "boolean", "str", "int", "dict", "any"]),
            "description": st.just("What it is."),
        },
        optional={"default": JSON, "nullable": st.booleans()},
    ),
    JSON,
)
OBJECT = st.fixed_dictionaries(
    {"type": st.sampled_from(["object", "dict"]), "properties": st.dictionaries(PROPERTY_NAMES, PROPERTY, max_size=4)},
    optional={"required": st.lists(PROPERTY_NAMES, max_size=3), "additionalProperties": st.booleans() | PROPERTY},
)
"""Declarations close to real ones, with problems `--repair` fixes."""

VALID = st.dictionaries(
    PROPERTY_NAMES,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["string", "integer", "boolean"]), "description": st.just("What it is.")}
    ),
    max_size=4,
).flatmap(
    lambda properties: st.fixed_dictionaries(
        # now and then a root that is not an object: import must refuse it, never plan it
        {"type": st.sampled_from(["object", "object", "object", "string", "array"]), "properties": st.just(properties)},
        optional={
            "required": st.lists(st.sampled_from(sorted(properties)), unique=True) if properties else st.just([])
        },
    )
)
"""Valid declarations (but for the root type now and then), so the per-item checks are reached without
`--repair` too."""


def test_import_never_raises_on_arbitrary_declarations(tmp_path: Path) -> None:
    """No input makes import raise; every planned contract has an object input schema that is valid.

    The inputs are arbitrary JSON and near-real declarations; the test counts how often a contract is
    planned (with and without `--repair`) and fails if the per-item checks were rarely reached.
    """
    reached = {False: 0, True: 0}
    settings_, _ = load_settings(tmp_path)
    names = st.one_of(st.from_regex(r"[a-z][a-z0-9_]{2,20}", fullmatch=True), st.just("add_up"), st.text(max_size=10))
    descriptions = st.sampled_from([DESCRIPTION, DESCRIPTION, DESCRIPTION, "d"])
    shapes = st.sampled_from(["openai", "anthropic", "gemini", "mcp"])

    @settings(max_examples=150, deadline=None, database=None)
    @given(schema=st.one_of(VALID, VALID, OBJECT, JSON), name=names, description=descriptions, shape=shapes)
    def check(schema: Any, name: str, description: str, shape: str) -> None:
        key = {"openai": "parameters", "anthropic": "input_schema", "gemini": "parameters", "mcp": "inputSchema"}[shape]
        record = {"name": name, "description": description, key: schema, "arguments": schema, "outputSchema": schema}
        for repair in (False, True):
            plan = plan_import(json.dumps([record, schema]), shape, settings_, Options("x.json", repair=repair))
            assert plan.records >= 1
            assert len(plan.planned) <= plan.records
            reached[repair] += bool(plan.planned)
            for item in plan.planned:
                assert item.document["input_schema"]["type"] == "object"
                assert not list(
                    Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(item.document["input_schema"])
                )

    check()
    assert reached[False] >= 20 and reached[True] >= 60, f"examples that planned a contract: {reached}"


def test_shorten_cuts_at_paragraph_then_sentence_then_word() -> None:
    from toolgen.importing.repair import shorten

    assert shorten("short", 10) == "short"
    assert shorten("First part.\n\nSecond part is long.", 20) == "First part."
    assert shorten("One sentence here. Two sentences here.", 30) == "One sentence here."
    assert shorten("words and more words", 12) == "words and"
    assert shorten("x" * 30, 10) == "x" * 10


def test_long_description_is_kept_whole_in_the_contract(project: Path) -> None:
    text = "Use this tool to search. " * 60 + "A timed-out command keeps running."
    size = len(normalize_text(text))
    assert size > 1024
    record = {"name": "search", "description": text, "parameters": {"type": "object"}}
    result = run_import(project, [record], "openai")
    assert result.exit_code == 0, result.output
    assert read_contract(project, "search")["description"] == normalize_text(text)
    assert f"note: the description has {size} characters, kept whole; the OpenAI files carry it shortened" in (
        result.stdout
    )
