"""The catalog: the frozen, normalized IR that every target reads.

Built once from validated contract documents. Everything is immutable: dataclasses are frozen,
sequences are tuples and schemas are deep-frozen mappings (`toolgen.frozen`). Normalization happens
here and only here: descriptions trimmed and dedented, permissions sorted, errors and examples in a
stable shape, contracts sorted by name, each with a sha256 digest of its normalized form.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from toolgen.frozen import EMPTY_MAP, FrozenMap, as_array, as_object, freeze, thaw

PERMISSIONS: tuple[str, ...] = ("execute", "network", "read", "write")
"""The closed set of permissions, sorted."""

PERMISSION_MEANINGS: Mapping[str, str] = {
    "read": "reads files, data or state it does not own",
    "write": "creates, changes or deletes files, data or state",
    "execute": "runs programs or code",
    "network": "talks to hosts over the network",
}

STANDARD_ERRORS: Mapping[str, bool] = {
    "INVALID_INPUT": False,
    "PERMISSION_DENIED": False,
    "NOT_FOUND": False,
    "CONFLICT": False,
    "UNKNOWN_TOOL": False,
    "INTERNAL": False,
    "TIMEOUT": True,
    "RATE_LIMITED": True,
    "UNAVAILABLE": True,
    "APPROVAL_DENIED": False,
}
"""Standard error codes every tool may return without declaring them, with their `retryable`."""

REGISTRY_ERRORS: tuple[str, ...] = ("INVALID_INPUT", "PERMISSION_DENIED", "UNKNOWN_TOOL", "INTERNAL", "TIMEOUT")
"""Standard codes the generated registry answers on its own, whatever the tool does (bad input, a
policy that refuses, an unknown name, an exception, a time limit): a contract cannot exclude them."""

STANDARD_ERROR_MEANINGS: Mapping[str, str] = {
    "INVALID_INPUT": "the arguments do not match the input schema; fix them before calling again",
    "PERMISSION_DENIED": "the policy does not grant a permission this tool needs; do not retry",
    "NOT_FOUND": "the thing the call refers to does not exist",
    "CONFLICT": "the call conflicts with the current state; re-read the state first",
    "UNKNOWN_TOOL": "no tool of that name is registered",
    "INTERNAL": "the tool failed; the details are in the trace, not in the message",
    "TIMEOUT": "the call took too long; retrying may succeed",
    "RATE_LIMITED": "too many calls; retry after a pause",
    "UNAVAILABLE": "a service the tool needs is down; retry later",
    "APPROVAL_DENIED": "the call needed a person's approval, which was refused or not given; do not retry",
}

CONTRACT_KEYS: tuple[str, ...] = (
    "name",
    "version",
    "title",
    "description",
    "permissions",
    "idempotent",
    "deprecated",
    "timeout_ms",
    "content_kinds",
    "owners",
    "tags",
    "input_schema",
    "output_schema",
    "errors",
    "excluded_standard_errors",
    "examples",
)
"""Every key of a normalized contract, in the order `catalog.json` writes them (`timeout_ms`,
`excluded_standard_errors` and `content_kinds` only when set)."""

CONTENT_KINDS: tuple[str, ...] = ("image", "audio", "file", "resource_link")
"""What `content_kinds` may name: the content beyond JSON a tool's results carry (the runtime's `_content.py`)."""


def normalize_text(text: str) -> str:
    """Trim and dedent a description: LF newlines, no trailing blanks on any line, no blank edges."""
    text = inspect.cleandoc(text.replace("\r\n", "\n").replace("\r", "\n"))
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def canonical_json(value: object) -> str:
    """Compact JSON whose bytes depend only on the value (key order as given)."""
    return json.dumps(thaw(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def sha256(text: str) -> str:
    """`sha256:<hex>` of the UTF-8 bytes of `text`."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """A declared error: its code, what it means, and whether a caller may retry."""

    code: str
    description: str
    retryable: bool
    inherited: bool = False
    """True when the contract left `retryable` out and the standard value (or false) applies."""

    def to_json(self) -> dict[str, str | bool]:
        """The normalized JSON form."""
        return {"code": self.code, "description": self.description, "retryable": self.retryable}


@dataclass(frozen=True, slots=True)
class ExampleError:
    """The error an example call returns."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        """The normalized JSON form."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Example:
    """An example call: its input and either its output or its error."""

    title: str | None
    input: FrozenMap
    output: FrozenMap | None = None
    error: ExampleError | None = None

    def to_json(self) -> dict[str, object]:
        """The normalized JSON form (absent parts are left out)."""
        out: dict[str, object] = {}
        if self.title is not None:
            out["title"] = self.title
        out["input"] = thaw(self.input)
        if self.output is not None:
            out["output"] = thaw(self.output)
        if self.error is not None:
            out["error"] = self.error.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Contract:
    """One tool, normalized and frozen."""

    name: str
    version: str
    description: str
    permissions: tuple[str, ...]
    input_schema: FrozenMap
    source: str
    title: str | None = None
    output_schema: FrozenMap | None = None
    errors: tuple[ErrorSpec, ...] = ()
    excluded_errors: tuple[str, ...] = ()
    """Standard codes the tool never returns (`excluded_standard_errors`), sorted."""
    examples: tuple[Example, ...] = ()
    idempotent: bool = False
    deprecated: bool | str = False
    timeout_ms: int | None = None
    """How long a call may run before the registry answers `TIMEOUT`; None: no limit of its own."""
    content_kinds: tuple[str, ...] = ()
    """The kinds of content beyond JSON the tool returns (`CONTENT_KINDS`), in the author's order."""
    owners: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    rules: FrozenMap = field(default_factory=lambda: EMPTY_MAP)
    """Per-contract rule severities (`rules = { TG203 = "off" }`); lint settings, not part of the digest."""
    error_order: tuple[str, ...] = ()
    """The declared error codes in the author's order (`errors` is sorted); for the docs, not the digest."""
    tag_order: tuple[str, ...] = ()
    """The tags in the author's order (`tags` is sorted); for the docs, not part of the digest."""
    providers: FrozenMap = field(default_factory=lambda: EMPTY_MAP)
    """How the provider files declare the tool (`toolgen.provideroptions`); in the digest when set."""
    digest: str = ""

    def to_json(self) -> dict[str, object]:
        """The normalized contract as plain JSON data, keys in `CONTRACT_KEYS` order, plus digest."""
        body = self._body()
        body["digest"] = self.digest
        return body

    def _body(self) -> dict[str, object]:
        # `timeout_ms` only when set: contracts without one keep the digest they had before the key existed
        timeout = {"timeout_ms": self.timeout_ms} if self.timeout_ms is not None else {}
        # likewise `content_kinds`, only when the tool returns content beyond JSON
        kinds = {"content_kinds": list(self.content_kinds)} if self.content_kinds else {}
        return {
            "name": self.name,
            "version": self.version,
            "title": self.title,
            "description": self.description,
            "permissions": list(self.permissions),
            "idempotent": self.idempotent,
            "deprecated": self.deprecated,
            **timeout,
            **kinds,
            "owners": list(self.owners),
            "tags": list(self.tags),
            "input_schema": thaw(self.input_schema),
            "output_schema": thaw(self.output_schema) if self.output_schema is not None else None,
            "errors": [e.to_json() for e in self.errors],
            # only when set, like `timeout_ms`: other contracts keep their digest
            **({"excluded_standard_errors": list(self.excluded_errors)} if self.excluded_errors else {}),
            "examples": [e.to_json() for e in self.examples],
            **({"providers": thaw(self.providers)} if self.providers else {}),
        }

    def compute_digest(self) -> str:
        """The sha256 of the normalized contract (everything but the digest and the source path)."""
        return sha256(canonical_json(self._body()))

    @property
    def all_error_codes(self) -> tuple[str, ...]:
        """Declared codes and the standard ones it does not exclude, sorted."""
        return tuple(sorted({e.code for e in self.errors} | set(self.standard_errors)))

    @property
    def standard_errors(self) -> tuple[str, ...]:
        """The standard codes this tool may return (all but `excluded_errors`), in `STANDARD_ERRORS` order."""
        return tuple(c for c in STANDARD_ERRORS if c not in self.excluded_errors)

    def retryable(self, code: str) -> bool:
        """Whether `code` is retryable for this tool (declared first, then the standard default)."""
        for error in self.errors:
            if error.code == code:
                return error.retryable
        return STANDARD_ERRORS.get(code, False)

    @property
    def summary(self) -> str:
        """The first sentence (or line) of the description."""
        first = self.description.split("\n\n", 1)[0].replace("\n", " ").strip()
        end = first.find(". ")
        return first if end < 0 else first[: end + 1]


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every contract, sorted by name, and a digest of the whole."""

    contracts: tuple[Contract, ...]
    digest: str

    def __iter__(self) -> Iterator[Contract]:
        return iter(self.contracts)

    def __len__(self) -> int:
        return len(self.contracts)

    def get(self, name: str) -> Contract | None:
        """The contract named `name`, or None."""
        for contract in self.contracts:
            if contract.name == name:
                return contract
        return None

    @property
    def names(self) -> tuple[str, ...]:
        """Tool names, sorted."""
        return tuple(c.name for c in self.contracts)

    def to_json(self) -> dict[str, object]:
        """The `catalog.json` document."""
        return {**self.json_head(), "tools": [c.to_json() for c in self.contracts]}

    def json_head(self) -> dict[str, object]:
        """The keys of the `catalog.json` document before `tools`."""
        return {"catalog_version": 1, "digest": self.digest}


def _error_spec(raw: Mapping[str, object]) -> ErrorSpec:
    code = str(raw["code"])
    retryable = raw.get("retryable")
    inherited = retryable is None
    if retryable is None:
        retryable = STANDARD_ERRORS.get(code, False)
    description = normalize_text(str(raw.get("description", "")))
    return ErrorSpec(code=code, description=description, retryable=bool(retryable), inherited=inherited)


def _example(raw: Mapping[str, object], copy: Callable[[object], FrozenMap]) -> Example:
    title = raw.get("title")
    error = as_object(raw["error"]) if raw.get("error") else None
    return Example(
        title=title if isinstance(title, str) else None,
        input=copy(raw.get("input", EMPTY_MAP)),
        output=copy(raw["output"]) if "output" in raw else None,
        error=ExampleError(str(error["code"]), str(error.get("message", ""))) if error is not None else None,
    )


def contract_from_document(
    data: Mapping[str, object], source: str, digest: str | None = None, *, frozen: bool = False
) -> Contract:
    """Normalize one validated contract document into a frozen `Contract` with its digest.

    The input must already have passed validation; this copies everything it keeps, so later
    changes to `data` change nothing in the result. `digest`, when given, is the digest this
    function computed before for the same data (the build cache remembers it, keyed on the file's
    text and toolgen's own source): it is taken instead of digesting the contract again. With
    `frozen`, `data` is deep-frozen already (`frozen.freeze`, `load.parse_frozen`): its schemas
    and examples are taken as they are, not copied.
    """
    copy = as_object if frozen else _frozen  # frozen already: taken as it is
    output_schema = data.get("output_schema")
    title = data.get("title")
    deprecated = data.get("deprecated", False)
    errors = [as_object(e) for e in as_array(data.get("errors", ()))]
    tags = [str(t) for t in as_array(data.get("tags", ()))]
    contract = Contract(
        name=str(data["name"]),
        version=str(data["version"]),
        title=normalize_text(title) if isinstance(title, str) else None,
        description=normalize_text(str(data["description"])),
        permissions=tuple(sorted({str(p) for p in as_array(data.get("permissions", ()))})),
        input_schema=copy(data["input_schema"]),
        output_schema=copy(output_schema) if output_schema is not None else None,
        errors=tuple(sorted((_error_spec(e) for e in errors), key=lambda e: e.code)),
        excluded_errors=tuple(sorted({str(c) for c in as_array(data.get("excluded_standard_errors", ()))})),
        examples=tuple(_example(as_object(e), copy) for e in as_array(data.get("examples", ()))),
        idempotent=bool(data.get("idempotent", False)),
        deprecated=normalize_text(deprecated) if isinstance(deprecated, str) else bool(deprecated),
        timeout_ms=_timeout(data.get("timeout_ms")),
        content_kinds=tuple(
            dict.fromkeys(str(k) for k in as_array(data.get("content_kinds", ())) if k in CONTENT_KINDS)
        ),
        owners=tuple(str(o) for o in as_array(data.get("owners", ()))),
        tags=tuple(sorted(set(tags))),
        rules=copy(data.get("rules", EMPTY_MAP)),
        error_order=tuple(dict.fromkeys(str(e["code"]) for e in errors)),
        tag_order=tuple(dict.fromkeys(tags)),
        providers=copy(data.get("providers", EMPTY_MAP)),
        source=source,
        digest=digest or "",
    )
    return contract if digest is not None else _with_digest(contract)


def _frozen(value: object) -> FrozenMap:
    """A JSON object of the document, deep-frozen."""
    return freeze(as_object(value))


def _timeout(value: object) -> int | None:
    """A valid `timeout_ms`, else None (an invalid one is TG240; turned off, the key is ignored)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _with_digest(contract: Contract) -> Contract:
    return replace(contract, digest=contract.compute_digest())


def contract_from_json(data: Mapping[str, object], source: str = "catalog.json") -> Contract:
    """Read one tool back from a `catalog.json` entry (the inverse of `Contract.to_json`)."""
    return contract_from_document({k: v for k, v in data.items() if v is not None and k != "digest"}, source)


def build_catalog(contracts: Sequence[Contract]) -> Catalog:
    """Sort contracts by name and digest the whole."""
    ordered = tuple(sorted(contracts, key=lambda c: c.name))
    whole = sha256("".join(f"{c.name} {c.digest}\n" for c in ordered))
    return Catalog(contracts=ordered, digest=whole)


def catalog_from_json(document: Mapping[str, object], source: str = "catalog.json") -> Catalog:
    """Read a `catalog.json` document back into a catalog."""
    return build_catalog([contract_from_json(as_object(t), source) for t in as_array(document.get("tools", ()))])


__all__ = [
    "CONTENT_KINDS",
    "CONTRACT_KEYS",
    "EMPTY_MAP",
    "PERMISSIONS",
    "PERMISSION_MEANINGS",
    "REGISTRY_ERRORS",
    "STANDARD_ERRORS",
    "STANDARD_ERROR_MEANINGS",
    "Catalog",
    "Contract",
    "ErrorSpec",
    "Example",
    "ExampleError",
    "build_catalog",
    "canonical_json",
    "catalog_from_json",
    "contract_from_document",
    "contract_from_json",
    "normalize_text",
    "sha256",
]
