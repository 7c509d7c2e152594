"""The trip service's rules on hand-worked cases: the bank's spread, entry rules by date, the
tax inside a Japanese price, the eSIM estimate and the bank's CSV format."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from twlookup.services.trip import logic
from twlookup.services.trip.parsers import parse_bot_csv
from twlookup.services.trip.records import Country, EntryItem, EsimProfile, FxRate

FIXTURE = Path(__file__).parent / "fixtures" / "ExchangeRate@202611221600.csv"
PROV = {"source": "https://rate.bot.com.tw/xrt?Lang=zh-TW", "checked": date(2026, 11, 22)}
D = Decimal


def board(currency: str, cash_buy, cash_sell, spot_buy, spot_sell) -> FxRate:
    rates = dict(zip(("cash_buy", "cash_sell", "spot_buy", "spot_sell"), (cash_buy, cash_sell, spot_buy, spot_sell)))
    return FxRate(
        currency=currency,
        **{k: None if v is None else D(v) for k, v in rates.items()},
        posted_at=datetime(2026, 11, 22, 16, 0),
        **PROV,
    )


JPY = board("JPY", "0.1942", "0.2046", "0.1977", "0.2012")
USD = board("USD", "31.22", "31.89", "31.545", "31.695")
KRW = board("KRW", "0.02074", "0.02464", None, None)


def test_buying_yen_cash_uses_the_bank_selling_rate():
    # 10,000 TWD / 0.2046 (cash 本行賣出) = 48,875.855... -> 48,876 JPY (no minor unit)
    c = logic.convert(JPY, "buy", "cash", D(10_000))
    assert (c.rate, c.bank_side, c.pay_currency, c.get_currency, c.get_amount) == (
        D("0.2046"),
        "selling",
        "TWD",
        "JPY",
        D(48_876),
    )
    # at the cash midpoint 0.1994: 10,000 / 0.1994 = 50,150.45 -> 50,150; the spread costs
    # (50,150.4514 - 48,875.8553) x 0.1994 = 254.15 TWD
    assert c.mid_amount == D(50_150) and c.spread_cost_twd == D("254.15")


def test_selling_yen_cash_uses_the_bank_buying_rate():
    # 50,000 JPY x 0.1942 (cash 本行買入) = 9,710.00 TWD; at the midpoint 0.1994: 9,970.00
    c = logic.convert(JPY, "sell", "cash", D(50_000))
    assert (c.rate, c.bank_side, c.pay_currency, c.get_currency, c.get_amount) == (
        D("0.1942"),
        "buying",
        "JPY",
        "TWD",
        D("9710.00"),
    )
    assert c.mid_amount == D("9970.00") and c.spread_cost_twd == D("260.00")


def test_spot_gives_more_than_cash():
    # 10,000 TWD / 0.2012 (spot 本行賣出) = 49,701.79 -> 49,702 JPY, more than cash's 48,876
    assert logic.convert(JPY, "buy", "spot", D(10_000)).get_amount == D(49_702)
    # 1,000 USD x 31.545 (spot 本行買入) = 31,545.00 TWD; cash would give 31,220.00
    assert logic.convert(USD, "sell", "spot", D(1_000)).get_amount == D("31545.00")
    assert logic.convert(USD, "sell", "cash", D(1_000)).get_amount == D("31220.00")


def test_two_decimal_currency_rounds_half_up():
    # 1,000 TWD / 31.89 = 31.357792... -> 31.36 USD
    assert logic.convert(USD, "buy", "cash", D(1_000)).get_amount == D("31.36")


def test_a_rate_the_bank_does_not_post_is_refused():
    with pytest.raises(ValueError, match="no spot rate for KRW"):
        logic.convert(KRW, "buy", "spot", D(1_000))
    assert KRW.posted_types() == ["cash"] and JPY.posted_types() == ["cash", "spot"]
    # 3,000 TWD / 0.02464 = 121,753.2 -> 121,753 KRW
    assert logic.convert(KRW, "buy", "cash", D(3_000)).get_amount == D(121_753)


def test_spread_percent():
    # (0.2046 - 0.1942) / 0.1994 = 5.2156...% -> 5.22
    assert logic.spread_percent(D("0.1942"), D("0.2046")) == D("5.22")
    assert logic.spread_percent(None, D("1")) is None


def item(valid_from=None, valid_until=None) -> EntryItem:
    return EntryItem(
        country="KR",
        id="x",
        title="t",
        requirement="not_required",
        detail="d",
        valid_from=valid_from,
        valid_until=valid_until,
        **PROV,
    )


def test_entry_items_follow_their_dates():
    # Korea's K-ETA exemption ends 2026-12-31; the next rule starts 2027-01-01
    exempt = item(valid_until=date(2026, 12, 31))
    after = item(valid_from=date(2027, 1, 1))
    assert exempt.in_force(date(2026, 12, 31)) and not exempt.in_force(date(2027, 1, 1))
    assert after.in_force(date(2027, 1, 1)) and not after.in_force(date(2026, 12, 31))
    country = Country(code="KR", name_en="Korea", name_zh="韓國", items=(item(), exempt, after))
    assert country.in_force(date(2026, 11, 22)) == [item(), exempt]
    assert country.upcoming_changes(date(2026, 11, 22)) == [after]
    # a trip from 2026-12-28 to 2027-01-03 sees both sides of the change
    assert country.for_window(date(2026, 12, 28), date(2027, 1, 3)) == [item(), exempt, after]
    assert country.for_window(date(2026, 11, 22), date(2026, 11, 30)) == [item(), exempt]


def test_tax_inside_a_japanese_price():
    # ¥5,500 at 10% holds ¥500 (5,500 x 0.1 / 1.1); ¥10,800 at 8% holds ¥800; ¥1,000 at 10% holds ¥90.90 -> ¥90
    assert logic.tax_in_price(5_500, D("0.10")) == 500
    assert logic.tax_in_price(10_800, D("0.08")) == 800
    assert logic.tax_in_price(1_000, D("0.10")) == 90
    assert logic.price_excl_tax(5_500, D("0.10")) == 5_000


def test_esim_estimate():
    sizes = (1, 3, 5, 10, 20, 30, 50)
    moderate = EsimProfile(id="moderate", gb_per_day=D("1.5"), covers="")
    # 1.5 GB x 5 days = 7.5 GB; +10% = 8.25 -> 8.3 GB; smallest plan holding it: 10 GB
    est = logic.esim_estimate(moderate, 5, D("0.10"), sizes)
    assert (est.base_gb, est.total_gb, est.plan_gb) == (D("7.5"), D("8.3"), 10)
    # light 0.5 GB x 2 days = 1.0; +10% = 1.1 GB -> 3 GB plan
    assert (
        logic.esim_estimate(EsimProfile(id="light", gb_per_day=D("0.5"), covers=""), 2, D("0.10"), sizes).plan_gb == 3
    )
    # heavy 4 GB x 30 days = 120; +10% = 132 GB: above every plan size
    heavy = logic.esim_estimate(EsimProfile(id="heavy", gb_per_day=D("4"), covers=""), 30, D("0.10"), sizes)
    assert heavy.total_gb == D(132) and heavy.plan_gb is None


def test_trip_window():
    assert logic.trip_window(date(2026, 11, 22), 1) == (date(2026, 11, 22), date(2026, 11, 22))
    assert logic.trip_window(date(2026, 12, 28), 7) == (date(2026, 12, 28), date(2027, 1, 3))


# ---------------------------------------------------------------- the bank's CSV


def test_parse_the_bank_csv_fixture():
    posted, rates = parse_bot_csv(FIXTURE.read_bytes(), FIXTURE.name)
    assert posted == datetime(2026, 11, 22, 16, 0)
    by = {r.currency: r for r in rates}
    assert [r.currency for r in rates] == ["USD", "JPY", "ZAR", "KRW", "VND", "EUR"]
    assert (by["JPY"].cash_buy, by["JPY"].spot_buy, by["JPY"].cash_sell, by["JPY"].spot_sell) == (
        D("0.19500"),
        D("0.19850"),
        D("0.20500"),
        D("0.20200"),
    )
    assert by["ZAR"].cash_buy is None and by["ZAR"].spot_sell == D("1.81000")  # 0.00000: not posted
    assert by["KRW"].spot_buy is None and by["KRW"].cash_sell == D("0.02450")


HEADER = "幣別,匯率,現金,即期,遠期10天,遠期30天,遠期60天,遠期90天,遠期120天,遠期150天,遠期180天,匯率,現金,即期,遠期10天,遠期30天,遠期60天,遠期90天,遠期120天,遠期150天,遠期180天"
ZEROS = ",".join(["0"] * 7)


def row(
    code="USD",
    buy_mark="本行買入",
    cash_buy="31.4",
    spot_buy="31.7",
    sell_mark="本行賣出",
    cash_sell="32.0",
    spot_sell="31.9",
) -> str:
    return f"{code},{buy_mark},{cash_buy},{spot_buy},{ZEROS},{sell_mark},{cash_sell},{spot_sell},{ZEROS},"


NAME = "ExchangeRate@202611221600.csv"


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        ("", NAME, "empty"),
        ("currency,rate\nUSD,1", NAME, "not the bank's header"),
        (HEADER, NAME, "no rates"),
        (f"{HEADER}\n{row()}", "rates.csv", "posting time is unknown"),
        (f"{HEADER}\n{row(code='usd1')}", NAME, "not a currency code"),
        (f"{HEADER}\n{row(buy_mark='買入')}", NAME, "本行買入 and 本行賣出"),
        (f"{HEADER}\n{row(spot_buy='abc')}", NAME, "line 2 USD spot buying: 'abc' is not a number"),
        (f"{HEADER}\n{row(cash_buy='33', cash_sell='32')}", NAME, "cash buying rate 33 is above its selling rate 32"),
        (f"{HEADER}\n{row()}\n{row()}", NAME, "USD appears twice"),
        (f"{HEADER}\nUSD,本行買入,31.4", NAME, "3 columns"),
    ],
)
def test_bad_files_are_refused_with_the_reason(text, name, message):
    with pytest.raises(ValueError, match=message):
        parse_bot_csv(text.encode("utf-8"), name)


def test_history_download_takes_the_newest_date_and_big5_is_read():
    text = (
        "資料日期,"
        + HEADER
        + "\n"
        + "20261120,"
        + row(cash_buy="31.3")
        + "\n"
        + "20261119,"
        + row(cash_buy="31.1")
        + "\n"
    )
    posted, rates = parse_bot_csv(text.encode("cp950"), "history.csv")
    assert posted == datetime(2026, 11, 20) and len(rates) == 1 and rates[0].cash_buy == D("31.3")
    with pytest.raises(ValueError, match="file name says 2026-11-22 but its newest 資料日期 is 2026-11-20"):
        parse_bot_csv(text.encode("utf-8"), NAME)


# Rows copied from the bank's own files: the day board of 2026-10-09 (as mirrored in
# ChesleyLo/DownloadBankOfTaiwanExchangeRate, data/history/bot-xrt-2026-10-09.csv, no BOM, LF)
# and the history download /flcsv/0/L6M/USD (BOM, CRLF, a trailing comma after the header too).
REAL_DAY = (
    HEADER + "\n"
    "SEK,本行買入,0.00000,3.13000,3.13900,3.13600,3.13500,3.13400,3.13200,3.13100,3.12900,本行賣出,0.00000,3.25000,3.24000,3.24000,3.23900,3.24000,3.23900,3.23800,3.23700,\n"
    "THB,本行買入,0.82180,0.93220,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,本行賣出,1.01180,0.97820,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,\n"
    "KRW,本行買入,0.02202,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,本行賣出,0.02592,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,0.00000,\n"
)
REAL_HISTORY = (
    "\ufeff資料日期," + HEADER + ",\r\n"
    "20260612,USD,本行買入,31.23000,31.58000,31.56700,31.52500,31.46600,31.41000,31.35400,31.29600,31.24000,本行賣出,31.90000,31.68000,31.67100,31.63400,31.58300,31.53400,31.48400,31.43700,31.38000,\r\n"
)


def test_rows_from_the_banks_real_files():
    posted, rates = parse_bot_csv(REAL_DAY.encode("utf-8"), "ExchangeRate@202610091600.csv")
    by = {r.currency: r for r in rates}
    assert posted == datetime(2026, 10, 9, 16, 0)
    assert (by["SEK"].cash_buy, by["SEK"].cash_sell, by["SEK"].spot_buy, by["SEK"].spot_sell) == (
        None,
        None,
        D("3.13000"),
        D("3.25000"),
    )
    assert (by["THB"].cash_sell, by["THB"].spot_buy, by["THB"].spot_sell) == (D("1.01180"), D("0.93220"), D("0.97820"))
    assert (by["KRW"].cash_buy, by["KRW"].cash_sell, by["KRW"].spot_buy) == (D("0.02202"), D("0.02592"), None)
    # 10,000 TWD for won banknotes at that day's cash selling rate: 10,000 / 0.02592 = 385,802.47 -> 385,802 KRW
    krw = FxRate(currency="KRW", cash_buy=by["KRW"].cash_buy, cash_sell=by["KRW"].cash_sell, posted_at=posted, **PROV)
    assert logic.convert(krw, "buy", "cash", D(10000)).get_amount == D(385802)
    posted, rates = parse_bot_csv(REAL_HISTORY.encode("utf-8"), "USD_L6M.csv")
    assert posted == datetime(2026, 6, 12) and (rates[0].cash_buy, rates[0].spot_sell) == (D("31.23000"), D("31.68000"))
