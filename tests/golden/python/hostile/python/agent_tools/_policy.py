# The toolgen runtime's _policy.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Which permissions calls may use: `Policy` and `PERMISSIONS`.

Part of the runtime: `_runtime` (and the package) re-export both, and its module docstring is the
reference for them.
"""

from __future__ import annotations

from collections.abc import Iterable

PERMISSIONS: frozenset[str] = frozenset({"execute", "network", "read", "write"})
"""Every permission a contract can declare."""


class Policy:
    """Which permissions calls may use. `Policy()` grants nothing."""

    __slots__ = ("_allow",)

    def __init__(self, allow: Iterable[str] = ()) -> None:
        granted = frozenset(allow)
        unknown = sorted(granted - PERMISSIONS)
        if unknown:
            raise ValueError(
                f"unknown permission(s) {unknown}; known: {sorted(PERMISSIONS)}"
            )
        self._allow = granted

    @classmethod
    def allow_all(cls) -> Policy:
        """A policy that grants every permission."""
        return cls(PERMISSIONS)

    @property
    def allow(self) -> frozenset[str]:
        """The granted permissions."""
        return self._allow

    def missing(self, permissions: Iterable[str]) -> tuple[str, ...]:
        """The permissions in `permissions` that this policy does not grant, sorted."""
        return tuple(sorted(set(permissions) - self._allow))

    def grants(self, permissions: Iterable[str]) -> bool:
        """True when every permission in `permissions` is granted."""
        return not self.missing(permissions)

    def __repr__(self) -> str:
        return f"Policy(allow={sorted(self._allow)!r})"


__all__ = ["PERMISSIONS", "Policy"]
