"""The `excluded_standard_errors` contract key: standard codes a tool says it never returns (TG140).

A tool may narrow the standard codes (`http_fetch` answers a 404 as a result, so it never returns
`NOT_FOUND`). Only codes the tool itself would return can be excluded: the generated registry answers
`REGISTRY_ERRORS` on its own, whatever the tool does. An excluded code cannot also be declared under
`errors`, and no example may return it (TG121, `toolgen.validate.contract`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolgen.catalog import REGISTRY_ERRORS, STANDARD_ERRORS
from toolgen.positions import join
from toolgen.validate.report import Reporter, did_you_mean, type_name

KEY = "excluded_standard_errors"
EXCLUDABLE: tuple[str, ...] = tuple(c for c in STANDARD_ERRORS if c not in REGISTRY_ERRORS)
"""The standard codes a contract may exclude, in `STANDARD_ERRORS` order."""


def check_excluded(data: Mapping[str, Any], declared: set[str], report: Reporter) -> set[str]:
    """TG106 and TG140 for `excluded_standard_errors`; returns the codes validly excluded."""
    value = data.get(KEY)
    if value is None:
        return set()
    if not isinstance(value, list):
        fix = f'; write it like {KEY} = ["NOT_FOUND"]'
        report("TG106", f"/{KEY}", f"`{KEY}` must be an array, not {type_name(value)}{fix}")
        return set()
    out: set[str] = set()
    for index, code in enumerate(value):
        pointer = join(f"/{KEY}", index)
        if not isinstance(code, str):
            choices = ", ".join(EXCLUDABLE)
            report("TG106", pointer, f"each entry must be a string, one of {choices}; not {type_name(code)}")
        elif code in out:
            report("TG140", pointer, f"{code!r} is listed twice; remove the repeat")
        elif code in REGISTRY_ERRORS:
            report(
                "TG140",
                pointer,
                f"{code!r} cannot be excluded: the generated registry returns it itself, whatever the tool does; "
                f"only {', '.join(EXCLUDABLE)} can be",
            )
        elif code not in STANDARD_ERRORS:
            hint = did_you_mean(code, STANDARD_ERRORS) or f"; only {', '.join(EXCLUDABLE)} can be excluded"
            report("TG140", pointer, f"{code!r} is not a standard error code{hint}")
        elif code in declared:
            report("TG140", pointer, f"{code!r} is declared under `errors` and excluded here; keep one")
        else:
            out.add(code)
    return out
