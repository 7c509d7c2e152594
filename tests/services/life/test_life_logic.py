"""Domain rules of the life service against hand-worked and officially published cases."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.domain.taiwan_calendar import DayOff, TaiwanCalendar, YearSource
from twlookup.platform.store.seed import load_yaml
from twlookup.services.life.data import games, invoice_prizes
from twlookup.services.life.logic import fuel as fuel_rules
from twlookup.services.life.logic import invoice as invoice_rules
from twlookup.services.life.logic import lottery as lottery_rules
from twlookup.services.life.records import Draw, FuelPrice, InvoicePeriod

# The MoF's published numbers of 114-11-12 (November-December 2025), drawn 2026-01-25.
P_114_11 = InvoicePeriod(
    period="114-11-12",
    special="97023797",
    grand="00507588",
    first=("92377231", "05232592", "78125249"),
    source="https://example.org",
    checked=date(2026, 11, 22),
)
# 101-09-10 (September-October 2012) still drew additional sixth prizes 843 and 927.
P_101_09 = InvoicePeriod(
    period="101-09-10",
    special="15719324",
    grand="11661657",
    first=("64718986", "49313179", "29736314"),
    additional_sixth=("843", "927"),
    source="https://example.org",
    checked=date(2026, 11, 22),
)


def calendar_2025() -> TaiwanCalendar:
    """The shipped official calendar (data/calendar/taiwan.yaml), loaded without a store."""
    doc = load_yaml(Path(DEFAULT_DATA) / "calendar" / "taiwan.yaml")
    years, days, makeups = {}, {}, {}
    for year, spec in doc["years"].items():
        years[int(year)] = YearSource(int(year), spec["source"], spec.get("source_title"), spec["checked"], True)
        for d in spec["days_off"]:
            days[d["date"]] = DayOff(d["date"], d["name_zh"], d["name_en"], d["kind"])
        for m in spec.get("makeup_workdays") or []:
            makeups[m["date"]] = m.get("for")
    return TaiwanCalendar(years, days, makeups)


@pytest.mark.parametrize(
    ("number", "prize", "amount", "matched"),
    [
        ("97023797", "special", 10_000_000, "97023797"),  # all 8 digits of the special prize
        ("00507588", "grand", 2_000_000, "00507588"),
        ("05232592", "first", 200_000, "05232592"),
        ("15232592", "second", 40_000, "05232592"),  # last 7 digits of the 2nd first-prize number
        ("11125249", "third", 10_000, "78125249"),  # last 6 of 78125249
        ("00077231", "fourth", 4_000, "92377231"),  # last 5 of 92377231
        ("99992592", "fifth", 1_000, "05232592"),  # last 4
        ("12340249", "sixth", 200, "78125249"),  # last 3 only (0249 is not 5249)
        ("12345678", None, 0, None),
        ("97023796", None, 0, None),  # one digit off the special prize, and no first-prize suffix
        ("00007588", None, 0, None),  # the grand prize's suffix wins nothing: suffixes count for first prizes only
    ],
)
def test_invoice_prizes_114_11_12(number, prize, amount, matched):
    result = invoice_rules.check_invoice(number, P_114_11, invoice_prizes())
    assert (result.prize.key if result.prize else None) == prize
    assert (result.prize.amount if result.prize else 0) == amount
    assert result.matched == matched


def test_highest_prize_wins_and_additional_sixth_prizes():
    # 29736314 is a first-prize number; a receipt matching it wins the first prize, not also the sixth.
    assert invoice_rules.check_invoice("29736314", P_101_09, invoice_prizes()).prize.key == "first"
    assert invoice_rules.check_invoice("55555843", P_101_09, invoice_prizes()).prize.key == "additional_sixth"
    assert invoice_rules.check_invoice("55555927", P_101_09, invoice_prizes()).prize.amount == 200
    assert invoice_rules.check_invoice("55555314", P_101_09, invoice_prizes()).prize.key == "sixth"
    assert invoice_rules.check_invoice("55555844", P_101_09, invoice_prizes()).prize is None


def test_prize_table_is_the_mof_table():
    amounts = {k: p.amount for k, p in invoice_prizes().items()}
    assert amounts == {
        "special": 10_000_000,
        "grand": 2_000_000,
        "first": 200_000,
        "second": 40_000,
        "third": 10_000,
        "fourth": 4_000,
        "fifth": 1_000,
        "sixth": 200,
        "additional_sixth": 200,
    }


@pytest.mark.parametrize(
    ("period", "drawn"),
    [
        ("114-09-10", date(2025, 11, 25)),
        ("114-11-12", date(2026, 1, 25)),
        ("115-01-02", date(2026, 3, 25)),
        ("115-09-10", date(2026, 11, 25)),
    ],
)
def test_draw_date_is_25th_of_the_odd_month_after(period, drawn):
    assert invoice_rules.draw_date(period) == drawn


@pytest.mark.parametrize(
    ("period", "start", "end"),
    [
        # Published by the MoF: 114-09-10 claimed 114/12/06 to 115/03/05; 114-11-12 claimed 115/02/06 to 115/05/05.
        ("114-09-10", date(2025, 12, 6), date(2026, 3, 5)),
        ("114-11-12", date(2026, 2, 6), date(2026, 5, 5)),
        # 113-07-08: published 113/10/06 to 114/01/06, because 2025-01-05 is a Sunday.
        ("113-07-08", date(2024, 10, 6), date(2025, 1, 6)),
    ],
)
def test_claim_window(period, start, end):
    assert invoice_rules.claim_window(period, calendar_2025().is_day_off) == (start, end)


def test_claim_status():
    start, end = date(2026, 2, 6), date(2026, 5, 5)
    assert invoice_rules.claim_status(start, end, date(2026, 2, 5)) == "not yet open"
    assert invoice_rules.claim_status(start, end, date(2026, 2, 6)) == "open"
    assert invoice_rules.claim_status(start, end, date(2026, 5, 5)) == "open"
    assert invoice_rules.claim_status(start, end, date(2026, 5, 6)) == "expired"


def test_periods():
    assert invoice_rules.parse_period("114-11-12") == (2025, 11)
    assert invoice_rules.period_of(2026, 2) == "115-01-02" == invoice_rules.period_of(2026, 1)
    assert invoice_rules.period_of(2025, 12) == "114-11-12"
    for bad in ("114-02-03", "114-11", "2025-11-12", "114-13-14"):
        with pytest.raises(ValueError):
            invoice_rules.parse_period(bad)


def draw(game, numbers, second=None):
    return Draw(
        game=game,
        period="114000117",
        draw_date=date(2025, 12, 26),
        numbers=tuple(numbers),
        second=second,
        source="https://example.org",
        checked=date(2026, 11, 22),
    )


# Lotto649 draw 114000117 (2025-12-26): 05 07 09 14 17 30, special 47.
L649 = draw("lotto649", [5, 7, 9, 14, 17, 30], 47)


@pytest.mark.parametrize(
    ("picks", "tier", "amount"),
    [
        ([5, 7, 9, 14, 17, 30], "頭獎", None),
        ([5, 7, 9, 14, 17, 47], "貳獎", None),  # five + special
        ([5, 7, 9, 14, 17, 1], "參獎", None),
        ([5, 7, 9, 14, 47, 1], "肆獎", None),  # four + special
        ([5, 7, 9, 14, 1, 2], "伍獎", 2_000),
        ([5, 7, 9, 47, 1, 2], "陸獎", 1_000),
        ([5, 7, 47, 1, 2, 3], "柒獎", 400),
        ([5, 7, 9, 1, 2, 3], "普獎", 400),
        ([5, 7, 1, 2, 3, 4], None, None),  # two without the special: nothing
        ([5, 47, 1, 2, 3, 4], None, None),  # one + special: nothing
    ],
)
def test_lotto649_tiers(picks, tier, amount):
    result = lottery_rules.check_lottery(games()["lotto649"], L649, picks, None)
    assert (result.tier.name_zh if result.tier else None) == tier
    assert (result.tier.amount if result.tier else None) == amount


SL638 = draw("superlotto638", [3, 11, 19, 24, 30, 38], 6)


@pytest.mark.parametrize(
    ("picks", "second", "tier", "amount"),
    [
        ([3, 11, 19, 24, 30, 38], 6, "頭獎", None),
        ([3, 11, 19, 24, 30, 38], 5, "貳獎", None),
        ([3, 11, 19, 24, 30, 1], 6, "參獎", 150_000),
        ([3, 11, 19, 24, 30, 1], 1, "肆獎", 20_000),
        ([3, 11, 19, 24, 1, 2], 6, "伍獎", 4_000),
        ([3, 11, 19, 24, 1, 2], 1, "陸獎", 800),
        ([3, 11, 19, 1, 2, 4], 6, "柒獎", 400),
        ([3, 11, 1, 2, 4, 5], 6, "捌獎", 200),
        ([3, 11, 19, 1, 2, 4], 1, "玖獎", 100),
        ([3, 1, 2, 4, 5, 7], 6, "普獎", 100),
        ([1, 2, 4, 5, 7, 8], 6, None, None),  # zone 2 alone wins nothing
        ([3, 11, 1, 2, 4, 5], 1, None, None),
    ],
)
def test_superlotto638_tiers(picks, second, tier, amount):
    result = lottery_rules.check_lottery(games()["superlotto638"], SL638, picks, second)
    assert (result.tier.name_zh if result.tier else None) == tier
    assert (result.tier.amount if result.tier else None) == amount


@pytest.mark.parametrize(
    ("picks", "tier", "amount"),
    [
        ([4, 9, 19, 22, 34], "頭獎", 8_000_000),  # daily539 of 2025-10-11: 04 09 19 22 34
        ([4, 9, 19, 22, 1], "貳獎", 20_000),
        ([4, 9, 19, 1, 2], "參獎", 300),
        ([4, 9, 1, 2, 3], "肆獎", 50),
        ([4, 1, 2, 3, 5], None, None),
    ],
)
def test_daily539_tiers(picks, tier, amount):
    result = lottery_rules.check_lottery(games()["daily539"], draw("daily539", [4, 9, 19, 22, 34]), picks, None)
    assert (result.tier.name_zh if result.tier else None) == tier
    assert (result.tier.amount if result.tier else None) == amount


@pytest.mark.parametrize(
    ("game", "picks", "second", "problems"),
    [
        ("lotto649", [1, 2, 3, 4, 5, 6], None, []),
        ("lotto649", [1, 2, 3, 4, 5], None, ["numbers"]),
        ("lotto649", [1, 2, 3, 4, 5, 50], None, ["numbers"]),
        ("lotto649", [1, 2, 3, 4, 5, 5], None, ["numbers"]),
        ("lotto649", [1, 2, 3, 4, 5, 6], 3, ["second"]),
        ("superlotto638", [1, 2, 3, 4, 5, 39], 1, ["numbers"]),
        ("superlotto638", [1, 2, 3, 4, 5, 6], None, ["second"]),
        ("superlotto638", [1, 2, 3, 4, 5, 6], 9, ["second"]),
        ("superlotto638", [1, 2, 3, 4, 5, 6], 8, []),
        ("daily539", [1, 2, 3, 4, 40], None, ["numbers"]),
        ("daily539", [0, 2, 3, 4, 5], None, ["numbers"]),
        ("daily539", [1, 2, 3, 4, 5, 6], None, ["numbers"]),
    ],
)
def test_validate_pick(game, picks, second, problems):
    assert [p for p, _ in lottery_rules.validate_pick(games()[game], picks, second)] == problems


@pytest.mark.parametrize(
    ("drawn", "until"),
    [
        # `redeemableDate` of real draws in Taiwan Lottery's result JSON (Lotto649Result and
        # SuperLotto638Result, June 2026), checked 2026-11-22.
        (date(2026, 6, 18), date(2026, 9, 21)),  # superlotto638 115000049: 06-19 is Dragon Boat Festival
        (date(2026, 6, 19), date(2026, 9, 21)),  # lotto649 115000063, drawn on the festival itself
        (date(2026, 6, 25), date(2026, 9, 29)),  # superlotto638 115000051: 09-25 Mid-Autumn, 09-28 Teachers' Day
        (date(2026, 6, 26), date(2026, 9, 29)),  # lotto649 115000065
        (date(2026, 6, 29), date(2026, 9, 29)),  # superlotto638 115000052
        (date(2026, 6, 30), date(2026, 9, 30)),  # lotto649 115000066
        (date(2026, 6, 12), date(2026, 9, 14)),  # lotto649 115000061, a Friday draw
        (date(2026, 6, 2), date(2026, 9, 2)),  # lotto649 115000058
        # Taiwan Lottery press release: the daily539 first prize drawn 2025-10-11 could be claimed until 2026-01-12.
        (date(2025, 10, 11), date(2026, 1, 12)),
        # Hand-worked: Friday 2025-12-26, count from Monday 12-29, ends Saturday 2026-03-28, moves to Monday.
        (date(2025, 12, 26), date(2026, 3, 30)),
    ],
)
def test_lottery_claim_until(drawn, until):
    assert lottery_rules.lottery_claim_until(drawn, calendar_2025().is_day_off) == until


def test_price_change():
    def price(effective, value):
        from decimal import Decimal

        return FuelPrice(
            product="92",
            effective=effective,
            price=Decimal(value),
            source="https://example.org",
            checked=date(2026, 11, 22),
        )

    # CPC: 2025-12-29 92 unleaded up NT$0.4 from 26.4 to 26.8.
    history = [price(date(2025, 12, 29), "26.8"), price(date(2025, 12, 22), "26.4")]
    assert str(fuel_rules.price_change(history)) == "0.4"
    assert fuel_rules.price_change(history[:1]) is None
    # a gap in the store: the week before 2026-11-16 is missing, so no weekly change is claimed
    gap = [price(date(2026, 11, 16), "27.0"), price(date(2025, 12, 29), "26.8")]
    assert fuel_rules.price_change(gap) is None
    assert str(fuel_rules.price_change(history + [price(date(2025, 12, 15), "26.8")], 1)) == "-0.4"


@pytest.mark.parametrize(
    ("today", "newest"),
    [
        (date(2026, 11, 22), "115-07-08"),  # 115-09-10 is drawn on 2026-11-25
        (date(2026, 11, 25), "115-09-10"),
        (date(2026, 1, 24), "114-09-10"),
        (date(2026, 1, 25), "114-11-12"),
        (date(2026, 2, 10), "114-11-12"),
    ],
)
def test_newest_drawn_period(today, newest):
    assert invoice_rules.newest_drawn_period(today) == newest


def test_stale_note_when_the_store_lacks_the_newest_period():
    note = invoice_rules.stale_note("114-11-12", date(2026, 11, 22))
    assert note and "115-07-08" in note and "2026-09-25" in note
    assert invoice_rules.stale_note("114-11-12", date(2026, 3, 24)) is None
    assert invoice_rules.stale_note("115-01-02", date(2026, 3, 25)) is None
