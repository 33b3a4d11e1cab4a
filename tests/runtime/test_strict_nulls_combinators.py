"""A `null` that an OpenAI strict declaration invites is dropped, whatever combinator made it nullable.

Issue 14, defect 9: for a root `anyOf: [{required: [id]}, {required: [email]}]` the strict declaration
makes both properties required and nullable; a model then sends `{"id": 5, "email": null}`. The
registry (and the mocks, which are a registry) must read that null as "not given", and a mock must
then find the example that matches.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.python_support import _object, build, write_package, write_project

PACKAGE = "combo_tools"

LOOKUP = {
    "name": "find_user",
    "version": "1.0.0",
    "description": "Find a user by id or by email.",
    "permissions": [],
    "input_schema": {
        **_object(
            {
                "id": {"type": "integer"},
                "email": {"type": "string"},
                "milestone": {"type": "integer"},
                "filter": {
                    "anyOf": [
                        _object({"team": {"type": "string"}, "role": {"type": "string"}}, ["team"]),
                        _object({"role": {"type": "string"}, "team": {"type": "string"}}, ["role"]),
                    ]
                },
            }
        ),
        "anyOf": [{"required": ["id"]}, {"required": ["email"]}],
    },
    "output_schema": _object({"user": {"type": "string"}}, ["user"]),
    "examples": [{"input": {"id": 42}, "output": {"user": "ada"}}],
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, dict[str, str]]]:
    root = tmp_path_factory.mktemp("combo")
    write_project(root, {"find_user": LOOKUP}, PACKAGE)
    config = f'targets = ["python", "providers", "mocks"]\npython_package = "{PACKAGE}"\n'
    (root / "toolgen.toml").write_text(config, encoding="utf-8")
    files = build(root)
    folder = write_package(files, root / "out")
    sys.path.insert(0, str(folder))
    yield importlib.import_module(PACKAGE), files
    sys.path.remove(str(folder))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _declared(files: dict[str, str]) -> dict[str, Any]:
    chat = json.loads(files["providers/openai_chat.json"])
    function: dict[str, Any] = chat[0]["function"]
    assert function["strict"] is True
    return function["parameters"]


def test_the_strict_declaration_invites_the_null(package: tuple[ModuleType, dict[str, str]]) -> None:
    parameters = _declared(package[1])
    assert Draft202012Validator(parameters).is_valid({"id": 5, "email": None, "milestone": None, "filter": None})


@pytest.mark.parametrize(
    "arguments",
    [
        {"id": 5, "email": None, "milestone": None, "filter": None},
        {"id": None, "email": "a@b.c", "milestone": None, "filter": None},
        {"id": 5, "email": None, "milestone": None, "filter": {"team": "x", "role": None}},
    ],
)
def test_the_registry_reads_each_invited_null_as_not_given(
    package: tuple[ModuleType, dict[str, str]], arguments: dict[str, Any]
) -> None:
    pkg, files = package
    assert Draft202012Validator(_declared(files)).is_valid(arguments)
    got: list[Any] = []
    registry = pkg.Registry()
    registry.register("find_user", lambda model: got.append(model) or pkg.Ok({"user": "u"}))
    result = registry.call("find_user", arguments)
    assert result.ok, result
    given = {k for k, v in arguments.items() if v is not None}
    model = getattr(got[0], "root", got[0])  # a root anyOf is a RootModel over the alternatives
    assert model.model_fields_set == given


def test_a_null_for_every_alternative_is_still_invalid(package: tuple[ModuleType, dict[str, str]]) -> None:
    pkg, _ = package
    registry = pkg.Registry()
    registry.register("find_user", lambda model: pkg.Ok({"user": "u"}))
    result = registry.call("find_user", {"id": None, "email": None, "milestone": None, "filter": None})
    assert result.code == "INVALID_INPUT"


@pytest.mark.usefixtures("package")
def test_a_mock_finds_the_example_for_a_strict_shaped_call() -> None:
    mocks = importlib.import_module(f"{PACKAGE}.mocks")
    result = mocks.mock_registry().call("find_user", {"id": 42, "email": None, "milestone": None, "filter": None})
    assert result.ok, result
    assert result.data.user == "ada"  # example 42's output, not a synthetic one
