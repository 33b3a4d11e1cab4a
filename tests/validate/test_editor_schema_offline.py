"""The editor schema (`contract.schema.json`) is self-contained: real editor validators use it offline.

taplo (the TOML language server's CLI, following each contract's `#:schema` line) and check-jsonschema
(with `--no-cache`) run with every proxy pointed at a closed port, on the repo's contracts and on a
broken one. The schema as it used to be (the metaschema by remote `$ref`) fails taplo that way, which
shows the test would catch a regression.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.conftest import REPO
from toolgen.formatschema import METASCHEMA_DEF, metaschema_def, schema, schema_text

BIN = Path(sys.executable).parent
OFFLINE = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": os.environ.get("HOME", "/tmp"),
    **dict.fromkeys(("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"), "http://127.0.0.1:9"),
    "NO_PROXY": "",
}
"""Any fetch fails fast: the proxies point at the discard port, where nothing listens."""

BROKEN = """#:schema ../generated/contract.schema.json
name = "Broken Tool"
version = 1
description = "A contract with mistakes an editor must show."
permissions = ["raed"]

[input_schema]
type = "object"
maxProperties = -1

[input_schema.properties.q]
type = "strin"
"""


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def test_the_schema_bundles_the_metaschema_and_refers_to_nothing_outside() -> None:
    shipped = schema()
    assert all(ref.startswith("#") for ref in refs(shipped)), sorted(set(refs(shipped)))
    assert shipped["$defs"][METASCHEMA_DEF] == metaschema_def()
    assert shipped["$defs"]["objectSchema"]["$ref"] == f"#/$defs/{METASCHEMA_DEF}"
    assert (REPO / "generated" / "contract.schema.json").read_text(encoding="utf-8") == schema_text()


def project(tmp_path: Path, editor_schema: str) -> Path:
    """The repo's contracts and a broken one, with the editor schema where their `#:schema` lines point."""
    shutil.copytree(REPO / "contracts", tmp_path / "contracts")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "contract.schema.json").write_text(editor_schema, encoding="utf-8")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "broken_tool.toml").write_text(BROKEN, encoding="utf-8")
    return tmp_path


def run(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert (BIN / tool).is_file(), f"{tool} is a pinned dev dependency: pip install -e '.[dev]'"
    return subprocess.run(
        [str(BIN / tool), *args], cwd=cwd, env=OFFLINE, capture_output=True, text=True, check=False, timeout=120
    )


def tomls(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in (root / "contracts").rglob("*.toml"))


def test_taplo_lints_every_contract_offline_and_finds_the_mistakes(tmp_path: Path) -> None:
    root = project(tmp_path, schema_text())
    good = run("taplo", "lint", *tomls(root), cwd=root)
    assert good.returncode == 0, good.stderr
    bad = run("taplo", "lint", "broken/broken_tool.toml", cwd=root)
    assert bad.returncode == 1 and "failed to fetch" not in bad.stderr
    for mistake in ('"Broken Tool" does not match', "1 is not of type", '"raed"', "-1 is less than the minimum"):
        assert mistake in bad.stderr, (mistake, bad.stderr)


def test_taplo_fails_offline_with_the_remote_metaschema_ref(tmp_path: Path) -> None:
    remote = schema()
    remote["$defs"]["objectSchema"]["$ref"] = "https://json-schema.org/draft/2020-12/schema"
    del remote["$defs"][METASCHEMA_DEF]
    root = project(tmp_path, json.dumps(remote))
    result = run("taplo", "lint", "contracts/read_file.toml", cwd=root)
    assert result.returncode == 1 and "failed to fetch schema" in result.stderr


def test_check_jsonschema_validates_every_contract_offline(tmp_path: Path) -> None:
    root = project(tmp_path, schema_text())
    contracts = sorted(p.relative_to(root).as_posix() for p in (root / "contracts").rglob("*") if p.is_file())
    assert len(contracts) >= 12
    editor = "generated/contract.schema.json"
    good = run("check-jsonschema", "--no-cache", "--schemafile", editor, *contracts, cwd=root)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = run("check-jsonschema", "--no-cache", "--schemafile", editor, "broken/broken_tool.toml", cwd=root)
    assert bad.returncode == 1, bad.stdout
    for mistake in ("'Broken Tool' does not match", "1 is not of type 'string'", "-1 is less than the minimum"):
        assert mistake in bad.stdout, (mistake, bad.stdout)
