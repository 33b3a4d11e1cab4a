# The toolgen runtime's _enforce.py, copied byte for byte into each generated package.
# Do not edit the copy: `toolgen build` owns it, and `toolgen check` reports an edit.
"""Declared permissions enforced while a call runs: `Registry(enforce=True)`.

A contract's `permissions` are an input to policy, not a sandbox; this module narrows the gap for
what Python itself does. Importing it installs one audit hook for the process (`sys.addaudithook`:
Python's import system runs this module once, and an audit hook can never be removed). The hook acts
only while a call runs under `enforced(...)`, which a context variable tracks, so threads and asyncio
tasks are kept apart (`asyncio.to_thread` copies the context, so a sync implementation run there is
covered). For each audit event it decides the permission the event needs:

- write: `open` in a writing mode (or with writing flags), `os.remove`, `os.rename`, `os.mkdir`,
  `os.rmdir`, `os.chmod`, `os.chown`, `os.link`, `os.symlink`, `os.truncate`, `os.utime`, `shutil.*`
  that change files, `tempfile.mkstemp`/`mkdtemp`;
- execute: `subprocess.Popen`, `os.system`, `os.exec`, `os.spawn`, `os.posix_spawn`, `os.fork`,
  `os.forkpty`, `os.kill`, `os.startfile`, `pty.spawn`;
- network: `socket.connect`, `socket.bind`, `socket.sendto`, `socket.sendmsg`, `socket.getaddrinfo`,
  `socket.gethostbyname`, `socket.gethostbyaddr`;
- read: `open` for reading, `os.listdir`, `os.scandir`, `glob.glob`.

An event that needs a write, execute or network permission the tool does not declare raises
`PermissionBlocked` inside the implementation, so the operation never happens; the registry then
answers `PERMISSION_DENIED` (even if the implementation caught the exception), with `details` naming
the event and the missing permission, and the trace records it. Reads are reported, not blocked
(imports and lazy loading read files): the trace lists undeclared reads.

What this cannot see: a thread the implementation starts itself (it does not inherit the context),
what a child process does, C extensions and `ctypes` calls that raise no audit event, and effects
through other services (a database that writes). docs/audit.md says which need an OS sandbox.
Outside an enforced call the hook costs one context-variable lookup per audit event.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
"""`open` flags that write."""

EVENTS: dict[str, str] = {
    **dict.fromkeys(
        [
            "os.remove",
            "os.rename",
            "os.mkdir",
            "os.rmdir",
            "os.chmod",
            "os.chown",
            "os.link",
            "os.symlink",
            "os.truncate",
            "os.utime",
            "os.chflags",
            "os.lchflags",
            "os.mkfifo",
            "os.mknod",
            "shutil.copyfile",
            "shutil.copymode",
            "shutil.copystat",
            "shutil.copytree",
            "shutil.rmtree",
            "shutil.move",
            "shutil.chown",
            "shutil.make_archive",
            "shutil.unpack_archive",
            "tempfile.mkstemp",
            "tempfile.mkdtemp",
        ],
        "write",
    ),
    **dict.fromkeys(
        [
            "subprocess.Popen",
            "os.system",
            "os.exec",
            "os.spawn",
            "os.posix_spawn",
            "os.fork",
            "os.forkpty",
            "os.kill",
            "os.killpg",
            "os.startfile",
            "pty.spawn",
        ],
        "execute",
    ),
    **dict.fromkeys(
        [
            "socket.connect",
            "socket.bind",
            "socket.sendto",
            "socket.sendmsg",
            "socket.getaddrinfo",
            "socket.gethostbyname",
            "socket.gethostbyname_ex",
            "socket.gethostbyaddr",
        ],
        "network",
    ),
    **dict.fromkeys(["os.listdir", "os.scandir", "glob.glob"], "read"),
}
"""Audit events (Python's own names) and the permission each needs; `open` is decided by its mode."""


class PermissionBlocked(PermissionError):
    """Raised inside an implementation for an operation its contract's permissions do not declare."""

    def __init__(self, tool: str, event: str, permission: str) -> None:
        super().__init__(
            f"{tool}: {event} needs the {permission!r} permission, which the contract does not declare"
        )
        self.tool, self.event, self.permission = tool, event, permission


@dataclass(slots=True)
class Guard:
    """What one enforced call tried: the first operation refused, and the reads it made undeclared."""

    tool: str
    permissions: frozenset[str]
    blocked: tuple[str, str] | None = None
    reads: list[str] = field(default_factory=list)

    def check(self, event: str, permission: str, args: tuple[Any, ...]) -> None:
        if permission in self.permissions:
            return
        if permission == "read":
            target = str(args[0]) if args else event
            if len(self.reads) < 20 and target not in self.reads:
                self.reads.append(target)
            return
        if self.blocked is None:
            self.blocked = (event, permission)
        raise PermissionBlocked(self.tool, event, permission)

    def details(self) -> dict[str, Any]:
        event, permission = self.blocked or ("", "")
        return {"event": event, "missing_permission": permission}


_ACTIVE: ContextVar[Guard | None] = ContextVar("agent_tools_enforce", default=None)


def _open_permission(args: tuple[Any, ...]) -> str:
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    writes = isinstance(mode, str) and any(c in mode for c in "wax+")
    return (
        "write"
        if writes or (isinstance(flags, int) and flags & WRITE_FLAGS)
        else "read"
    )


def _hook(event: str, args: tuple[Any, ...]) -> None:
    guard = _ACTIVE.get()
    if guard is None:
        return
    permission = _open_permission(args) if event == "open" else EVENTS.get(event)
    if permission is not None:
        guard.check(event, permission, args)


@contextlib.contextmanager
def enforced(tool: str, permissions: tuple[str, ...]) -> Iterator[Guard]:
    """Run the body under enforcement of `permissions`; the guard tells what was refused."""
    guard = Guard(tool, frozenset(permissions))
    token = _ACTIVE.set(guard)
    try:
        yield guard
    finally:
        _ACTIVE.reset(token)


def denied_message(guard: Guard) -> str:
    """The PERMISSION_DENIED message for a refused operation."""
    event, permission = guard.blocked or ("", "")
    return (
        f"Tool {guard.tool!r} tried an operation ({event}) that needs the {permission!r} permission, "
        "which its contract does not declare; it was stopped before it happened."
    )


sys.addaudithook(_hook)

__all__ = ["EVENTS", "Guard", "PermissionBlocked", "denied_message", "enforced"]
