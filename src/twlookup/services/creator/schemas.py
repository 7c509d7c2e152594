"""Parameters and results of the creator service (texts in Traditional Chinese, field names in English)."""

from __future__ import annotations

import datetime as dt
from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import Field, field_validator, model_validator

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.creator.records import (
    AdTerm,
    Category,
    CompanyRecord,
    EndorsementRule,
    IncomeKind,
    ListingDuty,
    MinimumWage,
    NhiRule,
    Platform,
    Rule,
    Threshold,
    WithholdingAgent,
)


class CompanyRecordAnswer(RecordAnswer, record=CompanyRecord):
    """A company of the register, with its provenance."""


class ListingDutyAnswer(RecordAnswer, record=ListingDuty):
    """A listing duty, with the regulation it cites."""


class EndorsementRuleAnswer(RecordAnswer, record=EndorsementRule):
    """An endorsement rule, with the regulation it cites."""


class PlatformAnswer(RecordAnswer, record=Platform):
    """A marketplace's fees, with their source (sample where no published rate was found)."""


PlatformId = Literal["shopee", "momo", "pinkoi", "own-site", "custom"]
IncomeKindId = Literal["professional-fee", "manuscript-fee", "part-time-salary", "rent", "prize"]
CATEGORIES = r"^(food|cosmetic)(,(food|cosmetic))?$"
AD_CATEGORY = "(food|cosmetic|device|general)"
AD_CATEGORIES = rf"^{AD_CATEGORY}(,{AD_CATEGORY}){{0,3}}$"
MONEY = Field(ge=0, le=100_000_000, max_digits=12, decimal_places=2)


class AdCheckBody(Params):
    text: str = Field(min_length=1, max_length=5000, description="The ad copy (Traditional or Simplified Chinese)")
    category: Category = Field(
        description="food, cosmetic, device (a licensed medical device, 醫療器材) or general (goods that are none of "
        "these: medical claims are barred outright, 醫療器材管理法 §46)"
    )


class Penalty(LazyModel):
    min_twd: int | None
    max_twd: int | None
    text: str


class AdFinding(LazyModel):
    words: str = Field(description="The words found, as written in the list")
    group: str
    rule: str
    article: str
    why: str
    penalty: Penalty
    suggestion: str | None = Field(
        description="A phrase the annex allows instead, where one fits; only if it is true of the product"
    )
    basis: str = Field(
        description="annex (the regulation's annex), official-example (the ministry's example phrases) or "
        "category (a plain word for the rule's category, chosen here)"
    )
    source: Source


class AllowedPhrase(LazyModel):
    words: str
    source: Source


AD_CHECK_NOTE = (
    "比對法規附件詞句、主管機關例句與違規類型用詞（每筆以 basis 標明依據）；"
    "沒有命中不代表整體廣告合法（主管機關依整體表現綜合判斷）。"
    "文字已先轉為繁體並統一全形字元。"
)


class AdCheck(LazyModel):
    category: str
    normalised_text: str
    verdict: Literal["ok", "risky"]
    count: int
    findings: list[AdFinding]
    allowed_phrases: list[AllowedPhrase]
    note: str


class ProfitQuery(Params):
    price: Decimal = Field(
        gt=0, le=10_000_000, max_digits=12, decimal_places=2, description="Selling price per order (NT$)"
    )
    cost: Decimal = Field(
        ge=0, le=10_000_000, max_digits=12, decimal_places=2, description="Cost of goods per order (NT$)"
    )
    platform: PlatformId = Field("own-site", description="Marketplace id (see /api/platforms); custom: give fee_rate")
    commission: Decimal = Field(
        Decimal(0), ge=0, le=100, max_digits=5, decimal_places=2, description="Creator commission, % of price"
    )
    ship: Decimal = Field(
        Decimal(0),
        ge=0,
        le=100_000,
        max_digits=9,
        decimal_places=2,
        description="Shipping the seller pays per order (NT$)",
    )
    fee_rate: Decimal | None = Field(
        None, ge=0, le=100, max_digits=5, decimal_places=2, description="Override the platform fee, % of price"
    )
    payment_rate: Decimal | None = Field(
        None, ge=0, le=100, max_digits=5, decimal_places=2, description="Override the payment fee, % of price"
    )


class ProfitAnswer(LazyModel):
    price: Decimal
    cost: Decimal
    ship: Decimal
    platform: str
    platform_fee_rate_pct: Decimal
    payment_fee_rate_pct: Decimal
    commission_rate_pct: Decimal
    platform_fee: Decimal
    payment_fee: Decimal
    commission: Decimal
    profit: Decimal
    margin_pct: Decimal
    break_even_price: Decimal | None
    rounding: str
    sample: bool = Field(description="True when a platform rate comes from a sample record, not a published source")
    note: str
    source: Source | None


class TaxQuery(Params):
    monthly: int = Field(ge=0, le=1_000_000_000, description="Monthly sales (NT$)")
    type: Literal["goods", "services"] = Field("goods", description="goods or services")
    date: dt.date | None = Field(
        None, description="Date the thresholds are taken at (default today in Taipei); from 2023-01-01"
    )


class TaxAnswer(LazyModel):
    as_of: date
    monthly: int
    type: str
    threshold: int
    must_register: bool
    tier: Literal["below", "small-scale", "invoice"]
    summary: str
    next_steps: list[str]
    estimated_quarterly_tax: int | None
    thresholds_in_force_from: date
    earlier_thresholds: list[dict[str, object]]
    source: Source


class WithholdingQuery(Params):
    amount: int = Field(ge=1, le=1_000_000_000, description="Gross amount of one payment (NT$)")
    kind: IncomeKindId = Field(description="Income kind")
    residency: Literal["resident", "non-resident"] = Field("resident", description="Payee's tax residency")
    nhi_insured: bool = Field(True, description="Payee is insured under Taiwan's NHI (false: no premium)")
    payer_is_business: bool = Field(
        True,
        description="Payer is a withholding agent (所得稅法 §89: an agency, organisation, school, business or "
        "professional practitioner); false: a private person pays, nothing is withheld and the payee reports",
    )
    date: dt.date | None = Field(None, description="Payment date (default today in Taipei); from 2026-01-01")


class WithholdingAnswer(LazyModel):
    as_of: date
    amount: int
    kind: str
    code: str
    name: str
    residency: str
    tax_rate_pct: Decimal
    tax: int
    tax_note: str
    nhi_premium: int
    nhi_base: int
    nhi_rate_pct: Decimal
    nhi_note: str
    net: int
    withheld_by_payer: bool = Field(description="The payer withholds tax and premium (false: a private person pays)")
    who_reports: str = Field(description="Who reports the income, and how")
    minimum_wage: int
    rounding: str
    note: str
    sources: list[Source]


class CompanyQuery(Params):
    ban: str | None = Field(None, pattern=r"^\d{8}$", description="Business ID (統一編號), 8 digits")
    name: str | None = Field(None, min_length=2, max_length=100, description="Company name or part of it (store only)")


class BanCheck(LazyModel):
    ban: str
    valid: bool = Field(description="Valid under the rule in force since 2023 (sum divisible by 5)")
    valid_old_rule: bool = Field(description="Also valid under the pre-2023 rule (divisible by 10)")
    valid_under: list[Literal["2023", "pre-2023"]] = Field(
        description="The check-digit rules the number satisfies: the 2023 rule, the pre-2023 rule, both or neither"
    )
    checksum: int
    note: str


class CompanyAnswer(LazyModel):
    query: str
    check: BanCheck | None
    found: bool
    from_register: Literal["store", "live", "none", "unavailable"] = Field(
        description="Where the company part came from; unavailable: the register could not be asked (try again later)"
    )
    register_retry_after_seconds: int | None = Field(
        None, description="When from_register is unavailable: seconds to wait before asking again"
    )
    companies: list[CompanyRecordAnswer]
    note: str


class ListingQuery(Params):
    categories: str = Field("food,cosmetic", pattern=CATEGORIES, description="food, cosmetic or food,cosmetic")


class ListingAnswer(LazyModel):
    categories: list[str]
    count: int
    duties: list[ListingDutyAnswer]


class EndorsementAnswer(LazyModel):
    count: int
    rules: list[EndorsementRuleAnswer]


SAMPLE_RATES_NOTE = (
    "標示 sample 的平台費率為示意值，未能找到可引用的公開費率表；計算時請以平台後台公告的費率覆寫。"
    "未標示者依其來源頁面的公開費率。"
)


class PlatformsAnswer(LazyModel):
    count: int
    sample: bool
    note: str
    platforms: list[PlatformAnswer]


class CampaignBody(Params):
    copy_text: str | None = Field(None, alias="copy", min_length=1, max_length=5000, description="Ad copy to check")
    categories: str | None = Field(
        None,
        pattern=AD_CATEGORIES,
        description="Comma-separated: food, cosmetic, device, general (listing duties: food, cosmetic)",
    )
    price: Decimal | None = Field(None, gt=0, le=10_000_000, max_digits=12, decimal_places=2)
    cost: Decimal | None = Field(None, ge=0, le=10_000_000, max_digits=12, decimal_places=2)
    platform: PlatformId = "own-site"
    commission: Decimal = Field(Decimal(0), ge=0, le=100, max_digits=5, decimal_places=2)
    ship: Decimal = Field(Decimal(0), ge=0, le=100_000, max_digits=9, decimal_places=2)
    monthly_sales: int | None = Field(None, ge=0, le=1_000_000_000, description="Expected monthly sales (NT$)")
    sales_type: Literal["goods", "services"] = "goods"
    supplier_ban: str | None = Field(None, pattern=r"^\d{8}$", description="Supplier's business ID")

    @field_validator("price", "cost", "commission", "ship", "monthly_sales", mode="before")
    @classmethod
    def _not_a_boolean(cls, value: object) -> object:
        if isinstance(value, bool):  # JSON true/false is not a number here
            raise ValueError("must be a number, not true/false")
        return value

    @model_validator(mode="after")
    def _something_to_review(self) -> CampaignBody:
        if not (
            self.copy_text
            or self.categories
            or self.monthly_sales is not None
            or self.supplier_ban
            or (self.price is not None and self.cost is not None)
        ):
            raise ValueError(
                "give something to review: copy and categories, price and cost, monthly_sales or supplier_ban"
            )
        return self


CAMPAIGN_EXAMPLE = {  # the paid review's discovery example, the same by GET and POST
    "copy": "排毒又能降血壓",
    "categories": "food",
    "price": 500,
    "cost": 250,
    "monthly_sales": 120000,
    "supplier_ban": "22099131",
}


class Todo(LazyModel):
    risk: Literal["high", "medium", "low"]
    check: Literal["ad-check", "profit", "tax-check", "company", "listing"]
    item: str
    detail: str


class CampaignReview(LazyModel):
    as_of: date
    count: int
    todo: list[Todo]
    ad_check: AdCheck | None
    profit: ProfitAnswer | None
    tax: TaxAnswer | None
    supplier: CompanyAnswer | None
    listing: ListingAnswer | None


class AdTermAnswer(RecordAnswer, record=AdTerm):
    """A term of the regulators' word lists."""


class RuleAnswer(RecordAnswer, record=Rule):
    """A rule an ad term falls under, with its article and penalty range."""


class ThresholdAnswer(RecordAnswer, record=Threshold):
    """Business-tax registration thresholds in force over a period."""


class IncomeKindAnswer(RecordAnswer, record=IncomeKind):
    """An income kind's withholding rates."""


class WithholdingAgentAnswer(RecordAnswer, record=WithholdingAgent):
    """Whether a payer withholds, and who reports the income."""


class NhiRuleAnswer(RecordAnswer, record=NhiRule):
    """The NHI supplementary premium's rate, threshold and cap."""


class MinimumWageAnswer(RecordAnswer, record=MinimumWage):
    """The monthly minimum wage in force from a date."""


class Export(LazyModel):
    terms: list[AdTermAnswer]
    rules: list[RuleAnswer]
    thresholds: list[ThresholdAnswer]
    withholding: list[IncomeKindAnswer]
    withholding_agents: list[WithholdingAgentAnswer]
    nhi: list[NhiRuleAnswer]
    minimum_wage: list[MinimumWageAnswer]
    platforms: list[PlatformAnswer]
    listing: list[ListingDutyAnswer]
    endorsement: list[EndorsementRuleAnswer]
