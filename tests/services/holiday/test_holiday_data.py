"""The shipped holiday data: peak seasons, flight rules and the guide are sourced and consistent."""

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.records import DataFileError
from twlookup.services.holiday import data as holiday_data
from twlookup.services.holiday.logic.calendars import destination_holidays, holiday_span
from twlookup.services.holiday.schemas import supported_countries

FOLDER = DEFAULT_DATA / "holiday"
PEAKS = load_yaml((FOLDER / "peak_seasons.yaml").read_text(encoding="utf-8"))
FLIGHT = load_yaml((FOLDER / "flight_timing.yaml").read_text(encoding="utf-8"))
GUIDE = load_yaml((FOLDER / "tickets_guide.yaml").read_text(encoding="utf-8"))


def test_peak_seasons_are_2027_sourced_and_well_formed():
    assert PEAKS["year"] == 2027
    for code, country in PEAKS["countries"].items():
        assert code in supported_countries(), code
        assert country["peaks"], code
        for p in country["peaks"]:
            if p.get("holidays"):  # dated by the calendar: no dates of its own
                assert "start" not in p and "end" not in p, (code, p["name_en"])
            else:
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


def seeded_peaks(data_dir: Path = DEFAULT_DATA) -> dict[tuple[str, str], object]:
    """The peak-season rows `seed_holiday` would store, by (country, name), without a store."""
    rows = []
    original = holiday_data.replace_rows
    holiday_data.replace_rows = lambda session, table, items: rows.extend(items) or 0
    try:
        holiday_data.seed_holiday(None, data_dir)
    finally:
        holiday_data.replace_rows = original
    return {(r.country, r.name_en): r for r in rows if hasattr(r, "why")}


SEEDED = seeded_peaks()


@pytest.mark.parametrize(
    ("country", "name", "start", "end"),
    [
        # Seollal: the day before, the day, the day after (6-8 Feb) and the substitute for Sunday 7 Feb
        ("KR", "Seollal (Lunar New Year)", date(2027, 2, 6), date(2027, 2, 9)),
        # Hong Kong: Sat 6 Feb, Sunday, then the third and fourth days (the fourth replaces Sunday's)
        ("HK", "Lunar New Year", date(2027, 2, 6), date(2027, 2, 9)),
        ("HK", "Easter holidays", date(2027, 3, 26), date(2027, 3, 29)),
        ("SG", "Deepavali", date(2027, 10, 28), date(2027, 10, 28)),  # Thursday: no long weekend in 2027
        ("VN", "Reunification Day and Labour Day", date(2027, 4, 30), date(2027, 5, 3)),  # Monday in lieu
        ("JP", "Golden Week", date(2027, 4, 29), date(2027, 5, 5)),
    ],
)
def test_holiday_peaks_take_the_calendars_dates(country, name, start, end):
    row = SEEDED[(country, name)]
    assert (row.start, row.end) == (start, end)


def test_every_holiday_peak_agrees_with_the_calendar():
    anchored = [r for r in SEEDED.values() if r.holidays]
    assert len(anchored) >= 14
    for r in anchored:
        off = {d for d, _ in destination_holidays(r.country, (2027,))}
        start, end, hits = holiday_span(r.country, 2027, tuple(r.holidays))
        assert (r.start, r.end) == (start, end), r.name_en
        assert r.start in off or r.start.weekday() >= 5, r.name_en  # a break starts and ends on a day off
        assert r.end in off or r.end.weekday() >= 5, r.name_en
        assert all(r.start <= d <= r.end for d, _ in hits), r.name_en


def write_peaks(folder: Path, peak: dict) -> Path:
    (folder / "holiday").mkdir()
    for name in ("flight_timing.yaml", "tickets_guide.yaml"):
        (folder / "holiday" / name).write_text((FOLDER / name).read_text(encoding="utf-8"), encoding="utf-8")
    doc = {
        "checked": "2026-11-22",
        "year": 2027,
        "countries": {"KR": {"name_en": "South Korea", "name_zh": "韓國", "peaks": [peak]}},
    }
    (folder / "holiday" / "peak_seasons.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return folder


SEOLLAL = {
    "name_en": "Seollal",
    "name_zh": "春節",
    "holidays": ["Korean New Year"],
    "level": "high",
    "why": "The Lunar New Year holiday sends Koreans home.",
    "source": "https://www.worlddata.info/asia/south-korea/public-holidays.php",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # the old record: its own dates (5-7 Feb) next to the calendar's
        ({"start": "2027-02-05", "end": "2027-02-07"}, "takes its dates from the holidays calendar"),
        ({"why": "Off on 6-8 Feb, with a substitute on Feb 9."}, "may not give dates"),
        ({"holidays": ["Korean Old Year"]}, "has no holiday named like Korean Old Year"),
    ],
)
def test_seeding_refuses_a_peak_that_could_disagree_with_the_calendar(tmp_path, change, message):
    with pytest.raises(DataFileError, match=message):
        seeded_peaks(write_peaks(tmp_path, {**SEOLLAL, **change}))


def test_a_holiday_peak_seeds_from_the_calendar(tmp_path):
    row = seeded_peaks(write_peaks(tmp_path, SEOLLAL))[("KR", "Seollal")]
    assert (row.start, row.end, row.holidays) == (date(2027, 2, 6), date(2027, 2, 9), ["Korean New Year"])


def test_supported_countries_are_the_packages_codes_without_loading_every_calendar():
    # the codes come from the package's registry: the same as its public listing, less the UK alias
    script = (
        "import sys\n"
        "from twlookup.services.holiday.schemas import supported_countries\n"
        "codes = supported_countries()\n"
        "loaded = [m for m in sys.modules if m.startswith('holidays.countries.')]\n"
        "import holidays\n"
        "listed = sorted(c for c in holidays.list_supported_countries() if len(c) == 2 and c != 'UK')\n"
        "print(len(codes), len(loaded), list(codes) == listed)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    count, loaded, same = int(out[0]), int(out[1]), out[2]
    assert count > 200 and "TW" in supported_countries() and "UK" not in supported_countries()
    assert same == "True"  # the registry and the public listing agree
    assert loaded == 0  # listing the codes imports no calendar (it used to import all 250, about 8 MB)
