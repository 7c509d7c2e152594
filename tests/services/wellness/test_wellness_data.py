"""The shipped wellness data: the 11 telehealth situations as the 2024 regulation sets them out,
instruments whose bands cover every total, crisis lines, and a source with a date on every record."""

from datetime import date

from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA

FOLDER = DEFAULT_DATA / "wellness"


def load(name: str):
    return load_yaml((FOLDER / name).read_text(encoding="utf-8"))


def assert_source(s):
    assert s["url"].startswith(("https://", "http://")) and s["title"], s


def test_eleven_telehealth_situations_as_the_regulation_lists_them():
    doc = load("telehealth.yaml")
    assert doc["checked"] == date(2026, 11, 22)
    situations = doc["situations"]
    assert len(situations) == 11 == len({s["id"] for s in situations})
    # Article 3's ten special circumstances in their order, and the remote areas as their own ground.
    assert [s["id"] for s in situations if s["special_case"]] == [
        "post-acute-care",
        "chronic-care-program",
        "long-term-care",
        "family-physician",
        "home-care",
        "end-of-life",
        "correctional",
        "limited-mobility",
        "disaster-epidemic",
        "international",
    ]
    assert [s["id"] for s in situations if not s["special_case"]] == ["remote-areas"]
    # Article 20: items 1-6 and 8 of Article 3 may not be a first visit.
    special = [s for s in situations if s["special_case"]]
    assert [i + 1 for i, s in enumerate(special) if not s["first_visit_allowed"]] == [1, 2, 3, 4, 5, 6, 8]
    for s in situations:
        assert s["remote_consultation_allowed"] is True
        assert s["prescribing"] in ("allowed", "conditional")
        assert s["sources"], s["id"]
        for src in s["sources"]:
            assert_source(src)


def test_instrument_bands_cover_every_total_once():
    doc = load("instruments.yaml")
    expected = {"bsrs5": (5, 4, [0, 6, 10, 15]), "phq9": (9, 3, [0, 5, 10, 15, 20]), "gad7": (7, 3, [0, 5, 10, 15])}
    for x in doc["instruments"]:
        items, top, starts = expected[x["id"]]
        assert (len(x["items"]), x["item_min"], x["item_max"]) == (items, 0, top)
        assert [b["min"] for b in x["bands"]] == starts
        assert x["bands"][-1]["max"] == items * top
        for a, b in zip(x["bands"], x["bands"][1:]):
            assert b["min"] == a["max"] + 1
        for src in x["sources"]:
            assert_source(src)
    by_id = {x["id"]: x for x in doc["instruments"]}
    assert by_id["phq9"]["flag_items"] == [
        {"item": 9, "flag_at": 1, "message": by_id["phq9"]["flag_items"][0]["message"]}
    ]
    assert (
        by_id["bsrs5"]["extra_item"]["min"],
        by_id["bsrs5"]["extra_item"]["max"],
        by_id["bsrs5"]["extra_item"]["flag_at"],
    ) == (0, 4, 2)


def test_crisis_lines_include_taiwans_main_numbers():
    lines = load("crisis_lines.yaml")["lines"]
    numbers = [str(x["number"]) for x in lines]
    assert {"1925", "1995", "1980", "113", "110", "119"} <= set(numbers)
    assert numbers[0] == "1925"  # the national 24-hour line first
    for x in lines:
        assert x["hours"] and x["purpose"]
        assert x["source"].startswith(("https://", "http://"))


def test_guides_are_sourced():
    doc = load("guides.yaml")
    assert doc["sleep_method"]["cycle_minutes"] == 90 and doc["sleep_method"]["fall_asleep_minutes"] == 15
    for item in doc["breathing"] + doc["digital_wellness"]:
        assert item["sources"], item["id"]
        for src in item["sources"]:
            assert_source(src)


def test_every_crisis_line_states_its_real_hours():
    """A person in crisis needs to know whether the line is open now, not to be sent to look it up."""
    by_number = {str(x["number"]): x for x in load("crisis_lines.yaml")["lines"]}
    # MOHW men's care line: 07:00 to 23:00 every day (chnnews-tv.com/16/43646, Hualien health bureau), checked 2026-11-22.
    assert by_number["0800-013-999"]["hours"].startswith("07:00 to 23:00 every day")
    for number, x in by_number.items():
        if number != "1980":  # Teacher Chang's hours are set by each local centre, and the record says so
            assert "check" not in x["hours"].lower(), (number, x["hours"])
    # The 1925 call-back (press # and leave a number) is as MOHW described it on 2025-08-16.
    assert "8943789" in by_number["1925"]["source_title"]


def test_young_children_screen_advice_follows_the_hpa():
    """HPA's eye-care rules (mammy.hpa.gov.tw, checked 2026-11-22): outdoors 120 minutes or more a day,
    no screens under 2, at most 1 hour from 2, 10 minutes' rest per 30 minutes of close work."""
    item = next(x for x in load("guides.yaml")["digital_wellness"] if x["id"] == "young-children")
    text = " ".join(item["tips"])
    assert "120 minutes or more" in text and "at most 1 hour" in text and "30 minutes" in text
    assert any("hpa.gov.tw" in s["url"] for s in item["sources"])


def test_post_acute_care_claims_only_what_its_sources_say():
    # The disease list once given here (acute coronary syndrome, COPD, ...) was in no cited source.
    s = next(x for x in load("telehealth.yaml")["situations"] if x["id"] == "post-acute-care")
    assert "three months" in s["description"] and "COPD" not in s["description"]
    assert any("stli.iii.org.tw" in src["url"] for src in s["sources"])
