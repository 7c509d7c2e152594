"""The trip service's operations: thin adapters from parameters to the answers in `logic`."""

from __future__ import annotations

from decimal import Decimal

from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.trip.data import TRIP_DATA, taiwan_calendar
from twlookup.services.trip.feeds import FX
from twlookup.services.trip.logic import answers, calendar, pack
from twlookup.services.trip.schemas import (
    Booking,
    ConvertQuery,
    ConvertResult,
    Domestic,
    Entry,
    EntryQuery,
    EsimQuery,
    EsimResult,
    Export,
    FxBoard,
    FxQuery,
    Holidays,
    JapanTaxFree,
    Places,
    PlacesQuery,
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
SERVICE.feed(FX)  # Bank of Taiwan's posted-rate CSV (twlookup refresh trip.fx)
add_status_route(SERVICE)


# ---------------------------------------------------------------- free operations


@SERVICE.operation("GET", "/api/fx", tool="exchange_rates")
def exchange_rates(p: FxQuery) -> FxBoard:
    """Bank of Taiwan's posted rates (cash and spot, buying and selling), all or the listed currencies."""
    codes = list(dict.fromkeys(p.cur.split(","))) if p.cur else None
    return answers.board(TRIP_DATA.get(), codes)


@SERVICE.operation("GET", "/api/fx/convert", tool="convert_currency")
def convert_currency(p: ConvertQuery) -> ConvertResult:
    """Convert at the side of the bank's spread a traveller actually gets.

    buy: TWD to foreign currency at the bank's selling rate; sell: foreign currency to TWD at the
    bank's buying rate; for cash or spot."""
    fx = answers.rate(TRIP_DATA.get(), p.cur)
    return answers.conversion(fx, p.direction, p.type, Decimal(str(p.amount)))


@SERVICE.operation("GET", "/api/entry", tool="entry_requirements")
def entry_requirements(p: EntryQuery) -> Entry:
    """Entry preparation for Taiwan passport holders going to Japan, Korea or Vietnam.

    The rules in force today, and the changes already announced."""
    return answers.entry(TRIP_DATA.get(), p.country, today_taipei())


@SERVICE.operation("GET", "/api/places", tool="destination_info")
def destination_info(p: PlacesQuery) -> Places:
    """Destinations: country, currency and the bank's rate for it, time difference with Taiwan, nearby theme parks."""
    return answers.places(TRIP_DATA.get(), p.id)


@SERVICE.operation("GET", "/api/japan-taxfree", tool="japan_taxfree_rules")
def japan_taxfree_rules() -> JapanTaxFree:
    """Japan's tax-free shopping for visitors as in force now: the refund method from 2026-11-01."""
    return answers.taxfree(TRIP_DATA.get(), today_taipei())


@SERVICE.operation("GET", "/api/themepark", tool="themepark_tickets")
def themepark_tickets() -> Themeparks:
    """Theme-park ticket rules and official ticket pages (prices vary by date and are not listed)."""
    return answers.themeparks(TRIP_DATA.get())


@SERVICE.operation("GET", "/api/esim/estimate", tool="esim_estimate")
def esim_estimate(p: EsimQuery) -> EsimResult:
    """Mobile data a trip needs for a usage level, with the method and a suggested plan size."""
    return answers.esim(TRIP_DATA.get(), p.days, p.usage)


@SERVICE.operation("GET", "/api/domestic", tool="domestic_travel")
def domestic_travel() -> Domestic:
    """Travel inside Taiwan: high-speed rail and railway booking windows and holiday ticket sale dates."""
    return answers.domestic(TRIP_DATA.get(), today_taipei())


@SERVICE.operation("GET", "/api/holidays", tool="taiwan_holidays")
def taiwan_holidays() -> Holidays:
    """Taiwan's upcoming holidays and long weekends from the official government calendar."""
    return calendar.holidays(taiwan_calendar(), today_taipei())


@SERVICE.operation("GET", "/api/booking")
def booking() -> Booking:
    """What to book or file before a trip, and how far ahead."""
    return answers.booking(TRIP_DATA.get())


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
    return pack.trip_pack(TRIP_DATA.get(), taiwan_calendar(), today_taipei(), p.place, p.days, p.budget_twd)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=(FX, FxRateRecord))
def export() -> Export:
    """All the service's data with sources.

    Rate board, entry rules, places, tax-free rules, theme parks, eSIM levels, domestic travel,
    holidays and booking."""
    return pack.export(TRIP_DATA.get(), taiwan_calendar(), today_taipei())
