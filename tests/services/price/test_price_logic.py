"""The price rules on hand-worked cases: daily price, 90-day summary, drops, search, and the
FarmTransData format. Each case states its arithmetic."""

from __future__ import annotations

import json
from datetime import date

import pytest

from twlookup.services.price import logic
from twlookup.services.price.logic import DailyPrice
from twlookup.services.price.parsers import parse_feed, roc_date
from twlookup.services.price.records import Observation, Product

AS_OF = date(2026, 11, 21)  # window start: 2026-11-21 - 89 days = 2026-08-24


def day(d: date, price: float, sample: bool = False) -> DailyPrice:
    return DailyPrice(d, price, "109", "台北一", 1, sample)


def obs(d: date, market: str, average: float) -> Observation:
    return Observation(
        product_id="LA1",
        market_code=market,
        market_name=f"market {market}",
        day=d,
        upper=average + 5,
        middle=average,
        lower=average - 5,
        average=average,
        volume=1000.0,
    )


def test_window_is_90_calendar_days_ending_on_as_of():
    assert logic.window_start(AS_OF) == date(2026, 8, 24)
    assert (AS_OF - logic.window_start(AS_OF)).days + 1 == 90


def test_daily_price_is_the_lowest_market_average_with_ties_to_the_lower_code():
    # 109: 20.0, 400: 18.5, 104: 18.5 -> 18.5, and of the two at 18.5 market 104 (lower code)
    d = date(2026, 11, 20)
    series = logic.daily_prices(
        [obs(d, "109", 20.0), obs(d, "400", 18.5), obs(d, "104", 18.5), obs(AS_OF, "400", 30.0)]
    )
    assert [(p.day, p.price, p.market_code, p.markets) for p in series] == [
        (d, 18.5, "104", 3),
        (AS_OF, 30.0, "400", 1),
    ]


def test_summary_hand_worked():
    series = [
        day(date(2026, 8, 1), 30.0),
        day(date(2026, 8, 23), 5.0),  # one day before the window: ignored, or min would be 5.0
        day(date(2026, 8, 24), 20.0),  # first day of the window: counted
        day(date(2026, 10, 1), 12.5),
        day(date(2026, 10, 15), 25.0),
        day(date(2026, 11, 2), 12.5),  # the low again: the most recent date of the low
        day(AS_OF, 15.0),
    ]
    s = logic.summarize(series, AS_OF)
    assert s is not None
    # window prices 20, 12.5, 25, 12.5, 15: min 12.5, max 25, mean 85 / 5 = 17.0
    assert (s.start, s.end, s.days_observed) == (date(2026, 8, 24), AS_OF, 5)
    assert (s.min, s.max, s.mean) == (12.5, 25.0, 17.0)
    assert s.low_date == date(2026, 11, 2)
    # current 15.0: 2.5 above the low, 2.5 / 12.5 = 20 %
    assert (s.current, s.current_date, s.above_low, s.above_low_percent) == (15.0, AS_OF, 2.5, 20.0)
    assert s.sample is False


def test_summary_current_is_the_latest_day_traded_and_rounds_to_cents():
    # traded 2026-11-10 (10.1), 11-12 (10.2), 11-14 (10.4), not since: current is 11-14's 10.4
    # mean (10.1 + 10.2 + 10.4) / 3 = 10.2333.. -> 10.23; above low 0.3 -> 0.3 / 10.1 = 2.970.. % -> 2.97
    series = [day(date(2026, 11, 10), 10.1), day(date(2026, 11, 12), 10.2), day(date(2026, 11, 14), 10.4, sample=True)]
    s = logic.summarize(series, AS_OF)
    assert s is not None
    assert (s.mean, s.current, s.current_date, s.above_low, s.above_low_percent) == (
        10.23,
        10.4,
        date(2026, 11, 14),
        0.3,
        2.97,
    )
    assert s.sample is True  # one sample day makes the summary sample


def test_summary_at_the_low_is_zero_distance_and_none_without_trades():
    s = logic.summarize([day(date(2026, 11, 1), 9.0), day(AS_OF, 8.0)], AS_OF)
    assert s is not None and (s.min, s.low_date, s.above_low, s.above_low_percent) == (8.0, AS_OF, 0.0, 0.0)
    assert logic.summarize([day(date(2026, 8, 1), 9.0)], AS_OF) is None  # only before the window
    assert logic.summarize([], AS_OF) is None


def test_drop_hand_worked():
    # 11-19: 20.0, 11-20: 16.0, 11-21: 12.0 -> compared with the previous trading day (11-20):
    # amount 16.0 - 12.0 = 4.0, percent 4.0 / 16.0 = 25 %
    series = [day(date(2026, 11, 19), 20.0), day(date(2026, 11, 20), 16.0), day(AS_OF, 12.0)]
    d = logic.drop("LA1", series, AS_OF)
    assert d is not None
    assert (d.previous_day, d.previous_price, d.price, d.amount, d.percent) == (
        date(2026, 11, 20),
        16.0,
        12.0,
        4.0,
        25.0,
    )


def test_drop_rounding():
    # 21.7 -> 21.2: amount 0.5, 0.5 / 21.7 = 2.304.. % -> 2.3; the previous day may be days before (market closed)
    d = logic.drop("P1", [day(date(2026, 11, 17), 21.7), day(AS_OF, 21.2)], AS_OF)
    assert d is not None and (d.amount, d.percent, d.previous_day) == (0.5, 2.3, date(2026, 11, 17))


def test_rounding_is_half_up_as_by_hand():
    # 16.00 -> 15.98: amount 0.02, 0.02 / 16 = 0.125 % -> 0.13 (round() would give 0.12)
    d = logic.drop("LA1", [day(date(2026, 11, 20), 16.0), day(AS_OF, 15.98)], AS_OF)
    assert d is not None and (d.amount, d.percent) == (0.02, 0.13)
    # mean of 10.00 and 10.05 = 10.025 -> 10.03; 2.675 -> 2.68 (its binary value is just under 2.675)
    s = logic.summarize([day(date(2026, 11, 20), 10.0), day(AS_OF, 10.05)], AS_OF)
    assert s is not None and s.mean == 10.03 and s.above_low == 0.05 and s.above_low_percent == 0.5
    assert logic.money(2.675) == 2.68 and logic.money(-0.0) == 0.0


@pytest.mark.parametrize(
    "series",
    [
        [day(date(2026, 11, 20), 16.0), day(AS_OF, 16.0)],  # unchanged
        [day(date(2026, 11, 20), 16.0), day(AS_OF, 16.5)],  # rose
        [day(date(2026, 11, 19), 20.0), day(date(2026, 11, 20), 16.0)],  # did not trade on as_of
        [day(AS_OF, 10.0)],  # no earlier day
        [day(date(2026, 8, 20), 30.0), day(AS_OF, 10.0)],  # the earlier day is outside the window
    ],
)
def test_no_drop(series):
    assert logic.drop("X", series, AS_OF) is None


def _catalog() -> logic.Catalog:
    def product(pid: str, name: str, cat: str) -> Product:
        return Product(
            id=pid,
            name=name,
            category=cat,
            source="https://example.org",
            source_title=None,
            checked=AS_OF,
            licence=None,
            sample=False,
        )

    products = {
        p.id: p
        for p in (
            product("LA1", "甘藍-初秋", "vegetables"),
            product("LA2", "甘藍-改良種", "vegetables"),
            product("A1", "香蕉", "fruits"),
            product("FLA", "其他甘藍", "vegetables"),
        )
    }
    observations = {
        "LA1": [
            Observation(
                product_id="LA1",
                market_code="109",
                market_name="台北一",
                day=date(2026, 11, 20),
                upper=0,
                middle=0,
                lower=0,
                average=20.0,
                volume=1,
            ),
            Observation(
                product_id="LA1",
                market_code="109",
                market_name="台北一",
                day=AS_OF,
                upper=0,
                middle=0,
                lower=0,
                average=15.0,
                volume=1,
            ),
        ],
        "A1": [
            Observation(
                product_id="A1",
                market_code="109",
                market_name="台北一",
                day=date(2026, 11, 20),
                upper=0,
                middle=0,
                lower=0,
                average=30.0,
                volume=1,
            ),
            Observation(
                product_id="A1",
                market_code="109",
                market_name="台北一",
                day=AS_OF,
                upper=0,
                middle=0,
                lower=0,
                average=27.0,
                volume=1,
            ),
        ],
        "LA2": [
            Observation(
                product_id="LA2",
                market_code="109",
                market_name="台北一",
                day=date(2026, 11, 20),
                upper=0,
                middle=0,
                lower=0,
                average=20.0,
                volume=1,
            ),
            Observation(
                product_id="LA2",
                market_code="109",
                market_name="台北一",
                day=AS_OF,
                upper=0,
                middle=0,
                lower=0,
                average=21.0,
                volume=1,
            ),
        ],
    }
    return logic.Catalog({}, products, AS_OF, observations)


def test_drops_largest_percentage_first_and_by_category():
    catalog = _catalog()
    # LA1 20 -> 15: 25 %; A1 30 -> 27: 10 %; LA2 rose; FLA never traded
    assert [(d.product_id, d.percent) for d in catalog.drops()] == [("LA1", 25.0), ("A1", 10.0)]
    assert [d.product_id for d in catalog.drops("fruits")] == ["A1"]


def test_search_ranks_exact_code_then_name_prefix():
    catalog = _catalog()
    assert [p.id for p in catalog.search("甘藍")] == ["LA1", "LA2", "FLA"]  # two names start with 甘藍, then the rest
    assert [p.id for p in catalog.search("la1")] == ["LA1"]
    assert [p.id for p in catalog.search("la")] == ["FLA", "LA1", "LA2"]  # codes containing LA, by id
    assert [p.id for p in catalog.search("甘藍", "fruits")] == []


def test_roc_dates():
    assert roc_date("115.11.21") == date(2026, 11, 21)  # ROC year 115 = 1911 + 115
    assert roc_date("99.01.05") == date(2010, 1, 5)
    for bad in ("2026-11-21", "115/11/21", "115.02.30", ""):
        with pytest.raises(ValueError, match="交易日期"):
            roc_date(bad)


RECORD = {
    "交易日期": "115.11.21",
    "種類代碼": "N04",
    "作物代號": "LA1",
    "作物名稱": "甘藍-初秋",
    "市場代號": "109",
    "市場名稱": "台北一",
    "上價": 27.0,
    "中價": 20.4,
    "下價": 12.4,
    "平均價": 20.0,
    "交易量": 8000.0,
}


def test_parse_feed_numbers_strings_and_rest_days():
    old_style = {k: str(v) for k, v in RECORD.items() if k != "種類代碼"} | {"作物代號": "la2", "市場代號": 104}
    rest = dict(RECORD, 作物代號="rest", 作物名稱="休市", 上價=0, 中價=0, 下價=0, 平均價=0, 交易量=0)
    rows = parse_feed(json.dumps([RECORD, rest, old_style], ensure_ascii=False).encode())
    assert [(r.product_id, r.type_code, r.market_code, r.day, r.average, r.volume) for r in rows] == [
        ("LA1", "N04", "109", date(2026, 11, 21), 20.0, 8000.0),
        ("LA2", None, "104", date(2026, 11, 21), 20.0, 8000.0),
    ]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (b"{not json", "not JSON"),
        (b'{"a": 1}', "JSON list"),
        (json.dumps([1]).encode(), "record 0: is not a JSON object"),
        (json.dumps([{k: v for k, v in RECORD.items() if k != "平均價"}]).encode(), "record 0: missing 平均價"),
        (json.dumps([dict(RECORD, 上價=-1)]).encode(), "上價 must be a non-negative number"),
        (json.dumps([dict(RECORD, 交易量="many")]).encode(), "交易量 must be a number"),
        (json.dumps([dict(RECORD, 平均價=0)]).encode(), "平均價 must be above 0"),
        (json.dumps([dict(RECORD, 交易日期="2026-11-21")]).encode(), "not an ROC date"),
        (json.dumps([dict(RECORD, 作物代號="LA 1")]).encode(), "not a crop code"),
        (json.dumps([dict(RECORD, 市場名稱="")]).encode(), "市場名稱 is empty"),
        (
            json.dumps([RECORD, dict(RECORD, 平均價=21.0)]).encode(),
            "record 1: LA1 at market 109 on 2026-11-21 appears twice",
        ),
    ],
)
def test_parse_feed_names_what_is_wrong(doc, message):
    with pytest.raises(ValueError, match=message):
        parse_feed(doc)


def test_search_lists_at_most_50(serve_reference):
    from twlookup.services.price import operations
    from twlookup.services.price.schemas import SearchQuery

    products = {
        f"X{i:02d}": Product(
            id=f"X{i:02d}",
            name=f"品項{i}",
            category="fruits",
            source="https://example.org",
            source_title=None,
            checked=AS_OF,
            licence=None,
            sample=False,
        )
        for i in range(60)
    }
    serve_reference(operations.CATALOG, logic.Catalog({}, products, AS_OF, {}))
    result = operations.search(SearchQuery(q="x"))
    assert (result.count, len(result.products), result.limit, result.truncated) == (60, 50, 50, True)
    assert result.products[0].id == "X00" and result.products[-1].id == "X49"


def test_a_product_is_sample_when_its_record_or_any_price_in_the_window_is():
    def product(ident: str, sample: bool) -> Product:
        return Product(
            id=ident, name=ident, category="vegetables", source="https://example.org", checked=AS_OF, sample=sample
        )

    real_price = obs(AS_OF, "109", 20.0)
    sample_price = real_price.model_copy(update={"sample": True})
    catalog = logic.Catalog(
        categories={},
        products={"R": product("R", False), "S": product("S", True), "M": product("M", False)},
        as_of=AS_OF,
        observations={"R": [real_price], "S": [sample_price], "M": [real_price, sample_price]},
    )
    # R: real record, real prices; S: a sample record; M: a real record with one sample price left
    assert [catalog.is_sample(catalog.products[i]) for i in ("R", "S", "M")] == [False, True, True]


@pytest.mark.parametrize(("ids", "sample", "sample_products"), [(("R",), False, 0), (("R", "M"), True, 1)])
def test_a_category_says_when_the_prices_behind_its_count_are_sample(ids, sample, sample_products):
    from twlookup.services.price.operations import _category_out
    from twlookup.services.price.records import Category

    real = obs(AS_OF, "109", 20.0)
    products = {
        i: Product(id=i, name=i, category="vegetables", source="https://example.org/feed", checked=AS_OF) for i in ids
    }
    observations = {"R": [real], "M": [real, real.model_copy(update={"sample": True})]}
    catalog = logic.Catalog(categories={}, products=products, as_of=AS_OF, observations=observations)
    cat = Category(
        slug="vegetables", code="N04", name_zh="蔬菜", name_en="Vegetables", source="https://e.org", checked=AS_OF
    )
    out = _category_out(catalog, cat)
    assert (out.product_count, out.sample, out.sample_products) == (len(ids), sample, sample_products)
    assert sorted(s.sample for s in out.prices_sources) == sorted({False, sample})
