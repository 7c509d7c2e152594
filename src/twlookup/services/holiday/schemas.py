"""Parameters and results of the holiday service's operations."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import IsoDate, LazyModel, Source
from twlookup.services.holiday.records import FlightNotes, FlightRule, GuideSection, Peak

YEAR = 2027
DEFAULT_PLANS = 8
MAX_PLANS = 20
MAX_LEAVE = 30
MAX_CROWD_DAYS = 60
MAX_COUNTRIES = 5
MAX_DEPART_AHEAD_DAYS = 730
COUNTRY_ALIASES = {"UK": "GB"}


@cache
def supported_countries() -> tuple[str, ...]:
    """ISO 3166-1 alpha-2 codes the installed `holidays` package has a calendar for.

    Read from the package's registry of country codes: `holidays.list_supported_countries()` gives
    the same codes but imports all of its 250 country modules to list their subdivisions, about
    8 MB that a process serving no other country would keep for good. Imported here, when the
    list is first needed, not when the app starts."""
    from holidays.registry import EntityLoader

    codes = EntityLoader.get_country_codes(include_aliases=False)
    return tuple(sorted(c for c in codes if len(c) == 2 and c not in COUNTRY_ALIASES))


@dataclass(frozen=True)
class CountryCodeSchema:
    """The JSON schema of a country code: the supported codes as an enum. Listing them loads every
    calendar of the holidays package, so it is done when a schema is first asked for, not at import."""

    def __get_pydantic_json_schema__(self, _core_schema: Any, _handler: Any) -> dict[str, Any]:
        return {"type": "string", "enum": list(supported_countries())}


def normalize_country(value: str) -> str:
    code = value.strip().upper()
    code = COUNTRY_ALIASES.get(code, code)
    if code not in supported_countries():
        raise ValueError(
            f"{value!r} is not an ISO 3166-1 alpha-2 country code that the holidays package supports "
            f"({len(supported_countries())} codes, listed under 'allowed')"
        )
    return code


CountryCode = Annotated[
    str,
    AfterValidator(normalize_country),
    # The schema lists the codes in upper case; lower case is accepted too.
    CountryCodeSchema(),
    Field(description="ISO 3166-1 alpha-2 country code the holidays package supports, e.g. JP (any case)"),
]


def _country_list(value: str) -> str:
    codes = [c.strip() for c in value.split(",") if c.strip()]
    if not codes:
        raise ValueError("give at least one country code, e.g. JP,KR")
    if len(codes) > MAX_COUNTRIES:
        raise ValueError(f"at most {MAX_COUNTRIES} countries, got {len(codes)}")
    out: list[str] = []
    for code in codes:
        norm = normalize_country(code)
        if norm in out:
            raise ValueError(f"{norm} is listed twice")
        out.append(norm)
    return ",".join(out)


# ---------------------------------------------------------------- parameters


class LeavePlanQuery(Params):
    leave: int = Field(ge=0, le=MAX_LEAVE, description=f"Leave days you can take (0 to {MAX_LEAVE})")
    limit: int = Field(
        DEFAULT_PLANS, ge=1, le=MAX_PLANS, description=f"Plans to return (1 to {MAX_PLANS}; default {DEFAULT_PLANS})"
    )


class AbroadQuery(Params):
    country: CountryCode


class CrowdQuery(Params):
    country: CountryCode
    start: IsoDate = Field(description="First day of the trip, YYYY-MM-DD")
    end: IsoDate = Field(
        description=f"Last day of the trip, YYYY-MM-DD (on or after start; at most {MAX_CROWD_DAYS} days in all)"
    )


class FlightQuery(Params):
    depart: IsoDate = Field(
        description=f"Departure date, YYYY-MM-DD (today or later, at most {MAX_DEPART_AHEAD_DAYS} days ahead)"
    )
    dest: CountryCode = Field(
        description="Destination country code (ISO 3166-1 alpha-2), e.g. JP; must have a booking rule"
    )


class TripPlanQuery(Params):
    leave: int = Field(ge=0, le=MAX_LEAVE, description=f"Leave days you can take (0 to {MAX_LEAVE})")
    countries: Annotated[
        str,
        Field(
            min_length=2,
            max_length=100,
            description=f"Comma-separated country codes, up to {MAX_COUNTRIES}, e.g. JP,KR",
        ),
        AfterValidator(_country_list),
    ]


# ---------------------------------------------------------------- results


class HolidayOut(LazyModel):
    date: date
    name_en: str
    name_zh: str
    kind: str = Field(description="holiday, observed (make-up day off) or bridge")


class LongWeekendOut(LazyModel):
    start: date
    end: date
    days: int
    weekdays: list[str] = Field(description="Weekday name of each day, start to end")
    name_en: str = Field(description="The holidays inside, joined")
    holidays: list[HolidayOut]


class LongWeekends(LazyModel):
    year: int
    count: int
    long_weekends: list[LongWeekendOut]
    rule: str
    sources: list[Source]


class DayOffOut(LazyModel):
    date: date
    weekday: str
    reason: str = Field(description="Holiday name, or Weekend")
    name_zh: str | None = None
    kind: str = Field(description="holiday, observed, bridge or weekend")


class HolidaysYear(LazyModel):
    year: int
    count: int = Field(description="Days off in the year")
    weekend_days: int = Field(description="Saturdays and Sundays off")
    weekday_days_off: int = Field(description="Holidays and make-up days off on Monday to Friday")
    holidays: int = Field(description="Listed holidays and observed days (any weekday)")
    makeup_workdays: list[date]
    days: list[DayOffOut]
    sources: list[Source]


class PlanOut(LazyModel):
    rank: int
    start: date
    end: date
    start_weekday: str
    end_weekday: str
    days: int = Field(description="Consecutive days off, leave included")
    leave_days: int = Field(description="Leave days this plan uses")
    leave_dates: list[date]
    efficiency: float | None = Field(description="Days off per leave day; null when no leave is needed")
    holidays: list[HolidayOut]


class LeavePlans(LazyModel):
    year: int
    leave: int
    limit: int
    count: int
    ranking: str
    plans: list[PlanOut]
    sources: list[Source]


class Strategy(LazyModel):
    leave: int = Field(description="Leave days allowed")
    plan: PlanOut | None


class LongWeekendStrategies(LazyModel):
    long_weekend: LongWeekendOut
    strategies: list[Strategy]


class Strategies(LazyModel):
    year: int
    ranking: str
    long_weekends: list[LongWeekendStrategies]
    sources: list[Source]


class DestinationHoliday(LazyModel):
    date: date
    weekday: str
    name: str


class PeakOut(RecordAnswer, record=Peak, exclude=("country",)):
    dates_from: Literal["holidays calendar", "source"] = Field(
        description="'holidays calendar': a holiday break, dated by the destination's public-holiday calendar "
        "(the days off around `holidays`); 'source': a season dated by `source`"
    )
    holidays: list[DestinationHoliday] = Field(
        description="the calendar holidays the dates come from (empty when they come from the source)"
    )
    source: Source = Field(description="backs the crowding (`why`), and the dates when dates_from is 'source'")


class Overlap(LazyModel):
    long_weekend: LongWeekendOut
    peak_seasons: list[str]
    destination_holidays: list[DestinationHoliday]


class Abroad(LazyModel):
    country: str
    name_en: str | None
    name_zh: str | None
    year: int
    holidays: list[DestinationHoliday]
    peak_data: bool = Field(description="False when this service has no sourced peak seasons for the country")
    peak_seasons: list[PeakOut]
    overlaps: list[Overlap] = Field(
        description="Taiwan long weekends that overlap a destination peak season or holiday"
    )
    notes: list[str]
    sources: list[Source]


class FactorOut(LazyModel):
    kind: str = Field(description="peak_high, peak_medium, destination_holiday or taiwan_long_weekend")
    name: str
    start: date
    end: date
    points: int


class CrowdResult(LazyModel):
    country: str
    start: date
    end: date
    days: int
    crowd_level: str = Field(description="low, medium, high or very high")
    points: int
    rule: str
    factors: list[FactorOut]
    destination_holidays: list[DestinationHoliday]
    peak_data: bool
    peak_seasons: list[PeakOut]
    taiwan_long_weekends: list[LongWeekendOut]
    notes: list[str]
    sources: list[Source]


class FlightRuleOut(RecordAnswer, record=FlightRule, exclude=("peak_source_title",)):
    peak_source: Source = Field(description="The page the peak lead time rests on")


class FlightTiming(LazyModel):
    as_of: date
    depart: date
    dest: str
    haul: str
    days_left: int
    in_peak: bool
    verdict: str = Field(description="book now, good window, early: watch fares, or last minute")
    reasons: list[str]
    best_window_start: date
    best_window_end: date
    peak_book_by: date
    last_minute_days: int
    rule: FlightRuleOut
    notes: str
    sources: list[Source]


class GuideSectionOut(RecordAnswer, record=GuideSection):
    sources: list[Source]


class TicketsGuide(LazyModel):
    count: int
    sections: list[GuideSectionOut]
    note: str
    sources: list[Source]


class FlightBrief(LazyModel):
    verdict: str
    days_left: int
    haul: str
    best_window_start: date
    best_window_end: date
    peak_book_by: date
    reasons: list[str]


class TripDestination(LazyModel):
    country: str
    crowd_level: str
    points: int
    factors: list[FactorOut]
    peak_data: bool
    flight: FlightBrief | None
    flight_note: str | None = None


class TripOption(LazyModel):
    plan: PlanOut
    destinations: list[TripDestination]


class TripPlan(LazyModel):
    as_of: date
    leave: int
    countries: list[str]
    crowd_rule: str
    options: list[TripOption]
    sources: list[Source]


class DestinationExport(LazyModel):
    country: str
    name_en: str
    name_zh: str
    peak_seasons: list[PeakOut]


class FlightNotesOut(RecordAnswer, record=FlightNotes):
    last_minute_source: Source = Field(description="The page the last-minute threshold rests on (also `source`)")
    notes_sources: list[Source]


class Export(LazyModel):
    as_of: date
    calendar: HolidaysYear
    long_weekends: list[LongWeekendOut]
    destinations: list[DestinationExport]
    flight_rules: list[FlightRuleOut]
    flight_notes: FlightNotesOut
    tickets_guide: list[GuideSectionOut]
    sources: list[Source]
