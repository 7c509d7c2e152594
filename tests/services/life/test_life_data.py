"""The shipped life data: every record sourced, sample records marked, values well formed."""

from __future__ import annotations

from datetime import date

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.store.seed import load_yaml
from twlookup.services.life.data import games
from twlookup.services.life.logic import fuel as fuel_rules
from twlookup.services.life.logic import invoice as invoice_rules

FOLDER = DEFAULT_DATA / "life"


def test_invoice_periods_are_real_and_sourced():
    doc = load_yaml(FOLDER / "invoice.yaml")
    assert doc["checked"] == date(2026, 11, 22)
    for p in doc["periods"]:
        invoice_rules.parse_period(p["period"])
        assert not p.get("sample"), "only numbers checked against the MoF announcement are shipped"
        assert p["source"].startswith("https://www.etax.nat.gov.tw/") and p["reported_by"].startswith("https://")
        assert len(p["special"]) == len(p["grand"]) == 8 and len(p["first"]) == 3
        assert all(len(n) == 8 and n.isdigit() for n in [p["special"], p["grand"], *p["first"]])
        assert not p.get("additional_sixth"), "periods of ROC 114 onwards draw no additional sixth prizes"


def test_lottery_draws_are_valid_and_sample_ones_marked():
    doc = load_yaml(FOLDER / "lottery.yaml")
    by_game: dict[str, list[dict]] = {}
    for d in doc["draws"]:
        by_game.setdefault(d["game"], []).append(d)
        game = games()[d["game"]]
        nums = d["numbers"]
        assert len(nums) == len(set(nums)) == game.picks and all(1 <= n <= game.maximum for n in nums)
        if game.has_special:
            assert 1 <= d["second"] <= game.maximum and d["second"] not in nums
        elif game.second_maximum:
            assert 1 <= d["second"] <= game.second_maximum
        else:
            assert "second" not in d
        if not d.get("sample"):
            assert d["source"].startswith("https://www.taiwanlottery.com/") and d["reported_by"].startswith("https://")
    assert {g: len(v) for g, v in by_game.items()} == {"lotto649": 20, "superlotto638": 20, "daily539": 20}
    schedule = {"lotto649": {1, 4}, "superlotto638": {0, 3}, "daily539": {0, 1, 2, 3, 4, 5}}
    for game, draws in by_game.items():
        assert all(d["draw_date"].weekday() in schedule[game] for d in draws), game


def test_fuel_weeks_are_sourced_mondays_with_all_products():
    doc = load_yaml(FOLDER / "fuel.yaml")
    weeks = doc["weeks"]
    assert [w["effective"] for w in weeks] == sorted(w["effective"] for w in weeks)
    for w in weeks:
        assert w["effective"].weekday() == 0
        assert set(map(str, w["prices"])) == set(fuel_rules.FUEL_PRODUCTS)
        assert w["reported_by"].startswith("https://")
        # CPC's ladder: 95 is NT$1.5 above 92 and 98 NT$2.0 above 95
        assert (
            round(w["prices"]["95"] - w["prices"]["92"], 1) == 1.5
            and round(w["prices"]["98"] - w["prices"]["95"], 1) == 2.0
        )
