"""The generated registry against the JSON-Schema-Test-Suite (draft 2020-12): it accepts exactly what the
suite calls valid, except what docs/python.md documents (formats are asserted).

The default tier runs a sample (`tests/data/jsts_sample`); `-m corpus` runs every group of
`../shared/jsts/draft2020-12` (or `$TOOLGEN_JSTS/draft2020-12`). With `-s` each prints the table the
issue asks for: groups built, refused with a code, skipped; valid values refused; invalid accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.jsts_support import DOCUMENTED, JSTS, SAMPLE, Tally, agreement

FORMAT_GROUPS = "g_format_"
"""The suite's `format` groups call every string valid (format is an annotation by default); the
registry asserts the formats jsonschema's checker knows, as docs/python.md says."""


def _judge(tally: Tally) -> None:
    print(f"\n{tally.table()}")
    refused = [each for each in tally.valid_refused if not each.startswith(FORMAT_GROUPS)]
    assert refused == [], "\n".join(refused)
    accepted = [each for each in tally.invalid_accepted_named if each.split("_")[1] not in DOCUMENTED]
    assert accepted == [], "\n".join(accepted)
    assert tally.built, "no group was built"


def test_the_sample_agrees_with_the_suite(tmp_path: Path) -> None:
    tally = agreement(SAMPLE, tmp_path)
    _judge(tally)
    assert tally.values > 100 and not tally.valid_refused


@pytest.mark.corpus
def test_every_group_of_the_suite_agrees(tmp_path: Path) -> None:
    folder = JSTS / "draft2020-12"
    if not folder.is_dir():
        pytest.skip(
            f"needs the JSON-Schema-Test-Suite, which is not in the repository: none at {folder} "
            "(put it in ../shared/jsts beside the checkout, or set TOOLGEN_JSTS=DIR)"
        )
    _judge(agreement(folder, tmp_path))
