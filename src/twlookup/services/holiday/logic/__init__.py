"""Domain rules of the holiday service: the leave planner, the crowd rule, the flight verdict.

Pure functions over plain data: the Taiwan calendar (`TaiwanCalendar`), the sourced peak seasons
and flight rules, and destination holidays handed in as (date, name) pairs. `today` is always
passed in.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.services.holiday.records import Destination, FlightNotes, FlightRule, GuideSection, Peak

ONE = timedelta(days=1)

# ---------------------------------------------------------------- reference data (records.py)


@dataclass(frozen=True)
class HolidayData:
    destinations: dict[str, Destination]
    rules: dict[str, FlightRule]
    flight_notes: FlightNotes
    guide: tuple[GuideSection, ...]

    def rule_for(self, country: str) -> FlightRule | None:
        for rule in self.rules.values():
            if country in rule.countries:
                return rule
        return None

    @property
    def flight_countries(self) -> list[str]:
        """Destinations the flight rules classify, Taiwan itself excluded (it is the origin)."""
        return sorted({c for r in self.rules.values() for c in r.countries} - {ORIGIN})

    def peaks(self, country: str) -> tuple[Peak, ...]:
        dest = self.destinations.get(country)
        return dest.peaks if dest else ()


ORIGIN = "TW"

# ---------------------------------------------------------------- leave planner


@dataclass(frozen=True)
class Plan:
    """A break [start, end]: every workday inside is taken as leave, the days around are workdays."""

    start: date
    end: date
    leave_dates: tuple[date, ...]
    holidays: tuple[DayOff, ...]

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    @property
    def leave_days(self) -> int:
        return len(self.leave_dates)

    @property
    def efficiency(self) -> float | None:
        """Days off per leave day; None when no leave is needed (infinitely efficient)."""
        return round(self.days / self.leave_days, 2) if self.leave_dates else None

    def rank_key(self) -> tuple[int, int, date]:
        return rank_key(self.days, self.leave_days, self.start)

    def contains(self, start: date, end: date) -> bool:
        return self.start <= start and end <= self.end


def rank_key(days: int, leave: int, start: date) -> tuple[int, int, date]:
    """Longer first; at equal length more days per leave day first, which at equal length is
    fewer leave days (no leave at all ranks highest); then the earlier start."""
    return (-days, leave, start)


class YearGrid:
    """The days around one calendar year, classified once: day off, leave day (a workday of the
    year) or blocked (a workday outside the year, which no plan may take as leave)."""

    def __init__(self, cal: TaiwanCalendar, year: int, margin_days: int = 45) -> None:
        self.cal = cal
        self.year = year
        self.first = date(year, 1, 1) - timedelta(days=margin_days)
        last = date(year, 12, 31) + timedelta(days=margin_days)
        self.size = (last - self.first).days + 1
        self.dates = [self.first + timedelta(days=i) for i in range(self.size)]
        self.off = [cal.is_day_off(d) for d in self.dates]
        self.leaveable = [not o and d.year == year for o, d in zip(self.off, self.dates, strict=True)]
        self.blocked = [not o and not lv for o, lv in zip(self.off, self.leaveable, strict=True)]
        # The margins must each hold a blocked day, so no plan can run past the grid's edges.
        y0, y1 = self.index(date(year, 1, 1)), self.index(date(year, 12, 31))
        if not any(self.blocked[1:y0]) or not any(self.blocked[y1 + 1 : self.size - 1]):
            raise ValueError(f"no workday in the margins around {year}; widen margin_days")
        self.y0, self.y1 = y0, y1
        self.prefix = [0]
        for lv in self.leaveable:
            self.prefix.append(self.prefix[-1] + lv)
        workday = [not o for o in self.off]
        n = self.size
        # A plan starts after a workday and ends before one (both indices inside the grid's edges).
        self.start_ok = [0 < i < n - 1 and workday[i - 1] and not self.blocked[i] for i in range(n)]
        self.end_ok = [0 < i < n - 1 and workday[i + 1] and not self.blocked[i] for i in range(n)]
        self.prev_end = [-1] * n  # largest end index <= i
        last_end = -1
        for i in range(n):
            if self.end_ok[i]:
                last_end = i
            self.prev_end[i] = last_end

    def index(self, day: date) -> int:
        return (day - self.first).days

    def leave_between(self, s: int, e: int) -> int:
        return self.prefix[e + 1] - self.prefix[s]

    def plan(self, s: int, e: int) -> Plan:
        days = self.dates[s : e + 1]
        leave = tuple(d for i, d in zip(range(s, e + 1), days, strict=True) if self.leaveable[i])
        holidays = tuple(self.cal.days_off[d] for d in days if d in self.cal.days_off)
        return Plan(self.dates[s], self.dates[e], leave, holidays)

    def longest_ends(self, leave: int) -> dict[int, int]:
        """For every possible start s, the furthest end e of a valid plan with at most `leave`
        leave days (two pointers: the reach only moves forward as s does). O(n)."""
        out: dict[int, int] = {}
        reach = -1  # furthest index r such that [s, r] has no blocked day and leave <= limit
        for s in range(1, self.size - 1):
            reach = max(reach, s - 1)
            while (
                reach + 1 < self.size - 1 and not self.blocked[reach + 1] and self.leave_between(s, reach + 1) <= leave
            ):
                reach += 1
            if not self.start_ok[s] or reach < s or s > self.y1:
                continue
            e = self.prev_end[reach]
            if e >= s and e >= self.y0:
                out[s] = e
        return out

    def ranked(self, leave: int) -> Iterator[Plan]:
        """Every plan touching the year with at most `leave` leave days, best first.

        Each start's plans, from its longest end backwards through earlier ends, are already in
        rank order (longer ranks higher), so a k-way merge with a heap yields the global order:
        O(n) to set up, O(log n) per plan taken."""
        heap = [(self._key(s, e), s, e) for s, e in self.longest_ends(leave).items()]
        heapq.heapify(heap)
        while heap:
            _key, s, e = heapq.heappop(heap)
            yield self.plan(s, e)
            shorter = self.prev_end[e - 1] if e - 1 >= 0 else -1
            if shorter >= s and shorter >= self.y0:
                heapq.heappush(heap, (self._key(s, shorter), s, shorter))

    def _key(self, s: int, e: int) -> tuple[int, int, date]:
        return rank_key(e - s + 1, self.leave_between(s, e), self.dates[s])

    def best_containing(self, start: date, end: date, leave: int) -> Plan | None:
        """The best plan (same ranking) with at most `leave` leave days that contains [start, end]."""
        a, b = self.index(start), self.index(end)
        if a < 1 or b > self.size - 2 or any(self.blocked[a : b + 1]):
            return None
        best: tuple[tuple[int, int, date], int, int] | None = None
        s = a
        while s >= 1 and not self.blocked[s] and self.leave_between(s, b) <= leave:
            if self.start_ok[s]:
                e = b
                while e + 1 < self.size - 1 and not self.blocked[e + 1] and self.leave_between(s, e + 1) <= leave:
                    e += 1
                e = self.prev_end[e]
                if e >= b:
                    key = self._key(s, e)
                    if best is None or key < best[0]:
                        best = (key, s, e)
            s -= 1
        return self.plan(best[1], best[2]) if best else None


def plan_leave(cal: TaiwanCalendar, year: int, leave: int, limit: int) -> list[Plan]:
    """The `limit` best plans of `year` using at most `leave` leave days."""
    out: list[Plan] = []
    for plan in YearGrid(cal, year).ranked(leave):
        out.append(plan)
        if len(out) == limit:
            break
    return out


# ---------------------------------------------------------------- overlaps and crowds


def overlaps(a_start: date, a_end: date, b_start: date, b_end: date) -> bool:
    return a_start <= b_end and b_start <= a_end


def long_weekends_between(cal: TaiwanCalendar, start: date, end: date) -> list[Break]:
    """Taiwan long weekends (from the years the calendar covers) that overlap [start, end]."""
    out: list[Break] = []
    for year in range(start.year - 1, end.year + 1):
        if cal.covers(year):
            out.extend(b for b in cal.long_weekends(year) if overlaps(b.start, b.end, start, end))
    return out


CROWD_POINTS = {"peak_high": 3, "peak_medium": 2, "destination_holiday": 1, "taiwan_long_weekend": 2}
HOLIDAY_POINTS_CAP = 3
CROWD_LEVELS = ((6, "very high"), (3, "high"), (1, "medium"), (0, "low"))
CROWD_RULE = (
    "Points: +3 for each overlapping high peak season and +2 for each medium one at the destination; "
    "+1 for each destination public holiday in the range (at most +3 in all); +2 for each Taiwan long "
    "weekend that overlaps the range (Taiwanese travellers fill flights and nearby destinations). "
    "Level: 0 points low, 1-2 medium, 3-5 high, 6 or more very high."
)


@dataclass(frozen=True)
class CrowdFactor:
    kind: str  # peak_high | peak_medium | destination_holiday | taiwan_long_weekend
    name: str
    start: date
    end: date
    points: int


@dataclass(frozen=True)
class Crowd:
    level: str
    points: int
    factors: tuple[CrowdFactor, ...]


def crowd_level(points: int) -> str:
    for threshold, level in CROWD_LEVELS:
        if points >= threshold:
            return level
    return "low"


def assess_crowd(
    start: date,
    end: date,
    peaks: Iterable[Peak],
    destination_holidays: Iterable[tuple[date, str]],
    long_weekends: Iterable[Break],
) -> Crowd:
    """The crowd level of [start, end] by CROWD_RULE, with every factor that scored."""
    factors: list[CrowdFactor] = []
    for p in peaks:
        if p.overlaps(start, end):
            kind = "peak_high" if p.level == "high" else "peak_medium"
            factors.append(CrowdFactor(kind, p.name_en, p.start, p.end, CROWD_POINTS[kind]))
    budget = HOLIDAY_POINTS_CAP
    for day, name in sorted(destination_holidays):
        if start <= day <= end:
            pts = min(CROWD_POINTS["destination_holiday"], budget)
            budget -= pts
            factors.append(CrowdFactor("destination_holiday", name, day, day, pts))
    for b in long_weekends:
        if overlaps(b.start, b.end, start, end):
            name = " / ".join(dict.fromkeys(h.name_en for h in b.holidays)) or "Long weekend"
            factors.append(
                CrowdFactor("taiwan_long_weekend", name, b.start, b.end, CROWD_POINTS["taiwan_long_weekend"])
            )
    points = sum(f.points for f in factors)
    return Crowd(crowd_level(points), points, tuple(factors))


# ---------------------------------------------------------------- flight booking timing

VERDICTS = ("book now", "good window", "early: watch fares", "last minute")


@dataclass(frozen=True)
class FlightAdvice:
    verdict: str
    days_left: int
    peak: bool
    reasons: tuple[str, ...]
    best_window: tuple[date, date]  # buy between these dates (off-peak rule)
    peak_book_by: date  # for peak dates: buy by this date


def flight_advice(
    depart: date, today: date, rule: FlightRule, last_minute_days: int, peak_reasons: list[str]
) -> FlightAdvice:
    """Verdict on when to buy a ticket for `depart`, by the sourced booking-window rule.

    Inside `last_minute_days`: last minute. Peak dates (a destination peak season or a Taiwan long
    weekend): book now, whether the advised lead time is still ahead or already passed. Otherwise:
    before the best window, early (watch fares); inside it, good window; after it, book now."""
    days_left = (depart - today).days
    if days_left < 0:
        raise ValueError("departure is in the past")
    haul = rule.haul.replace("_", "-")
    window = (depart - timedelta(days=rule.best_max_days), depart - timedelta(days=rule.best_min_days))
    book_by = depart - timedelta(days=rule.peak_min_days)
    peak = bool(peak_reasons)
    reasons = [
        f"{days_left} days until departure; {haul} rule: fares are usually lowest {rule.best_min_days}-{rule.best_max_days} days ahead."
    ]
    reasons += peak_reasons
    if days_left < last_minute_days:
        verdict = "last minute"
        reasons.append(
            f"Fewer than {last_minute_days} days remain: fares are usually above average now; buy as soon as you can."
        )
    elif peak:
        verdict = "book now"
        if days_left >= rule.peak_min_days:
            reasons.append(
                f"Peak dates: buy at least {rule.peak_min_days} days ahead (by {book_by}); you are inside that lead time, so buy once sales open."
            )
        else:
            reasons.append(
                f"Peak dates: the advice is to buy at least {rule.peak_min_days} days ahead (by {book_by}); that is past, so seats and fares will only get worse."
            )
    elif days_left > rule.best_max_days:
        verdict = "early: watch fares"
        reasons.append(f"Before the best window ({window[0]} to {window[1]}): set a fare alert and buy inside it.")
    elif days_left >= rule.best_min_days:
        verdict = "good window"
        reasons.append(f"Inside the best window ({window[0]} to {window[1]}): a good time to buy.")
    else:
        verdict = "book now"
        reasons.append(f"The best window closed on {window[1]}: fares tend to rise from here.")
    return FlightAdvice(verdict, days_left, peak, tuple(reasons), window, book_by)


def peak_reasons(depart: date, peaks: Iterable[Peak], long_weekends: Iterable[Break]) -> list[str]:
    """Why `depart` is a peak date: a destination peak season on that day, or a Taiwan long
    weekend that includes it or starts the next day (people fly out the evening before)."""
    out = [
        f"Destination peak: {p.name_en} ({p.start} to {p.end}, {p.level})." for p in peaks if p.start <= depart <= p.end
    ]
    for b in long_weekends:
        if b.start - ONE <= depart <= b.end:
            names = " / ".join(dict.fromkeys(h.name_en for h in b.holidays))
            out.append(f"Taiwan long weekend: {names} ({b.start} to {b.end}); outbound flights fill early.")
    return out
