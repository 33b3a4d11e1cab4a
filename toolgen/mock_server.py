"""The mock server: the generated package's own MCP server (`<package>.integrations.mcp`) over its mocks.

On stdio, or with `--http` over streamable HTTP (`integrations.mcp.serve_http`: 127.0.0.1 by
default, Host and Origin checked against DNS rebinding; another address only with
`--unauthenticated`).

The python and mocks targets are rendered into a temporary folder and imported from there, so the
server runs the very code a build writes: `integrations.mcp.serve_stdio(mocks.mock_registry())`.
`tools/list` answers with exactly the tools of `providers/mcp.json` (each tool module carries its
declaration, built by `toolgen.render.providers.mcp`); `tools/call` goes through the mock registry's
`acall`. Every outcome of a listed tool, including invalid input and an example's error, is a
`CallToolResult`: a success with `structuredContent` and a text copy, a failure with `isError: true`
and the error as JSON text only (no `structuredContent`, which clients check against the tool's
output schema); a name that is not listed is JSON-RPC -32602. The `mcp` package is optional
(`toolgen[mcp]`) and imported only when the server starts.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen import __version__
from toolgen.catalog import Catalog
from toolgen.config import Settings
from toolgen.diagnostics import Diagnostic, has_errors
from toolgen.render import File, targets
from toolgen.render.context import PLAIN_CONTEXT
from toolgen.writer.outputs import held

SERVER_NAME = "toolgen-mock"
"""The server name the MCP handshake reports."""

INSTALL_HINT = "toolgen mock-server needs the MCP Python SDK; install it with: pip install 'toolgen[mcp]'"
"""What to tell a user whose environment lacks the `mcp` package."""


class ServeError(RuntimeError):
    """The server cannot start; the message says why and what to change."""


class MissingDependencyError(ServeError):
    """An optional dependency the command needs is not installed."""


class PackageNameError(ServeError):
    """The generated package's name is taken by a module the server itself runs on."""


class GenerationError(RuntimeError):
    """A target failed while preparing the mocks; the diagnostics say why."""

    def __init__(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        super().__init__("the mocks could not be generated")
        self.diagnostics = diagnostics


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses served over HTTP without `--unauthenticated`."""


@dataclass(frozen=True, slots=True)
class HttpPlace:
    """Where `--http` serves: the address, the port, and whether a non-loopback address was allowed."""

    host: str
    port: int
    unauthenticated: bool = False

    @property
    def url(self) -> str:
        """The endpoint a client connects to."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/mcp"


def check_place(place: HttpPlace | None) -> None:
    """Raise `ServeError` for a non-loopback address without `--unauthenticated`."""
    if place is not None and place.host not in LOOPBACK and not place.unauthenticated:
        raise ServeError(
            f"--host {place.host} is not a loopback address: anyone who reaches it could call the tools; "
            "pass --unauthenticated to serve it so anyway, or serve on 127.0.0.1"
        )


@dataclass(frozen=True, slots=True)
class MockService:
    """What the server answers from: the generated package's MCP adapter and the mock registry."""

    adapter: Any
    registry: Any

    def list_tools(self) -> dict[str, Any]:
        """The `tools/list` result: the `providers/mcp.json` document."""
        listed: dict[str, Any] = self.adapter.tools_list(self.registry)
        return listed

    async def serve_stdio(self) -> None:
        """Serve the mocks over stdin/stdout until the client closes the connection."""
        await self.adapter.serve_stdio(self.registry, SERVER_NAME, __version__)

    async def serve_http(self, place: HttpPlace) -> None:
        """Serve the mocks over streamable HTTP until SIGINT or SIGTERM."""
        options = {"unauthenticated": place.unauthenticated}
        await self.adapter.serve_http(
            self.registry, SERVER_NAME, __version__, host=place.host, port=place.port, options=options
        )


def require_mcp() -> None:
    """Raise `MissingDependencyError` with the install hint when the `mcp` SDK is not importable."""
    try:
        importlib.import_module("mcp.server.lowlevel")
        importlib.import_module("mcp.server.stdio")
    except ImportError as exc:
        raise MissingDependencyError(INSTALL_HINT) from exc


def _package_artifacts(catalog: Catalog, settings: Settings) -> tuple[File, ...]:
    registry = targets()
    found: list[File] = []
    problems: list[Diagnostic] = []
    for name in ("python", "mocks"):
        result = registry[name](catalog, settings, PLAIN_CONTEXT)
        found.extend(result.artifacts)
        problems.extend(result.diagnostics)
    if has_errors(problems):
        raise GenerationError(tuple(problems))
    return tuple(a for a in found if a.path.startswith("python/"))


@contextmanager
def mock_service(catalog: Catalog, settings: Settings) -> Iterator[MockService]:
    """Render the package with its mocks into a temporary folder and yield the service built on it."""
    artifacts = _package_artifacts(catalog, settings)
    package = settings.python_package
    with tempfile.TemporaryDirectory(prefix="toolgen-mock-") as folder:
        root = Path(folder)
        for artifact in artifacts:
            target = root / artifact.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(held(artifact).data())
        sys.path.insert(0, str(root / "python"))
        stale = [m for m in sys.modules if m == package or m.startswith(package + ".")]
        for module in stale:
            del sys.modules[module]
        try:
            mocks = importlib.import_module(f"{package}.mocks")
            adapter = importlib.import_module(f"{package}.integrations.mcp")
            yield MockService(adapter, mocks.mock_registry())
        finally:
            sys.path.remove(str(root / "python"))


def check_package_name(package: str) -> None:
    """Raise `PackageNameError` when `package` is already imported, by the server itself (mcp, anyio, ...)."""
    module = sys.modules.get(package)
    if module is not None:
        where = getattr(module, "__file__", None) or "built in"
        raise PackageNameError(
            f"python_package = {package!r} is also the name of a module the mock server runs on ({where}); "
            "set another `python_package` in the configuration"
        )


def run(catalog: Catalog, settings: Settings, place: HttpPlace | None = None) -> None:
    """Serve the mocks on stdio until the client disconnects, or over HTTP at `place` until stopped."""
    require_mcp()
    import anyio

    check_package_name(settings.python_package)
    check_place(place)
    with mock_service(catalog, settings) as service:
        if place is None:
            anyio.run(service.serve_stdio)
        else:
            anyio.run(service.serve_http, place)
