# The toolgen runtime's _masking.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""`repr()` and `str()` of a model with every `x-sensitive` value shown as `[REDACTED]`.

Part of the runtime: `ToolModel.__repr_args__` calls `masked_args`. A tool module gives its input
and output models their contract schema (`bind_schemas(CONTRACT)` sets `__toolgen_schema__`); the
secrets walk of `_redact.py`
(`sensitive_paths`, every way a schema reaches a value) finds what to mask in the model's data, and
the fields are shown as pydantic shows them, with nested models, lists and maps masked inside. A
nested model shown on its own, outside its root model, has no schema of its own and is shown as
pydantic shows it: log the root model (the implementation's `arguments`), not a part of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, RootModel

from ._redact import REDACTED, sensitive_paths

if TYPE_CHECKING:
    from ._contract import ToolContract

Args = Iterable[tuple[str | None, Any]]
Paths = list[tuple[str, ...]]


class _Shown:
    """A value whose `repr` is a text made beforehand (a nested model, masked)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _below(paths: Paths, key: str) -> Paths:
    return [path[1:] for path in paths if path and path[0] == key]


def _aliases(model: BaseModel) -> Mapping[str, str]:
    fields = type(model).model_fields
    return {name: info.alias or name for name, info in fields.items()}


def _fields(model: BaseModel, args: Args, paths: Paths) -> list[tuple[str | None, Any]]:
    aliases = _aliases(model)
    shown: list[tuple[str | None, Any]] = []
    for name, value in args:
        below = _below(paths, aliases.get(name, name)) if name is not None else []
        shown.append((name, _masked(value, below)))
    return shown


def _model(value: BaseModel, paths: Paths) -> _Shown:
    """A nested model shown as pydantic shows it (`Name(a=1, b='x')`), masked inside."""
    if isinstance(value, RootModel):
        return _Shown(f"{type(value).__name__}(root={_masked(value.root, paths)!r})")
    shown = _fields(value, BaseModel.__repr_args__(value), paths)
    text = ", ".join(f"{a}={v!r}" if a is not None else repr(v) for a, v in shown)
    return _Shown(f"{type(value).__name__}({text})")


def _masked(value: Any, paths: Paths) -> Any:
    """`value` as `repr` should show it: what `paths` reach replaced by `REDACTED`."""
    if not paths:
        return value
    if () in paths:
        return REDACTED
    if isinstance(value, BaseModel):
        return _model(value, paths)
    if isinstance(value, list | tuple):
        items = [_masked(item, _below(paths, str(i))) for i, item in enumerate(value)]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, Mapping):
        return {k: _masked(v, _below(paths, str(k))) for k, v in value.items()}
    return value


def masked_args(model: BaseModel, args: Args) -> list[tuple[str | None, Any]]:
    """The `__repr_args__` of `model` with every value its schema marks `x-sensitive` masked."""
    schema = getattr(type(model), "__toolgen_schema__", None)
    found = list(args)
    if not schema:
        return found
    try:
        data = model.model_dump(mode="json", by_alias=True)
        paths: Paths = [tuple(path) for path in sensitive_paths(data, schema)]
        return _fields(model, found, paths) if paths else found
    except Exception:  # a repr never raises, and never shows a value in doubt
        return [(name, REDACTED) for name, _ in found]


def bind_schemas(contract: ToolContract[Any, Any]) -> None:
    """Give the contract's input and output models their schemas, for `masked_args` (import time)."""
    for model, schema in (
        (contract.input_model, contract.input_schema),
        (contract.output_model, contract.output_schema),
    ):
        if isinstance(model, type) and hasattr(model, "__toolgen_schema__"):
            model.__toolgen_schema__ = schema


__all__ = ["bind_schemas", "masked_args"]
