"""Rendering a compatibility report: `text`, `json`, `markdown` (a pull-request comment), `github`.

All four show the same facts: each changed tool with the bump its changes need against the bump
its version made, every change (rule, direction, location in both versions, old and new values,
bump, hint), permission escalations with the tool's owners, removed tools, and the verdict.
Output is deterministic: tools by name, changes by location.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from toolgen.compat.model import ABSENT, Bump, Change, Report, Status, ToolDiff
from toolgen.compat.table import DECISIONS
from toolgen.render import markdown as md

Locate = Callable[[str], tuple[int | None, int | None]]

_SHORT = 80


def listed(report: Report) -> tuple[ToolDiff, ...]:
    """Tools worth showing: changed, added, removed, or with a version problem."""
    return tuple(t for t in report.tools if t.changes or t.status is not Status.OK or t.old_version != t.new_version)


def _value(value: object, limit: int = _SHORT) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pointer(pointer: str | None) -> str:
    if pointer is None:
        return "(absent)"
    return pointer or "/"


def _verdict(tool: ToolDiff) -> str:
    labels = {
        Status.OK: "ok",
        Status.ADDED: "added",
        Status.REMOVED: "removed",
        Status.TOO_SMALL: "bump too small",
        Status.WENT_DOWN: "version went down",
        Status.BAD_VERSION: "version is not semver",
    }
    return labels[tool.status]


def _versions(tool: ToolDiff) -> str:
    return f"{tool.old_version or '(new)'} -> {tool.new_version or '(removed)'}"


def _made(tool: ToolDiff) -> str:
    return tool.made.label if tool.made is not None else "-"


def _counts(report: Report) -> str:
    count = len(report.tools)
    return f"{count} tool{'' if count == 1 else 's'} compared, {len(report.changed)} changed"


def _owners(owners: tuple[str, ...]) -> str:
    return ", ".join(owners) or "(none)"


def render_text(report: Report) -> str:
    """Human-readable report for a terminal."""
    lines = [f"toolgen diff: {_counts(report)}"]
    for tool in listed(report):
        if tool.status in (Status.ADDED, Status.REMOVED):
            lines += ["", f"{tool.name} {tool.new_version or tool.old_version}: {_verdict(tool)}"]
            continue
        head = f"{tool.name} {_versions(tool)}: needs {tool.needed.label}, made {_made(tool)}: {_verdict(tool)}"
        lines += ["", head]
        for change in tool.changes:
            lines.append(f"  {change.rule} {change.direction.value} {change.bump.label}: {change.message}")
            lines.append(f"      at   {_pointer(change.base_pointer)} -> {_pointer(change.head_pointer)}")
            lines.append(f"      was  {_value(change.old)}")
            lines.append(f"      now  {_value(change.new)}")
            lines.append(f"      hint {change.hint}")
    if report.escalations:
        flag = "allowed by --allow-escalation" if report.allow_escalation else "exit 1 unless --allow-escalation"
        lines += ["", f"Permission escalations ({flag}):"]
        for item in report.escalations:
            lines.append(f"  {item.tool}: gains {', '.join(item.added)}; owners: {_owners(item.owners)}")
    if report.removed:
        flag = "allowed by --allow-removal" if report.allow_removal else "exit 1 unless --allow-removal"
        lines += ["", f"Removed tools ({flag}):"]
        lines += [f"  {t.name} {t.old_version}; owners: {_owners(t.owners)}" for t in report.removed]
    lines.append("")
    if report.compatible:
        lines.append("compatible")
    else:
        lines.append(f"not compatible ({len(report.failures)} problem{'s' * (len(report.failures) != 1)}):")
        lines += [f"  {failure}" for failure in report.failures]
    return "\n".join(lines) + "\n"


def _change_json(change: Change) -> dict[str, object]:
    out: dict[str, object] = {
        "rule": change.rule,
        "name": DECISIONS[change.rule].name,
        "direction": change.direction.value,
        "bump": change.bump.label,
        "message": change.message,
        "base_pointer": change.base_pointer,
        "head_pointer": change.head_pointer,
    }
    if change.old is not ABSENT:
        out["old"] = change.old
    if change.new is not ABSENT:
        out["new"] = change.new
    out["hint"] = change.hint
    return out


def render_json(report: Report) -> str:
    """The report as one JSON document (`old`/`new` are left out where that side has nothing)."""
    document = {
        "compatible": report.compatible,
        "failures": list(report.failures),
        "tools": [
            {
                "name": t.name,
                "old_version": t.old_version,
                "new_version": t.new_version,
                "needed": t.needed.label,
                "made": t.made.label if t.made is not None else None,
                "status": t.status.value,
                "owners": list(t.owners),
                "changes": [_change_json(c) for c in t.changes],
            }
            for t in listed(report)
        ],
        "escalations": [
            {"tool": e.tool, "added": list(e.added), "owners": list(e.owners), "file": e.source}
            for e in report.escalations
        ],
        "removed": [t.name for t in report.removed],
        "unchanged": len(report.tools) - len(listed(report)),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _code(text: str) -> str:
    """A Markdown code span that holds any text (backticks, pipes) without breaking the table."""
    return md.code(text)


def _md_text(text: str) -> str:
    text = text.replace("->", "→")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|").replace("\n", " ")


def _md_finding(text: str) -> str:
    """A finding's message for a table cell: its code spans (property paths) kept, everything else escaped."""
    return md.toolgen_text(text.replace("->", "→"), in_table=True)


def render_markdown(report: Report) -> str:
    """A pull-request comment: verdict, a table of tools, escalations, then each tool's changes."""
    mark = "✅ compatible" if report.compatible else "❌ not compatible"
    lines = [f"## toolgen diff: {mark}", ""]
    shown = listed(report)
    lines.append(f"{_counts(report)}.")
    if shown:
        lines += ["", "| tool | version | needs | made | result |", "|---|---|---|---|---|"]
        for t in shown:
            ok = "✅" if not t.failed and t.status is not Status.REMOVED else "❌"
            versions = _md_text(_versions(t))
            lines.append(f"| {_code(t.name)} | {versions} | {t.needed.label} | {_made(t)} | {ok} {_verdict(t)} |")
    if report.escalations:
        lines += ["", "### ⚠️ Permission escalations", "", "| tool | gains | owners |", "|---|---|---|"]
        for e in report.escalations:
            owners = ", ".join(_md_text(o) for o in e.owners) or "(none)"
            lines.append(f"| {_code(e.tool)} | {', '.join(e.added)} | {owners} |")
    if report.failures:
        lines += ["", "### Problems", ""] + [f"- {_md_text(f)}" for f in report.failures]
    for t in shown:
        if not t.changes or t.status in (Status.ADDED, Status.REMOVED):
            continue
        lines += ["", f"### {_code(t.name)}: {len(t.changes)} change{'s' * (len(t.changes) != 1)}", ""]
        lines += ["| rule | direction | change | location (base → head) | old → new | needs | hint |"]
        lines += ["|---|---|---|---|---|---|---|"]
        for c in t.changes:
            where = f"{_code(_pointer(c.base_pointer))} → {_code(_pointer(c.head_pointer))}"
            values = f"{_code(_value(c.old, 60))} → {_code(_value(c.new, 60))}"
            lines.append(
                f"| {c.rule} | {c.direction.value} | {_md_finding(c.message)} | {where} | {values} "
                f"| **{c.bump.label}** | {_md_text(c.hint)} |"
            )
    return "\n".join(lines) + "\n"


def _escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def _annotation(kind: str, file: str, title: str, message: str, position: tuple[int | None, int | None]) -> str:
    props = [f"file={_escape(file, prop=True)}"]
    if position[0] is not None:
        props.append(f"line={position[0]}")
    props.append(f"title={_escape(title, prop=True)}")
    return f"::{kind} {','.join(props)}::{_escape(message)}"


def _nowhere(_pointer: str) -> tuple[int | None, int | None]:
    return (None, None)


def render_github(report: Report, locators: Mapping[str, Locate] | None = None) -> str:
    """GitHub Actions annotations: errors for what fails, warnings for major changes, notices for the rest."""
    found = locators or {}
    out: list[str] = []
    failures = {f.split(": ", 1)[0]: f for f in reversed(report.failures)}
    for t in listed(report):
        locate = found.get(t.source, _nowhere)
        if t.failed:
            message = failures[t.name]
            code = "TG403" if t.status is Status.WENT_DOWN else "TG404"
            out.append(_annotation("error", t.source, code, message, locate("/version")))
        for c in t.changes:
            if c.rule in ("TG401", "TG405"):
                continue
            kind = "warning" if c.bump is Bump.MAJOR else "notice"
            where = _pointer(c.head_pointer)
            message = f"{t.name}: {c.direction.value} {c.message} (needs {c.bump.label}) [at {where}]"
            out.append(_annotation(kind, t.source, c.rule, f"{message}\n{c.hint}", locate(c.head_pointer or "")))
    for e in report.escalations:
        kind = "warning" if report.allow_escalation else "error"
        message = f"{e.tool} gains permission {', '.join(e.added)}; owners: {_owners(e.owners)}"
        position = found[e.source]("/permissions") if e.source in found else (None, None)
        out.append(_annotation(kind, e.source, "TG405", message, position))
    for t in report.removed:
        kind = "warning" if report.allow_removal else "error"
        out.append(_annotation(kind, t.source, "TG401", f"tool {t.name} {t.old_version} removed", (None, None)))
    return "".join(line + "\n" for line in out)


def render(report: Report, fmt: str, locators: Mapping[str, Locate] | None = None) -> str:
    """The report in `fmt`: `text`, `json`, `markdown` or `github`."""
    if fmt == "json":
        return render_json(report)
    if fmt == "markdown":
        return render_markdown(report)
    if fmt == "github":
        return render_github(report, locators)
    return render_text(report)
