"""The pipeline: a build or check of a project, from its settings to its written output.

`project` is the library entry point (`build_project`, `Project`, `BuildReport`): the no-change
shortcut, the cache session, generation, the write, the record and pruning, in that order, as
`toolgen build` and `toolgen check` run them. `stages` runs configuration → load → validate →
catalog → render in memory (`generate`, writing nothing); `targetchecks` hands `toolgen validate`
the targets' own checks. It uses `toolgen.incremental` (what a build remembers, forks and skips)
and `toolgen.writer` (how it writes); the targets under `toolgen.render` import none of the three.
"""
