"""The registry accepts what the OpenAI strict declarations invite: `null` for an optional property.

OpenAI strict mode declares every optional property required and nullable, so a model sends
`"offset": null` to mean "not given". The generated `Registry` (and the mocks' registry, which is a
`Registry`) drops such nulls before validation, at any depth the schema describes.
"""

from __future__ import annotations

import copy
import importlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from tests.conftest import REPO
from tests.python_support import _object, build, write_package, write_project
from toolgen.frozen import thaw

PACKAGE = "null_tools"


def nested_contract() -> dict[str, Any]:
    """A tool with optional properties behind `$ref`, in array items, nested, and one nullable."""
    item = _object({"n": {"type": "integer"}, "tag": {"type": "string"}}, ["n"])
    schema = _object(
        {
            "name": {"type": "string"},
            "limit": {"type": "integer", "default": 5},
            "note": {"type": ["string", "null"]},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "inner": _object({"deep": _object({"flag": {"type": "boolean"}}), "must": {"type": "string"}}, ["must"]),
        },
        ["name"],
    )
    schema["$defs"] = {"item": item}
    return {
        "name": "nested",
        "version": "1.0.0",
        "description": "Echoes nested optional values, to test how nulls are read.",
        "permissions": [],
        "input_schema": schema,
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], ModuleType]:
    """The repo's contracts plus `nested`: generated files (python, providers, mocks) and the package."""
    root = tmp_path_factory.mktemp("nulls")
    write_project(root, {"nested": nested_contract()}, PACKAGE)
    for path in (REPO / "contracts").iterdir():
        if path.is_file():
            shutil.copy(path, root / "contracts" / path.name)
    settings = f'targets = ["python", "providers", "mocks"]\npython_package = "{PACKAGE}"\n'
    (root / "toolgen.toml").write_text(settings, encoding="utf-8")
    files = build(root)
    return files, _import(write_package(files, root / "out"))


def _import(folder: Path) -> ModuleType:
    sys.path.insert(0, str(folder))
    return importlib.import_module(PACKAGE)


@pytest.fixture(scope="module")
def pkg(project: tuple[dict[str, str], ModuleType]) -> Iterator[ModuleType]:
    """The generated package, removed from `sys.modules` afterwards."""
    module = project[1]
    yield module
    sys.path[:] = [p for p in sys.path if not p.endswith("/out/python")]
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """The schema behind a local `$ref`, and the non-null branch of a nullable `anyOf`."""
    if "$ref" in schema:
        node: Any = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return _resolve(node, root)
    branches = [b for b in schema.get("anyOf", ()) if b != {"type": "null"}]
    return _resolve(branches[0], root) if len(branches) == 1 and "anyOf" in schema else schema


def _accepts_null(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    return (isinstance(kinds, list) and "null" in kinds) or {"type": "null"} in schema.get("anyOf", ())


def fill_nulls(value: Any, schema: Any, root: Any, original: Any, source: Any, *, meant: bool = False) -> None:
    """Give `null` to each absent property the declaration makes nullable (and so required).

    `schema` is the declaration's schema (within `root`), `original` the contract's schema at the same
    place (within `source`). With `meant`, only where the contract itself accepts null: a null there
    means null, not "not given".
    """
    schema, original = _resolve(schema, root), _resolve(original, source)
    if isinstance(value, dict):
        required = set(original.get("required", ()))
        for key, sub in schema.get("properties", {}).items():
            mine = _resolve(original["properties"][key], source)
            if key not in value and _accepts_null(sub) and key not in required:
                if _accepts_null(mine) or not meant:
                    value[key] = None
            elif value.get(key) is not None:
                fill_nulls(value[key], sub, root, original["properties"][key], source, meant=meant)
    elif isinstance(value, list):
        for item in value:
            fill_nulls(item, schema.get("items", {}), root, original.get("items", {}), source, meant=meant)


def invited_calls(files: dict[str, str], pkg: ModuleType) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(tool, example input with only meaningful nulls, with every invited null) per strict OpenAI tool."""
    declarations = json.loads(files["providers/openai_responses.json"])
    for declaration in declarations:
        if not declaration["strict"]:
            continue
        contract = pkg.CONTRACTS[declaration["name"]]
        params = declaration["parameters"]
        original = thaw(contract.input_schema)
        inputs = [thaw(e["input"]) for e in contract.examples] or [{"name": "x"}]
        for example in inputs:
            invited, meant = copy.deepcopy(example), copy.deepcopy(example)
            fill_nulls(invited, params, params, original, original)
            fill_nulls(meant, params, params, original, original, meant=True)
            jsonschema.Draft202012Validator(params).validate(invited)  # the declaration invites it
            yield declaration["name"], meant, invited


def test_every_invited_null_is_accepted_and_means_absent(
    project: tuple[dict[str, str], ModuleType], pkg: ModuleType
) -> None:
    files = project[0]
    calls = list(invited_calls(files, pkg))
    nulls = sum(json.dumps(args).count("null") for _, _, args in calls)
    assert len({name for name, _, _ in calls}) >= 8 and nulls >= 20, (len(calls), nulls)
    registry = pkg.Registry(policy=pkg.Policy.allow_all())
    seen: dict[str, Any] = {}
    for contract in registry.contracts:
        registry.register(
            contract.name,
            lambda model, name=contract.name: seen.__setitem__(name, model) or pkg.Err("UNAVAILABLE", "test"),
        )
    for name, example, invited in calls:
        seen.clear()
        result = registry.call(name, json.dumps(invited))
        assert result.code == "UNAVAILABLE", (name, invited, result)
        expected = pkg.CONTRACTS[name].input_model.model_validate(example)
        assert seen[name] == expected and seen[name].model_fields_set == expected.model_fields_set


def test_the_mocks_registry_accepts_invited_nulls(project: tuple[dict[str, str], ModuleType], pkg: ModuleType) -> None:
    mocks = importlib.import_module(f"{PACKAGE}.mocks")
    registry = mocks.mock_registry()
    for name, example, invited in invited_calls(project[0], pkg):
        with_nulls, without = registry.call(name, invited), registry.call(name, example)
        assert with_nulls.ok or with_nulls.code != "INVALID_INPUT", (name, with_nulls)
        assert with_nulls.payload() == without.payload(), name


def test_read_file_offset_null_is_the_default(pkg: ModuleType) -> None:
    got: list[Any] = []
    registry = pkg.Registry(policy=pkg.Policy(allow={"read"}))
    registry.register("read_file", lambda model: got.append(model) or pkg.Err("NOT_FOUND", "no"))
    result = registry.call("read_file", '{"path": "a.py", "offset": null, "max_lines": null}')
    assert result.code == "NOT_FOUND" and got[0].offset == 1 and got[0].max_lines == 2000
    assert got[0].model_fields_set == {"path"}


@pytest.mark.parametrize(
    ("arguments", "paths"),
    [
        ({"name": None}, ["/name"]),
        ({"name": "x", "inner": {"must": None}}, ["/inner/must"]),
        ({"name": "x", "items": [{"n": None}]}, ["/items/0/n"]),
        ({"name": "x", "items": None, "unknown": None}, [""]),
        ({"name": "x", "inner": None, "items": [None]}, ["/items/0"]),
    ],
)
def test_null_for_a_required_or_undescribed_value_is_still_invalid(
    pkg: ModuleType, arguments: Any, paths: list[str]
) -> None:
    registry = pkg.Registry()
    registry.register("nested", lambda model: pkg.Ok({}))
    result = registry.call("nested", arguments)
    assert result.code == "INVALID_INPUT"
    assert [e["path"] for e in result.details["errors"]] == paths


def test_nested_nulls_dropped_and_a_nullable_null_kept(pkg: ModuleType) -> None:
    got: list[Any] = []
    registry = pkg.Registry()
    registry.register("nested", lambda model: got.append(model) or pkg.Ok({}))
    arguments = {
        "name": "x",
        "limit": None,
        "note": None,
        "items": [{"n": 1, "tag": None}, {"n": 2}],
        "inner": {"must": "m", "deep": {"flag": None}},
    }
    assert registry.call("nested", json.dumps(arguments)).ok is True
    model = got[0]
    assert model.limit == 5 and model.note is None and "note" in model.model_fields_set
    assert "limit" not in model.model_fields_set
    assert [i.model_fields_set for i in model.items] == [{"n"}, {"n"}]
    assert model.inner.deep.model_fields_set == set()
    assert arguments["limit"] is None  # the caller's data is not changed


def test_a_default_makes_a_field_non_optional_only_when_null_is_refused(pkg: ModuleType) -> None:
    read = pkg.CONTRACTS["read_file"].input_model.model_fields
    listing = pkg.CONTRACTS["list_files"].input_model.model_fields
    assert (read["offset"].annotation, read["offset"].default) == (int, 1)
    assert listing["pattern"].annotation == str | None  # the schema accepts null
    assert listing["max_depth"].annotation is int


def test_a_none_in_a_nested_optional_output_field_means_absent(pkg: ModuleType) -> None:
    registry = pkg.Registry(policy=pkg.Policy(allow={"read"}))
    entry = {"path": "a.py", "type": "file", "size": None}
    registry.register("list_files", lambda model: pkg.Ok({"path": ".", "truncated": False, "entries": [entry]}))
    result = registry.call("list_files", {})
    assert result.ok is True, result
    assert result.payload()["entries"] == [{"path": "a.py", "type": "file"}]
    entry["path"] = None  # required: still a failing output
    assert registry.call("list_files", {}).code == "INTERNAL"
