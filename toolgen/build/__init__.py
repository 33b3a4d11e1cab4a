"""The build layer: the only place that memoizes, forks, streams or compresses.

`pipeline` runs load, validation and every target (the executor); `cache` keeps content-addressed
results between builds, `fastpath` proves a no-change build current without rendering, `parallel`
forks workers, and `write` plans, checks and applies the output. The targets under `toolgen.render`
never import this package: they are plain functions of the catalog and the settings.
"""
