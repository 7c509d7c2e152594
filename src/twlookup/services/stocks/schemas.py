"""Parameters and results of the stocks service's operations."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from twlookup.platform.feeds.status import FeedsStatus
from twlookup.platform.operations import Params
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.stocks.logic import ThemeCounts
from twlookup.services.stocks.records import SecurityNames, ThemeNames

ThemeId = Literal["ai-server", "semi-equipment", "liquid-cooling", "cpo"]
STOCK_DAYS = 60  # spec document 1, limits: the stock endpoint shows the latest 60 trading days
MAX_HISTORY_DAYS = 5000
MAX_PLAN_CODES = 10
CODE = r"^[0-9]{4,6}[A-Z]?$"
NOTICE = "Informational only, not investment advice. Closes come from the exchanges' daily files; estimates extrapolate history mechanically."


class Answer(LazyModel):
    notice: str = Field(NOTICE, description="Every answer is informational, not investment advice")
    sample: bool = Field(
        description="True when any close in this answer comes from the illustrative sample snapshot, not an exchange feed"
    )


class CloseOut(LazyModel):
    date: date
    close: float = Field(description="Closing price (NT$)")
    change: float | None = Field(
        description="Change against the previous trading day's close, as the exchange reports it"
    )
    change_pct: float | None = Field(description="change / (close - change) x 100, two decimals")
    market: Literal["TWSE", "TPEx"] | None = Field(description="Feed the close came from; null for the sample snapshot")
    sample: bool


class ThemeRef(ThemeNames):
    pass


class MemberClose(SecurityNames):
    latest: CloseOut | None


class ThemeStatsOut(ThemeCounts[float]):
    """A theme's counts as answered: the mean change a JSON number."""


class ThemeSummary(LazyModel):
    id: ThemeId
    name_en: str
    name_zh: str
    stats: ThemeStatsOut
    members: list[MemberClose]
    source: Source


class ThemeList(Answer):
    as_of: date
    count: int
    themes: list[ThemeSummary]


class ThemeQuery(Params):
    theme: ThemeId = Field(description="Theme id: ai-server, semi-equipment, liquid-cooling or cpo")


class MemberOut(SecurityNames):
    note: str = Field(description="What the company does in this theme (written for this service)")
    latest: CloseOut | None
    source: Source = Field(description="Where the company's membership of the theme is reported")


class ThemeDetail(Answer):
    as_of: date
    id: ThemeId
    name_en: str
    name_zh: str
    note: str = Field(description="Business note on the theme (written for this service)")
    stats: ThemeStatsOut
    members: list[MemberOut]
    source: Source


class StockQuery(Params):
    code: str = Field(pattern=CODE, description="Listed code of a followed stock or ETF, e.g. 2382 or 0056")


class StockDetail(Answer, SecurityNames):
    kind: Literal["stock", "etf"]
    market: Literal["TWSE", "TPEx"] | None = Field(
        description="Exchange of the latest imported close; null while only sample closes exist"
    )
    latest: CloseOut | None
    themes: list[ThemeRef]
    etf_payouts: str | None = Field(description="Path of the ETF's payout table, for ETFs")
    days: int = Field(description="Trading days in `closes` (at most 60)")
    closes: list[CloseOut] = Field(description="The latest trading days, oldest first")
    source: Source = Field(description="Report that names the company or ETF with its code")
    close_sources: list[Source] = Field(description="Feeds (or the sample snapshot) the closes come from")


class PayoutOut(LazyModel):
    period: str = Field(description="YYYYQn for quarterly ETFs, YYYY-MM for monthly ones")
    ex_date: date | None = Field(description="Ex-dividend date; null where the cited report gives the amount only")
    pay_date: date | None
    amount: float = Field(description="Cash per unit (NT$)")
    source: Source


class EstimateOut(LazyModel):
    year: int = 2027
    per_unit: float = Field(description="Estimated 2027 cash payout per unit (NT$)")
    payouts_per_year: int
    window: list[str] = Field(description="First and last period of the trailing year used")
    basis: list[str] = Field(description="Periods of the recorded payouts used")
    complete: bool = Field(description="True when every period of the window has a recorded payout")
    method: str
    price: float | None = Field(description="Latest close used for the yield")
    price_date: date | None
    yield_pct: float | None = Field(description="per_unit / latest close x 100")
    stale: bool = Field(False, description="Built from payouts that stop before periods that have since ended")
    warning: str | None = None


class EtfOut(LazyModel):
    code: str
    name_zh: str
    name_en: str
    issuer: str
    frequency: Literal["quarterly", "monthly"]
    note: str
    latest: CloseOut | None
    payouts: list[PayoutOut] = Field(description="Recorded payouts, oldest first")
    payouts_through: str | None = Field(description="The newest period with a recorded payout")
    periods_missing: list[str] = Field(
        description="Periods that have ended since payouts_through, as of today, with no payout recorded here"
    )
    stale: bool = Field(description="periods_missing is not empty: newer payouts exist or are due and are not here")
    warning: str | None = None
    estimate_2027: EstimateOut | None
    source: Source


class EtfTable(Answer):
    as_of: date
    count: int
    method: str
    etfs: list[EtfOut]


class EtfQuery(Params):
    code: str = Field(pattern=CODE, description="ETF code, e.g. 0056, 00878, 00919, 00713, 00929")


class EtfDetail(Answer):
    as_of: date
    etf: EtfOut


class Status(FeedsStatus):
    """The platform's feed status (the same shape as every service's /api/status), plus the market's counts."""

    notice: str = Field(NOTICE, description="Every answer is informational, not investment advice")
    sample: bool = Field(description="True when the latest closes come from the illustrative sample snapshot")
    latest_trading_date: date | None = Field(description="Most recent trading date of any close in the store")
    updated_at: datetime | None = Field(
        description="When closes were last imported from an exchange feed (UTC); null while only the sample snapshot is loaded"
    )
    securities: int
    closes: int


def _followed_code(value: str) -> str:
    """A paid route checks the code before asking for payment, so a typo costs nothing."""
    from twlookup.services.stocks.data import MARKET

    known = MARKET.get().securities
    if value not in known:
        raise ValueError(f"{value} is not a followed stock or ETF; followed codes: {', '.join(sorted(known))}")
    return value


class HistoryQuery(Params):
    code: Annotated[
        str, Field(pattern=CODE, description="Listed code of a followed stock or ETF"), AfterValidator(_followed_code)
    ]
    days: int = Field(
        250, ge=1, le=MAX_HISTORY_DAYS, description="Latest trading days to return (1 to 5000; default 250)"
    )


class History(Answer, SecurityNames):
    days: int = Field(description="Trading days asked for")
    count: int = Field(description="Trading days returned (fewer when the store holds fewer)")
    first_date: date | None
    last_date: date | None
    closes: list[CloseOut]


def _etf_codes(value: str) -> str:
    """At most 10 ETF codes, each once, each an ETF with payout data (checked before any payment)."""
    from twlookup.services.stocks.data import MARKET

    codes = value.split(",")
    if len(codes) > MAX_PLAN_CODES:
        raise ValueError(f"at most {MAX_PLAN_CODES} ETF codes per plan, got {len(codes)}")
    repeated = sorted({c for c in codes if codes.count(c) > 1})
    if repeated:
        raise ValueError(f"each ETF once; repeated: {', '.join(repeated)}")
    known = MARKET.get().etfs
    unknown = [c for c in codes if c not in known]
    if unknown:
        raise ValueError(f"no payout data for {', '.join(unknown)}; ETFs: {', '.join(known)}")
    return value


class IncomePlanQuery(Params):
    budget: int = Field(ge=1_000, le=1_000_000_000, description="Budget in NT$ (1,000 to 1,000,000,000)")
    codes: Annotated[
        str,
        Field(
            pattern=r"^[0-9]{4,6}[A-Z]?(,[0-9]{4,6}[A-Z]?)*$",
            max_length=80,
            description="ETF codes with payout data, comma-separated, e.g. 0056,00878 (at most 10, no repeats)",
        ),
        AfterValidator(_etf_codes),
    ]


class PlanLineOut(LazyModel):
    code: str
    name_zh: str
    allocation: float = Field(description="Equal share of the budget (NT$, rounded down to the cent)")
    price: float = Field(description="Latest close used as the purchase price")
    price_date: date
    units: int = Field(description="Whole units bought: floor(allocation / price)")
    board_lots: int = Field(description="Whole board lots of 1,000 units within `units`")
    cost: float
    leftover: float
    per_unit_2027: float
    payouts_2027: list[float] = Field(description="Estimated cash per 2027 payout for these units (NT$)")
    income_2027: float
    nhi_premium: float = Field(
        description="Supplementary premium if every payout were all dividend income (upper bound)"
    )
    sample_price: bool


class NhiOut(LazyModel):
    rate: float
    threshold: float = Field(description="A single payment of this much or more is charged")
    cap_per_payment: float
    premium_2027: float = Field(description="Upper bound for this plan: the whole payout treated as dividend income")
    premium_2027_if_yearly: float = Field(
        description="The same under the health ministry's proposed per-year rule (not in force on the checked date): "
        "2.11% of the year's total when it reaches the threshold, base capped at proposed_yearly_cap"
    )
    proposed_yearly_cap: float
    note: str
    sources: list[Source]


class TaxOut(LazyModel):
    credit_rate: float
    credit_cap: float
    separate_rate: float
    credit_option: float = Field(
        description="Credit if the dividends join consolidated income: min(8.5% x income, cap)"
    )
    separate_option: float = Field(description="Tax if the dividends are taxed separately: 28% x income")
    note: str
    sources: list[Source]


class IncomePlan(Answer):
    as_of: date
    budget: int
    codes: list[str]
    assumptions: list[str]
    lines: list[PlanLineOut]
    invested: float
    leftover: float
    income_2027: float = Field(description="Estimated 2027 cash income before deductions (NT$)")
    nhi_premium: float
    income_after_nhi: float
    yield_on_cost_pct: float | None
    nhi: NhiOut
    income_tax: TaxOut


class Export(Answer):
    as_of: date
    latest_trading_date: date | None
    themes: list[ThemeDetail]
    etfs: list[EtfOut]
