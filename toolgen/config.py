"""Configuration: `[tool.toolgen]` in pyproject.toml or a `toolgen.toml`, resolved once into `Settings`.

Every key has a default, so a project with only a `contracts/` folder needs no configuration. The
raw file is checked here (unknown keys, wrong types); problems are diagnostics with rule TG100.
The number of worker processes (`TOOLGEN_JOBS`, else the cores) is settled here too; it never
shapes output, so it is not part of `Settings.fingerprint()`.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolgen import provideroptions, rules
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.positions import join, locator_for
from toolgen.thresholds import DEFAULT as DEFAULT_THRESHOLDS
from toolgen.thresholds import Thresholds

TARGETS: Mapping[str, str] = {
    "catalog": "toolgen.render.catalog_json",
    "python": "toolgen.render.python",
    "providers": "toolgen.render.providers",
    "docs": "toolgen.render.docs",
    "mocks": "toolgen.render.mocks",
}
"""Every target toolgen can build, in build order, and the module whose `render` makes it: the one
registration of a target (`toolgen.render.targets` imports the module when the registry is asked for)."""

ALL_TARGETS: tuple[str, ...] = tuple(TARGETS)
"""Every target toolgen can build, in build order."""

DEFAULTS: Mapping[str, object] = {
    "contracts": "contracts",
    "output": "generated",
    "targets": list(ALL_TARGETS),
    "python_package": "agent_tools",
    "python_distribution": None,
    "python_version": None,
    "templates": None,
    "rules": {},
    "anthropic_strict": False,
    "providers": {},
}

CACHE_DIR = ".toolgen-cache"
"""The build cache's folder, under the project root (git-ignored: it holds its own `.gitignore`);
a project fact like the output folder, so the output rules here can keep clear of it."""

_PACKAGE_RE = re.compile(r"^[a-z_][a-z0-9_]*$")
_DISTRIBUTION_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
"""A distribution name PEP 508 accepts."""
_VERSION_RE = re.compile(
    r"^([1-9][0-9]*!)?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?"
    r"(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?(\+[a-z0-9]+(\.[a-z0-9]+)*)?$"
)
"""A version in PEP 440's normalized form."""


def default_jobs() -> int:
    """`TOOLGEN_JOBS` when it is a positive number, else the cores this process may run on."""
    wanted = os.environ.get("TOOLGEN_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Settings:
    """Resolved configuration. Paths are absolute; `rel()` turns them back for messages."""

    root: Path
    contracts_dir: Path
    output_dir: Path
    targets: tuple[str, ...] = ALL_TARGETS
    python_package: str = "agent_tools"
    python_distribution: str | None = None
    """The generated `pyproject.toml`'s distribution name (None: the package name, `-` for `_`)."""
    python_version: str | None = None
    """Its version (None: `0+catalog.<digest>`, `toolgen.render.python_project`)."""
    templates_dir: Path | None = None
    rule_severities: Mapping[str, Severity] = field(default_factory=dict)
    anthropic_strict: bool = False
    config_file: str | None = None
    providers: provideroptions.ProviderTable = field(default_factory=provideroptions.ProviderTable)
    """The `[providers]` table (`toolgen.provideroptions.CONFIG_SCHEMA`), checked."""
    jobs: int = field(default_factory=default_jobs, compare=False, metadata={"shapes_output": False})
    """Worker processes a build may use (`TOOLGEN_JOBS`, else the cores); output never depends on it."""
    thresholds: Thresholds = field(default=DEFAULT_THRESHOLDS, compare=False, metadata={"shapes_output": False})
    """The sizes at which a build changes how it works (`toolgen.thresholds`); output never depends on them."""

    def rel(self, path: Path) -> str:
        """`path` relative to the project root, with forward slashes (absolute if outside it)."""
        text, root = os.path.abspath(path), str(self.root)
        if os.sep == "/" and text.startswith(root + "/"):  # the common case, without pathlib (1,000 a build)
            return text[len(root) + 1 :]
        absolute = Path(text)
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()

    def fingerprint(self) -> str:
        """Every setting that can shape output or diagnostics, as a stable string: each field (paths
        relative to the root), whatever fields `Settings` gains, but the root and the job count."""
        parts: list[str] = []
        for item in dataclasses.fields(self):
            if item.name == "root" or not item.metadata.get("shapes_output", True):
                continue
            value = getattr(self, item.name)
            if isinstance(value, Path):
                value = self.rel(value)
            elif isinstance(value, Mapping):
                value = json.dumps(value, sort_keys=True, default=str)
            parts.append(f"{item.name}={value!r}")
        return "\n".join(parts)


def _config_error(file: str, pointer: str, message: str) -> Diagnostic:
    return Diagnostic("TG100", Severity.ERROR, message, file, pointer)


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
"""Where tomllib says a parse error is (only in its message)."""


def _unreadable(name: str, exc: Exception, text: str) -> Diagnostic:
    """A configuration file that does not parse, at the line and column tomllib names in its message."""
    message = f"cannot read the configuration: {_TOML_AT.sub('', str(exc)).strip()}"
    at = _TOML_AT.search(str(exc))
    if at:
        return replace(_config_error(name, "", message), line=int(at.group(1)), column=int(at.group(2)))
    if "end of document" in message:
        return replace(_config_error(name, "", message), line=text.count("\n") + 1)
    return _config_error(name, "", message)


def _located(problems: list[Diagnostic], root: Path, file: str | None) -> list[Diagnostic]:
    """The problems with the line and column of their pointer in the configuration file."""
    unplaced = [d for d in problems if d.line is None and d.pointer]
    if file is None or not unplaced:
        return problems
    try:
        locate = locator_for((root / file).read_text(encoding="utf-8"), "toml")
    except (OSError, UnicodeDecodeError):
        return problems
    placed = {id(d): replace(d, line=locate(d.pointer)[0], column=locate(d.pointer)[1]) for d in unplaced}
    return [placed.get(id(d), d) for d in problems]


def _read_raw(root: Path) -> tuple[Mapping[str, object], str | None, list[Diagnostic]]:
    """Find and parse the configuration table; return it, the file it came from, and problems."""
    for name, table_path in (("toolgen.toml", ()), ("pyproject.toml", ("tool", "toolgen"))):
        path = root / name
        if not path.is_file():
            continue
        text = ""
        try:
            text = path.read_text(encoding="utf-8")
            data: object = tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            return {}, name, [_unreadable(name, exc, text)]
        for key in table_path:
            data = data.get(key, {}) if isinstance(data, dict) else {}
        if not isinstance(data, dict):
            return {}, name, [_config_error(name, "/" + "/".join(table_path), "must be a table")]
        if name == "pyproject.toml" and not data:
            continue
        return data, name, []
    return {}, None, []


def _is_root(folder: Path) -> bool:
    """A project root: a `toolgen.toml`, a `pyproject.toml` with `[tool.toolgen]`, or a `contracts/` folder."""
    if (folder / "toolgen.toml").is_file() or (folder / "contracts").is_dir():
        return True
    try:
        data = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    tool = data.get("tool")
    return isinstance(tool, dict) and "toolgen" in tool


def find_root(start: Path) -> Path:
    """The project `start` is in: the nearest folder at or above it that is a root (as git and ruff
    find theirs), else `start` itself (whose problems the commands then report)."""
    start = start.resolve()
    return next((folder for folder in (start, *start.parents) if _is_root(folder)), start)


def _check_rules(raw: object, file: str, pointer: str) -> tuple[dict[str, Severity], list[Diagnostic]]:
    if not isinstance(raw, dict):
        return {}, [_config_error(file, pointer, 'must be a table of rule codes, like { TG203 = "off" }')]
    out: dict[str, Severity] = {}
    problems: list[Diagnostic] = []
    choices = {s.value for s in Severity}
    for code, level in raw.items():
        if not rules.is_known_code(code):
            problems.append(_config_error(file, f"{pointer}/{code}", f"unknown rule code {code!r}"))
        elif level not in choices:
            problems.append(
                _config_error(file, f"{pointer}/{code}", f"severity must be one of error, warning, off; got {level!r}")
            )
        else:
            out[code] = Severity(level)
    return out, problems


def _providers(raw: object, file: str, pointer: str, problems: list[Diagnostic]) -> provideroptions.ProviderTable:
    """The checked `[providers]` table (`toolgen.provideroptions`), or `{}` with its problems added.
    No table (the default, empty) breaks nothing: it builds no validator, and so a build that finds
    nothing changed never imports jsonschema (a third of its time)."""
    if isinstance(raw, dict) and not raw:
        return {}
    found = provideroptions.check_config(raw, file, pointer)
    problems.extend(found)
    return provideroptions.config_table(raw) if not found and isinstance(raw, Mapping) else {}


def load_settings(root: Path, overrides: Mapping[str, object] | None = None) -> tuple[Settings, list[Diagnostic]]:
    """Read the configuration under `root`, apply `overrides` (from the command line) and resolve it.

    Returns the settings and any problems; with problems the settings are the defaults.
    """
    root = root.resolve()
    raw, file, problems = _read_raw(root)
    label = file or "toolgen.toml"
    pointer_base = "/tool/toolgen" if file == "pyproject.toml" else ""
    merged: dict[str, object] = dict(DEFAULTS)
    for key, value in raw.items():
        if key not in DEFAULTS:
            close = difflib.get_close_matches(key, list(DEFAULTS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(DEFAULTS)}"
            problems.append(_config_error(label, f"{pointer_base}/{key}", f"unknown configuration key {key!r}{hint}"))
            continue
        merged[key] = value
    merged.update({k: v for k, v in (overrides or {}).items() if v is not None})

    names, optional = _names(merged, label, pointer_base, problems)
    targets = merged["targets"]
    if not isinstance(targets, list) or any(t not in ALL_TARGETS for t in targets):
        problems.append(
            _config_error(label, f"{pointer_base}/targets", f"must be a list drawn from {', '.join(ALL_TARGETS)}")
        )
        targets = list(ALL_TARGETS)
    if "mocks" in targets and "python" not in targets:
        targets = [*targets, "python"]
    severities, rule_problems = _check_rules(merged["rules"], label, f"{pointer_base}/rules")
    problems.extend(rule_problems)
    if not isinstance(merged["anthropic_strict"], bool):
        problems.append(_config_error(label, f"{pointer_base}/anthropic_strict", "must be true or false"))
    contracts_dir, output_dir, templates_dir = _folders(
        root, names, merged["templates"], (label, pointer_base), problems
    )
    settings = Settings(
        root=root,
        contracts_dir=contracts_dir,
        output_dir=output_dir,
        targets=tuple(t for t in ALL_TARGETS if t in targets),
        python_package=names["python_package"],
        python_distribution=optional["python_distribution"],
        python_version=optional["python_version"],
        templates_dir=templates_dir,
        rule_severities=severities,
        anthropic_strict=merged["anthropic_strict"] is True,
        config_file=file,
        providers=_providers(merged["providers"], label, f"{pointer_base}/providers", problems),
    )
    return settings, _located(problems, root, file)


def _names(
    merged: Mapping[str, object], label: str, pointer_base: str, problems: list[Diagnostic]
) -> tuple[dict[str, str], dict[str, str | None]]:
    """The folder and package names (`contracts`, `output`, `python_package`: non-empty strings, the
    package an identifier) and the optional ones (`python_distribution`, `python_version`: None or
    in their forms), by key; a bad one is added to `problems` and its default taken."""
    names: dict[str, str] = {}
    for key in ("contracts", "output", "python_package"):
        value = merged[key]
        if isinstance(value, str) and value:
            names[key] = value
        else:
            problems.append(_config_error(label, f"{pointer_base}/{key}", "must be a non-empty string"))
            names[key] = str(DEFAULTS[key])
    if not _PACKAGE_RE.match(names["python_package"]):
        message = "must be a lower-case Python identifier"
        problems.append(_config_error(label, f"{pointer_base}/python_package", message))
        names["python_package"] = str(DEFAULTS["python_package"])
    checks = (
        ("python_distribution", _DISTRIBUTION_RE, "must be a distribution name (letters, digits, `.`, `-`, `_`)"),
        ("python_version", _VERSION_RE, "must be a version in PEP 440's normalized form, such as `1.4.0`"),
    )
    optional: dict[str, str | None] = {}
    for key, pattern, message in checks:
        value = merged[key]
        optional[key] = value if isinstance(value, str) else None
        if value is not None and not (isinstance(value, str) and pattern.match(value)):
            problems.append(_config_error(label, f"{pointer_base}/{key}", message))
            optional[key] = None
    return names, optional


def _folders(
    root: Path, names: Mapping[str, str], templates: object, where: tuple[str, str], problems: list[Diagnostic]
) -> tuple[Path, Path, Path | None]:
    """The contracts, output and templates folders; the output folder's refusal (TG130, TG131) and a
    templates value that is not a path are added to `problems` (`where`: the configuration file and
    the pointer of its table)."""
    label, pointer_base = where
    if templates is not None and not isinstance(templates, str):
        problems.append(_config_error(label, f"{pointer_base}/templates", "must be a folder path"))
        templates = None
    contracts_dir = Path(os.path.abspath(root / names["contracts"]))
    templates_dir = (root / templates).resolve() if templates else None
    output_dir = Path(os.path.normpath(root / names["output"]))
    refusal = output_problem(root, output_dir, contracts_dir, templates_dir)
    if refusal is not None:
        problems.append(Diagnostic(refusal[0], Severity.ERROR, refusal[1], label, f"{pointer_base}/output"))
    return contracts_dir, output_dir, templates_dir


def unmatched_exclusions(settings: Settings, names: Collection[str]) -> list[Diagnostic]:
    """TG151 (a warning) for each name in the configuration's `[providers] exclude` that is none of
    `names` (the catalog's tools): it leaves nothing out, so the tool meant is still sent. Placed at
    the name in the configuration file, with the closest tool name as a hint."""
    if settings.config_file is None:
        return []
    base = "/tool/toolgen/providers/exclude" if settings.config_file == "pyproject.toml" else "/providers/exclude"
    found: list[Diagnostic] = []
    for file, listed in sorted((settings.providers.get("exclude") or {}).items()):
        for index, name in enumerate(listed):
            if name in names:
                continue
            close = difflib.get_close_matches(name, sorted(names), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else "; fix the name or remove it"
            message = f"`providers.exclude.{file}` names {name!r}, which no contract has: it leaves nothing out{hint}"
            pointer = join(base, file, index)
            found.append(Diagnostic("TG151", Severity.WARNING, message, settings.config_file, pointer))
    return _located(found, settings.root, settings.config_file)


def output_problem(root: Path, output: Path, contracts: Path, templates: Path | None) -> tuple[str, str] | None:
    """(code, message) when `output` (absolute, normalized) may not be the output folder, else None.

    It must be a real folder inside the project (TG130: not outside it, not reached through a
    symlink, not a file) that overlaps nothing toolgen reads or keeps (TG131)."""
    shown = _shown(root, output)
    if not output.is_relative_to(root) or output == root:
        if root.is_relative_to(output):
            return "TG131", f"{shown} is the project root or holds it; use a folder of its own, such as `generated`"
        return "TG130", f"{shown} is outside the project; the output folder must be a folder inside it"
    step = root
    for part in output.relative_to(root).parts:
        step = step / part
        if step.is_symlink():
            return "TG130", (
                f"{_shown(root, step)} is a symlink; toolgen writes only into real folders of the project: "
                "replace the link with a folder, or choose another output folder"
            )
        if step.exists() and not step.is_dir():
            return "TG130", f"{_shown(root, step)} is a file, not a folder; move it, or choose another output folder"
    for label, folder in _kept_folders(root, contracts, templates):
        if output == folder or output.is_relative_to(folder) or folder.is_relative_to(output):
            return "TG131", (
                f"{shown} overlaps {label} ({_shown(root, folder)}); use a folder of its own, such as `generated`"
            )
    return None


def _shown(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) and path != root else path.as_posix()


def _kept_folders(root: Path, contracts: Path, templates: Path | None) -> list[tuple[str, Path]]:
    """The folders the output may not overlap, by what they are (real paths too, for links)."""
    package = Path(__file__).resolve().parent
    kept = [
        ("the contracts folder", contracts),
        ("the cache", root / CACHE_DIR),
        ("the git repository", root / ".git"),
        ("the templates folder", root / "templates"),
        ("toolgen's own code", package),
        ("toolgen's built-in templates", package.parent / "templates"),
    ]
    if templates is not None:
        kept.append(("the templates folder", templates))
    return kept + [(label, Path(os.path.realpath(path))) for label, path in kept[:1]]
