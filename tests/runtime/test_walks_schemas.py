"""The registry's other schema walks (`_schemas`), judged on the runtime module itself.

What users rely on: a `null` the OpenAI strict declarations invite (an optional property whose
schema refuses null) is dropped as "not given", at any depth; a `null` for a property every value
must have, or one whose schema accepts null, is kept and judged; arguments are strict JSON objects;
error messages are bounded, listed in order, and never show a sensitive value.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest

from toolgen.runtime import _redact, _schemas

SENSITIVE = {"type": "string", "x-sensitive": True}


@pytest.fixture(scope="module")
def rendered() -> SimpleNamespace:
    return SimpleNamespace(redact=_redact, schemas=_schemas)


@pytest.fixture(scope="module")
def sch(rendered: SimpleNamespace) -> Any:
    return rendered.schemas


def dropped(sch: Any, value: Any, schema: Any) -> Any:
    sch.drop_invited_nulls(value, sch.validator(schema))
    return value


def test_every_exported_name_exists(sch: Any) -> None:
    assert [name for name in sch.__all__ if not hasattr(sch, name)] == []
    assert {"required", "additionalProperties", "unevaluatedProperties", "dependentRequired"} == sch.KEY_ONLY
    assert sch.MAX_LISTED == 100


# validator: draft 2020-12 with format checks


def test_the_validator_is_draft_2020_12_with_formats(sch: Any) -> None:
    pair = sch.validator(MappingProxyType({"prefixItems": ({"type": "integer"},), "items": False}))
    assert pair.is_valid([1]) and not pair.is_valid([1, 2]) and not pair.is_valid(["a"])
    email = sch.validator({"type": "string", "format": "email"})
    assert email.is_valid("a@example.org") and not email.is_valid("not an address")
    assert isinstance(pair.schema, dict) and isinstance(pair.schema["prefixItems"], list)


def test_pointer_escapes_per_rfc_6901(sch: Any) -> None:
    assert sch.pointer(["a/b", "c~d", 0, "~1"]) == "/a~1b/c~0d/0/~01"
    assert sch.pointer([]) == ""


# drop_invited_nulls


OPTIONS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "must": {"type": "integer"},
        "offset": {"type": "integer"},
        "limit": {"type": "integer", "default": 5},
        "note": {"type": ["string", "null"]},
        "either": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "anything": True,
        "both": {"allOf": [{"type": "string"}, {"minLength": 1}]},
        "mixed": {"allOf": [{"type": "string"}, True]},
    },
    "patternProperties": {"^x_": {"type": "string"}},
    "additionalProperties": False,
    "required": ["must"],
}


def test_only_the_nulls_an_optional_non_nullable_property_invites_are_dropped(sch: Any) -> None:
    value = dict.fromkeys(("must", "offset", "limit", "note", "either", "anything", "both", "mixed", "x_tag", "other"))
    kept = {"must": None, "note": None, "either": None, "anything": None, "x_tag": None, "other": None}
    assert dropped(sch, value, OPTIONS) == kept


def test_a_null_no_strict_declaration_invited_is_kept(sch: Any) -> None:
    """Issue 27: a key matched only by `additionalProperties` or `patternProperties` was never declared
    optional and nullable to a provider, so its null is a value, judged as usual."""
    schema = {"type": "object", "additionalProperties": {"type": "string"}}
    assert dropped(sch, {"a": None, "b": "x"}, schema) == {"a": None, "b": "x"}
    patterned = {"type": "object", "patternProperties": {"a": {"type": "boolean"}}, "additionalProperties": False}
    assert dropped(sch, {"a31b": None}, patterned) == {"a31b": None}


@pytest.mark.parametrize(
    ("schema", "kept"),
    [
        pytest.param({"$ref": "#/$defs/o"}, True, id="required-behind-ref"),
        pytest.param({"$ref": "#/$defs/to-o"}, True, id="required-behind-a-ref-to-a-ref"),
        pytest.param({"$ref": "#/$defs/o", "properties": {"k": {"type": "integer"}}}, True, id="ref-and-beside"),
        pytest.param(
            {"allOf": [{"required": ["k"]}], "properties": {"k": {"type": "integer"}}}, True, id="required-in-allOf"
        ),
        pytest.param({"allOf": [{"$ref": "#/$defs/o"}]}, True, id="ref-in-allOf"),
        pytest.param(
            {"anyOf": [{"required": ["k"]}], "properties": {"k": {"type": "integer"}}}, False, id="required-in-anyOf"
        ),
        pytest.param({"oneOf": [{"$ref": "#/$defs/o"}]}, False, id="ref-in-oneOf"),
        pytest.param({"if": True, "then": {"$ref": "#/$defs/o"}}, False, id="required-in-then"),
        pytest.param(
            {"not": {"required": ["z"]}, "properties": {"k": {"type": "integer"}}}, False, id="not-is-no-requirement"
        ),
        pytest.param({"properties": {"k": {"$ref": "#/$defs/n"}}}, True, id="nullable-behind-ref"),
        pytest.param({"properties": {"k": {"$ref": "#/$defs/i"}}}, False, id="non-nullable-behind-ref"),
        pytest.param({"properties": {"k": {"not": {"type": "null"}}}}, False, id="not-null"),
        pytest.param({"$ref": "#/$defs/negated"}, True, id="not-behind-a-ref-describes-nothing"),
        pytest.param({"anyOf": [{"$ref": "#/$defs/negated"}]}, True, id="not-in-a-branch-describes-nothing"),
        pytest.param({"if": {}, "then": {"$ref": "#/$defs/negated"}}, True, id="not-under-then-describes-nothing"),
        pytest.param({"else": {"$ref": "#/$defs/guarded"}}, True, id="if-under-else-describes-nothing"),
        pytest.param({"$ref": "#/$defs/guarded"}, True, id="if-behind-a-ref-describes-nothing"),
        pytest.param(
            {"properties": {"k": {"type": "integer"}}, "anyOf": [{"properties": {"k": {}}}]},
            True,
            id="a-branch-accepts-null",
        ),
    ],
)
def test_which_nulls_bind_every_value(sch: Any, schema: dict[str, Any], kept: bool) -> None:
    root = {
        **schema,
        "$defs": {
            "o": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]},
            "to-o": {"$ref": "#/$defs/o"},
            "negated": {"not": {"properties": {"k": {"type": "integer"}}}},
            "guarded": {"if": {"properties": {"k": {"type": "integer"}}}},
            "n": {"type": ["integer", "null"]},
            "i": {"type": "integer"},
        },
    }
    assert dropped(sch, {"k": None, "other": 1}, root) == ({"k": None, "other": 1} if kept else {"other": 1})


def test_a_ref_cycle_ends(sch: Any) -> None:
    root = {
        "$ref": "#/$defs/a",
        "$defs": {"a": {"$ref": "#", "properties": {"k": {"type": "integer"}}, "required": ["r"]}},
    }
    assert dropped(sch, {"k": None, "r": None}, root) == {"r": None}


NESTED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "inner": {
            "type": "object",
            "properties": {"deep": {"type": "object", "properties": {"flag": {"type": "boolean"}}}},
        },
        "rows": {"type": "array", "items": {"$ref": "#/$defs/row"}},
        "pair": {
            "type": "array",
            "prefixItems": [{"$ref": "#/$defs/row"}, {"type": "object", "properties": {"q": {"type": "string"}}}],
        },
        "some": {"type": "array", "contains": {"$ref": "#/$defs/row"}},
        "choice": {"anyOf": [{"type": "object", "properties": {"c": {"type": "integer"}}}, {"type": "string"}]},
        "guarded": {"if": {"type": "object"}, "then": {"properties": {"t": {"type": "integer"}}}},
        "hidden": {"not": {"properties": {"h": {"type": "integer"}}}},
        "rest": {"type": "object", "unevaluatedProperties": {"type": "integer"}},
    },
    "$defs": {
        "row": {
            "type": "object",
            "properties": {"n": {"type": "integer"}, "tag": {"type": "string"}},
            "required": ["n"],
        }
    },
}


def test_nulls_are_dropped_at_every_depth_the_schema_describes(sch: Any) -> None:
    value = {
        "inner": {"deep": {"flag": None}},
        "rows": [{"n": None, "tag": None}, {"n": 1, "tag": None}],
        "pair": [{"n": 2, "tag": None}, {"q": None}],
        "some": [{"n": 3, "tag": None}],
        "choice": {"c": None},
        "guarded": {"t": None},
        "hidden": {"h": None},
        "rest": {"u": None},
    }
    assert dropped(sch, value, NESTED) == {
        "inner": {"deep": {}},
        "rows": [{"n": None}, {"n": 1}],
        "pair": [{"n": 2}, {}],
        "some": [{"n": 3, "tag": None}],  # `contains` does not describe every item
        "choice": {},
        "guarded": {},
        "hidden": {"h": None},  # `not` does not describe the value
        "rest": {"u": None},  # neither does `unevaluatedProperties` (what it covers depends on the rest)
    }


def test_a_root_that_is_not_an_object_schema_drops_nothing(sch: Any) -> None:
    assert dropped(sch, {"a": None}, True) == {"a": None}
    assert dropped(sch, [None, {"a": None}], {"type": "array"}) == [None, {"a": None}]


# invalid, parse_arguments


def test_invalid_lists_errors_sorted_once_each(sch: Any) -> None:
    err = sch.invalid([("/b", "too long"), ("", "not an object"), ("/b", "too long"), ("/a", "wrong")], "arguments")
    assert (err.code, err.retryable) == ("INVALID_INPUT", False)
    assert err.message == "The arguments do not match the input schema: /: not an object; /a: wrong; /b: too long"
    assert err.details == {
        "errors": [
            {"path": "", "message": "not an object"},
            {"path": "/a", "message": "wrong"},
            {"path": "/b", "message": "too long"},
        ]
    }


def test_invalid_lists_at_most_a_hundred_and_counts_the_rest(sch: Any) -> None:
    hundred = sch.invalid([(f"/{i:03}", "bad") for i in range(100)], "output")
    assert len(hundred.details["errors"]) == 100 and "omitted" not in hundred.details
    assert hundred.message.startswith("The output do not match") and "more" not in hundred.message
    many = sch.invalid([(f"/{i:03}", "bad") for i in range(103)], "arguments")
    assert len(many.details["errors"]) == 100 and many.details["omitted"] == 3
    assert many.message.endswith("/099: bad; and 3 more")
    assert many.details["errors"][-1] == {"path": "/099", "message": "bad"}


def test_invalid_bounds_a_long_path(sch: Any) -> None:
    err = sch.invalid([("/" + "p" * 1200, "bad")], "arguments")
    assert err.details["errors"][0]["path"] == "/" + "p" * 999 + "... (1201 characters)"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("{not json", "the arguments are not valid JSON text"),
        (b'{"a": NaN}', "the arguments are not valid JSON text"),
        ('{"a": Infinity}', "the arguments are not valid JSON text"),
        ("[1, 2]", "the arguments must be a JSON object"),
        (["a"], "the arguments must be a JSON object"),
        ('"text"', "the arguments must be a JSON object"),
    ],
)
def test_parse_arguments_refuses_what_is_not_a_strict_json_object(sch: Any, arguments: Any, message: str) -> None:
    err = sch.parse_arguments(arguments)
    assert err.code == "INVALID_INPUT"
    assert err.message == f"The arguments do not match the input schema: /: {message}"
    assert err.details == {"errors": [{"path": "", "message": message}]}


def test_parse_arguments_gives_a_plain_copy(sch: Any) -> None:
    frozen = MappingProxyType({"a": (1, MappingProxyType({"b": None}))})
    parsed = sch.parse_arguments(frozen)
    assert parsed == {"a": [1, {"b": None}]} and type(parsed) is dict and type(parsed["a"]) is list
    assert sch.parse_arguments('{"x": [1.5, "é"]}') == {"x": [1.5, "é"]}
    assert sch.parse_arguments(b'{"x": 1}') == {"x": 1}


# describe, model_message, input_problems, output_problems


def _errors(sch: Any, schema: Any, value: Any) -> list[Any]:
    return sorted(sch.validator(schema).iter_errors(value), key=lambda e: (list(e.absolute_path), e.validator))


def test_describe_hides_a_sensitive_value_but_keeps_messages_about_keys(sch: Any, rendered: SimpleNamespace) -> None:
    schema = {
        "type": "object",
        "properties": {"pin": {**SENSITIVE, "minLength": 20}, "login": {"type": "object", "required": ["user"]}},
        "required": ["name"],
        "additionalProperties": False,
    }
    value = {"pin": "hunter2", "login": {"pw": "hunter2"}, "extra": 1}
    secrets = rendered.redact.Secrets.of([("pin",), ("login", "pw")], ["hunter2"])
    messages = {e.validator: sch.describe(e, secrets) for e in _errors(sch, schema, value)}
    assert messages["minLength"] == "the value fails `minLength` (it is or holds sensitive data, not shown)"
    assert messages["required"] in ("'name' is a required property", "'user' is a required property")
    assert "extra" in messages["additionalProperties"]
    assert "hunter2" not in repr(messages)


@pytest.mark.parametrize(
    ("keyword", "schema", "value"),
    [
        ("required", {"type": "object", "required": ["user"]}, {"pw": "hunter2"}),
        (
            "additionalProperties",
            {"type": "object", "properties": {"pw": {}}, "additionalProperties": False},
            {"pw": "hunter2", "x": 1},
        ),
        (
            "unevaluatedProperties",
            {"type": "object", "properties": {"pw": {}}, "unevaluatedProperties": False},
            {"pw": "hunter2", "x": 1},
        ),
        ("dependentRequired", {"type": "object", "dependentRequired": {"pw": ["user"]}}, {"pw": "hunter2"}),
    ],
)
def test_a_message_about_keys_stays_readable_beside_a_secret(
    sch: Any, rendered: SimpleNamespace, keyword: str, schema: dict[str, Any], value: dict[str, Any]
) -> None:
    secrets = rendered.redact.Secrets.of([("pw",)], ["hunter2"])
    (error,) = _errors(sch, schema, value)
    assert error.validator == keyword
    message = sch.describe(error, secrets)
    assert "sensitive" not in message and ("user" in message or "'x'" in message), message


def test_describe_quotes_a_long_value_only_in_part_and_scrubs_pasted_secrets(
    sch: Any, rendered: SimpleNamespace
) -> None:
    (error,) = _errors(sch, {"type": "integer"}, "v" * 500)
    message = sch.describe(error, rendered.redact.NO_SECRETS)
    assert message == "'" + "v" * 199 + "... (502 characters) is not of type 'integer'"
    (short,) = _errors(sch, {"type": "integer"}, "vvv")
    assert sch.describe(short, rendered.redact.NO_SECRETS) == "'vvv' is not of type 'integer'"
    (pasted,) = _errors(sch, {"properties": {"a": {"type": "integer"}}}, {"a": "my hunter2"})
    secrets = rendered.redact.Secrets.of([("b",)], ["hunter2"])
    assert sch.describe(pasted, secrets) == "'my [REDACTED]' is not of type 'integer'"
    (huge,) = _errors(sch, {"enum": ["e" * 600, "f" * 600]}, "g")
    assert sch.describe(huge, rendered.redact.NO_SECRETS).endswith(" characters)")
    assert len(sch.describe(huge, rendered.redact.NO_SECRETS)) <= 1000 + len("... (99999 characters)")


def test_model_message_hides_a_sensitive_location(sch: Any, rendered: SimpleNamespace) -> None:
    secrets = rendered.redact.Secrets.of([("pin",)], ["hunter2"])
    hidden = "the value is not valid (it is or holds sensitive data, not shown)"
    assert sch.model_message(("pin",), "bad hunter2", secrets) == hidden
    assert sch.model_message((), "bad hunter2", secrets) == hidden
    assert sch.model_message(("name",), "bad hunter2", secrets) == "bad [REDACTED]"
    assert sch.model_message(("name",), "m" * 1001, secrets) == "m" * 1000 + "... (1001 characters)"


def test_input_problems_give_a_pointer_and_a_message_for_each_error(sch: Any, rendered: SimpleNamespace) -> None:
    schema = {"type": "object", "properties": {"a/b": {"type": "integer"}, "n": {"maximum": 3}}}
    problems = sch.input_problems({"a/b": "x", "n": 4}, sch.validator(schema), rendered.redact.NO_SECRETS)
    assert sorted(problems) == [("/a~1b", "'x' is not of type 'integer'"), ("/n", "4 is greater than the maximum of 3")]


def test_output_problems_drop_invited_nulls_then_judge(sch: Any, rendered: SimpleNamespace) -> None:
    schema = {"type": "object", "properties": {"opt": {"type": "string"}, "n": {"type": "integer"}}, "required": ["n"]}
    data: dict[str, Any] = {"opt": None, "n": None}
    problems = sch.output_problems(data, sch.validator(schema), rendered.redact.NO_SECRETS)
    assert data == {"n": None}
    assert problems == ["/n: None is not of type 'integer'"]
    root = sch.output_problems([], sch.validator({"type": "object"}), rendered.redact.NO_SECRETS)
    assert root == ["/: [] is not of type 'object'"]
