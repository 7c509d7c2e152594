"""The stocks service's domain rules against hand-worked and published cases."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from twlookup.services.stocks import logic
from twlookup.services.stocks.records import Close, Etf, Member, Payout, Theme, change_pct

PROV = {"source": "https://example.test/source", "checked": date(2026, 11, 22)}
SAMPLE = {"source": "https://example.test/sample", "checked": date(2026, 11, 22), "sample": True}
DEDUCTIONS = logic.Deductions(
    nhi_rate=D("0.0211"),
    nhi_threshold=D(20000),
    nhi_cap=D(10_000_000),
    nhi_proposed_yearly_cap=D(50_000_000),
    credit_rate=D("0.085"),
    credit_cap=D(80000),
    separate_rate=D("0.28"),
    nhi_note="",
    tax_note="",
    nhi_sources=(),
    tax_sources=(),
)


def etf(code: str, frequency: str, *payouts: tuple[str, str]) -> Etf:
    return Etf(
        code=code,
        issuer="issuer",
        frequency=frequency,
        note="",
        payouts=tuple(Payout(period=p, amount=D(a), **PROV) for p, a in payouts),
        **PROV,
    )


def close(code: str, price: str, change: str | None = None, day: date = date(2026, 11, 20), prov=PROV) -> Close:
    return Close(
        code=code, date=day, close=D(price), change=None if change is None else D(change), market="TWSE", **prov
    )


# 0056's recorded payouts 2025Q2-2026Q1 (data/stocks/etfs.yaml)
E0056 = etf("0056", "quarterly", ("2025Q2", "1.07"), ("2025Q3", "0.866"), ("2025Q4", "0.866"), ("2026Q1", "0.866"))
# 00713's payouts 2025Q1-2026Q1
E00713 = etf(
    "00713",
    "quarterly",
    ("2025Q1", "1.4"),
    ("2025Q2", "1.1"),
    ("2025Q3", "0.78"),
    ("2025Q4", "0.78"),
    ("2026Q1", "0.78"),
)


@pytest.mark.parametrize(
    ("price", "change", "pct"),
    [
        ("36.50", "-1.10", "-2.93"),  # previous close 37.60: -1.10 / 37.60 = -2.9255%
        ("227.00", "3.00", "1.34"),  # previous 224.00: 3 / 224 = 1.3393%
        ("3535.00", "0", "0.00"),
    ],
)
def test_change_pct_against_previous_close(price, change, pct):
    assert change_pct(D(price), D(change)) == D(pct)


def test_change_pct_unknown_without_change_or_previous():
    assert change_pct(D("10"), None) is None
    assert change_pct(D("10"), D("10")) is None  # a previous close of 0 is not a price


def test_period_index_orders_and_validates():
    assert logic.period_index("2026Q1", "quarterly") - logic.period_index("2025Q4", "quarterly") == 1
    assert logic.period_index("2026-01", "monthly") - logic.period_index("2025-12", "monthly") == 1
    for period, frequency in (
        ("2026-01", "quarterly"),
        ("2026Q1", "monthly"),
        ("2026Q5", "quarterly"),
        ("26Q1", "quarterly"),
    ):
        with pytest.raises(ValueError):
            logic.period_index(period, frequency)


def test_estimate_sums_the_last_four_quarters():
    # 1.07 + 0.866 x 3 = 3.668
    est = logic.estimate(E0056)
    assert est is not None and est.complete
    assert est.per_unit == D("3.668")
    assert est.window == ("2025Q2", "2026Q1")
    assert "Sum of the last four quarterly payouts" in est.method


def test_estimate_matches_the_published_trailing_year_of_00713():
    # UDN 2026-03-06: "00713 近四季的配息為 1.1+0.78+0.78+0.78=3.44 元"; 2025Q1's 1.4 falls outside the window
    est = logic.estimate(E00713)
    assert est is not None and est.per_unit == D("3.44")
    assert [p.period for p in est.basis] == ["2025Q2", "2025Q3", "2025Q4", "2026Q1"]


def test_estimate_with_a_missing_quarter_uses_the_average():
    # 00919: 2025Q4 is not recorded; window 2025Q2-2026Q1 holds 0.72, 0.54, 0.78 -> average 0.68 x 4 = 2.72
    e = etf("00919", "quarterly", ("2025Q1", "0.72"), ("2025Q2", "0.72"), ("2025Q3", "0.54"), ("2026Q1", "0.78"))
    est = logic.estimate(e)
    assert est is not None and not est.complete
    assert est.per_unit == D("2.72")
    assert est.per_payout == (D("0.68"),) * 4
    assert "Only 3 of the four quarterly payouts" in est.method


def test_estimate_monthly_twelve_periods():
    # 00929: window 2025-04..2026-03 holds 0.09, 0.10, 0.11 -> average 0.10 x 12 = 1.20
    e = etf("00929", "monthly", ("2025-11", "0.09"), ("2026-02", "0.10"), ("2026-03", "0.11"))
    est = logic.estimate(e)
    assert est is not None and est.per_unit == D("1.20") and est.window == ("2025-04", "2026-03")
    full = etf("X", "monthly", *[(f"2026-{m:02d}", "0.05") for m in range(1, 13)])
    est = logic.estimate(full)
    assert est is not None and est.complete and est.per_unit == D("0.60") and "twelve monthly" in est.method


def test_estimate_without_payouts_is_none():
    assert logic.estimate(etf("X", "quarterly")) is None


@pytest.mark.parametrize(
    ("payout", "premium"),
    [
        ("19999.99", "0"),  # below the NT$20,000 threshold
        ("20000", "422"),  # 20,000 x 2.11% = 422
        ("23725.80", "501"),  # 500.6144 rounds to 501
        ("12000000", "211000"),  # base capped at NT$10 million: 10,000,000 x 2.11%
    ],
)
def test_nhi_premium_per_payment(payout, premium):
    assert logic.nhi_premium(D(payout), DEDUCTIONS) == D(premium)


def test_income_plan_two_etfs_hand_worked():
    """NT$100,000 over 0056 at 36.50 and 00713 at 52.00: NT$50,000 each.

    0056: floor(50,000 / 36.50) = 1,369 units, cost 49,968.50, left 31.50; payouts 1,369 x 1.07 = 1,464.83 and
          1,369 x 0.866 = 1,185.554 -> 1,185.55 three times; income 1,464.83 + 3,556.65 = 5,021.48.
    00713: floor(50,000 / 52) = 961 units, cost 49,972, left 28; payouts 961 x 1.1 = 1,057.10 and 961 x 0.78 = 749.58
          three times; income 1,057.10 + 2,248.74 = 3,305.84.
    Total 8,327.32; every payout is under NT$20,000 so no supplementary premium; 8.5% credit 707.82 -> 708;
    28% separate tax 2,331.65 -> 2,332; yield on cost 8,327.32 / 99,940.50 = 8.33%.
    """
    picks = [
        (E0056, close("0056", "36.50"), logic.estimate(E0056)),
        (E00713, close("00713", "52.00"), logic.estimate(E00713)),
    ]
    plan = logic.income_plan(D(100000), picks, DEDUCTIONS)  # type: ignore[arg-type]
    a, b = plan.lines
    assert (a.allocation, a.units, a.cost, a.leftover) == (D("50000.00"), 1369, D("49968.50"), D("31.50"))
    assert a.payouts_2027 == (D("1464.83"), D("1185.55"), D("1185.55"), D("1185.55"))
    assert a.income_2027 == D("5021.48")
    assert (b.units, b.cost, b.leftover, b.income_2027) == (961, D("49972.00"), D("28.00"), D("3305.84"))
    assert plan.invested == D("99940.50") and plan.leftover == D("59.50")
    assert plan.income_2027 == D("8327.32")
    assert plan.nhi_premium == 0 and plan.income_after_nhi == D("8327.32")
    assert plan.nhi_premium_if_yearly == 0  # even the year's total is under NT$20,000
    assert plan.tax_credit_option == D(708) and plan.separate_tax_option == D(2332)
    assert plan.yield_on_cost_pct == D("8.33")


def test_income_plan_with_supplementary_premium():
    """NT$1,000,000 in 0056 at 36.50: 27,397 units (cost 999,990.50).

    Payouts 27,397 x 1.07 = 29,314.79 (premium 618.54 -> 619) and 27,397 x 0.866 = 23,725.80 three times
    (premium 500.61 -> 501 each): premium 619 + 1,503 = 2,122. Income 29,314.79 + 71,177.40 = 100,492.19;
    credit 8,541.84 -> 8,542; separate tax 28,137.81 -> 28,138.
    """
    plan = logic.income_plan(D(1_000_000), [(E0056, close("0056", "36.50"), logic.estimate(E0056))], DEDUCTIONS)  # type: ignore[list-item]
    (line,) = plan.lines
    assert line.units == 27397 and line.cost == D("999990.50")
    assert line.nhi_premium == D(2122) and plan.nhi_premium == D(2122)
    assert plan.income_2027 == D("100492.19") and plan.income_after_nhi == D("98370.19")
    assert plan.tax_credit_option == D(8542) and plan.separate_tax_option == D(28138)
    assert plan.nhi_premium_if_yearly == D(2120)  # proposed per-year rule: 100,492.19 x 2.11% = 2,120.39 -> 2,120


def test_income_plan_yearly_rule_charges_payments_each_under_the_threshold():
    """NT$300,000 in 0056 at 36.50: 8,219 units; payouts 8,219 x 1.07 = 8,794.33 and 8,219 x 0.866 = 7,117.65
    three times, each under NT$20,000, so no premium under today's per-payment rule. The year's total
    8,794.33 + 21,352.95 = 30,147.28 reaches NT$20,000: under the proposed per-year rule 636.11 -> 636."""
    plan = logic.income_plan(D(300_000), [(E0056, close("0056", "36.50"), logic.estimate(E0056))], DEDUCTIONS)  # type: ignore[list-item]
    assert plan.lines[0].units == 8219 and plan.income_2027 == D("30147.28")
    assert plan.nhi_premium == 0 and plan.nhi_premium_if_yearly == D(636)


def test_income_plan_credit_is_capped_and_tiny_budget_buys_nothing():
    big = etf("B", "quarterly", ("2026Q1", "10"), ("2026Q2", "10"), ("2026Q3", "10"), ("2026Q4", "10"))
    plan = logic.income_plan(D(10_000_000), [(big, close("B", "10"), logic.estimate(big))], DEDUCTIONS)  # type: ignore[list-item]
    # 1,000,000 units x 40 = 40,000,000 of dividends: 8.5% would be 3,400,000, capped at 80,000
    assert plan.income_2027 == D(40_000_000) and plan.tax_credit_option == D(80000)
    small = logic.income_plan(D(1000), [(E00713, close("00713", "1500"), logic.estimate(E00713))], DEDUCTIONS)  # type: ignore[list-item]
    assert small.lines[0].units == 0 and small.income_2027 == 0 and small.yield_on_cost_pct is None
    assert small.leftover == D(1000)


def test_theme_stats_counts_and_average():
    """All on the theme's latest day (2026-11-20): A +1/100 = +1.00%, B -1/100 = -1.00%, F 0/60 = 0.00%,
    G +0.3/60 = +0.50%; mean (1 - 1 + 0 + 0.5) / 4 = 0.125 -> 0.13. C last traded on the 19th and E's
    change is an ex-dividend marker: neither is counted as up, down or unchanged, nor averaged. D has no close."""
    codes = ("A", "B", "C", "D", "E", "F", "G")
    theme = Theme(
        id="t", name_en="T", name_zh="T", note="", members=tuple(Member(code=c, note="", **PROV) for c in codes), **PROV
    )
    market = logic.Market(
        securities={},
        themes={"t": theme},
        etfs={},
        closes={
            "A": [close("A", "101", "1")],
            "B": [close("B", "99", "-1", prov=SAMPLE)],
            "C": [close("C", "50", "5", day=date(2026, 11, 19))],  # stale: a +11% day that is not the 20th's
            "E": [close("E", "80", None)],
            "F": [close("F", "60", "0")],
            "G": [close("G", "60.3", "0.3")],
        },
        deductions=DEDUCTIONS,
    )
    stats = logic.theme_stats(theme, market)
    assert (stats.count, stats.advancing, stats.declining, stats.unchanged) == (7, 2, 1, 1)
    assert (stats.without_close, stats.not_compared) == (1, 2)
    assert stats.average_change_pct == D("0.13") and stats.latest_date == date(2026, 11, 20) and stats.sample
