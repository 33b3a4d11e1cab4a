"""The build layer: the only place that memoizes, forks, streams or compresses.

`pipeline` runs load, validation and every target (the executor); `cache` keeps content-addressed
results between builds and `memo` remembers computations in it (values, and whole files it need not
read again), `fastpath` proves a no-change build current without rendering, `parallel` forks
workers, `outputs` holds the files made until `write` plans, checks and applies the output. The
targets under `toolgen.render` never import this package: they are plain functions of the catalog
and the settings.
"""
