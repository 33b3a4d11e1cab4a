"""The manifest is the text `json.dumps(indent=2)` writes, though json's C encoder makes it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from toolgen import __version__
from toolgen.render import Artifact
from toolgen.writer.files import Files
from toolgen.writer.outputs import Loose
from toolgen.writer.write import manifest_text

PATHS = st.lists(st.text(alphabet=st.sampled_from(list('ab/é"\\\n\t\u2028.')), min_size=1, max_size=12), unique=True)


def _expected(files: Files) -> bytes:
    document = {
        "generated_by": f"toolgen {__version__}",
        "note": "files toolgen owns in this folder; toolgen deletes only these",
        "files": {path: files.digest(path) for path in sorted(files)},
    }
    return (json.dumps(document, indent=2) + "\n").encode("utf-8")


@given(PATHS)
def test_the_manifest_is_what_json_writes_with_an_indent(paths: list[str]) -> None:
    files = Files({p: Loose.of(Artifact(p, f"text of {p}")) for p in paths})
    assert manifest_text(files) == _expected(files)
