"""The trip service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR, seed_calendar
from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.schemas import Source, today_taipei
from twlookup.platform.service import Service
from twlookup.services.trip import logic
from twlookup.services.trip.data import TRIP_DATA, TripData, seed_fx, seed_guides
from twlookup.services.trip.feeds import FX
from twlookup.services.trip.records import (
    BookingTipFacts,
    EntryItem,
    FxRate,
    Place,
    PlaceFacts,
    RailModeFacts,
    ThemeparkFacts,
    TicketSaleFacts,
)
from twlookup.services.trip.schemas import (
    Booking,
    BookingItem,
    BreakOut,
    BudgetConversion,
    ConvertQuery,
    ConvertResult,
    DayOffOut,
    Domestic,
    DomesticMode,
    Entry,
    EntryItemOut,
    EntryQuery,
    EsimQuery,
    EsimResult,
    Export,
    FxBoard,
    FxQuery,
    FxRateOut,
    FxSummary,
    Holidays,
    HolidaySale,
    JapanTaxFree,
    Money,
    PlaceOut,
    Places,
    PlacesQuery,
    RefundExample,
    TaxFreeRuleOut,
    ThemeparkOut,
    Themeparks,
    TripPack,
    TripPackQuery,
)
from twlookup.services.trip.tables import FxRateRecord

SERVICE = Service(
    name="trip",
    title="Travel helpers for Taiwan travellers",
    description=(
        "Bank of Taiwan's posted exchange rates and conversions on the side of the spread you get, "
        "entry preparation for Japan, Korea and Vietnam, Japan's tax-free refund rules, theme-park "
        "tickets, destinations, an eSIM data estimate, train booking in Taiwan, Taiwan holidays and "
        "booking lead times. Every item names its source and the date it was checked."
    ),
    cors=True,
    network="testnet",
)
SERVICE.seeder(seed_calendar)
SERVICE.seeder(seed_fx)
SERVICE.seeder(seed_guides)
SERVICE.feed(FX)  # Bank of Taiwan's posted-rate CSV (twlookup refresh trip.fx)
add_status_route(SERVICE)

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
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


# ---------------------------------------------------------------- helpers


def source(p: logic.Provenance) -> Source:
    return Source(url=p.source, title=p.source_title, checked=p.checked, sample=p.sample)


def dedupe(sources: list[Source]) -> list[Source]:
    out: dict[tuple[str, bool], Source] = {}
    for s in sources:
        out.setdefault((s.url, s.sample), s)
    return list(out.values())


def _num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def rate_out(r: FxRate) -> FxRateOut:
    return FxRateOut(
        currency=r.currency,
        name_zh=r.name_zh,
        cash_buy=_num(r.cash_buy),
        cash_sell=_num(r.cash_sell),
        spot_buy=_num(r.spot_buy),
        spot_sell=_num(r.spot_sell),
        cash_spread_percent=_num(logic.spread_percent(r.cash_buy, r.cash_sell)),
        spot_spread_percent=_num(logic.spread_percent(r.spot_buy, r.spot_sell)),
        posted_types=r.posted_types(),
        posted_at=r.posted_at,
        source=r.source_ref,
    )


def _rate(data: TripData, code: str) -> FxRate:
    rate = data.rates.get(code)
    if rate is None:
        raise NotFound("currency", code, f"Bank of Taiwan posts: {', '.join(data.rates)}.")
    return rate


def _board(data: TripData, codes: list[str] | None) -> FxBoard:
    rates = [_rate(data, c) for c in codes] if codes else list(data.rates.values())
    sample = any(r.sample for r in rates)
    return FxBoard(
        posted_at=max((r.posted_at for r in rates), default=None),
        count=len(rates),
        sample=sample,
        note=SAMPLE_NOTE if sample else BOARD_NOTE,
        rates=[rate_out(r) for r in rates],
        sources=dedupe([r.source_ref for r in rates]),
    )


def entry_item_out(i: EntryItem) -> EntryItemOut:
    return EntryItemOut(
        id=i.id,
        title=i.title,
        requirement=i.requirement,
        detail=i.detail,
        valid_from=i.valid_from,
        valid_until=i.valid_until,
        source=i.source_ref,
    )


def _entry(data: TripData, code: str, today: date) -> Entry:
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
        sources=dedupe([i.source_ref for i in [*items, *upcoming]]),
    )


def place_out(data: TripData, g: Place) -> PlaceOut:
    fx = data.rates.get(g.currency)
    country = data.countries.get(g.country)
    return PlaceOut(
        **g.model_dump(include=set(PlaceFacts.model_fields)),
        country_name_en=country.name_en if country else None,
        hours_from_taiwan=g.utc_offset_hours - TAIWAN_UTC_OFFSET,
        fx=FxSummary(
            currency=fx.currency,
            cash_sell=_num(fx.cash_sell),
            spot_sell=_num(fx.spot_sell),
            posted_at=fx.posted_at,
            sample=fx.sample,
        )
        if fx
        else None,
        themeparks=[p.id for p in data.themeparks if p.place == g.id],
        entry=f"/api/entry?country={g.country}",
        source=g.source_ref,
    )


def _place(data: TripData, ident: str) -> Place:
    place = data.places.get(ident)
    if place is None:
        raise NotFound("place", ident, f"Known places: {', '.join(data.places)}.")
    return place


def _taxfree(data: TripData, today: date) -> JapanTaxFree:
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
            refund_jpy=logic.tax_in_price(minimum_incl, t.standard_rate),
        ),
        RefundExample(
            description=(
                f"Food bought to take away at the reduced {int(t.reduced_rate * 100)}% rate, ¥10,800 including tax; "
                "the refund before any fee"
            ),
            price_including_tax_jpy=10_800,
            rate=float(t.reduced_rate),
            refund_jpy=logic.tax_in_price(10_800, t.reduced_rate),
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
        sources=dedupe([source(t.provenance), *(r.source_ref for r in t.rules), source(t.tax_provenance)]),
    )


def _esim(data: TripData, days: int, usage: str) -> EsimResult:
    profile = data.esim_profiles.get(usage)
    if profile is None:
        raise Problem(503, f"The eSIM usage level {usage!r} is not in the store; run `twlookup seed`.")
    est = logic.esim_estimate(profile, days, data.esim_margin, data.esim_plan_sizes)
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
        source=source(data.esim_provenance),
    )


def _calendar() -> TaiwanCalendar:
    cal = TAIWAN_CALENDAR.get()
    if not cal.years:
        raise Problem(503, "The official Taiwan calendar is not in the store; run `twlookup seed`.")
    return cal


def year_source(cal: TaiwanCalendar, year: int) -> Source:
    y = cal.years[year]
    return Source(url=y.source, title=y.source_title, checked=y.checked)


def day_off_out(cal: TaiwanCalendar, d: DayOff) -> DayOffOut:
    return DayOffOut(
        date=d.date,
        weekday=WEEKDAYS[d.date.weekday()],
        name_en=d.name_en,
        name_zh=d.name_zh,
        kind=d.kind,
        source=year_source(cal, d.date.year),
    )


def break_out(cal: TaiwanCalendar, b: Break) -> BreakOut:
    return BreakOut(
        start=b.start,
        end=b.end,
        days=b.days,
        holidays=list(dict.fromkeys(h.name_en for h in b.holidays)),
        source=year_source(cal, b.start.year),
    )


def calendar_sources(cal: TaiwanCalendar, years: list[int]) -> list[Source]:
    return dedupe([year_source(cal, y) for y in years if y in cal.years])


def _breaks_overlapping(cal: TaiwanCalendar, start: date, end: date) -> list[Break]:
    out: list[Break] = []
    for year in sorted({start.year - 1, *range(start.year, end.year + 1)}):
        if cal.covers(year):
            out += [b for b in cal.long_weekends(year) if b.start <= end and start <= b.end]
    return out


def _holidays(cal: TaiwanCalendar, today: date) -> Holidays:
    years = sorted(cal.years)
    last = date(years[-1], 12, 31)
    days = [d for y in years for d in cal.holidays_in(y) if d.date >= today]
    nxt = cal.next_day_off(today - timedelta(days=1))
    return Holidays(
        as_of=today,
        years=years,
        count=len(days),
        holidays=[day_off_out(cal, d) for d in days],
        next_holiday=day_off_out(cal, nxt) if nxt else None,
        long_weekends=[break_out(cal, b) for b in _breaks_overlapping(cal, today, last)],
        sources=calendar_sources(cal, [y for y in years if y >= today.year]),
    )


def _domestic(data: TripData, today: date) -> Domestic:
    modes = [
        DomesticMode(**g.model_dump(include=set(RailModeFacts.model_fields)), source=g.source_ref)
        for g in data.domestic
    ]
    sales = []
    for g in data.holiday_sales:
        if g.end < today:
            continue
        sales.append(
            HolidaySale(
                **g.model_dump(include=set(TicketSaleFacts.model_fields)),
                tra_on_sale=g.tra_opens <= today,
                thsr_on_sale=g.thsr_opens <= today,
                source=g.source_ref,
            )
        )
    window = min((m.booking_window_days for m in modes), default=28)
    return Domestic(
        as_of=today,
        modes=modes,
        ordinary_booking_opens_today_for=today + timedelta(days=window),
        holiday_sales=sales,
        sources=dedupe([*(m.source for m in modes), *(s.source for s in sales)]),
    )


def _themeparks(data: TripData) -> Themeparks:
    parks = [
        ThemeparkOut(**g.model_dump(include=set(ThemeparkFacts.model_fields)), source=g.source_ref)
        for g in data.themeparks
    ]
    return Themeparks(
        count=len(parks),
        note="Prices are not listed: each park sells dated tickets priced by day; the official ticket page gives the price for your date.",
        parks=parks,
        sources=dedupe([p.source for p in parks]),
    )


def _booking(data: TripData) -> Booking:
    items = [
        BookingItem(**g.model_dump(include=set(BookingTipFacts.model_fields)), source=g.source_ref)
        for g in data.booking
    ]
    return Booking(count=len(items), items=items, sources=dedupe([i.source for i in items]))


def _places(data: TripData, ident: str | None) -> Places:
    guides = [_place(data, ident)] if ident else list(data.places.values())
    places = [place_out(data, g) for g in guides]
    return Places(count=len(places), places=places, sources=dedupe([p.source for p in places]))


# ---------------------------------------------------------------- free operations


@SERVICE.operation("GET", "/api/fx", tool="exchange_rates")
def exchange_rates(p: FxQuery) -> FxBoard:
    """Bank of Taiwan's posted rates (cash and spot, buying and selling), all or the listed currencies."""
    codes = list(dict.fromkeys(p.cur.split(","))) if p.cur else None
    return _board(TRIP_DATA.get(), codes)


@SERVICE.operation("GET", "/api/fx/convert", tool="convert_currency")
def convert_currency(p: ConvertQuery) -> ConvertResult:
    """Convert at the side of the bank's spread a traveller actually gets.

    buy: TWD to foreign currency at the bank's selling rate; sell: foreign currency to TWD at the
    bank's buying rate; for cash or spot."""
    data = TRIP_DATA.get()
    fx = _rate(data, p.cur)
    amount = Decimal(str(p.amount))
    pay_currency = "TWD" if p.direction == "buy" else fx.currency
    places = logic.minor_units(pay_currency)
    if logic.round_money(amount, pay_currency) != amount:
        # A rounded amount would be converted while another is shown as paid: refuse instead.
        raise InvalidParameter(
            "amount",
            f"{amount} {pay_currency} has more decimals than {pay_currency} uses "
            f"({'whole units only' if places == 0 else f'at most {places} decimals'})",
            {"decimals": places, "currency": pay_currency},
        )
    try:
        c = logic.convert(fx, p.direction, p.type, amount)
    except ValueError:
        raise InvalidParameter(
            "type", f"Bank of Taiwan posts no {p.type} rate for {fx.currency}", fx.posted_types()
        ) from None
    side = "本行賣出" if c.bank_side == "selling" else "本行買入"
    return ConvertResult(
        posted_at=fx.posted_at,
        direction=p.direction,
        type=p.type,
        direction_meaning=logic.DIRECTIONS[p.direction],
        type_meaning=logic.RATE_TYPES[p.type],
        rate=float(c.rate),
        bank_rate=f"{p.type} {c.bank_side} rate ({'現金' if p.type == 'cash' else '即期'} {side})",
        pay=Money(currency=c.pay_currency, amount=float(c.pay_amount)),
        get=Money(currency=c.get_currency, amount=float(c.get_amount)),
        at_midpoint=Money(currency=c.get_currency, amount=float(c.mid_amount)),
        spread_cost_twd=float(c.spread_cost_twd),
        rounding=ROUNDING,
        sample=fx.sample,
        source=fx.source_ref,
    )


@SERVICE.operation("GET", "/api/entry", tool="entry_requirements")
def entry_requirements(p: EntryQuery) -> Entry:
    """Entry preparation for Taiwan passport holders going to Japan, Korea or Vietnam.

    The rules in force today, and the changes already announced."""
    return _entry(TRIP_DATA.get(), p.country, today_taipei())


@SERVICE.operation("GET", "/api/places", tool="destination_info")
def destination_info(p: PlacesQuery) -> Places:
    """Destinations: country, currency and the bank's rate for it, time difference with Taiwan, nearby theme parks."""
    return _places(TRIP_DATA.get(), p.id)


@SERVICE.operation("GET", "/api/japan-taxfree", tool="japan_taxfree_rules")
def japan_taxfree_rules() -> JapanTaxFree:
    """Japan's tax-free shopping for visitors as in force now: the refund method from 2026-11-01."""
    return _taxfree(TRIP_DATA.get(), today_taipei())


@SERVICE.operation("GET", "/api/themepark", tool="themepark_tickets")
def themepark_tickets() -> Themeparks:
    """Theme-park ticket rules and official ticket pages (prices vary by date and are not listed)."""
    return _themeparks(TRIP_DATA.get())


@SERVICE.operation("GET", "/api/esim/estimate", tool="esim_estimate")
def esim_estimate(p: EsimQuery) -> EsimResult:
    """Mobile data a trip needs for a usage level, with the method and a suggested plan size."""
    return _esim(TRIP_DATA.get(), p.days, p.usage)


@SERVICE.operation("GET", "/api/domestic", tool="domestic_travel")
def domestic_travel() -> Domestic:
    """Travel inside Taiwan: high-speed rail and railway booking windows and holiday ticket sale dates."""
    return _domestic(TRIP_DATA.get(), today_taipei())


@SERVICE.operation("GET", "/api/holidays", tool="taiwan_holidays")
def taiwan_holidays() -> Holidays:
    """Taiwan's upcoming holidays and long weekends from the official government calendar."""
    return _holidays(_calendar(), today_taipei())


@SERVICE.operation("GET", "/api/booking")
def booking() -> Booking:
    """What to book or file before a trip, and how far ahead."""
    return _booking(TRIP_DATA.get())


# ---------------------------------------------------------------- paid operations


@SERVICE.operation(
    "GET",
    "/api/pro/trip-pack",
    price="$0.03",
    example={"place": "tokyo", "days": 5, "budget_twd": 20000},
    rests_on=(FX, FxRateRecord),  # the budget is converted at the bank's board: not sold on the sample board
)
def trip_pack(p: TripPackQuery) -> TripPack:
    """Everything for one trip starting today, in one answer.

    Destination, entry rules over the trip, the budget converted at the bank's selling rates, eSIM
    estimate, Japan tax-free rules and the Taiwan holidays inside the trip."""
    data, cal, today = TRIP_DATA.get(), _calendar(), today_taipei()
    place = place_out(data, _place(data, p.place))
    start, end = logic.trip_window(today, p.days)
    country = data.countries.get(place.country)
    entry_items = country.for_window(start, end) if country else []
    entry_notes = [
        f"{i.title}: applies up to {i.valid_until}, and the trip runs to {end}."
        for i in entry_items
        if i.valid_until and i.valid_until < end
    ] + [
        f"{i.title}: applies from {i.valid_from}, inside the trip."
        for i in entry_items
        if i.valid_from and start < i.valid_from <= end
    ]
    conversion: list[BudgetConversion] = []
    fx = data.rates.get(place.currency)
    if fx is not None:
        for kind in fx.posted_types():
            c = logic.convert(fx, "buy", kind, Decimal(p.budget_twd))  # type: ignore[arg-type]
            conversion.append(
                BudgetConversion(
                    type=kind,
                    rate=float(c.rate),
                    budget_twd=p.budget_twd,
                    get=Money(currency=c.get_currency, amount=float(c.get_amount)),
                    spread_cost_twd=float(c.spread_cost_twd),
                )
            )
    days_off = [d for d in sorted(cal.days_off.values(), key=lambda d: d.date) if start <= d.date <= end]
    uncovered = sorted({y for y in range(start.year, end.year + 1) if not cal.covers(y)})
    holiday_notes = [
        f"The official calendar for {y} is not in the store yet; only weekends are known." for y in uncovered
    ]
    taxfree = _taxfree(data, today) if place.country == "JP" else None
    esim = _esim(data, p.days, "moderate")
    sources = [place.source, *(i.source_ref for i in entry_items), esim.source]
    if fx is not None:
        sources.append(fx.source_ref)
    if taxfree:
        sources += taxfree.sources
    sources += calendar_sources(cal, list(range(start.year, end.year + 1)))
    return TripPack(
        as_of=today,
        start=start,
        end=end,
        days=p.days,
        place=place,
        entry=[entry_item_out(i) for i in entry_items],
        entry_notes=entry_notes,
        conversion=conversion,
        esim=esim,
        japan_taxfree=taxfree,
        holidays=[day_off_out(cal, d) for d in days_off],
        long_weekends=[break_out(cal, b) for b in _breaks_overlapping(cal, start, end)],
        holiday_notes=holiday_notes,
        sample=fx.sample if fx else False,
        sources=dedupe(sources),
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=(FX, FxRateRecord))
def export() -> Export:
    """All the service's data with sources.

    Rate board, entry rules, places, tax-free rules, theme parks, eSIM levels, domestic travel,
    holidays and booking."""
    data, cal, today = TRIP_DATA.get(), _calendar(), today_taipei()
    fx = _board(data, None)
    entry = [_entry(data, c, today) for c in data.countries]
    places = _places(data, None)
    taxfree = _taxfree(data, today)
    parks = _themeparks(data)
    esim = [_esim(data, 1, u) for u in data.esim_profiles]
    domestic = _domestic(data, today)
    holidays = _holidays(cal, today)
    booking_ = _booking(data)
    sources = [
        *fx.sources,
        *(s for e in entry for s in e.sources),
        *places.sources,
        *taxfree.sources,
        *parks.sources,
        *(e.source for e in esim),
        *domestic.sources,
        *holidays.sources,
        *booking_.sources,
    ]
    return Export(
        as_of=today,
        fx=fx,
        entry=entry,
        places=places,
        japan_taxfree=taxfree,
        themeparks=parks,
        esim_levels=esim,
        domestic=domestic,
        holidays=holidays,
        booking=booking_,
        sources=dedupe(sources),
    )
