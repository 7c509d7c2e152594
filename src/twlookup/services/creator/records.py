"""The creator service's records: each kind declared once, validated when seeding."""

from __future__ import annotations

import builtins
from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field

from twlookup.platform.records import SourcedRecord

Category = Literal["food", "cosmetic", "device", "general"]
"""food, cosmetics, medical devices (醫療器材), and general goods that are none of these (醫療器材管理法 §46)."""
Id = Annotated[str, Field(max_length=120)]  # a record's id, as stored (every kind's table keys on it)


class AdTerm(SourcedRecord):
    id: Id
    category: Category
    list: Literal["prohibited", "allowed"]
    group: str
    term: str = Field(description="The phrase as the regulation's annex writes it")
    match: builtins.list[str] = Field(
        min_length=1, description="Literal forms matched in text"
    )  # `list` is a field here
    rule: str = Field(description="Id of the rule it falls under")
    basis: Literal["annex", "official-example", "category"] = Field(
        description="annex: the regulation's own annex; official-example: the ministry's example phrases; "
        "category: a plain word for one of the rule's categories, chosen here (not an official list)"
    )
    suggestion: str | None = None


class Rule(SourcedRecord):
    id: Id
    category: Category
    title: str
    article: str
    why: str
    penalty_min: int | None
    penalty_max: int | None

    @property
    def penalty_text(self) -> str:
        """The penalty range in words, as the rule's article states it."""
        if self.penalty_min is not None and self.penalty_max is not None:
            return f"新臺幣 {self.penalty_min:,} 元以上 {self.penalty_max:,} 元以下罰鍰"
        return "依該法規定處罰"


class Threshold(SourcedRecord):
    id: Id
    effective_from: date
    effective_to: date | None = None
    goods: int
    services: int
    invoice_threshold: int
    small_scale_rate: Decimal
    vat_rate: Decimal
    note: str


class IncomeKind(SourcedRecord):
    id: Id
    code: str
    name: str
    resident_rate: Decimal
    resident_exempt_tax_upto: int | None = None
    resident_start_from: int | None = None
    nonresident_rate: Decimal
    nonresident_low_rate: Decimal | None = None
    nonresident_low_upto_wage_multiple: Decimal | None = None
    nonresident_exempt_payment_upto: int | None = None
    nhi: Literal["professional", "part-time", "rent", "none"]
    note: str


class WithholdingAgent(SourcedRecord):
    """Whether a payer withholds (所得稅法 §88-89) and who reports the income."""

    id: Id
    payer_is_business: bool
    tax_note: str = Field(description="Why nothing is withheld, when that is the case")
    who_reports: str


class NhiRule(SourcedRecord):
    id: Id
    effective_from: date
    rate: Decimal
    threshold_general: int
    cap: int
    categories: list[str]
    part_time_threshold: Literal["minimum-wage"]
    rounding: str


class MinimumWage(SourcedRecord):
    id: Id
    effective_from: date
    monthly: int


class Platform(SourcedRecord):
    id: Id
    name: str
    commission_rate: Decimal
    payment_rate: Decimal = Field(description="Payment fee as a share of the price, before the tax on the fee")
    payment_min: Decimal | None = Field(None, description="Minimum payment fee per order (NT$, before tax)")
    fee_vat: Decimal = Field(Decimal(0), description="Business tax charged on top of the fees (0.05 = 5%)")
    note: str


class ListingDuty(SourcedRecord):
    id: Id
    category: Literal["food", "cosmetic", "all"]
    title: str
    duty: str
    article: str
    risk: Literal["high", "medium", "low"]


class EndorsementRule(SourcedRecord):
    id: Id
    title: str
    rule: str
    article: str


class CompanyRecord(SourcedRecord):
    ban: str = Field(pattern=r"^\d{8}$", max_length=8)
    name: str = Field(max_length=300)
    status: str = Field(max_length=60)
    capital: int | None = None
    paid_in_capital: int | None = None
    representative: str | None = Field(None, max_length=120)
    address: str | None = Field(None, max_length=300)
    registrar: str | None = Field(None, max_length=120)
    setup_date: date | None = None
    last_change: date | None = None
