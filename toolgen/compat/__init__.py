"""Compatibility checking (`toolgen diff`): classify every change between two catalogs.

`diff_catalogs(base, head)` compares tool by tool and returns a `Report`: each change with its
TG4xx rule, direction (input: what callers send; output: what callers receive; metadata), location
in both versions, old and new values, the semver bump it needs and a hint; per tool the bump needed
against the bump made; permission escalations; removed tools. The decision table is `table.py`
(printed in docs/compatibility.md); schemas are compared by `schema.py`; `report.py` renders.
"""

from __future__ import annotations

from toolgen.compat.base import BaseError, parse_base, read_base_at_ref, read_base_file
from toolgen.compat.contracts import diff_catalogs, diff_contract, diff_tool, needed_bump
from toolgen.compat.model import (
    ABSENT,
    Assume,
    Bump,
    Change,
    Direction,
    Escalation,
    Report,
    Status,
    ToolDiff,
    bump_made,
)
from toolgen.compat.report import render
from toolgen.compat.schema import diff_schema
from toolgen.compat.table import DECISIONS, Decision

__all__ = [
    "ABSENT",
    "DECISIONS",
    "Assume",
    "BaseError",
    "Bump",
    "Change",
    "Decision",
    "Direction",
    "Escalation",
    "Report",
    "Status",
    "ToolDiff",
    "bump_made",
    "diff_catalogs",
    "diff_contract",
    "diff_schema",
    "diff_tool",
    "needed_bump",
    "parse_base",
    "read_base_at_ref",
    "read_base_file",
    "render",
]
