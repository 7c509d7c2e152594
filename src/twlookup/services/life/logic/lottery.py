"""Rules of Taiwan Lottery's lotto649, superlotto638 and daily539 (the games' rules and prize tiers
are data/life/games.yaml, with sources): checking a pick against a draw, and the claim period.
Pure functions: the calendar is passed in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from twlookup.services.life.logic.invoice import add_months
from twlookup.services.life.records import Draw, Game, Tier

LOTTERY_CLAIM_RULE = (
    "Claim within three months counted from the first workday after the draw (a last day that is a day off "
    "moves to the next workday); unclaimed prizes go to the public-welfare lottery surplus. Prizes over NT$5,000 per bet "
    "have 20% income tax withheld."
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
    y, m = add_months(start.year, start.month, 3)
    last = _month_days(y, m)
    # no corresponding day in the last month (e.g. 30 February): the month's last day ends the period
    end = date(y, m, last) if start.day > last else date(y, m, start.day) - timedelta(days=1)
    while is_day_off(end):
        end += timedelta(days=1)
    return end


def _month_days(year: int, month: int) -> int:
    y, m = add_months(year, month, 1)
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
