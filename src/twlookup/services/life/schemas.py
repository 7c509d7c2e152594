"""Parameters and results of the life service's operations."""

from __future__ import annotations

import datetime as dt
import re
from datetime import date
from typing import Annotated, Literal

from pydantic import Field, field_validator

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.life.logic.fuel import FREE_FUEL_WEEKS
from twlookup.services.life.logic.invoice import PERIOD_PATTERN, ClaimStatus
from twlookup.services.life.records import Draw, FuelPrice, GameFacts, InvoicePeriod, InvoicePrize, Reported, Tier

BATCH_LIMIT = 500
LOTTERY_DRAWS = 20
GameName = Literal["lotto649", "superlotto638", "daily539"]
Product = Literal["92", "95", "98", "diesel"]
PRODUCT_DOC = "92, 95 or 98 (unleaded gasoline, RON) or diesel (premium diesel, 超級柴油)"
NUMBER_PATTERN = r"^[0-9]{8}$"  # ASCII digits: Python's \d also matches full-width digits
PERIOD_OR_LATEST = r"^([0-9]{3}-(01-02|03-04|05-06|07-08|09-10|11-12)|latest)$"

NUMBER_RULE = "an 8-digit receipt number in ASCII digits 0-9, without the two letters, e.g. 97023797"
PERIOD_RULE = (
    "a two-month period NNN-MM-MM in ROC years and ASCII digits, odd month first "
    "(01-02, 03-04, 05-06, 07-08, 09-10 or 11-12), e.g. 114-11-12"
)


def _number(value: object) -> object:
    """Say what a receipt number must be (the pattern alone would answer with a regex)."""
    if isinstance(value, str) and not re.fullmatch(NUMBER_PATTERN, value):
        raise ValueError(f"must be {NUMBER_RULE}; got {value!r}")
    if isinstance(value, int):  # a JSON number would drop leading zeros (00507588 was a grand prize)
        raise ValueError(f"must be a string: {NUMBER_RULE} (as a number its leading zeros are lost); got {value!r}")
    return value


def _period(value: object, latest: bool = False) -> object:
    if isinstance(value, str) and not re.fullmatch(PERIOD_OR_LATEST if latest else PERIOD_PATTERN, value):
        raise ValueError(f"must be {PERIOD_RULE}{' or latest' if latest else ''}; got {value!r}")
    return value


# ---------------------------------------------------------------- holidays


class YearQuery(Params):
    year: int = Field(
        ge=1912, le=2200, description="Gregorian year; the years the official calendar covers are listed in errors"
    )


class DateQuery(Params):
    date: dt.date = Field(description="Date as YYYY-MM-DD")


class HolidayOut(LazyModel):
    date: dt.date
    weekday: str
    name_zh: str
    name_en: str
    kind: str = Field(description="holiday, observed (moved from a weekend) or bridge (extra day off)")


class BreakOut(LazyModel):
    start: date
    end: date
    days: int
    holidays: list[HolidayOut]


class MakeupOut(LazyModel):
    date: dt.date
    weekday: str
    pays_back: dt.date | None = Field(description="The bridge day off this workday makes up for")


class HolidaysYear(LazyModel):
    year: int
    official: bool = Field(description="True when the year's calendar is the government's published one")
    holidays: list[HolidayOut]
    long_weekends: list[BreakOut] = Field(description="Runs of 3+ days off that contain a holiday")
    makeup_workdays: list[MakeupOut]
    days_off: int = Field(description="All days off in the year, weekends included")
    sources: list[Source]


class NextHoliday(LazyModel):
    today: date
    today_off: bool
    today_reason: str | None
    next_holiday: HolidayOut | None
    days_until_next_holiday: int | None
    next_long_weekend: BreakOut | None
    nearby: list[HolidayOut] = Field(description="Holidays from 30 days before today to 60 days after")
    covered_years: list[int]
    note: str | None = None
    sources: list[Source]


class IsHoliday(LazyModel):
    date: dt.date
    weekday: str
    off: bool
    reason: str | None = Field(description="Holiday name, 'Weekend', or null for a workday")
    holiday: HolidayOut | None
    makeup_workday: bool = Field(description="A weekend day that is a working day to make up for a bridge holiday")
    labor_law_day_off: bool = Field(
        description="Off for workers under the Labor Standards Act although the government office calendar has "
        "it as a workday (`off` follows the government calendar): Labor Day, May 1, before 2026"
    )
    run: BreakOut | None = Field(description="The run of consecutive days off this date belongs to")
    note: str | None = Field(
        None, description="Who has the day off when the Labor Standards Act and the government calendar differ"
    )
    sources: list[Source]


# ---------------------------------------------------------------- receipt lottery


class PeriodQuery(Params):
    period: str = Field(
        "latest",
        pattern=PERIOD_OR_LATEST,
        description="Period as NNN-MM-MM in ROC years (e.g. 114-11-12 for November-December 2025), or latest",
    )

    _check_period = field_validator("period", mode="before")(lambda v: _period(v, latest=True))


class PrizeRuleOut(RecordAnswer, record=InvoicePrize, exclude=("key",)):
    prize: str = Field(description="The prize's key: special, grand, first ... sixth, additional_sixth")


# What an answer about one period says when a newer period has been drawn (numbers and checks alike)
NewestDrawnPeriod = Annotated[
    str, Field(description="The newest period drawn by today (Taipei); when it is not `period`, see `note`")
]
NewerPeriodNote = Annotated[
    str | None,
    Field(
        description="Set when `period` was chosen as the latest but a newer period has been drawn whose numbers the store lacks"
    ),
]


class InvoiceNumbers(RecordAnswer, record=InvoicePeriod):
    months: str = Field(description="Gregorian year and months, e.g. 2025-11/12")
    draw_date: date
    claim_start: date
    claim_end: date
    claim_status: ClaimStatus
    prizes: list[PrizeRuleOut]
    claim_notes: str
    known_periods: list[str]
    newest_drawn_period: NewestDrawnPeriod
    note: NewerPeriodNote = None
    sample: bool
    source: Source
    sources: list[Source]


class InvoiceCheckQuery(Params):
    number: str = Field(pattern=NUMBER_PATTERN, description="The receipt's 8-digit number (without the 2-letter track)")
    period: str | None = Field(
        None, pattern=PERIOD_PATTERN, description="Period NNN-MM-MM (ROC year); omit for the latest"
    )

    _check_number = field_validator("number", mode="before")(_number)
    _check_period = field_validator("period", mode="before")(_period)


class InvoiceCheck(Reported):
    number: str
    period: str
    won: bool
    prize: str | None = Field(
        description="special, grand, first, second, third, fourth, fifth, sixth or additional_sixth"
    )
    prize_zh: str | None
    amount: int = Field(description="NT$; 0 when not won")
    matched: str | None = Field(description="The winning number whose digits matched")
    rule: str | None
    draw_date: date
    claim_start: date
    claim_end: date
    claim_status: ClaimStatus
    newest_drawn_period: NewestDrawnPeriod
    note: NewerPeriodNote = None
    sample: bool
    source: Source


class Receipt(LazyModel):
    number: str = Field(pattern=NUMBER_PATTERN, description="8-digit receipt number")
    period: str | None = Field(None, pattern=PERIOD_PATTERN, description="Period NNN-MM-MM; omit for the latest")

    _check_number = field_validator("number", mode="before")(_number)
    _check_period = field_validator("period", mode="before")(_period)


class BatchBody(Params):
    receipts: list[Receipt] = Field(
        min_length=1,
        max_length=BATCH_LIMIT,
        description='Up to 500 receipts, e.g. [{"number": "97023797", "period": "114-11-12"}, {"number": "12345678"}]',
    )


class BatchItem(LazyModel):
    index: int
    number: str
    period: str | None
    result: InvoiceCheck | None
    error: str | None = Field(description="Why this receipt could not be checked (e.g. a period with no numbers yet)")


class BatchResult(LazyModel):
    checked: int
    won: int
    total_amount: int = Field(description="NT$ before tax and stamp duty")
    results: list[BatchItem]
    claim_notes: str
    sample: bool
    sources: list[Source]


# ---------------------------------------------------------------- lottery


class GameQuery(Params):
    game: GameName = Field(description="lotto649 (大樂透), superlotto638 (威力彩) or daily539 (今彩539)")


class TierOut(RecordAnswer, record=Tier, exclude=("main", "extra")):
    match: str = Field(description="Main numbers matched, '+ special' when the special/zone-2 number must also match")
    pari_mutuel: bool


class DrawOut(RecordAnswer, record=Draw):
    claim_until: date
    sample: bool
    source: Source


class GameInfo(GameFacts):
    game: str
    tiers: list[TierOut]
    pool_rule: str
    sources: list[Source]


class LatestDraws(LazyModel):
    draws: list[DrawOut]
    claim_rule: str
    stale_note: str | None = Field(
        None, description="Set when the newest draw in the store is over a week old: newer draws are missing"
    )
    sample: bool
    sources: list[Source]


class GameDraws(LatestDraws):
    game: GameInfo
    count: int
    limit: int


class LotteryCheckQuery(Params):
    game: GameName = Field(description="lotto649, superlotto638 or daily539")
    numbers: str = Field(
        min_length=1,
        max_length=60,
        pattern=r"^ *[0-9]{1,2}( *, *[0-9]{1,2})* *$",
        description="Comma-separated picks: 6 of 1-49 (lotto649), 6 of 1-38 (superlotto638) or 5 of 1-39 (daily539)",
    )
    second: int | None = Field(None, ge=1, le=8, description="superlotto638 only: the zone-2 pick, 1 to 8")
    period: str | None = Field(
        None, pattern=r"^[0-9]{9}$", description="Draw number (9 digits); omit for the latest draw"
    )


class LotteryCheck(LazyModel):
    game: str
    numbers: list[int]
    second: int | None
    draw: DrawOut
    matched: list[int]
    matched_count: int
    extra_matched: bool = Field(
        description="lotto649: the special number is among the picks; superlotto638: zone 2 matched"
    )
    won: bool
    tier: TierOut | None
    amount: int | None = Field(description="Fixed prize in NT$; null when not won or pari-mutuel")
    note: str
    stale_note: str | None = Field(
        None, description="Set when the newest draw in the store is over a week old: newer draws are missing"
    )
    sample: bool
    sources: list[Source]


# ---------------------------------------------------------------- fuel


class FuelWeekOut(RecordAnswer, record=FuelPrice, exclude=("product",)):
    price: float = Field(description="NT$ per litre, tax included")
    change: float | None = Field(
        description="Against the posted week before (7 days earlier); null when that week is not in the store"
    )
    sample: bool
    source: Source


class FuelNow(RecordAnswer, record=FuelPrice, exclude=("note",)):
    name_zh: str
    name_en: str
    price: float = Field(description="NT$ per litre, tax included")
    previous_price: float | None = Field(
        description="Price of the week before; null when that week is not in the store"
    )
    change: float | None = Field(
        description="NT$ per litre against the week before; null when that week is not in the store"
    )
    sample: bool
    source: Source


class FuelPrices(LazyModel):
    as_of: date
    effective: date = Field(description="Effective date of the newest posted prices the store holds")
    age_days: int = Field(
        description="Days since `effective`; above 7 the store has not received this week's prices yet"
    )
    products: list[FuelNow]
    note: str
    sample: bool
    sources: list[Source]


class FuelQuery(Params):
    product: Product = Field(description=PRODUCT_DOC)


class FuelHistory(LazyModel):
    product: str
    name_zh: str
    name_en: str
    weeks: int
    limit: int | None = Field(
        description=f"Free history shows the latest {FREE_FUEL_WEEKS} weeks; the paid route has no limit"
    )
    history: list[FuelWeekOut] = Field(description="Newest first")
    minimum: float
    maximum: float
    sample: bool
    sources: list[Source]
