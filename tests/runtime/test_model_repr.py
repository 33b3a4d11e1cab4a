"""`repr()` and `str()` of a generated model mask every `x-sensitive` value, at any depth.

An implementation that logs its arguments (`logger.info("%r", args)`) must not leak what every other
channel hides: a secret at the top, in a list of nested models, deep in nested models, in a union
branch, as a map's values and as a whole object.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.python_support import imported, secret_contract

PACKAGE = "repr_tools"
SECRETS = ("sk-top-secret-1", "pw-in-list-2", "987654", "pw-in-union-3", "hdr-secret-4", "blob-secret-5")
ARGUMENTS: dict[str, Any] = {
    "api_key": "sk-top-secret-1",
    "label": "visible-label",
    "creds": [{"user": "ann", "password": "pw-in-list-2"}, {"user": "cy"}],
    "nested": {"deeper": {"pin": 987654}},
    "either": {"user": "bob", "password": "pw-in-union-3"},
    "headers": {"X-Token": "hdr-secret-4"},
    "blob": {"x": "blob-secret-5"},
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported({"secret_store": secret_contract()}, tmp_path_factory.mktemp("repr"), PACKAGE) as package:
        yield package


def test_repr_and_str_mask_every_sensitive_value(pkg: ModuleType, caplog: pytest.LogCaptureFixture) -> None:
    tool = importlib.import_module(f"{PACKAGE}.secret_store")
    args = tool.SecretStoreInput.model_validate(ARGUMENTS)
    with caplog.at_level(logging.INFO):
        logging.getLogger("user").info("called with %r / %s", args, args)
    for text in (repr(args), str(args), caplog.text):
        leaked = [secret for secret in SECRETS if secret in text]
        assert leaked == [], text
        assert "visible-label" in text and "'ann'" in text and "'cy'" in text and "'bob'" in text
        assert "[REDACTED]" in text
    shown = repr(args)
    assert shown.startswith("SecretStoreInput(api_key='[REDACTED]', label='visible-label', creds=[")
    assert "user='ann', password='[REDACTED]')" in shown  # the nested model keeps its shape
    assert "pin='[REDACTED]'" in shown and "headers={'X-Token': '[REDACTED]'}" in shown
    assert "blob='[REDACTED]'" in shown
    assert args.model_dump(mode="json", exclude_unset=True) == ARGUMENTS  # the implementation sees the values


def test_the_registry_hands_the_implementation_a_masking_model(pkg: ModuleType) -> None:
    seen: list[str] = []

    def store(arguments: Any) -> Any:
        seen.append(f"{arguments!r} {arguments}")
        return pkg.Ok({"receipt": "r-1"})

    registry = pkg.Registry(policy=pkg.Policy.allow_all())
    registry.register("secret_store", store)
    result = registry.call("secret_store", ARGUMENTS)
    assert result.ok and "r-1" in repr(result.data)
    assert seen and not [secret for secret in SECRETS if secret in seen[0]]
