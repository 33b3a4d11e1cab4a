"""`Registry(enforce=True)`: an undeclared write, program run or connection is stopped before it happens.

The package is generated from a fixture catalog: a `read` tool that writes a file, a pure tool that
opens a socket, a `write` tool that runs a subprocess. Each runs in a fresh interpreter (the audit
hook is process-wide and permanent), and the test checks the file system and a listening socket on
127.0.0.1: with enforcement nothing happened; without it, the same implementations do their effects.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.factory import contract
from tests.python_support import build, write_package, write_project

SCRIPT = textwrap.dedent(
    """\
    import json, socket, subprocess, sys, threading
    from pathlib import Path

    from agent_tools import Ok, Policy, Registry

    workdir, port, enforce = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    traces = []


    def note_read(args):
        (workdir / "written.txt").write_text(args.text)
        return Ok({"text": args.text})


    def calc(args):
        connection = socket.create_connection(("127.0.0.1", port), timeout=2)
        connection.close()
        return Ok({"text": args.text})


    def run_job(args):
        script = "import pathlib, sys; pathlib.Path(sys.argv[1]).write_text('ran')"
        subprocess.run([sys.executable, "-c", script, str(workdir / "ran.txt")], check=True)
        return Ok({"text": args.text})


    def swallowing(args):
        try:
            (workdir / "swallowed.txt").write_text("x")
        except OSError:
            pass
        return Ok({"text": args.text})


    def reader(args):
        return Ok({"text": (workdir / "input.txt").read_text()})


    everything = Policy(allow={"read", "write", "execute", "network"})
    registry = Registry(policy=everything, tracer=traces.append, enforce=enforce)
    for name, function in (("note_read", note_read), ("pure_calc", calc), ("run_job", run_job),
                           ("swallow", swallowing), ("pure_reader", reader)):
        registry.register(name, function)
    results = {}
    for name in ("note_read", "pure_calc", "run_job", "swallow", "pure_reader"):
        result = registry.call(name, {"text": "hi"})
        results[name] = {"code": getattr(result, "code", "OK"), "details": getattr(result, "details", None)}
    out = {
        "results": results,
        "traces": {t.tool: {"code": t.code, "permission": t.permission, "missing": list(t.missing_permissions),
                            "reads": list(t.undeclared_reads)} for t in traces},
    }
    print(json.dumps(out))
    """
)

PERMISSIONS = {
    "note_read": ["read"],
    "pure_calc": [],
    "run_job": ["write"],
    "swallow": ["read"],
    "pure_reader": [],
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("enforce")
    contracts = {name: contract(name, permissions=perms, idempotent=False) for name, perms in PERMISSIONS.items()}
    for data in contracts.values():
        data["input_schema"]["required"] = []
    write_project(root, contracts)
    return write_package(build(root), root / "out")


def run(package: Path, workdir: Path, enforce: bool) -> tuple[dict[str, Any], bool]:
    """Run the script; returns its report and whether the listening socket saw a connection."""
    (workdir / "input.txt").write_text("from disk")
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.5)
        port = server.getsockname()[1]
        script = workdir / "script.py"
        script.write_text(SCRIPT)
        env = {"PYTHONPATH": str(package), "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [sys.executable, str(script), str(workdir), str(port), "1" if enforce else "0"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        try:
            server.accept()[0].close()
            connected = True
        except TimeoutError:
            connected = False
    return json.loads(done.stdout), connected


def test_without_enforcement_the_effects_happen(package: Path, tmp_path: Path) -> None:
    report, connected = run(package, tmp_path, enforce=False)
    assert {name: r["code"] for name, r in report["results"].items()} == dict.fromkeys(PERMISSIONS, "OK")
    assert (tmp_path / "written.txt").exists() and (tmp_path / "ran.txt").exists()
    assert connected


def test_with_enforcement_each_undeclared_effect_is_stopped_before_it_happens(package: Path, tmp_path: Path) -> None:
    report, connected = run(package, tmp_path, enforce=True)
    results = report["results"]
    assert results["note_read"] == {
        "code": "PERMISSION_DENIED",
        "details": {"event": "open", "missing_permission": "write"},
    }
    assert results["pure_calc"]["code"] == "PERMISSION_DENIED"
    assert results["pure_calc"]["details"]["missing_permission"] == "network"
    assert results["run_job"]["details"] == {"event": "subprocess.Popen", "missing_permission": "execute"}
    assert not (tmp_path / "written.txt").exists()
    assert not (tmp_path / "ran.txt").exists()
    assert not connected


def test_a_caught_refusal_still_denies_the_call(package: Path, tmp_path: Path) -> None:
    report, _ = run(package, tmp_path, enforce=True)
    assert report["results"]["swallow"]["code"] == "PERMISSION_DENIED"
    assert not (tmp_path / "swallowed.txt").exists()
    assert report["traces"]["swallow"] == {
        "code": "PERMISSION_DENIED",
        "permission": "denied",
        "missing": ["write"],
        "reads": [],
    }


def test_undeclared_reads_are_reported_not_blocked(package: Path, tmp_path: Path) -> None:
    report, _ = run(package, tmp_path, enforce=True)
    assert report["results"]["pure_reader"]["code"] == "OK"
    assert report["traces"]["pure_reader"]["reads"] == [str(tmp_path / "input.txt")]


THREADS = textwrap.dedent(
    """\
    import asyncio, json, sys, threading
    from pathlib import Path

    from agent_tools import Ok, Policy, Registry

    workdir = Path(sys.argv[1])
    inside, outside_done = threading.Event(), threading.Event()


    def waiting(args):
        inside.set()
        outside_done.wait(10)
        return Ok({"text": args.text})


    def outside():
        inside.wait(10)
        (workdir / "other_thread.txt").write_text("free")
        outside_done.set()


    async def other_task():
        await asyncio.sleep(0)
        (workdir / "other_task.txt").write_text("free")


    async def both(registry):
        call = asyncio.to_thread(registry.call, "note_read", {"text": "x"})
        result, _ = await asyncio.gather(call, other_task())
        return result


    everything = Policy(allow={"read", "write", "execute", "network"})
    registry = Registry(policy=everything, enforce=True)
    registry.register("note_read", waiting)
    worker = threading.Thread(target=outside)
    worker.start()
    result = asyncio.run(both(registry))
    worker.join()
    print(json.dumps({"code": getattr(result, "code", "OK")}))
    """
)


def test_threads_and_tasks_outside_the_call_are_not_enforced(package: Path, tmp_path: Path) -> None:
    script = tmp_path / "threads.py"
    script.write_text(THREADS)
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(package), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"code": "OK"}
    assert (tmp_path / "other_thread.txt").read_text() == "free"
    assert (tmp_path / "other_task.txt").read_text() == "free"
