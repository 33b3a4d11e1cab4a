"""A toolgen MCP server over streamable HTTP on 127.0.0.1, started as a subprocess for a test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Served:
    """A running server: its process, URL and the file its stderr goes to."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        """Send `sig` and wait for the process to end; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=timeout)


@contextmanager
def serving(command: Sequence[str], port: int, log: Path, cwd: Path | None = None) -> Iterator[Served]:
    """Run `command` (which serves on 127.0.0.1:`port`) until it listens; stop it afterwards."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as errlog:
        process = subprocess.Popen(list(command), stdout=errlog, stderr=errlog, cwd=cwd, env=env)
    served = Served(process, f"http://127.0.0.1:{port}/mcp", log)
    try:
        deadline = time.monotonic() + 120
        while not _listening(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not listen on {port}:\n{log.read_text(encoding='utf-8')}")
            time.sleep(0.2)
        yield served
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=20)
