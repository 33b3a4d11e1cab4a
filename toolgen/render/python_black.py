"""Black for the python target, as units of work the executor runs: the package's own modules
(`format_python`, `format_many`: black over the whole text, a unit per text) and the tool modules
(`format_modules`: black's one pass over what `python_format.split` lets it see, a unit per that
text). Black itself is imported only when a text must really be formatted (`python_format`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from toolgen.render.context import PLAIN, Executor
from toolgen.render.python_format import fixed_mode, format_source, one_pass, put_back, split
from toolgen.render.units import Values, as_text, never


def format_python(source: str, executor: Executor = PLAIN) -> str:
    """`source` formatted by black with the fixed mode."""
    return format_many([source], executor)[0]


def format_many(sources: Sequence[str], executor: Executor = PLAIN) -> list[str]:
    """Each source formatted by black: a unit per text, the ones made spread out by the executor."""
    return executor.run(_units("black", lambda source: (source,), _black, executor), sources)


def _units(
    kind: str, depends_on: Callable[[str], tuple[str]], fn: Callable[[str], str], executor: Executor
) -> Values[str, str]:
    """Texts made from texts by `fn`, spread out by the executor."""
    return Values(
        kind, depends_on=depends_on, make=lambda todo: executor.map(fn, todo), encode=str, decode=as_text, raw=True
    )


def _black(source: str) -> str:
    return format_source(source, fixed_mode())


def format_modules(sources: Sequence[str], executor: Executor = PLAIN) -> list[tuple[str, str]]:
    """Each tool module formatted as `format_source` formats it, and the digest of what black's one
    pass over it saw (its imports and models, the verbatim region a placeholder; "" when black saw
    all of it). That pass is remembered on the digest: an edit that leaves a tool's models alone (a
    description, a version, an error code) runs no black at all, and a build that formats nothing
    else never imports it. A module left unread names its pass by that digest (`PASSES`, its
    declaration's `remade_from`), so the pass stays for the module's next edit."""
    cuts = [split(source) for source in sources]
    shown = [cut.shown for cut in cuts if cut.shown is not None]
    passes = executor.run(_units("black-pass", lambda text: (pass_digest(text),), _one_pass, executor), shown)
    wholes = iter(
        executor.map(_black, [source for source, cut in zip(sources, cuts, strict=True) if cut.shown is None])
    )
    done = iter(passes)
    return [
        (next(wholes), "") if cut.shown is None else (put_back(cut, next(done)), pass_digest(cut.shown)) for cut in cuts
    ]


def pass_digest(shown: str) -> str:
    """What names black's pass over a text: the sha256 of that text."""
    return hashlib.sha256(shown.encode("utf-8")).hexdigest()


PASSES: Values[str, str] = Values("black-pass", depends_on=lambda digest: (digest,), make=never)
"""Black's passes named by their digest (`pass_digest`), as `format_modules` declares them: what a
tool module left unread is made again from (`remade_from`), never made from a digest."""


def _one_pass(shown: str) -> str:
    return one_pass(shown, fixed_mode())
