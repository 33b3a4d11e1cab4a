# The toolgen runtime's _policy.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Which permissions calls may use: `Policy` and `PERMISSIONS`.

Part of the runtime: `_runtime` (and the package) re-export both, and its module docstring is the
reference for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

PERMISSIONS: frozenset[str] = frozenset({"execute", "network", "read", "write"})
"""Every permission a contract can declare."""


Decision = Literal["allow", "ask", "deny"]
"""What a policy answers for a tool: run it, ask an approver first, or refuse it."""


class Policy:
    """Which permissions calls may use, and which calls need an approval. `Policy()` grants nothing.

    `allow` grants permissions outright. `ask` grants permissions subject to an approval of each
    call; `ask_tools` (tool names) and `ask_tags` (contract tags) ask for an approval of a tool
    whose permissions are granted. `decide(contract)` says which applies.
    """

    __slots__ = ("_allow", "_ask", "_ask_tags", "_ask_tools")

    def __init__(
        self,
        allow: Iterable[str] = (),
        *,
        ask: Iterable[str] = (),
        ask_tools: Iterable[str] = (),
        ask_tags: Iterable[str] = (),
    ) -> None:
        granted = frozenset(allow)
        asked = frozenset(ask)
        unknown = sorted((granted | asked) - PERMISSIONS)
        if unknown:
            raise ValueError(
                f"unknown permission(s) {unknown}; known: {sorted(PERMISSIONS)}"
            )
        self._allow = granted
        self._ask = asked - granted
        self._ask_tools = frozenset(ask_tools)
        self._ask_tags = frozenset(ask_tags)

    @classmethod
    def allow_all(cls) -> Policy:
        """A policy that grants every permission."""
        return cls(PERMISSIONS)

    @property
    def allow(self) -> frozenset[str]:
        """The granted permissions."""
        return self._allow

    @property
    def ask(self) -> frozenset[str]:
        """The permissions granted only with an approval of the call."""
        return self._ask

    def missing(self, permissions: Iterable[str]) -> tuple[str, ...]:
        """The permissions in `permissions` that this policy does not grant, sorted."""
        return tuple(sorted(set(permissions) - self._allow))

    def grants(self, permissions: Iterable[str]) -> bool:
        """True when every permission in `permissions` is granted."""
        return not self.missing(permissions)

    def decide(self, contract: Any) -> tuple[Decision, tuple[str, ...]]:
        """`("deny", missing permissions)`, `("ask", why)` or `("allow", ())` for a contract."""
        missing = tuple(sorted(set(contract.permissions) - self._allow - self._ask))
        if missing:
            return "deny", missing
        why = [f"permission {p}" for p in sorted(set(contract.permissions) & self._ask)]
        if contract.name in self._ask_tools:
            why.append(f"tool {contract.name}")
        tags = getattr(contract, "tags", ())
        why.extend(f"tag {t}" for t in sorted(set(tags) & self._ask_tags))
        return ("ask", tuple(why)) if why else ("allow", ())

    def __repr__(self) -> str:
        asked = ""
        for key, value in (
            ("ask", self._ask),
            ("ask_tools", self._ask_tools),
            ("ask_tags", self._ask_tags),
        ):
            if value:
                asked += f", {key}={sorted(value)!r}"
        return f"Policy(allow={sorted(self._allow)!r}{asked})"


__all__ = ["PERMISSIONS", "Decision", "Policy"]
