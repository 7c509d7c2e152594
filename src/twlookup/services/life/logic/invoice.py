"""Domain rules of the life service: the uniform-invoice (receipt) lottery, Taiwan Lottery draws
and fuel prices. Pure functions over the records (records.py) and plain dataclasses; `today` and the calendar are passed in.

Rules and their sources (checked 2026-11-22):
- Receipt lottery: Ministry of Finance (MoF) uniform-invoice award rules (the prize table is
  data/life/invoice_prizes.yaml). Each period draws one
  special prize (NT$10,000,000, all 8 digits), one grand prize (NT$2,000,000, all 8 digits) and
  three first-prize numbers (NT$200,000); the second to sixth prizes match the last 7, 6, 5, 4
  and 3 digits of any first-prize number (NT$40,000 / 10,000 / 4,000 / 1,000 / 200). The draw is
  on the 25th of each odd month for the two months before; prizes are claimed from the 6th of
  the month after the draw for three months, a last day on a day off moving to the next workday.
  Periods of 2026 (ROC 115) draw no additional sixth prizes (增開六獎); older periods did, so the
  data model keeps them.
- Lotto649, superlotto638, daily539: Taiwan Lottery game rules (data/life/games.yaml, with sources).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from twlookup.services.life.records import Draw, FuelPrice, Game, InvoicePeriod, InvoicePrize, Tier

# ---------------------------------------------------------------- receipt lottery

ROC_OFFSET = 1911
PERIOD_MONTHS = ("01-02", "03-04", "05-06", "07-08", "09-10", "11-12")
PERIOD_PATTERN = r"^[0-9]{3}-(01-02|03-04|05-06|07-08|09-10|11-12)$"  # ASCII digits only: \d would take full-width ones


# Suffix length of a first-prize number -> prize, longest first (8 digits is the first prize itself).
SUFFIX_PRIZES = ((8, "first"), (7, "second"), (6, "third"), (5, "fourth"), (4, "fifth"), (3, "sixth"))


def parse_period(period: str) -> tuple[int, int]:
    """(Gregorian year, first month) of a period written NNN-MM-MM in ROC years."""
    if not re.fullmatch(PERIOD_PATTERN, period):
        raise ValueError(f"{period!r} is not a period of the form NNN-MM-MM, e.g. 114-11-12")
    return int(period[:3]) + ROC_OFFSET, int(period[4:6])


def period_of(year: int, month: int) -> str:
    """The period containing a Gregorian year and month."""
    first = month if month % 2 else month - 1
    return f"{year - ROC_OFFSET:03d}-{first:02d}-{first + 1:02d}"


def _add_months(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + months
    return index // 12, index % 12 + 1


def draw_date(period: str) -> date:
    """The 25th of the (odd) month after the period ends."""
    year, first = parse_period(period)
    y, m = _add_months(year, first, 2)
    return date(y, m, 25)


def newest_drawn_period(today: date) -> str:
    """The newest period whose numbers have been drawn by `today` (drawn on the 25th of odd months)."""
    period = period_of(today.year, today.month)
    while draw_date(period) > today:
        year, first = parse_period(period)
        period = period_of(*_add_months(year, first, -2))
    return period


def stale_note(served: str, today: date) -> str | None:
    """A warning when the newest period in the store is older than the newest period drawn by today."""
    newest = newest_drawn_period(today)
    if parse_period(served) >= parse_period(newest):
        return None
    return (
        f"Not the newest draw: period {newest} was drawn on {draw_date(newest)} but its numbers are not in this "
        f"store yet, so this answer is for {served}, the newest period it holds. A receipt of a later period must "
        f"be checked against its own period's numbers; do not discard it on this answer."
    )


def claim_window(period: str, is_day_off: Callable[[date], bool]) -> tuple[date, date]:
    """From the 6th of the month after the draw, for three months (to the 5th); a last day that
    is a day off moves to the next workday."""
    drawn = draw_date(period)
    y, m = _add_months(drawn.year, drawn.month, 1)
    start = date(y, m, 6)
    y, m = _add_months(drawn.year, drawn.month, 4)
    end = date(y, m, 5)
    while is_day_off(end):
        end += timedelta(days=1)
    return start, end


def claim_status(start: date, end: date, today: date) -> str:
    if today < start:
        return "not yet open"
    return "open" if today <= end else "expired"


@dataclass(frozen=True)
class InvoiceMatch:
    prize: InvoicePrize | None
    matched: str | None  # the winning number (or suffix) that matched


def check_invoice(number: str, period: InvoicePeriod, prizes: Mapping[str, InvoicePrize]) -> InvoiceMatch:
    """The highest prize an 8-digit receipt number wins in a period (one prize per receipt), from
    the prize table (`data.INVOICE_PRIZES`)."""
    if number == period.special:
        return InvoiceMatch(prizes["special"], period.special)
    if number == period.grand:
        return InvoiceMatch(prizes["grand"], period.grand)
    for length, key in SUFFIX_PRIZES:
        for winning in period.first:
            if number[-length:] == winning[-length:]:
                return InvoiceMatch(prizes[key], winning)
    for extra in period.additional_sixth:
        if number[-3:] == extra:
            return InvoiceMatch(prizes["additional_sixth"], extra)
    return InvoiceMatch(None, None)


# ---------------------------------------------------------------- lottery


CHECKED = date(2026, 11, 22)
LOTTERY_CLAIM_RULE = (
    "Claim within three months counted from the first workday after the draw (a last day that is a day off "
    "moves to the next workday); unclaimed prizes go to the public-welfare lottery surplus. Prizes over NT$5,000 per bet "
    "have 20% income tax withheld."
)
INVOICE_CLAIM_NOTES = (
    "Claim from the 6th of the month after the draw for three months; a last day that falls on a day off "
    "moves to the next workday. 20% income tax is withheld from the third prize (NT$10,000) and above; "
    "prizes of NT$1,000 and more pay 0.4% stamp duty unless claimed to a bank account set up on the "
    "MoF e-invoice platform or app. Receipts issued to government bodies, public enterprises, schools, "
    "the military or businesses cannot claim. The cloud-invoice exclusive prizes (雲端發票專屬獎) are drawn "
    "separately for invoices stored on a carrier and are not part of this check."
)


def lottery_claim_until(drawn: date, is_day_off: Callable[[date], bool]) -> date:
    """Last day to claim a Taiwan Lottery prize: three months counted from the first workday after
    the draw, ending the day before the corresponding day (Civil Code art. 121), a last day that is
    a day off moving to the next workday (art. 122).

    This reproduces the `redeemableDate` Taiwan Lottery publishes with each draw, e.g. superlotto638
    drawn Thursday 2026-06-18: the next day is the Dragon Boat Festival, so the count starts Monday
    06-22 and ends 09-21 (counting from 06-19 would give 09-18, which is not the published date);
    lotto649 drawn 2026-06-26: 09-26 is a Saturday and 09-28 Teachers' Day, so 09-29."""
    start = drawn + timedelta(days=1)
    while is_day_off(start):
        start += timedelta(days=1)
    y, m = _add_months(start.year, start.month, 3)
    last = _month_days(y, m)
    # no corresponding day in the last month (e.g. 30 February): the month's last day ends the period
    end = date(y, m, last) if start.day > last else date(y, m, start.day) - timedelta(days=1)
    while is_day_off(end):
        end += timedelta(days=1)
    return end


def _month_days(year: int, month: int) -> int:
    y, m = _add_months(year, month, 1)
    return (date(y, m, 1) - timedelta(days=1)).day


def validate_pick(game: Game, numbers: list[int], second: int | None) -> list[tuple[str, str]]:
    """Every problem with a pick, as (parameter, message); empty when the pick is playable."""
    problems: list[tuple[str, str]] = []
    if len(numbers) != game.picks:
        problems.append(("numbers", f"{game.key} takes exactly {game.picks} numbers, got {len(numbers)}"))
    out_of_range = [n for n in numbers if not 1 <= n <= game.maximum]
    if out_of_range:
        problems.append(("numbers", f"numbers must be 1 to {game.maximum}; out of range: {out_of_range}"))
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        problems.append(("numbers", f"each number may appear once; repeated: {duplicates}"))
    if game.second_maximum is not None:
        if second is None:
            problems.append(("second", f"{game.key} needs the zone-2 number `second` (1 to {game.second_maximum})"))
        elif not 1 <= second <= game.second_maximum:
            problems.append(("second", f"the zone-2 number must be 1 to {game.second_maximum}, got {second}"))
    elif second is not None:
        problems.append(("second", f"{game.key} has no second zone; leave `second` out"))
    return problems


@dataclass(frozen=True)
class LotteryResult:
    matched: tuple[int, ...]
    extra_matched: bool
    tier: Tier | None


def check_lottery(game: Game, draw: Draw, numbers: list[int], second: int | None) -> LotteryResult:
    """Prize tier of a valid pick against a draw. For lotto649 the special number counts only
    with the main numbers it completes; for superlotto638 the zone-2 number must equal `second`."""
    matched = tuple(sorted(set(numbers) & set(draw.numbers)))
    if game.has_special:
        extra = draw.second is not None and draw.second in numbers
    elif game.second_maximum is not None:
        extra = second is not None and second == draw.second
    else:
        extra = False
    return LotteryResult(matched, extra, game.tier_for(len(matched), extra))


# ---------------------------------------------------------------- fuel

FUEL_PRODUCTS = {
    "92": ("92無鉛汽油", "92 unleaded gasoline"),
    "95": ("95無鉛汽油", "95 unleaded gasoline"),
    "98": ("98無鉛汽油", "98 unleaded gasoline"),
    "diesel": ("超級柴油", "premium diesel"),
}
FREE_FUEL_WEEKS = 12


@dataclass
class LifeData:
    periods: dict[str, InvoicePeriod]
    draws: dict[str, list[Draw]]  # game -> newest first
    fuel: dict[str, list[FuelPrice]] = field(default_factory=dict)  # product -> newest first

    def latest_period(self) -> InvoicePeriod | None:
        if not self.periods:
            return None
        return self.periods[max(self.periods, key=lambda p: parse_period(p))]

    def known_periods(self) -> list[str]:
        return sorted(self.periods, key=parse_period, reverse=True)


MAX_WEEK_GAP = 7  # CPC posts a price every Monday: a larger gap means weeks are missing from the store


def price_change(history: list[FuelPrice], index: int = 0) -> Decimal | None:
    """The price of history[index] minus the week before it (newest-first history); None when the
    week before is not in the store (a gap over 7 days would otherwise pass a months-long change off
    as this week's)."""
    if index + 1 >= len(history):
        return None
    now, before = history[index], history[index + 1]
    if (now.effective - before.effective).days > MAX_WEEK_GAP:
        return None
    return now.price - before.price


def any_sample(items: Iterable[object]) -> bool:
    return any(getattr(i, "sample", False) for i in items)
