"""The secrets walk (`_redact`), judged on the runtime module itself (no package build).

What users rely on: every value a schema marks `x-sensitive` is found, however the schema routes it
(`$ref`, combinators, properties, patterns, items), is replaced in a trace, and is scrubbed from any
text (a short secret only as a whole word); long strings and quotes are cut, saying their length.
"""

from __future__ import annotations

from types import MappingProxyType, ModuleType
from typing import Any

import pytest

from toolgen.runtime import _redact

SENSITIVE = {"type": "string", "x-sensitive": True}


@pytest.fixture(scope="module")
def red() -> ModuleType:
    return _redact


def test_every_exported_name_exists(red: ModuleType) -> None:
    assert red.__all__ == sorted(red.__all__)
    assert [name for name in red.__all__ if not hasattr(red, name)] == []


def test_the_stated_limits(red: ModuleType) -> None:
    assert (red.REDACTED, red.MAX_TRACE_STRING, red.MAX_QUOTE, red.MAX_MESSAGE) == ("[REDACTED]", 200, 200, 1000)
    assert red.MIN_ANYWHERE == 6


# resolve: local JSON pointers (RFC 6901 escapes, percent-encoding, array indexes) and anchors


ROOT: dict[str, Any] = {
    "$defs": {
        "a/b": {"title": "slash"},
        "a~b": {"title": "tilde"},
        "a~1b": {"title": "tilde-one"},
        "a b": {"title": "space"},
        "list": [{"title": "zero"}, {"title": "one"}],
        "anchored": {"$anchor": "here", "title": "anchor"},
        "dynamic": {"$dynamicAnchor": "there", "title": "dynamic"},
        "nested": {"allOf": [{"type": "string"}, {"$anchor": "deep", "title": "in a list"}]},
    }
}


@pytest.mark.parametrize(
    ("ref", "title"),
    [
        ("#/$defs/a~1b", "slash"),
        ("#/$defs/a~0b", "tilde"),
        ("#/$defs/a~01b", "tilde-one"),  # ~01 is `~1`, not `/`: `~1` is unescaped first
        ("#/$defs/a%20b", "space"),
        ("#/$defs/list/0", "zero"),
        ("#/$defs/list/1", "one"),
        ("#here", "anchor"),
        ("#there", "dynamic"),
        ("#deep", "in a list"),
    ],
)
def test_resolve_finds_what_a_local_ref_names(red: ModuleType, ref: str, title: str) -> None:
    assert red.resolve(ref, ROOT)["title"] == title


@pytest.mark.parametrize(
    "ref",
    [
        "other.json#/$defs/a~1b",
        "#/$defs/list/2",
        "#/$defs/list/x",
        "#/$defs/missing",
        "#/$defs/a~1b/title/x",
        "#nowhere",
    ],
)
def test_resolve_gives_none_for_what_it_cannot_find(red: ModuleType, ref: str) -> None:
    assert red.resolve(ref, ROOT) is None


def test_resolve_of_the_whole_document_and_of_frozen_lists(red: ModuleType) -> None:
    assert red.resolve("#", ROOT) is ROOT
    frozen = MappingProxyType({"items": ({"title": "a"}, {"title": "b"})})
    assert red.resolve("#/items/1", frozen) == {"title": "b"}


# applicable: the subschemas that may apply to the same value


def _titles(schemas: list[Any]) -> list[str]:
    return [s.get("title", "-") for s in schemas]


def test_applicable_follows_refs_and_every_combinator_when_wide(red: ModuleType) -> None:
    schema = {
        "title": "top",
        "$ref": "#/$defs/r",
        "allOf": [{"title": "all"}],
        "anyOf": ({"title": "any"},),
        "oneOf": [{"title": "one"}],
        "not": {"title": "not"},
        "if": {"title": "if"},
        "then": {"title": "then"},
        "else": {"title": "else"},
        "dependentSchemas": {"k": {"title": "dependent"}},
    }
    root = {"$defs": {"r": {"title": "ref", "allOf": [{"title": "ref-all"}]}}}
    wide = _titles(red.applicable(schema, root))
    assert sorted(wide) == sorted(
        ["top", "ref", "ref-all", "all", "any", "one", "not", "if", "then", "else", "dependent"]
    )
    narrow = _titles(red.applicable(schema, root, wide=False))
    assert sorted(narrow) == sorted(["top", "ref", "ref-all", "all", "any", "one", "then", "else"])


def test_applicable_ignores_what_is_not_a_schema_and_ends_on_a_ref_cycle(red: ModuleType) -> None:
    assert red.applicable(True, {}) == []
    assert red.applicable({"anyOf": {"title": "not a list"}, "not": True}, {}) == [
        {"anyOf": {"title": "not a list"}, "not": True}
    ]
    assert red.applicable({"dependentSchemas": [{"title": "not a map"}]}, {}) == [
        {"dependentSchemas": [{"title": "not a map"}]}
    ]
    root = {"$defs": {"loop": {"title": "loop", "allOf": [{"$ref": "#/$defs/loop"}]}}}
    found = red.applicable({"$ref": "#/$defs/loop"}, root)
    assert 2 <= len(found) <= 4 and "loop" in _titles(found)


def test_a_ref_seen_on_one_branch_is_still_followed_on_another(red: ModuleType) -> None:
    root = {"$defs": {"s": {"title": "s"}}}
    schema = {"allOf": [{"$ref": "#/$defs/s"}], "anyOf": [{"$ref": "#/$defs/s"}]}
    assert _titles(red.applicable(schema, root)).count("s") == 2


# property_schemas and item_schemas


def test_property_schemas_named_and_by_pattern_else_additional(red: ModuleType) -> None:
    schema = {
        "properties": {"secret_key": {"title": "named"}},
        "patternProperties": {"secret": {"title": "pattern"}, "^x": {"title": "other"}},
        "additionalProperties": {"title": "additional"},
        "unevaluatedProperties": {"title": "unevaluated"},
    }
    assert _titles(red.property_schemas(schema, "secret_key")) == ["named", "pattern"]
    assert _titles(red.property_schemas(schema, "my_secret")) == ["pattern"]  # a pattern matches anywhere
    assert _titles(red.property_schemas(schema, "plain")) == ["additional", "unevaluated"]
    assert _titles(red.property_schemas(schema, "plain", wide=False)) == ["additional"]
    assert red.property_schemas({"additionalProperties": False, "properties": ["x"]}, "x") == []
    assert _titles(red.property_schemas({"patternProperties": {"(": {"title": "unreadable"}}}, "k")) == ["unreadable"]
    assert red.property_schemas({"patternProperties": ["^k"]}, "k") == []


def test_item_schemas_prefix_else_items_and_contains(red: ModuleType) -> None:
    schema = {
        "prefixItems": [{"title": "first"}],
        "items": {"title": "items"},
        "unevaluatedItems": {"title": "unevaluated"},
        "contains": {"title": "contains"},
    }
    assert _titles(red.item_schemas(schema, 0)) == ["first", "contains"]
    assert _titles(red.item_schemas(schema, 1)) == ["items", "unevaluated", "contains"]
    assert _titles(red.item_schemas(schema, 0, wide=False)) == ["first"]
    assert _titles(red.item_schemas(schema, 1, wide=False)) == ["items"]
    assert _titles(red.item_schemas({"prefixItems": ({"title": "t"},)}, 0)) == ["t"]
    assert red.item_schemas({"prefixItems": {"0": {}}, "items": False, "contains": True}, 0) == []


# sensitive_paths and redact: one walk through every routing keyword


VAULT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "plain": {"type": "string"},
        "named": SENSITIVE,
        "by_ref": {"$ref": "#/$defs/key"},
        "by_anchor": {"$ref": "#anchored"},
        "by_alias": {"$ref": "#/$defs/alias"},
        "ref_dependent": {"$ref": "#/$defs/dependent"},
        "map": {
            "type": "object",
            "patternProperties": {"^secret_": SENSITIVE},
            "additionalProperties": {"type": "string"},
        },
        "rows": {"type": "array", "items": {"type": "object", "patternProperties": {"^secret_": SENSITIVE}}},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, SENSITIVE]},
        "union": {"anyOf": [{"type": "integer"}, SENSITIVE]},
        "negated": {"not": SENSITIVE},
        "guarded": {"if": {"type": "string"}, "then": SENSITIVE},
        "dependent": {"type": "object", "dependentSchemas": {"user": {"properties": {"pin": SENSITIVE}}}},
        "rest": {"type": "object", "properties": {"user": {}}, "unevaluatedProperties": SENSITIVE},
        "tail": {"type": "array", "prefixItems": [{}], "unevaluatedItems": SENSITIVE},
        "some": {"type": "array", "contains": SENSITIVE},
        "pin": {"type": "integer", "x-sensitive": True},
        "soft": {"type": "string", "x-sensitive": "yes"},
        "blob": {"type": "object", "x-sensitive": True},
    },
    "$defs": {
        "key": SENSITIVE,
        "anchored": {"$anchor": "anchored", **SENSITIVE},
        "alias": {"$ref": "#/$defs/key"},  # a ref to a ref
        "dependent": {"type": "object", "dependentSchemas": {"user": {"properties": {"pin": SENSITIVE}}}},
    },
}

CALL: dict[str, Any] = {
    "plain": "shown",
    "named": "s-named",
    "by_ref": "s-ref",
    "by_anchor": "s-anchor",
    "by_alias": "s-alias",
    "ref_dependent": {"user": "cy", "pin": "s-ref-dep"},
    "map": {"secret_a": "s-map", "other": "shown-map"},
    "rows": [{"secret_b": "s-row", "name": "shown-row"}],
    "pair": ["shown-first", "s-pair"],
    "union": "s-union",
    "negated": "s-not",
    "guarded": "s-then",
    "dependent": {"user": "ann", "pin": "s-dep"},
    "rest": {"user": "bob", "token": "s-rest"},
    "tail": ["shown-head", "s-tail"],
    "some": ["s-some"],
    "pin": 4321,
    "soft": "shown-soft",
    "blob": {"inner": {"deep": "s-blob"}},
}

PATHS = {
    ("named",),
    ("by_ref",),
    ("by_anchor",),
    ("by_alias",),
    ("ref_dependent", "pin"),
    ("map", "secret_a"),
    ("rows", "0", "secret_b"),
    ("pair", "1"),
    ("union",),
    ("negated",),
    ("guarded",),
    ("dependent", "pin"),
    ("rest", "token"),
    ("tail", "1"),
    ("some", "0"),
    ("pin",),
    ("blob",),
}


def test_sensitive_paths_reach_every_routed_secret_and_nothing_else(red: ModuleType) -> None:
    found = red.sensitive_paths(CALL, VAULT)
    assert sorted(found) == sorted(PATHS)
    assert len(found) == len(PATHS)  # each once: a blob's insides are not listed again


def test_redact_replaces_every_secret_and_keeps_the_rest(red: ModuleType) -> None:
    out = red.redact(CALL, VAULT)
    assert "s-" not in repr(out), out
    assert out["plain"] == "shown" and out["soft"] == "shown-soft"
    assert out["map"] == {"secret_a": "[REDACTED]", "other": "shown-map"}
    assert out["rows"] == [{"secret_b": "[REDACTED]", "name": "shown-row"}]
    assert out["pair"] == ["shown-first", "[REDACTED]"] and out["tail"] == ["shown-head", "[REDACTED]"]
    assert out["pin"] == "[REDACTED]" and out["blob"] == "[REDACTED]"
    assert out["dependent"] == {"user": "ann", "pin": "[REDACTED]"}
    assert CALL["named"] == "s-named", "redact changed its argument"


def test_a_secret_in_a_tuple_or_a_frozen_mapping_is_found(red: ModuleType) -> None:
    schema = {"type": "object", "properties": {"keys": {"type": "array", "items": SENSITIVE}}}
    assert red.sensitive_paths(MappingProxyType({"keys": ("a", "b")}), schema) == [("keys", "0"), ("keys", "1")]
    assert red.redact(MappingProxyType({"keys": ("a",)}), schema) == {"keys": ["[REDACTED]"]}


def test_a_wholly_sensitive_value_is_redacted_whole(red: ModuleType) -> None:
    assert red.redact({"a": 1}, {"type": "object", "x-sensitive": True}) == "[REDACTED]"
    assert red.sensitive_paths({"a": 1}, {"x-sensitive": True}) == [()]


def test_redacted_skips_nulls_and_paths_that_are_gone(red: ModuleType) -> None:
    value = {"a": None, "b": {"c": "s"}, "d": ["x", "y"]}
    paths = [("b", "c"), ("b",), ("a",), ("gone",), ("d", "5"), ("d", "1"), ("d", "x")]
    assert red.redacted(value, paths) == {"a": None, "b": "[REDACTED]", "d": ["x", "[REDACTED]"]}
    assert value["b"] == {"c": "s"}


# find_secrets and Secrets: where the secrets are, and their texts


def test_find_secrets_knows_every_form_a_secret_shows_as(red: ModuleType) -> None:
    schema = {"type": "object", "properties": {"k": SENSITIVE, "n": {"type": "number", "x-sensitive": True}}}
    found = red.find_secrets({"k": 'pa"s\\é', "n": 2.5, "other": "x"}, schema)
    assert found.paths == {("k",), ("n",)}
    assert {'pa"s\\é', 'pa"s\\\\é', 'pa\\"s\\\\\\u00e9', 'pa\\"s\\\\é', "2.5"} == found.texts
    ints = red.find_secrets({"n": 7}, schema)
    assert ints.texts == {"7"}


def test_find_secrets_of_nothing_sensitive(red: ModuleType) -> None:
    assert red.find_secrets({"k": "v"}, None) is red.NO_SECRETS
    assert red.find_secrets({"k": "v"}, {"type": "object"}) is red.NO_SECRETS
    flags = red.find_secrets({"f": True, "e": "", "z": None}, {"additionalProperties": SENSITIVE})
    assert flags.paths == {("f",), ("e",), ("z",)} and flags.texts == frozenset()


def test_find_secrets_lists_the_leaves_of_a_sensitive_container(red: ModuleType) -> None:
    found = red.find_secrets(
        {"blob": {"a": ["leaf-one", {"b": "leaf-two"}]}}, {"properties": {"blob": {"x-sensitive": True}}}
    )
    assert found.texts == {"leaf-one", "leaf-two"}
    listed = red.find_secrets({"keys": [["i0"], ["i1", "i2"]]}, {"properties": {"keys": {"items": SENSITIVE}}})
    assert listed.paths == {("keys", "0"), ("keys", "1")} and listed.texts == {"i0", "i1", "i2"}


def test_touches_a_secret_what_is_inside_it_and_what_holds_it(red: ModuleType) -> None:
    secrets = red.Secrets.of([("a", "b")], ["hidden"])
    assert secrets.touches(["a", "b"]) and secrets.touches(("a", "b", 0))
    assert secrets.touches(("a",)) and secrets.touches(())
    assert not secrets.touches(("b",)) and not secrets.touches(("a", "c"))
    assert red.Secrets.of([("0",)], []).touches([0])
    assert not red.NO_SECRETS.touches(())


def test_scrub_replaces_every_occurrence_longest_first(red: ModuleType) -> None:
    secrets = red.Secrets.of([], ["abcdef", "abcdefgh", "", "zz9zz9"])
    assert secrets.scrub("x abcdefgh y abcdef zz9zz9zz9zz9") == "x [REDACTED] y [REDACTED] [REDACTED][REDACTED]"
    assert secrets.scrub("nothing here") == "nothing here"
    assert secrets.scrub("") == ""
    assert red.NO_SECRETS.scrub("abcdef") == "abcdef"


def test_a_short_secret_is_scrubbed_only_as_a_whole_word(red: ModuleType) -> None:
    secrets = red.Secrets.of([], ["x", "12345"])
    assert secrets.scrub("x") == "[REDACTED]"
    assert secrets.scrub("x is 12345, (x)") == "[REDACTED] is [REDACTED], ([REDACTED])"
    assert secrets.scrub("maxLength xa ax _x x_ .x x. 123456 012345") == "maxLength xa ax _x x_ .x x. 123456 012345"
    assert secrets.scrub("ax") == "ax" and secrets.scrub("xa") == "xa", "a word's first or last letter is no secret"
    long = red.Secrets.of([], ["abcdef"])
    assert long.scrub("zabcdefz") == "z[REDACTED]z", "a secret of MIN_ANYWHERE characters is scrubbed anywhere"


def test_scrub_data_and_summary_scrub_keys_values_and_cut_long_strings(red: ModuleType) -> None:
    secrets = red.Secrets.of([], ["topsecret"])
    data = {"topsecret": ["a topsecret", ("topsecret",), 5, None]}
    assert secrets.scrub_data(data) == {"[REDACTED]": ["a [REDACTED]", ["[REDACTED]"], 5, None]}
    assert secrets.summary(data) == {"[REDACTED]": ["a [REDACTED]", ["[REDACTED]"], 5, None]}
    edge = "y" * 196 + "topsecret"  # the secret straddles the cut at 200 characters
    assert secrets.summary(edge) == "y" * 196 + "[RED... (205 characters)"
    assert secrets.summary("z" * 200) == "z" * 200
    assert red.NO_SECRETS.summary("q" * 201) == "q" * 200 + "... (201 characters)"


def test_combined_scrubs_the_texts_of_each_and_has_no_paths(red: ModuleType) -> None:
    both = red.combined(red.Secrets.of([("a",)], ["first1"]), red.Secrets.of([("b",)], ["second"]))
    assert both.texts == {"first1", "second"} and both.paths == frozenset()
    assert both.scrub("first1 second") == "[REDACTED] [REDACTED]"


# shorten, quote, bound


def test_shorten_cuts_strings_longer_than_the_limit(red: ModuleType) -> None:
    value = {"a": ["s" * 201, "t" * 200], "n": 3}
    assert red.shorten(value) == {"a": ["s" * 200 + "... (201 characters)", "t" * 200], "n": 3}


def test_quote_and_bound_cut_and_say_the_length(red: ModuleType) -> None:
    assert red.quote("ab") == "'ab'"
    assert red.quote("q" * 198) == "'" + "q" * 198 + "'"
    assert red.quote("q" * 199) == "'" + "q" * 199 + "... (201 characters)"
    assert red.bound("m" * 1000) == "m" * 1000
    assert red.bound("m" * 1001) == "m" * 1000 + "... (1001 characters)"


# how far `applicable` carries the root, the refs seen and `wide`


def test_a_secret_is_found_however_deep_the_in_place_keywords_nest(red: ModuleType) -> None:
    pin = {"properties": {"pin": SENSITIVE}}
    root = {"$defs": {"pin": pin}}
    nests = {
        "dependentSchemas under anyOf": {"anyOf": [{"dependentSchemas": {"user": pin}}]},
        "not under oneOf": {"oneOf": [{"not": pin}]},
        "dependentSchemas under then": {"if": {}, "then": {"dependentSchemas": {"user": pin}}},
        "not under else": {"else": {"not": pin}},
        "not under dependentSchemas": {"dependentSchemas": {"user": {"not": pin}}},
        "a ref under dependentSchemas": {"dependentSchemas": {"user": {"$ref": "#/$defs/pin"}}},
        "a ref to a ref under dependentSchemas": {"dependentSchemas": {"user": {"allOf": [{"$ref": "#/$defs/pin"}]}}},
    }
    for how, schema in nests.items():
        assert red.sensitive_paths({"user": "ann", "pin": "s"}, {**schema, **root}) == [("pin",)], how


def test_a_ref_cycle_through_any_in_place_keyword_ends(red: ModuleType) -> None:
    for keyword in ("then", "else", "not", "if"):
        root = {"$defs": {"loop": {keyword: {"$ref": "#/$defs/loop"}, "properties": {"pin": SENSITIVE}}}}
        assert red.sensitive_paths({"pin": "s"}, {"$ref": "#/$defs/loop", **root}) == [("pin",)], keyword
    root = {
        "$defs": {"loop": {"dependentSchemas": {"pin": {"$ref": "#/$defs/loop"}}, "properties": {"pin": SENSITIVE}}}
    }
    assert red.sensitive_paths({"pin": "s"}, {"$ref": "#/$defs/loop", **root}) == [("pin",)]


def test_redacted_replaces_an_item_of_a_nested_list(red: ModuleType) -> None:
    value = {"outer": {"keys": ["shown", "secret"]}, "rows": [{"keys": ["a", "secret"]}]}
    paths = [("outer", "keys", "1"), ("rows", "0", "keys", "1")]
    assert red.redacted(value, paths) == {
        "outer": {"keys": ["shown", "[REDACTED]"]},
        "rows": [{"keys": ["a", "[REDACTED]"]}],
    }


def test_no_secrets_has_no_texts_and_combines(red: ModuleType) -> None:
    assert red.NO_SECRETS.texts == frozenset() and red.NO_SECRETS.paths == frozenset()
    found = red.combined(red.NO_SECRETS, red.Secrets.of([("a",)], ["hidden"]), red.NO_SECRETS)
    assert found.texts == {"hidden"} and found.scrub("a hidden b") == "a [REDACTED] b"


def test_the_repr_of_secrets_shows_no_secret(red: ModuleType) -> None:
    """A `Secrets` (held by the runtime's call outcome) may reach a log line or a debugger through
    `repr`: it names where the secrets are, never what they are."""
    found = red.Secrets.of([("api_key",)], ["hunter2-token", "s3cr3t-value"])
    shown = repr(found)
    assert "hunter2" not in shown and "s3cr3t" not in shown
    assert "api_key" in shown  # the place is no secret, and says what the value holds
    assert found == red.Secrets.of([("api_key",)], ["hunter2-token", "s3cr3t-value"])
    assert found != red.Secrets.of([("api_key",)], ["another-token"])
