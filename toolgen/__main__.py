"""The process entry: `python -m toolgen` and the `toolgen` command run `run`."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

from toolgen.quick import answer


def run() -> NoReturn:
    """`main`, then the process ends without the interpreter's teardown.

    A build holds the frozen catalog and the cache's values, about a million small objects; freeing
    them one by one at exit took a one-contract build of 1,000 contracts a tenth of its time, for
    nothing: every file is written and closed by then, and every forked worker joined. The process
    ends inside the `except`: click ends every command with `SystemExit`, whose traceback holds
    click's frames and so the command's context and what the command kept in it (`Context.keep`).
    Standard output and error are flushed first. `main` itself, which tests and library users call,
    exits as click does."""
    quick = answer(sys.argv[1:])
    if isinstance(quick, int):
        _end(quick)
    from toolgen.cli import main

    try:
        main(obj=quick)  # the project the quick answer probed, if any: its probe is not made again
    except SystemExit as exc:
        _end(exit_code(exc.code))
    _end(0)


def _end(code: int) -> NoReturn:
    """Flush standard output and error, then end the process with `code`, freeing nothing."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that went away: nothing to say
            stream.flush()
    os._exit(code)


def exit_code(code: object) -> int:
    """The status `sys.exit(code)` gives: 0 for None, the number, else 1 with the text on stderr."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    with contextlib.suppress(OSError, ValueError):
        print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    run()
