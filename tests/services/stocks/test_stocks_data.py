"""The stocks reference data: provenance on every record, sample marking, and rule values."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.store.seed import load_yaml
from twlookup.services.stocks import logic

FOLDER = DEFAULT_DATA / "stocks"
THEMES = load_yaml(FOLDER / "themes.yaml")
ETFS = load_yaml(FOLDER / "etfs.yaml")
CLOSES = load_yaml(FOLDER / "closes_sample.yaml")


def test_themes_are_the_spec_four_with_sourced_members():
    assert [t["id"] for t in THEMES["themes"]] == ["ai-server", "semi-equipment", "liquid-cooling", "cpo"]
    seen: set[str] = set()
    for theme in THEMES["themes"]:
        assert theme["source"].startswith("https://") and theme["source_title"] and len(theme["note"]) > 150
        assert len(theme["members"]) >= 4
        for m in theme["members"]:
            assert re.fullmatch(r"\d{4}", m["code"]) and m["name_zh"] and m["name_en"] and len(m["note"]) > 30
            assert m.get("source", theme["source"]).startswith("https://")
            assert m["code"] not in seen  # each company in one theme here
            seen.add(m["code"])


def test_etf_payouts_are_sourced_and_match_the_frequency():
    codes = [e["code"] for e in ETFS["etfs"]]
    assert codes == ["0056", "00878", "00919", "00713", "00929"]
    for e in ETFS["etfs"]:
        assert e["frequency"] in logic.PER_YEAR and e["source"].startswith("https://")
        periods = [logic.period_index(str(p["period"]), e["frequency"]) for p in e["payouts"]]
        assert periods == sorted(set(periods))  # oldest first, no period twice
        for p in e["payouts"]:
            assert p["source"].startswith("https://") and p["source_title"] and not p.get("sample")
            assert Decimal(p["amount"]) > 0
            if p.get("ex_date") and p.get("pay_date"):
                assert p["ex_date"] < p["pay_date"]


def test_deduction_rates_are_the_current_ones():
    nhi, tax = ETFS["deductions"]["nhi"], ETFS["deductions"]["income_tax"]
    assert (Decimal(nhi["rate"]), nhi["threshold"], nhi["cap_per_payment"]) == (Decimal("0.0211"), 20000, 10_000_000)
    assert (Decimal(tax["credit_rate"]), tax["credit_cap"], Decimal(tax["separate_rate"])) == (
        Decimal("0.085"),
        80000,
        Decimal("0.28"),
    )
    assert all(s["url"].startswith("https://") for s in nhi["sources"] + tax["sources"])


def test_sample_closes_are_marked_and_cover_every_followed_security():
    assert CLOSES["sample"] is True and "SAMPLE" in (FOLDER / "closes_sample.yaml").read_text().splitlines()[0]
    followed = {m["code"] for t in THEMES["themes"] for m in t["members"]} | {e["code"] for e in ETFS["etfs"]}
    assert set(CLOSES["closes"]) == followed
    for code, series in CLOSES["closes"].items():
        days = sorted(series)
        assert all(isinstance(d, date) and d.weekday() < 5 for d in days)
        previous = None
        for day in days:
            close, change = (Decimal(x) for x in series[day])
            assert close > 0
            if previous is not None:
                assert close - change == previous, (code, day)  # each change is against the day before
            previous = close
