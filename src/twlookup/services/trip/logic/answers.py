"""The trip service's answers built from its reference data: the rate board and conversions,
entry rules, places, Japan's tax-free rules, the eSIM estimate and the travel guides (domestic
travel, theme parks, booking). Every answer cites its records' provenance (`source_ref`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, TypeVar

from twlookup.domain.provenance import distinct_sources
from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.records import as_answer
from twlookup.services.trip.logic.rules import (
    DIRECTIONS,
    RATE_TYPES,
    convert,
    esim_estimate,
    minor_units,
    round_money,
    spread_percent,
    tax_in_price,
)
from twlookup.services.trip.records import (
    BookingTipFacts,
    Direction,
    EntryItem,
    FxRate,
    Place,
    PlaceFacts,
    RailModeFacts,
    RateType,
    ThemeparkFacts,
    TicketSaleFacts,
)
from twlookup.services.trip.schemas import (
    Booking,
    BookingItem,
    ConvertResult,
    Domestic,
    DomesticMode,
    Entry,
    EntryItemOut,
    EsimResult,
    FxBoard,
    FxRateOut,
    FxSummary,
    HolidaySale,
    JapanTaxFree,
    Money,
    PlaceOut,
    Places,
    RefundExample,
    TaxFreeRuleOut,
    ThemeparkOut,
    Themeparks,
)

if TYPE_CHECKING:
    from twlookup.services.trip.data import TripData

TAIWAN_UTC_OFFSET = 8
PASSPORT = "Taiwan (Republic of China) passport with a national ID number"
SAMPLE_NOTE = (
    "SAMPLE board: these rates are an illustrative snapshot shipped with the service, not values read "
    "from the bank. Load the real board with `twlookup ingest trip.fx ExchangeRate@YYYYMMDDHHMM.csv`."
)
BOARD_NOTE = "Rates as Bank of Taiwan posted them; the bank changes them during the day, so check before you exchange."
ESIM_METHOD = (
    "total = days x GB per day of the usage level, plus a {margin}% margin for updates and background sync, "
    "rounded up to 0.1 GB; the suggested plan is the smallest of {sizes} GB that holds it. The GB per day of each "
    "level is this service's planning assumption, not a measurement; only the video rates per hour come from the cited source."
)
ROUNDING = "Half up to the currency's minor unit: 0 decimals for JPY, KRW and VND, 2 for TWD and the others."


# ---------------------------------------------------------------- exchange rates


def num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def rate_out(r: FxRate) -> FxRateOut:
    # the currency, its Chinese name, its four rates (as JSON numbers) and the posting time as the record holds them
    return FxRateOut.model_validate(
        r.model_dump()
        | dict(
            cash_spread_percent=num(spread_percent(r.cash_buy, r.cash_sell)),
            spot_spread_percent=num(spread_percent(r.spot_buy, r.spot_sell)),
            posted_types=list[str](r.posted_types()),
            source=r.source_ref,
        )
    )


T = TypeVar("T")


def held(table: Mapping[str, T], key: str, what: str, listing: str) -> T:
    """The entry held under `key`, or the 404 naming `what` was asked and, after `listing`, every key held."""
    found = table.get(key)
    if found is None:
        raise NotFound(what, key, f"{listing}: {', '.join(table)}.")
    return found


def rate(data: TripData, code: str) -> FxRate:
    return held(data.rates, code, "currency", "Bank of Taiwan posts")


def board(data: TripData, codes: list[str] | None) -> FxBoard:
    rates = [rate(data, c) for c in codes] if codes else list(data.rates.values())
    sample = any(r.sample for r in rates)
    return FxBoard(
        posted_at=max((r.posted_at for r in rates), default=None),
        count=len(rates),
        sample=sample,
        note=SAMPLE_NOTE if sample else BOARD_NOTE,
        rates=[rate_out(r) for r in rates],
        sources=distinct_sources(r.source_ref for r in rates),
    )


def conversion(fx: FxRate, direction: Direction, kind: RateType, amount: Decimal) -> ConvertResult:
    """`amount` converted at the side of the spread the traveller gets; an amount finer than its
    currency's minor unit, or a rate the bank does not post, is the parameter's error."""
    pay_currency = "TWD" if direction == "buy" else fx.currency
    places = minor_units(pay_currency)
    if round_money(amount, pay_currency) != amount:
        # A rounded amount would be converted while another is shown as paid: refuse instead.
        raise InvalidParameter(
            "amount",
            f"{amount} {pay_currency} has more decimals than {pay_currency} uses "
            f"({'whole units only' if places == 0 else f'at most {places} decimals'})",
            {"decimals": places, "currency": pay_currency},
        )
    try:
        c = convert(fx, direction, kind, amount)
    except ValueError:
        raise InvalidParameter(
            "type", f"Bank of Taiwan posts no {kind} rate for {fx.currency}", fx.posted_types()
        ) from None
    side = "本行賣出" if c.bank_side == "selling" else "本行買入"
    return ConvertResult(
        posted_at=fx.posted_at,
        direction=direction,
        type=kind,
        direction_meaning=DIRECTIONS[direction],
        type_meaning=RATE_TYPES[kind],
        rate=float(c.rate),
        bank_rate=f"{kind} {c.bank_side} rate ({'現金' if kind == 'cash' else '即期'} {side})",
        pay=Money(currency=c.pay_currency, amount=float(c.pay_amount)),
        get=Money(currency=c.get_currency, amount=float(c.get_amount)),
        at_midpoint=Money(currency=c.get_currency, amount=float(c.mid_amount)),
        spread_cost_twd=float(c.spread_cost_twd),
        rounding=ROUNDING,
        sample=fx.sample,
        source=fx.source_ref,
    )


# ---------------------------------------------------------------- entry and places


def entry_item_out(i: EntryItem) -> EntryItemOut:
    return as_answer(i, EntryItemOut)


def entry(data: TripData, code: str, today: date) -> Entry:
    country = data.countries.get(code)
    if country is None:
        raise Problem(503, f"The entry rules for {code} are not in the store; run `twlookup seed`.")
    items = country.in_force(today)
    upcoming = country.upcoming_changes(today)
    return Entry(
        country=code,
        name_en=country.name_en,
        name_zh=country.name_zh,
        as_of=today,
        passport=PASSPORT,
        items=[entry_item_out(i) for i in items],
        upcoming_changes=[entry_item_out(i) for i in upcoming],
        sources=distinct_sources(i.source_ref for i in [*items, *upcoming]),
    )


def place_out(data: TripData, g: Place) -> PlaceOut:
    fx = data.rates.get(g.currency)
    country = data.countries.get(g.country)
    return PlaceOut(
        **g.model_dump(include=set(PlaceFacts.model_fields)),
        country_name_en=country.name_en if country else None,
        hours_from_taiwan=g.utc_offset_hours - TAIWAN_UTC_OFFSET,
        fx=FxSummary.model_validate(fx, from_attributes=True) if fx else None,
        themeparks=[p.id for p in data.themeparks if p.place == g.id],
        entry=f"/api/entry?country={g.country}",
        source=g.source_ref,
    )


def place(data: TripData, ident: str) -> Place:
    return held(data.places, ident, "place", "Known places")


def places(data: TripData, ident: str | None) -> Places:
    guides = [place(data, ident)] if ident else list(data.places.values())
    out = [place_out(data, g) for g in guides]
    return Places(count=len(out), places=out, sources=distinct_sources(p.source for p in out))


# ---------------------------------------------------------------- Japan tax-free and eSIM


def taxfree(data: TripData, today: date) -> JapanTaxFree:
    t = data.taxfree
    minimum_incl = t.minimum_jpy + int(Decimal(t.minimum_jpy) * t.standard_rate)
    examples = [
        RefundExample(
            description=(
                f"The smallest qualifying spend at one shop in one day: ¥{t.minimum_jpy:,} before tax, paid with "
                f"{int(t.standard_rate * 100)}% tax. The refund is the tax paid, before any fee the shop or its refund operator deducts"
            ),
            price_including_tax_jpy=minimum_incl,
            rate=float(t.standard_rate),
            refund_jpy=tax_in_price(minimum_incl, t.standard_rate),
        ),
        RefundExample(
            description=(
                f"Food bought to take away at the reduced {int(t.reduced_rate * 100)}% rate, ¥10,800 including tax; "
                "the refund before any fee"
            ),
            price_including_tax_jpy=10_800,
            rate=float(t.reduced_rate),
            refund_jpy=tax_in_price(10_800, t.reduced_rate),
        ),
    ]
    return JapanTaxFree(
        as_of=today,
        regime=t.regime_name,
        regime_id=t.regime_id,
        in_force_from=t.in_force_from,
        in_force=today >= t.in_force_from,
        replaced=t.replaced,
        minimum_jpy_excluding_tax=t.minimum_jpy,
        customs_deadline_days=t.customs_deadline_days,
        high_value_unit_jpy_excluding_tax=t.high_value_jpy,
        standard_rate=float(t.standard_rate),
        reduced_rate=float(t.reduced_rate),
        reduced_applies_to=t.reduced_applies_to,
        rules=[TaxFreeRuleOut(id=r.id, title=r.title, detail=r.detail, source=r.source_ref) for r in t.rules],
        examples=examples,
        sources=distinct_sources([t.source, *(r.source_ref for r in t.rules), t.tax_source]),
    )


def esim(data: TripData, days: int, usage: str) -> EsimResult:
    profile = data.esim_profiles.get(usage)
    if profile is None:
        raise Problem(503, f"The eSIM usage level {usage!r} is not in the store; run `twlookup seed`.")
    est = esim_estimate(profile, days, data.esim_margin, data.esim_plan_sizes)
    return EsimResult(
        days=days,
        usage=usage,
        covers=profile.covers,
        gb_per_day=float(est.gb_per_day),
        base_gb=float(est.base_gb),
        margin_percent=float(est.margin * 100),
        total_gb=float(est.total_gb),
        suggested_plan_gb=est.plan_gb,
        method=ESIM_METHOD.format(margin=int(est.margin * 100), sizes=", ".join(str(s) for s in data.esim_plan_sizes)),
        usage_levels={p.id: float(p.gb_per_day) for p in data.esim_profiles.values()},
        source=data.esim_source,
    )


# ---------------------------------------------------------------- the travel guides


def domestic(data: TripData, today: date) -> Domestic:
    modes = [
        DomesticMode(**g.model_dump(include=set(RailModeFacts.model_fields)), source=g.source_ref)
        for g in data.domestic
    ]
    sales = [
        HolidaySale(
            **g.model_dump(include=set(TicketSaleFacts.model_fields)),
            tra_on_sale=g.tra_opens <= today,
            thsr_on_sale=g.thsr_opens <= today,
            source=g.source_ref,
        )
        for g in data.holiday_sales
        if g.end >= today
    ]
    window = min((m.booking_window_days for m in modes), default=28)
    return Domestic(
        as_of=today,
        modes=modes,
        ordinary_booking_opens_today_for=today + timedelta(days=window),
        holiday_sales=sales,
        sources=distinct_sources([*(m.source for m in modes), *(s.source for s in sales)]),
    )


def themeparks(data: TripData) -> Themeparks:
    parks = [
        ThemeparkOut(**g.model_dump(include=set(ThemeparkFacts.model_fields)), source=g.source_ref)
        for g in data.themeparks
    ]
    return Themeparks(
        count=len(parks),
        note="Prices are not listed: each park sells dated tickets priced by day; the official ticket page gives the price for your date.",
        parks=parks,
        sources=distinct_sources(p.source for p in parks),
    )


def booking(data: TripData) -> Booking:
    items = [
        BookingItem(**g.model_dump(include=set(BookingTipFacts.model_fields)), source=g.source_ref)
        for g in data.booking
    ]
    return Booking(count=len(items), items=items, sources=distinct_sources(i.source for i in items))
