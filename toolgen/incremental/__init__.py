"""The incremental layer: everything a build does only to be fast, and nothing that changes its bytes.

`cache` keeps content-addressed, authenticated results between builds (`cachekey`: the key lives
outside the project), `executor` (`Building`, the build's `toolgen.render.context.Executor`) runs
the targets' declared units through it, remembering values and whole files it need not read again
(`kept`), and spreads work over `parallel`'s forked workers; `loadcache` remembers what loading a
contract file always gives, `fastpath` proves a no-change build current without rendering, and
`pruning` drops the entries a build did not use.
Without it (library calls with the plain executor, `--no-cache`) every output is the same.
"""
