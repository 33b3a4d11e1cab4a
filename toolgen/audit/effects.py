"""What a call does that a tool's permissions must declare: the table `toolgen audit` reads.

Each entry maps a fully qualified call (after import aliases are resolved) to one of the
permissions `read`, `write`, `execute` or `network`. A module listed in `MODULES` counts as that
effect for every call into it (`subprocess.run`, `requests.get`). Method calls on objects whose type
the audit cannot know (`path.write_text(...)`) are matched by name in `METHODS`, with the number of
positional arguments that tells `Path.replace(target)` from `str.replace(old, new)`.

The table says what an effect is, not whether it is allowed: that is the contract's `permissions`.
"""

from __future__ import annotations

from collections.abc import Mapping

MODULES: Mapping[str, str] = {
    "subprocess": "execute",
    "pty": "execute",
    "multiprocessing": "execute",
    "socket": "network",
    "ssl": "network",
    "urllib.request": "network",
    "http.client": "network",
    "ftplib": "network",
    "smtplib": "network",
    "poplib": "network",
    "imaplib": "network",
    "telnetlib": "network",
    "xmlrpc.client": "network",
    "requests": "network",
    "httpx": "network",
    "aiohttp": "network",
    "urllib3": "network",
    "websockets": "network",
    "websocket": "network",
    "paramiko": "network",
    "grpc": "network",
    "boto3": "network",
}
"""Modules every call into which is the effect named (a whole module, submodules included)."""

CALLS: Mapping[str, str] = {
    **{
        f"os.{name}": "write"
        for name in [
            "remove",
            "unlink",
            "rename",
            "renames",
            "replace",
            "mkdir",
            "makedirs",
            "rmdir",
            "removedirs",
            "chmod",
            "chown",
            "lchown",
            "link",
            "symlink",
            "truncate",
            "write",
            "mkfifo",
            "mknod",
            "utime",
        ]
    },
    **{
        f"os.{name}": "execute"
        for name in [
            "system",
            "popen",
            "fork",
            "forkpty",
            "kill",
            "killpg",
            "execl",
            "execle",
            "execlp",
            "execlpe",
            "execv",
            "execve",
            "execvp",
            "execvpe",
            "spawnl",
            "spawnle",
            "spawnlp",
            "spawnlpe",
            "spawnv",
            "spawnve",
            "spawnvp",
            "spawnvpe",
            "posix_spawn",
            "posix_spawnp",
            "startfile",
        ]
    },
    **{f"os.{name}": "read" for name in ["listdir", "scandir", "walk", "stat", "lstat", "readlink"]},
    **{f"os.path.{name}": "read" for name in ["exists", "isfile", "isdir", "getsize", "getmtime"]},
    **{
        f"shutil.{name}": "write"
        for name in [
            "copy",
            "copy2",
            "copyfile",
            "copyfileobj",
            "copymode",
            "copystat",
            "copytree",
            "move",
            "rmtree",
            "chown",
            "make_archive",
            "unpack_archive",
        ]
    },
    **{f"tempfile.{name}": "write" for name in ["mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory"]},
    **{f"asyncio.{name}": "execute" for name in ("create_subprocess_exec", "create_subprocess_shell")},
    **{f"asyncio.{name}": "network" for name in ("open_connection", "start_server", "open_unix_connection")},
    "glob.glob": "read",
    "glob.iglob": "read",
    "webbrowser.open": "execute",
}
"""Single calls of otherwise harmless modules (os, shutil, tempfile, asyncio) that are effects."""

METHODS: Mapping[str, tuple[str, frozenset[int] | None]] = {
    "write_text": ("write", None),
    "write_bytes": ("write", None),
    "unlink": ("write", frozenset({0})),
    "rmdir": ("write", frozenset({0})),
    "mkdir": ("write", None),
    "touch": ("write", None),
    "rename": ("write", frozenset({1})),
    "replace": ("write", frozenset({1})),
    "symlink_to": ("write", None),
    "hardlink_to": ("write", None),
    "read_text": ("read", None),
    "read_bytes": ("read", None),
    "iterdir": ("read", frozenset({0})),
    "rglob": ("read", frozenset({1})),
}
"""Method names that are effects on a path-like receiver, with the positional-argument counts that
make the match (None: any). `str.replace(old, new)` has two and is not a file operation."""

WRITE_MODES = frozenset("wax+")
"""Characters of an `open()` mode that write."""

UNSEEN_CALLS: Mapping[str, str] = {
    "getattr": "a call through getattr() (the callee is chosen at run time)",
    "eval": "eval() of text",
    "exec": "exec() of text",
    "compile": "compile() of text",
    "__import__": "a module imported by name at run time",
    "importlib.import_module": "a module imported by name at run time",
    "ctypes.CDLL": "a C library loaded with ctypes",
    "ctypes.cdll.LoadLibrary": "a C library loaded with ctypes",
    "cffi.FFI": "C code through cffi",
}
"""Calls that hide what runs next from a reader of the source."""


def effect_of(qualified: str) -> str | None:
    """The permission a call of this fully qualified name needs, or None."""
    if qualified in CALLS:
        return CALLS[qualified]
    parts = qualified.split(".")
    for end in range(len(parts), 0, -1):
        found = MODULES.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def open_effect(mode: str | None) -> str:
    """`read` or `write` for an `open()` mode (the default mode reads)."""
    return "write" if mode is not None and WRITE_MODES & set(mode) else "read"
