"""The safe writer: how a build's files reach the output folder, and only them.

`outputs` holds the files a build made until the writer runs (as bytes, or packed), `files` reads
them as path -> bytes, `write` plans against the manifest (refusing to overwrite a hand edit or a
file toolgen did not make) and applies the plan as a journaled transaction (`journal`: a build
killed at any moment is completed by the next), never following a symlink (`safepaths`);
`shortdiff` shows `check`'s drift. It imports nothing of the pipeline or the incremental layer.
"""
