"""Rules of the uniform-invoice (receipt) lottery, from the Ministry of Finance (MoF) award rules
(checked 2026-11-22; the prize table is data/life/invoice_prizes.yaml).

Each period draws one special prize (NT$10,000,000, all 8 digits), one grand prize (NT$2,000,000,
all 8 digits) and three first-prize numbers (NT$200,000); the second to sixth prizes match the last
7, 6, 5, 4 and 3 digits of any first-prize number (NT$40,000 / 10,000 / 4,000 / 1,000 / 200). The
draw is on the 25th of each odd month for the two months before; prizes are claimed from the 6th of
the month after the draw for three months, a last day on a day off moving to the next workday.
Periods of 2026 (ROC 115) draw no additional sixth prizes (增開六獎); older periods did, so the data
model keeps them. Pure functions: `today` and the calendar are passed in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from twlookup.services.life.records import InvoicePeriod, InvoicePrize

CHECKED = date(2026, 11, 22)  # the day these rules and the pages the answers cite for them were read
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


def add_months(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + months
    return index // 12, index % 12 + 1


def draw_date(period: str) -> date:
    """The 25th of the (odd) month after the period ends."""
    year, first = parse_period(period)
    y, m = add_months(year, first, 2)
    return date(y, m, 25)


def newest_drawn_period(today: date) -> str:
    """The newest period whose numbers have been drawn by `today` (drawn on the 25th of odd months)."""
    period = period_of(today.year, today.month)
    while draw_date(period) > today:
        year, first = parse_period(period)
        period = period_of(*add_months(year, first, -2))
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
    y, m = add_months(drawn.year, drawn.month, 1)
    start = date(y, m, 6)
    y, m = add_months(drawn.year, drawn.month, 4)
    end = date(y, m, 5)
    while is_day_off(end):
        end += timedelta(days=1)
    return start, end


ClaimStatus = Literal["not yet open", "open", "expired"]


def claim_status(start: date, end: date, today: date) -> ClaimStatus:
    if today < start:
        return "not yet open"
    return "open" if today <= end else "expired"


@dataclass(frozen=True)
class InvoiceMatch:
    prize: InvoicePrize | None
    matched: str | None  # the winning number (or suffix) that matched


def check_invoice(number: str, period: InvoicePeriod, prizes: Mapping[str, InvoicePrize]) -> InvoiceMatch:
    """The highest prize an 8-digit receipt number wins in a period (one prize per receipt), from
    the prize table (`data.invoice_prizes()`)."""
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


INVOICE_CLAIM_NOTES = (
    "Claim from the 6th of the month after the draw for three months; a last day that falls on a day off "
    "moves to the next workday. 20% income tax is withheld from the third prize (NT$10,000) and above; "
    "prizes of NT$1,000 and more pay 0.4% stamp duty unless claimed to a bank account set up on the "
    "MoF e-invoice platform or app. Receipts issued to government bodies, public enterprises, schools, "
    "the military or businesses cannot claim. The cloud-invoice exclusive prizes (雲端發票專屬獎) are drawn "
    "separately for invoices stored on a carrier and are not part of this check."
)
