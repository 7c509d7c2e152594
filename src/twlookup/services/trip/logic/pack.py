"""The paid answers, each gathered from the free ones: the pack for one trip and the export of
all the service's data, with every source once."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from twlookup.domain.provenance import distinct_sources
from twlookup.domain.taiwan_calendar import TaiwanCalendar
from twlookup.services.trip.logic import answers
from twlookup.services.trip.logic.calendar import break_out, breaks_overlapping, calendar_sources, day_off_out, holidays
from twlookup.services.trip.logic.rules import convert, trip_window
from twlookup.services.trip.schemas import BudgetConversion, Export, Money, TripPack

if TYPE_CHECKING:
    from twlookup.services.trip.data import TripData


def trip_pack(data: TripData, cal: TaiwanCalendar, today: date, place_id: str, days: int, budget_twd: int) -> TripPack:
    """Destination, entry rules over the trip, the budget converted at the bank's selling rates,
    eSIM estimate, Japan tax-free rules and the Taiwan holidays inside a trip starting today."""
    place = answers.place_out(data, answers.place(data, place_id))
    start, end = trip_window(today, days)
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
            c = convert(fx, "buy", kind, Decimal(budget_twd))
            conversion.append(
                BudgetConversion(
                    type=kind,
                    rate=float(c.rate),
                    budget_twd=budget_twd,
                    get=Money(currency=c.get_currency, amount=float(c.get_amount)),
                    spread_cost_twd=float(c.spread_cost_twd),
                )
            )
    days_off = [d for d in sorted(cal.days_off.values(), key=lambda d: d.date) if start <= d.date <= end]
    uncovered = sorted({y for y in range(start.year, end.year + 1) if not cal.covers(y)})
    holiday_notes = [
        f"The official calendar for {y} is not in the store yet; only weekends are known." for y in uncovered
    ]
    taxfree = answers.taxfree(data, today) if place.country == "JP" else None
    esim = answers.esim(data, days, "moderate")
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
        days=days,
        place=place,
        entry=[answers.entry_item_out(i) for i in entry_items],
        entry_notes=entry_notes,
        conversion=conversion,
        esim=esim,
        japan_taxfree=taxfree,
        holidays=[day_off_out(cal, d) for d in days_off],
        long_weekends=[break_out(cal, b) for b in breaks_overlapping(cal, start, end)],
        holiday_notes=holiday_notes,
        sample=fx.sample if fx else False,
        sources=distinct_sources(sources),
    )


def export(data: TripData, cal: TaiwanCalendar, today: date) -> Export:
    """Rate board, entry rules, places, tax-free rules, theme parks, eSIM levels, domestic travel,
    holidays and booking."""
    fx = answers.board(data, None)
    entry = [answers.entry(data, c, today) for c in data.countries]
    places = answers.places(data, None)
    taxfree = answers.taxfree(data, today)
    parks = answers.themeparks(data)
    esim = [answers.esim(data, 1, u) for u in data.esim_profiles]
    domestic = answers.domestic(data, today)
    days_off = holidays(cal, today)
    booking = answers.booking(data)
    sources = [
        *fx.sources,
        *(s for e in entry for s in e.sources),
        *places.sources,
        *taxfree.sources,
        *parks.sources,
        *(e.source for e in esim),
        *domestic.sources,
        *days_off.sources,
        *booking.sources,
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
        holidays=days_off,
        booking=booking,
        sources=distinct_sources(sources),
    )
