"""A tool's cached provider part: one raw text, a JSON line then the entries' texts as they are.

What `_part` reads back must be what `_encode_part` wrote, and a text of any other shape (even
under a valid seal) must be refused with an error `memo.run` counts as a miss, never read wrong.
"""

from __future__ import annotations

import json

import pytest

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.incremental.executor import DECODE_ERRORS
from toolgen.render import providers
from toolgen.render.providers import _SPECS
from toolgen.render.providers.cached import decoded_part as _part
from toolgen.render.providers.cached import encode_part as _encode_part

WARNING = Diagnostic("TG301", Severity.WARNING, "a warning\nover two lines", "contracts/x.json", "/input_schema")


def _sample() -> dict[str, dict[str, object]]:
    part: dict[str, dict[str, object]] = {}
    for index, spec in enumerate(_SPECS):
        texts = {file: json.dumps({"name": f"tool_{index}", "n": "é\n\\"}, indent=2) for file in spec.files}
        part[spec.name] = {"entries": texts, "diagnostics": [WARNING] if index == 0 else [], "notes": [f"note {index}"]}
    return part


def test_a_part_reads_back_as_it_was_written() -> None:
    part = _sample()
    assert _part(_encode_part(part), _SPECS) == part


def _head_and_body() -> tuple[dict[str, dict[str, object]], str]:
    line, _, body = _encode_part(_sample()).partition("\n")
    return json.loads(line), body


def _with(change: str) -> str:
    head, body = _head_and_body()
    first = next(iter(head.values()))
    if change == "short":
        body = body[:-1]
    elif change == "long":
        body += "x"
    elif change == "negative":
        first["lengths"] = [-1, *first["lengths"][1:]]  # type: ignore[index]
    elif change == "foreign-file":
        first["files"] = ["not_a_provider_file.json", *first["files"][1:]]  # type: ignore[index]
    elif change == "missing-spec":
        head.pop(next(iter(head)))
    elif change == "extra-spec":
        head["Other"] = dict(first)
    elif change == "bad-diagnostic":
        first["diagnostics"] = [{"code": "TG301"}]
    return json.dumps(head) + "\n" + body


@pytest.mark.parametrize(
    "change", ["short", "long", "negative", "foreign-file", "missing-spec", "extra-spec", "bad-diagnostic"]
)
def test_a_part_of_another_shape_is_refused(change: str) -> None:
    with pytest.raises(DECODE_ERRORS):
        _part(_with(change), _SPECS)


@pytest.mark.parametrize("text", ["", "null", '{"a": 1}', "no line of json\n{}", "[]\n"])
def test_a_text_that_is_no_part_is_refused(text: str) -> None:
    with pytest.raises(DECODE_ERRORS):
        _part(text, _SPECS)


def test_the_files_list_every_spec() -> None:
    assert {file for spec in _SPECS for file in spec.files} == set(providers.FILES)
