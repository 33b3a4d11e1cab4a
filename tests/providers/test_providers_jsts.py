"""The JSON-Schema-Test-Suite as a judge of every provider declaration (`benchmarks/jsts.py`).

Every group is placed as the property `v` of a contract, built, and each instance judged by the original
schema and by each provider file's declaration: no false rejection and no silent widening, per provider.
The default tier runs a licence-clean sample (tests/data/jsts_sample, MIT, LICENSE beside it); the
`corpus` tier the whole suite from `$TOOLGEN_JSTS` or `../shared/jsts/draft2020-12`. The table, and
every group skipped or refused, is printed (`-s` shows it; `python -m benchmarks.jsts` prints the same).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import jsts

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "jsts_sample" / "draft2020-12"


def _judge(folder: Path) -> jsts.Report:
    report = jsts.run(folder)
    print(jsts.table(report))
    for file, tally in report.tallies.items():
        assert tally.false_rejections == [], (file, tally.false_rejections)
        assert tally.silent == [], (file, tally.silent)
        assert tally.dangling == [], (file, tally.dangling)
        assert tally.declarations + len(tally.refused) == report.groups - len(report.skipped) - len(report.refused)
    return report


def test_the_sample_is_judged_without_false_rejections_or_silent_widenings() -> None:
    report = _judge(SAMPLE)
    # anchor's remote ref, and two Unicode property escapes jsonschema cannot judge
    assert report.groups == 71 and len(report.skipped) == 3
    assert len(report.tallies["openai_chat.json"].announced) > 0  # overlapping oneOf, said in the description


@pytest.mark.corpus
def test_the_whole_suite_is_judged_without_false_rejections_or_silent_widenings() -> None:
    folder = jsts.suite_dir()
    if not folder.is_dir():
        pytest.skip(f"no JSON-Schema-Test-Suite at {folder}: set TOOLGEN_JSTS or place it in ../shared/jsts")
    report = _judge(folder)
    assert report.groups > 300
