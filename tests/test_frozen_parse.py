"""`frozen.loads_frozen` gives what `freeze(json.loads(...))` gives, shared texts included."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolgen.frozen import as_array, as_object, freeze, loads_frozen

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30)


@given(JSON)
def test_it_is_freeze_of_what_json_parses(value: object) -> None:
    text = json.dumps(value)
    assert loads_frozen(text) == freeze(json.loads(text))
    assert type(loads_frozen(text)) is type(freeze(json.loads(text)))


def test_the_last_of_two_equal_keys_wins_in_the_place_of_the_first() -> None:
    text = '{"a": 1, "b": [{"c": 2}], "a": 3}'
    assert list(loads_frozen(text).items()) == list(freeze(json.loads(text)).items()) == [("a", 3), ("b", ({"c": 2},))]


def test_keys_and_short_texts_are_shared() -> None:
    frozen = loads_frozen('{"type_of_a_key": "string"}')
    key = next(iter(frozen))
    assert key is sys.intern("type_of_a_key") and frozen[key] is sys.intern("string")


def test_as_object_and_as_array_take_plain_and_frozen_data_and_refuse_other_shapes() -> None:
    frozen = freeze({"a": [1]})
    assert as_object({"a": 1}) == {"a": 1} and as_object(frozen) is frozen
    assert as_array([1]) == [1] and as_array(frozen["a"]) == (1,)
    with pytest.raises(TypeError, match="expected a JSON object, found list"):
        as_object([])
    with pytest.raises(TypeError, match="expected a JSON array, found str"):
        as_array("ab")  # a text is a sequence, but no array
