"""The incremental layer: everything a build does only to be fast, and nothing that changes its bytes.

`cache` keeps content-addressed, authenticated results between builds (`cachekey`: the key lives
outside the project), `memo` remembers computations in it (values, and whole files it need not read
again, `kept`), `loadcache` what loading a contract file always gives, `fastpath` proves a no-change
build current without rendering, `parallel` forks workers, `executor` hands the targets all of it
behind `toolgen.render.context.Executor`, and `pruning` drops the entries a build did not use.
Without it (library calls with the plain executor, `--no-cache`) every output is the same.
"""
