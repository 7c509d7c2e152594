"""Parameters and results of the trip service's operations."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.trip.records import (
    BookingTipFacts,
    EntryItem,
    PlaceFacts,
    RailModeFacts,
    ThemeparkFacts,
    TicketSaleFacts,
)

COUNTRIES = ("JP", "KR", "VN")
MAX_AMOUNT = 100_000_000
MAX_ESIM_DAYS = 90
MAX_PACK_DAYS = 30
MAX_BUDGET_TWD = 10_000_000


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


CurrencyCode = Annotated[
    str,
    Field(pattern=r"^[A-Za-z]{3}$", description="ISO 4217 currency code on the bank's board, e.g. JPY (any case)"),
    AfterValidator(str.upper),
]
CurrencyList = Annotated[str, Field(pattern=r"^[A-Za-z]{3}(,[A-Za-z]{3}){0,29}$"), AfterValidator(str.upper)]
PlaceId = Annotated[str, Field(pattern=r"^[a-z0-9-]{1,40}$", description="Destination id from /api/places, e.g. tokyo")]


# ---------------------------------------------------------------- parameters


class FxQuery(Params):
    cur: CurrencyList | None = Field(
        None, description="Comma-separated currency codes, e.g. JPY,KRW (any case); all posted currencies when omitted"
    )


class ConvertQuery(Params):
    amount: float = Field(
        gt=0,
        le=MAX_AMOUNT,
        allow_inf_nan=False,
        description=(
            "What you hand over: TWD when direction=buy, the foreign currency when direction=sell; "
            "no more decimals than that currency uses (whole units for JPY, KRW, VND; 2 decimals otherwise)"
        ),
    )
    cur: CurrencyCode
    direction: Literal["buy", "sell"] = Field(
        "buy",
        description=(
            "buy: you buy the foreign currency with TWD, at the bank's selling rate (本行賣出); "
            "sell: you sell foreign currency for TWD, at the bank's buying rate (本行買入). Default buy"
        ),
    )
    type: Literal["cash", "spot"] = Field(
        "cash",
        description="cash: banknotes over the counter (現金匯率); spot: account transfer (即期匯率). Default cash",
    )


class EntryQuery(Params):
    country: Annotated[
        Literal["JP", "KR", "VN"],
        BeforeValidator(_upper),
        Field(description="JP (Japan), KR (Korea) or VN (Vietnam); any case"),
    ]


class PlacesQuery(Params):
    id: PlaceId | None = Field(None, description="Destination id, e.g. tokyo; all destinations when omitted")


class EsimQuery(Params):
    days: int = Field(ge=1, le=MAX_ESIM_DAYS, description=f"Trip length in days (1 to {MAX_ESIM_DAYS})")
    usage: Literal["light", "moderate", "heavy"] = Field(
        "moderate",
        description=(
            "light: maps, messaging, e-mail (0.5 GB a day); moderate: plus social media and some SD video (1.5 GB); "
            "heavy: plus about an hour of HD video or tethering (4 GB). Default moderate"
        ),
    )


class TripPackQuery(Params):
    place: PlaceId
    days: int = Field(ge=1, le=MAX_PACK_DAYS, description=f"Trip length in days from today (1 to {MAX_PACK_DAYS})")
    budget_twd: int = Field(
        ge=1, le=MAX_BUDGET_TWD, description=f"Spending money in TWD to convert (1 to {MAX_BUDGET_TWD:,})"
    )


# ---------------------------------------------------------------- results


class FxRateOut(LazyModel):
    currency: str
    name_zh: str | None
    cash_buy: float | None = Field(description="Bank buys banknotes from you (現金 本行買入), TWD per unit")
    cash_sell: float | None = Field(description="Bank sells banknotes to you (現金 本行賣出), TWD per unit")
    spot_buy: float | None = Field(description="Bank buys by transfer (即期 本行買入), TWD per unit")
    spot_sell: float | None = Field(description="Bank sells by transfer (即期 本行賣出), TWD per unit")
    cash_spread_percent: float | None = Field(description="(selling - buying) / midpoint, cash")
    spot_spread_percent: float | None = Field(description="(selling - buying) / midpoint, spot")
    posted_types: list[str] = Field(description="Which of cash and spot the bank posts for this currency")
    posted_at: datetime = Field(description="When the bank posted the board, Taiwan time")
    source: Source


class FxBoard(LazyModel):
    posted_at: datetime | None
    count: int
    sample: bool = Field(
        description="True while the store holds the shipped sample board, not one imported from the bank"
    )
    note: str
    rates: list[FxRateOut]
    sources: list[Source]


class Money(LazyModel):
    currency: str
    amount: float


class ConvertResult(LazyModel):
    posted_at: datetime
    direction: Literal["buy", "sell"]
    type: Literal["cash", "spot"]
    direction_meaning: str
    type_meaning: str
    rate: float = Field(description="TWD per unit: the side of the spread applied")
    bank_rate: str = Field(description="Which posted rate that is")
    pay: Money
    get: Money
    at_midpoint: Money = Field(description="What the same amount would give at the midpoint of buying and selling")
    spread_cost_twd: float = Field(description="What the spread costs you, in TWD")
    rounding: str
    sample: bool
    source: Source


class EntryItemOut(RecordAnswer, record=EntryItem, exclude=("country",)):
    """An entry rule: the record's fields and its provenance as `source`."""


class Entry(LazyModel):
    country: str
    name_en: str
    name_zh: str
    as_of: date
    passport: str
    items: list[EntryItemOut] = Field(description="Rules in force today")
    upcoming_changes: list[EntryItemOut] = Field(description="Announced rules that start later")
    sources: list[Source]


class FxSummary(LazyModel):
    currency: str
    cash_sell: float | None
    spot_sell: float | None
    posted_at: datetime
    sample: bool


class PlaceOut(PlaceFacts):
    country_name_en: str | None
    hours_from_taiwan: int = Field(description="Local time minus Taiwan time (UTC+8)")
    fx: FxSummary | None = Field(description="Bank of Taiwan's selling rates for the local currency")
    themeparks: list[str] = Field(description="Theme-park ids near this place (see /api/themepark)")
    entry: str = Field(description="Where the entry rules are")
    source: Source


class Places(LazyModel):
    count: int
    places: list[PlaceOut]
    sources: list[Source]


class TaxFreeRuleOut(LazyModel):
    id: str
    title: str
    detail: str
    source: Source


class RefundExample(LazyModel):
    description: str
    price_including_tax_jpy: int
    rate: float
    refund_jpy: int


class JapanTaxFree(LazyModel):
    as_of: date
    regime: str
    regime_id: str
    in_force_from: date
    in_force: bool = Field(description="Whether this regime applies to purchases made today")
    replaced: str
    minimum_jpy_excluding_tax: int
    customs_deadline_days: int
    high_value_unit_jpy_excluding_tax: int
    standard_rate: float
    reduced_rate: float
    reduced_applies_to: str
    rules: list[TaxFreeRuleOut]
    examples: list[RefundExample]
    sources: list[Source]


class ThemeparkOut(ThemeparkFacts):
    price: None = Field(None, description="Not given: prices vary by date; the official site lists them")
    source: Source


class Themeparks(LazyModel):
    count: int
    note: str
    parks: list[ThemeparkOut]
    sources: list[Source]


class EsimResult(LazyModel):
    days: int
    usage: str
    covers: str
    gb_per_day: float
    base_gb: float
    margin_percent: float
    total_gb: float
    suggested_plan_gb: int | None = Field(
        description="Smallest usual plan size that holds total_gb; null above the largest (consider an unlimited plan)"
    )
    method: str
    usage_levels: dict[str, float] = Field(description="GB per day of every usage value")
    price: None = Field(None, description="Not estimated: no sourced price list is held")
    source: Source


class DomesticMode(RailModeFacts):
    source: Source


class HolidaySale(TicketSaleFacts):
    tra_on_sale: bool = Field(description="Taiwan Railway tickets for this break are on sale today")
    thsr_on_sale: bool
    source: Source


class Domestic(LazyModel):
    as_of: date
    modes: list[DomesticMode]
    ordinary_booking_opens_today_for: date = Field(
        description="Travel day whose ordinary tickets go on sale today (today + 28 days)"
    )
    holiday_sales: list[HolidaySale] = Field(description="Ticket sale dates of long weekends that have not ended")
    sources: list[Source]


class DayOffOut(LazyModel):
    date: date
    weekday: str
    name_en: str
    name_zh: str
    kind: str = Field(description="holiday, observed (make-up day off) or bridge")
    source: Source = Field(description="The official calendar of that year")


class BreakOut(LazyModel):
    start: date
    end: date
    days: int
    holidays: list[str]
    source: Source = Field(description="The official calendar of the year the break starts in")


class Holidays(LazyModel):
    as_of: date
    years: list[int] = Field(description="Years the official calendar in the store covers")
    count: int
    holidays: list[DayOffOut] = Field(description="Holidays from today to the end of the last covered year")
    next_holiday: DayOffOut | None
    long_weekends: list[BreakOut] = Field(description="Runs of 3 or more days off holding a holiday, not yet ended")
    sources: list[Source]


class BookingItem(BookingTipFacts):
    source: Source


class Booking(LazyModel):
    count: int
    items: list[BookingItem]
    sources: list[Source]


class BudgetConversion(LazyModel):
    type: str
    rate: float
    budget_twd: int
    get: Money
    spread_cost_twd: float


class TripPack(LazyModel):
    as_of: date
    start: date
    end: date
    days: int
    place: PlaceOut
    entry: list[EntryItemOut] = Field(description="Entry rules that apply on some day of the trip")
    entry_notes: list[str]
    conversion: list[BudgetConversion] = Field(
        description="The budget bought at the bank's selling rates, each posted type"
    )
    esim: EsimResult
    japan_taxfree: JapanTaxFree | None = Field(description="For trips to Japan")
    holidays: list[DayOffOut] = Field(description="Taiwan holidays inside the trip")
    long_weekends: list[BreakOut] = Field(description="Taiwan long weekends overlapping the trip")
    holiday_notes: list[str]
    sample: bool = Field(description="True when any part rests on sample data (the shipped rate board)")
    sources: list[Source]


class Export(LazyModel):
    as_of: date
    fx: FxBoard
    entry: list[Entry]
    places: Places
    japan_taxfree: JapanTaxFree
    themeparks: Themeparks
    esim_levels: list[EsimResult] = Field(description="Each usage level for a 1-day trip")
    domestic: Domestic
    holidays: Holidays
    booking: Booking
    sources: list[Source]
