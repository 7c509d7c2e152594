"""Domain rules of the life service, one module per subject: the receipt lottery (invoice), Taiwan
Lottery draws (lottery) and fuel prices (fuel). Here: the reference data they read, as the store
holds it."""

from __future__ import annotations

from dataclasses import dataclass, field

from twlookup.services.life.logic.invoice import parse_period
from twlookup.services.life.records import Draw, FuelPrice, InvoicePeriod


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
