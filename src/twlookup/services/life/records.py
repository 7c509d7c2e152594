"""The life service's records, each declared once: a receipt-lottery period's winning numbers
(data/life/invoice.yaml, feed life.invoice), a lottery draw (lottery.yaml, feed life.lottery), a
week's posted fuel price (fuel.yaml, feed life.fuel) and a lottery game's rules (games.yaml).
The store's tables mirror the first three; answers are built from all of them."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated

from pydantic import BeforeValidator, Field, field_validator

from twlookup.platform.records import Record, SourcedRecord


class Reported(Record):
    reported_by: str | None = Field(
        None,
        max_length=500,
        description="Report of the official announcement this record was checked against, when it was not read from the publisher's own file",
    )


# ---------------------------------------------------------------- receipt lottery


class InvoicePrize(Record):
    """A receipt-lottery prize (data/life/invoice_prizes.yaml): NT$ per winning receipt and the
    digits that must match."""

    key: str
    name_zh: str
    amount: int = Field(description="NT$ per winning receipt")
    rule: str


class InvoicePeriod(Reported, SourcedRecord):
    """Winning numbers of one two-month receipt-lottery period."""

    period: str = Field(max_length=9, description="NNN-MM-MM in ROC years, e.g. 114-11-12")
    special: str = Field(max_length=8, description="特別獎 NT$10,000,000")
    grand: str = Field(max_length=8, description="特獎 NT$2,000,000")
    first: tuple[str, ...] = Field(
        description="頭獎 NT$200,000; their last 7..3 digits give the second to sixth prizes"
    )
    additional_sixth: tuple[str, ...] = Field((), description="增開六獎 (3 digits); none in current periods")

    @field_validator("additional_sixth", mode="before")
    @classmethod
    def _none_is_empty(cls, value: object) -> object:
        return () if value is None else value

    @property
    def roc_year(self) -> int:
        return int(self.period[:3])

    @property
    def first_month(self) -> int:
        return int(self.period[4:6])


# ---------------------------------------------------------------- lottery


class Tier(Record):
    name_zh: str
    main: int  # main numbers matched
    extra: bool | None  # special number (lotto649) or zone-2 number (superlotto638); None: not used
    amount: int | None = Field(description="Fixed prize in NT$; null when pari-mutuel")

    @property
    def label(self) -> str:
        extra = {True: " + special", False: "", None: ""}[self.extra]
        return f"{self.main}{extra}"


class GameFacts(Record):
    name_zh: str
    name_en: str
    picks: int
    maximum: int
    second_maximum: int | None  # superlotto638 zone 2 (1..8)
    price: int = Field(description="NT$ per bet")


class Game(GameFacts, SourcedRecord):
    """A Taiwan Lottery game's rules. `source` is the official site (its game pages moved in 2024,
    so the site root is cited); `verified_by` the page the tier amounts were checked against."""

    key: str
    has_special: bool  # lotto649 draws a special number from the same pool
    tiers: tuple[Tier, ...]
    pool_rule: str
    source_title: str
    verified_by: str

    def tier_for(self, main: int, extra: bool) -> Tier | None:
        for tier in self.tiers:
            if tier.main == main and (tier.extra is None or tier.extra == extra):
                return tier
        return None


class Draw(Reported, SourcedRecord):
    """One draw of lotto649, superlotto638 or daily539."""

    game: str = Field(max_length=20)
    period: Annotated[str, BeforeValidator(str)] = Field(max_length=12, description="Draw number, e.g. 114000117")
    draw_date: date
    numbers: tuple[int, ...] = Field(description="Main numbers, ascending")
    second: int | None = Field(
        None, description="lotto649 special number, superlotto638 zone-2 number, null for daily539"
    )

    @field_validator("numbers", mode="after")
    @classmethod
    def _ascending(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(value))


# ---------------------------------------------------------------- fuel


class FuelPrice(Reported, SourcedRecord):
    """CPC's posted retail price of one product from one effective date."""

    product: Annotated[str, BeforeValidator(str)] = Field(max_length=10, description="92, 95, 98 or diesel")
    effective: date = Field(description="Monday the posted price took effect")
    price: Decimal = Field(max_digits=8, decimal_places=2, description="NT$ per litre, tax included")
    note: str | None = None
