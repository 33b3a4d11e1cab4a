"""Make the fixed CI sample of the corpora: a few hundred licence-clean records in tests/data/corpus_sample.

Deterministic: every k-th record of each file (k chosen for the count below), keeping only records
whose source repository is MIT or Apache-2.0 *and* wrote the schemas itself (for mcp_tools.jsonl:
github-mcp-server, modelcontextprotocol/servers and docker/mcp-registry; the LiveMCPBench and
mcp-proxy captures are left out, their schemas belong to third-party servers). Records are copied
verbatim, one per line. Rerun only to change the sample:

    .venv/bin/python -m benchmarks.corpus_sample [CORPORA_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks import REPO, corpora_dir

OUT = REPO / "tests" / "data" / "corpus_sample"
SAMPLE = {
    "bfcl_functions.jsonl": 90,
    "mcp_tools.jsonl": 60,
    "mcp_tools_docker_arguments_format.jsonl": 40,
    "other/acebench_en_functions.jsonl": 60,
    "other/sealtools_tools.jsonl": 30,
    "other/taubench_tools.jsonl": 30,
    "other/functionchat_bench_tools.jsonl": 30,
}
"""Corpus file -> number of records in the sample."""
CLEAN_MCP = ("github/github-mcp-server@", "modelcontextprotocol/servers@", "docker/mcp-registry@")


def _clean(name: str, record: dict[str, object]) -> bool:
    if name != "mcp_tools.jsonl":
        return True
    return str(record.get("source", "")).startswith(CLEAN_MCP)


def sample(corpora: Path) -> None:
    """Write every sample file."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name, count in SAMPLE.items():
        lines = (corpora / name).read_text(encoding="utf-8").splitlines()
        clean = [line for line in lines if line.strip() and _clean(name, json.loads(line))]
        step = max(1, len(clean) // count)
        chosen = clean[::step][:count]
        (OUT / Path(name).name).write_text("\n".join(chosen) + "\n", encoding="utf-8")
        print(f"{name}: {len(chosen)} of {len(lines)}")


if __name__ == "__main__":
    sample(Path(sys.argv[1]) if len(sys.argv) > 1 else corpora_dir())
