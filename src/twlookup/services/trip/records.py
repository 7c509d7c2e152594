"""The trip service's typed records, each declared once: a currency on Bank of Taiwan's posted
board (data/trip/fx_rates.yaml, feed trip.fx), an entry rule (entry.yaml), a Japan tax-free rule
(japan_taxfree.yaml) and an eSIM usage profile (esim.yaml). The data files are validated against
them when seeding; the logic works on them and answers are built from them."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from twlookup.platform.records import Record, SourcedRecord
from twlookup.platform.schemas import TAIPEI

Direction = Literal["buy", "sell"]
RateType = Literal["cash", "spot"]


def as_decimal(value: Any) -> Decimal | None:
    """A stored float rate as the exact decimal it was written as (0.2046, not its binary neighbour)."""
    return None if value is None else Decimal(repr(float(value)))


Rate = Annotated[Decimal | None, BeforeValidator(as_decimal)]


class FxRate(SourcedRecord):
    """One currency on the bank's board, TWD per unit; None where the bank posts no such rate."""

    currency: str
    name_zh: str | None = None
    cash_buy: Rate = None
    cash_sell: Rate = None
    spot_buy: Rate = None
    spot_sell: Rate = None
    posted_at: datetime  # the bank's posting time, Taiwan time

    @field_validator("posted_at")
    @classmethod
    def _taipei(cls, value: datetime) -> datetime:
        return value if value.tzinfo else value.replace(tzinfo=TAIPEI)

    def rate(self, direction: Direction, kind: RateType) -> Decimal | None:
        """The rate the traveller gets: the bank sells to a buyer and buys from a seller."""
        side = "sell" if direction == "buy" else "buy"
        return getattr(self, f"{kind}_{side}")

    def posted_types(self) -> list[RateType]:
        kinds: tuple[RateType, ...] = ("cash", "spot")
        return [k for k in kinds if getattr(self, f"{k}_buy") is not None and getattr(self, f"{k}_sell") is not None]


class EntryItem(SourcedRecord):
    country: str
    id: str
    title: str
    requirement: Literal["required", "not_required", "recommended", "conditional"] = Field(
        description="required, not_required, recommended or conditional"
    )
    detail: str
    valid_from: date | None = None
    valid_until: date | None = None

    def in_force(self, day: date) -> bool:
        return (self.valid_from is None or self.valid_from <= day) and (
            self.valid_until is None or day <= self.valid_until
        )

    def overlaps(self, start: date, end: date) -> bool:
        return (self.valid_from is None or self.valid_from <= end) and (
            self.valid_until is None or start <= self.valid_until
        )


class Country(Record):
    code: str
    name_en: str
    name_zh: str
    items: tuple[EntryItem, ...]

    def in_force(self, day: date) -> list[EntryItem]:
        return [i for i in self.items if i.in_force(day)]

    def for_window(self, start: date, end: date) -> list[EntryItem]:
        """Items that apply on some day of [start, end] (both sides of a rule change show)."""
        return [i for i in self.items if i.overlaps(start, end)]

    def upcoming_changes(self, day: date) -> list[EntryItem]:
        """Items that start after `day`: rule changes already announced."""
        return [i for i in self.items if i.valid_from is not None and i.valid_from > day]


class TaxFreeRule(SourcedRecord):
    id: str
    title: str
    detail: str


class EsimProfile(Record):
    id: str
    gb_per_day: Annotated[Decimal, BeforeValidator(lambda v: Decimal(str(v)))]
    covers: str


# ---------------------------------------------------------------- guides (places.yaml, themeparks.yaml, domestic.yaml, booking.yaml)


class PlaceFacts(Record):
    id: str
    name_en: str
    name_zh: str
    country: str
    currency: str
    timezone: str
    utc_offset_hours: int


class Place(PlaceFacts, SourcedRecord):
    """A destination: its country, currency and time zone."""


class ThemeparkFacts(Record):
    id: str
    name_en: str
    name_zh: str
    place: str
    country: str
    ticket_rules: tuple[str, ...]
    tickets_url: str


class Themepark(ThemeparkFacts, SourcedRecord):
    """A theme park's ticket rules and official ticket page."""


class RailModeFacts(Record):
    id: str
    name_en: str
    name_zh: str
    booking_window_days: int
    booking_rule: str
    holiday_rule: str


class RailMode(RailModeFacts, SourcedRecord):
    """High-speed rail or the railway: how far ahead tickets are sold."""


class TicketSaleFacts(Record):
    id: str
    name_en: str
    start: date
    end: date
    tra_opens: date
    thsr_opens: date


class TicketSale(TicketSaleFacts, SourcedRecord):
    """When tickets for a holiday break go on sale."""


class BookingTipFacts(Record):
    id: str
    title: str
    country: str
    lead_time: str
    detail: str


class BookingTip(BookingTipFacts, SourcedRecord):
    """Something to book or file before a trip, and how far ahead."""
