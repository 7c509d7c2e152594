"""The shipped holiday data: peak seasons, flight rules and the guide are sourced and consistent."""

from datetime import date

import yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.services.holiday.schemas import supported_countries

FOLDER = DEFAULT_DATA / "holiday"
PEAKS = yaml.safe_load((FOLDER / "peak_seasons.yaml").read_text(encoding="utf-8"))
FLIGHT = yaml.safe_load((FOLDER / "flight_timing.yaml").read_text(encoding="utf-8"))
GUIDE = yaml.safe_load((FOLDER / "tickets_guide.yaml").read_text(encoding="utf-8"))


def test_peak_seasons_are_2027_sourced_and_well_formed():
    for code, country in PEAKS["countries"].items():
        assert code in supported_countries(), code
        assert country["peaks"], code
        for p in country["peaks"]:
            assert date(2027, 1, 1) <= p["start"] <= p["end"] <= date(2027, 12, 31), (code, p["name_en"])
            assert p["level"] in ("high", "medium"), (code, p["name_en"])
            assert p["source"].startswith(("https://", "http://")) and p["why"], (code, p["name_en"])


def test_flight_rules_are_consistent():
    short, long_ = FLIGHT["rules"]["short_haul"], FLIGHT["rules"]["long_haul"]
    assert not set(short["countries"]) & set(long_["countries"])
    for rule in (short, long_):
        assert 0 < rule["best_min_days"] < rule["best_max_days"] < rule["peak_min_days"]
        assert rule["source"] and rule["peak_source"]
    assert FLIGHT["last_minute_days"] <= short["best_min_days"]
    assert set(PEAKS["countries"]) <= set(short["countries"]) | set(long_["countries"])


def test_guide_sections_have_sources():
    ids = [s["id"] for s in GUIDE["sections"]]
    assert len(ids) == len(set(ids)) == 3
    for s in GUIDE["sections"]:
        assert s["sources"] and all(x["url"].startswith(("https://", "http://")) for x in s["sources"])
