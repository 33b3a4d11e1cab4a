"""The provider target and `toolgen stats` through the real entry points, with golden files.

Golden files live in tests/golden/providers/; regenerate them with `.venv/bin/pytest --update-golden`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import GOLDEN, REPO, assert_golden
from toolgen.cli import main
from toolgen.render import providers

EDGE_PROJECT = Path(__file__).parents[1] / "data" / "providers" / "edge_project"


def run(project: Path, *args: str) -> tuple[int, str, str]:
    """Invoke the CLI in-process; return exit code, stdout and stderr."""
    result = CliRunner().invoke(main, ["-C", str(project), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def edge(tmp_path: Path) -> Path:
    """A fresh copy of the edge-case project."""
    root = tmp_path / "edge"
    shutil.copytree(EDGE_PROJECT, root)
    return root


@pytest.mark.parametrize("anthropic_strict", [False, True])
def test_build_matches_golden_files(edge: Path, update_golden: bool, anthropic_strict: bool) -> None:
    case = "edge_project_anthropic_strict" if anthropic_strict else "edge_project"
    if anthropic_strict:
        (edge / "toolgen.toml").write_text('targets = ["providers"]\nanthropic_strict = true\n', encoding="utf-8")
    code, out, err = run(edge, "build")
    assert code == 0, err
    assert "files written" in out
    written = sorted(p.name for p in (edge / "generated" / "providers").iterdir())
    assert written == sorted(providers.FILES)
    files = providers.FILES if not anthropic_strict else ("anthropic.json",)
    for name in files:
        text = (edge / "generated" / "providers" / name).read_text(encoding="utf-8")
        assert_golden(GOLDEN / "providers" / case / name, text, update_golden)
    assert_golden(GOLDEN / "providers" / case / "diagnostics.txt", err.replace(str(edge), "<project>"), update_golden)


def test_warnings_name_file_provider_and_pointer_and_can_be_turned_off(edge: Path) -> None:
    code, out, _ = run(edge, "build", "--format", "json")
    assert code == 0
    found = json.loads(out)["diagnostics"]  # stdout is one JSON document
    fallback = next(d for d in found if d["code"] == "TG301")
    assert fallback["file"] == "contracts/set_headers.json"
    assert fallback["pointer"] == "/input_schema/properties/headers"
    assert fallback["severity"] == "warning"
    assert fallback["message"].startswith("OpenAI: tool `set_headers` is not strict")
    (edge / "toolgen.toml").write_text('targets = ["providers"]\n[rules]\nTG301 = "off"\n', encoding="utf-8")
    code, _, err = run(edge, "build")
    assert code == 0
    assert "TG301" not in err
    assert "TG302" in err


def test_recursion_through_a_required_property_is_a_warning_that_matches_the_output(edge: Path) -> None:
    tree = {
        "type": "object",
        "required": ["name", "children"],
        "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
    }
    contract = {
        "name": "plant_tree",
        "version": "1.0.0",
        "description": "Plant a tree of names.",
        "permissions": [],
        "input_schema": {
            "type": "object",
            "additionalProperties": False,
            "required": ["root"],
            "properties": {"root": {"$ref": "#/$defs/tree"}},
            "$defs": {"tree": tree},
        },
    }
    (edge / "contracts" / "plant_tree.json").write_text(json.dumps(contract), encoding="utf-8")
    code, out, err = run(edge, "build")
    assert code == 0, err
    assert "Traceback" not in out + err
    line = next(x for x in err.splitlines() if "TG306" in x)
    assert line.startswith("contracts/plant_tree.json")
    assert "(warning) Gemini: tool `plant_tree` is recursive through the required property `children`" in line
    assert "declared with the $ref as written" in line
    gemini = json.loads((edge / "generated" / "providers" / "gemini.json").read_text(encoding="utf-8"))
    declared = next(d for d in gemini[0]["functionDeclarations"] if d["name"] == "plant_tree")
    assert declared["parametersJsonSchema"]["$defs"]["tree"]["properties"]["children"]["items"] == {
        "$ref": "#/$defs/tree"
    }


def test_stats_text_lists_providers_and_tools_largest_first(edge: Path) -> None:
    code, out, _ = run(edge, "stats")
    assert code == 0
    providers_part, tools_part, footer = out.split("\n\n")
    rows = providers_part.splitlines()[1:]
    assert {r.split()[0] for r in rows} == {f.removesuffix(".json") for f in providers.FILES}
    sizes = [int(r.split()[2].replace(",", "")) for r in rows]
    assert sizes == sorted(sizes, reverse=True)
    assert tools_part.splitlines()[1].split()[0] == "read_text"
    tool_rows = [r.split() for r in tools_part.splitlines()[1:]]
    largest = [max(int(cell.split("/")[0].replace(",", "")) for cell in r[1:]) for r in tool_rows]
    assert len(tool_rows) == 5 and largest == sorted(largest, reverse=True)
    assert footer.startswith("tokens: o200k_base")


def test_stats_json_through_python_m(edge: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "toolgen", "-C", str(edge), "stats", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["providers"][0]["provider"] in {"mcp", "gemini"}
    assert {p["tools"] for p in document["providers"]} == {5}
    tools = document["tools"]
    largest = [max(v["bytes"] for k, v in t.items() if k != "name") for t in tools]
    assert largest == sorted(largest, reverse=True)
    assert all(set(t) == {"name", "openai_chat", "openai_responses", "anthropic", "gemini", "mcp"} for t in tools)


def test_stats_on_invalid_contracts_exits_1_without_traceback(edge: Path) -> None:
    (edge / "contracts" / "broken.json").write_text("{not json", encoding="utf-8")
    code, out, err = run(edge, "stats")
    assert code == 1
    assert "contracts/broken.json" in err
    assert "Traceback" not in out + err


def test_a_contract_can_turn_a_provider_rule_off_for_itself(edge: Path) -> None:
    path = edge / "contracts" / "set_headers.json"
    contract = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**contract, "rules": {"TG301": "off"}}), encoding="utf-8")
    code, _, err = run(edge, "build")
    assert code == 0
    assert "TG301" not in err
    chat = json.loads((edge / "generated" / "providers" / "openai_chat.json").read_text(encoding="utf-8"))
    assert next(t for t in chat if t["function"]["name"] == "set_headers")["function"]["strict"] is False


def test_a_tool_left_out_through_the_build_cache_stays_out(edge: Path) -> None:
    config = 'targets = ["providers", "docs"]\n[providers.exclude]\nopenai_chat = ["read_text"]\n'
    (edge / "toolgen.toml").write_text(config, encoding="utf-8")
    contract = edge / "contracts" / "set_headers.json"
    data = json.loads(contract.read_text(encoding="utf-8"))
    contract.write_text(json.dumps({**data, "providers": {"exclude": ["mcp"]}}), encoding="utf-8")
    seen = []
    other = edge / "contracts" / "legacy_level.json"
    for round_ in range(2):  # the second build reads the other tools' entries from the cache
        if round_:
            changed = json.loads(other.read_text(encoding="utf-8"))
            other.write_text(json.dumps({**changed, "description": "Changed, so the target renders again."}))
        code, out, err = run(edge, "build")
        assert "files written" in out
        assert code == 0, err
        generated = edge / "generated"
        chat = json.loads((generated / "providers" / "openai_chat.json").read_text(encoding="utf-8"))
        mcp = json.loads((generated / "providers" / "mcp.json").read_text(encoding="utf-8"))
        seen.append(([t["function"]["name"] for t in chat], [t["name"] for t in mcp["tools"]]))
        page = (generated / "docs" / "set_headers.md").read_text(encoding="utf-8")
        assert "MCP: left out of mcp.json (providers exclude)" in page
    assert seen[0] == seen[1]
    assert "read_text" not in seen[0][0] and "set_headers" in seen[0][0]
    assert "set_headers" not in seen[0][1] and "read_text" in seen[0][1]
