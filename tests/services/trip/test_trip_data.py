"""The shipped trip data: every record sourced and checked, sample rates marked, ids consistent."""

from datetime import date

from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.services.trip.parsers import NAMES

FOLDER = DEFAULT_DATA / "trip"


def load(name: str):
    return load_yaml((FOLDER / name).read_text(encoding="utf-8"))


FX = load("fx_rates.yaml")
ENTRY = load("entry.yaml")
TAX = load("japan_taxfree.yaml")
PARKS = load("themeparks.yaml")
PLACES = load("places.yaml")
DOMESTIC = load("domestic.yaml")
BOOKING = load("booking.yaml")
ESIM = load("esim.yaml")
TODAY = date(2026, 11, 22)


def test_every_file_is_checked_today():
    for doc in (FX, ENTRY, TAX, PARKS, PLACES, DOMESTIC, BOOKING, ESIM):
        assert doc["checked"] == TODAY


def test_sample_board_is_marked_and_well_formed():
    assert FX["sample"] is True, "rates not read from the bank must be sample"
    codes = [r["currency"] for r in FX["rates"]]
    assert codes == list(NAMES), "the bank's board order and names"
    for r in FX["rates"]:
        assert r["name_zh"] == NAMES[r["currency"]]
        for kind in ("cash", "spot"):
            buy, sell = r[f"{kind}_buy"], r[f"{kind}_sell"]
            assert (buy is None) == (sell is None), r["currency"]
            if buy is not None:
                assert 0 < buy < sell, (r["currency"], kind)
        assert r["cash_buy"] is not None or r["spot_buy"] is not None
    # the kinds the bank actually posts (its CSV shows 0 for the others): a sample must not invent a rate kind
    posted = {r["currency"]: {k for k in ("cash", "spot") if r[f"{k}_buy"] is not None} for r in FX["rates"]}
    assert {c for c, kinds in posted.items() if "cash" not in kinds} == {"ZAR", "SEK"}
    assert {c for c, kinds in posted.items() if "spot" not in kinds} == {"PHP", "IDR", "KRW", "VND", "MYR"}


def test_entry_rules_cover_the_three_countries_with_sources():
    assert set(ENTRY["countries"]) == {"JP", "KR", "VN"}
    for code, country in ENTRY["countries"].items():
        ids = [i["id"] for i in country["items"]]
        assert len(ids) == len(set(ids)), code
        for i in country["items"]:
            assert i["source"].startswith("https://") and i["detail"], (code, i["id"])
            assert i["requirement"] in ("required", "not_required", "recommended", "conditional")
    korea = {i["id"]: i for i in ENTRY["countries"]["KR"]["items"]}
    assert korea["k-eta-exempt"]["valid_until"] == date(2026, 12, 31)
    assert korea["k-eta-after-exemption"]["valid_from"] == date(2027, 1, 1)


def test_taxfree_is_the_refund_method_in_force_now():
    assert TAX["regime"]["in_force_from"] == date(2026, 11, 1) <= TODAY
    assert TAX["parameters"]["customs_deadline_days"] == 90
    assert TAX["parameters"]["minimum_jpy_excluding_tax"] == 5000
    assert {r["id"] for r in TAX["rules"]} >= {"pay-tax-inclusive", "customs-within-90-days", "refund"}


def test_ids_link_up():
    places = {p["id"] for p in PLACES["places"]}
    currencies = {r["currency"] for r in FX["rates"]}
    for p in PLACES["places"]:
        assert p["country"] in ENTRY["countries"] and p["currency"] in currencies, p["id"]
    for park in PARKS["parks"]:
        assert park["place"] in places and park["source"].startswith("https://"), park["id"]
        assert "price" not in park, "prices are not sourced, so none are shipped"
    for item in BOOKING["items"]:
        assert item["source"].startswith("https://"), item["id"]
    for sale in DOMESTIC["holiday_sales"]:
        assert sale["tra_opens"] < sale["start"] and sale["thsr_opens"] < sale["start"], sale["id"]
    assert [p["id"] for p in ESIM["profiles"]] == ["light", "moderate", "heavy"]
