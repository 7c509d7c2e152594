"""The motion data files load into their record models, and the named curves are easings.net's."""

from pathlib import Path

import pytest

from twlookup.platform.records import DataFileError, load_records
from twlookup.services.motion.records import EasingRecord

DATA = Path(__file__).resolve().parents[3] / "data" / "motion"


def test_easings_file_holds_the_keywords_and_24_named_curves():
    records = load_records(DATA / "easings.yaml", EasingRecord, "easings")
    assert sum(r.kind == "keyword" for r in records) == 5 and sum(r.kind == "named" for r in records) == 24
    by_id = {r.id: r for r in records}
    # spot checks against easings.net's src/easings.yml
    assert (
        by_id["ease-in-out-cubic"].x1,
        by_id["ease-in-out-cubic"].y1,
        by_id["ease-in-out-cubic"].x2,
        by_id["ease-in-out-cubic"].y2,
    ) == (0.65, 0, 0.35, 1)
    assert (by_id["ease-in-back"].y2) == -0.56
    assert all(r.source.startswith("https://") and r.checked for r in records)


def test_a_bad_record_names_file_record_and_field(tmp_path):
    bad = tmp_path / "easings.yaml"
    bad.write_text(
        "checked: 2026-11-23\neasings:\n- {id: broken, kind: named, x1: 2, y1: 0, x2: 0.5, y2: 1, source: 'https://x'}\n"
    )
    with pytest.raises(DataFileError, match=r"broken.*x1"):
        load_records(bad, EasingRecord, "easings")
