"""Money rules: tax registration, withholding with the NHI supplementary premium, group-buy profit.

All amounts are Decimal. Withheld tax is rounded down to whole NT$ (the regulation fixes no
rounding; rounding down never overstates it); the NHI premium is rounded half up to whole NT$ (as
the NHI administration computes it); platform fees and commission are rounded half up to whole NT$
per order; margins are given to 0.01%.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Literal, Protocol, TypeVar

from twlookup.services.creator.records import IncomeKind, MinimumWage, NhiRule, Threshold

ONE = Decimal(1)


def pct(rate: Decimal) -> str:
    """A rate as a percentage without trailing zeros: 0.0211 → '2.11'."""
    return f"{(rate * 100).normalize():f}"


def whole(value: Decimal, rounding: str = ROUND_HALF_UP) -> Decimal:
    return value.quantize(ONE, rounding=rounding)


class Dated(Protocol):
    @property
    def effective_from(self) -> date: ...


D = TypeVar("D", bound=Dated)
Tier = Literal["below", "small-scale", "invoice"]


def in_force(items: list[D], on: date) -> D | None:
    """The record with the latest effective_from not after `on` (None if none yet)."""
    current = [i for i in items if i.effective_from <= on]
    return max(current, key=lambda i: i.effective_from) if current else None


@dataclass(frozen=True)
class TaxCheck:
    threshold: Threshold
    limit: int
    must_register: bool
    tier: Tier
    quarterly_tax: Decimal | None

    def advice(self, monthly: int, kind: str) -> tuple[str, list[str]]:
        """What the tier means for a seller of `monthly` NT$ of goods or services, and what to do next."""
        th, label = self.threshold, "銷售貨物" if kind == "goods" else "銷售勞務"
        if self.tier == "below":
            return f"每月{label} {monthly:,} 元，未達起徵點 {self.limit:,} 元：暫免辦理稅籍登記。", [
                "持續記錄每月銷售額；任一月達到起徵點就要申請稅籍登記。",
                "偶爾出售自用二手物品不屬營業行為。",
            ]
        if self.tier == "small-scale":
            return (
                f"每月{label} {monthly:,} 元，已達起徵點 {self.limit:,} 元：應辦理稅籍登記；未達 {th.invoice_threshold:,} 元，"
                f"通常核定為小規模營業人，由國稅局按季查定 {pct(th.small_scale_rate)}% 營業稅。"
            ), [
                "向所在地國稅局申請稅籍登記，填寫網域名稱、網路位址與平台會員帳號。",
                "在銷售網頁揭露營業人名稱及統一編號。",
                f"每季營業稅約為 {self.quarterly_tax} 元（月銷售額 × 3 × 1%，實際以國稅局查定為準）。",
            ]
        return (
            f"每月{label} {monthly:,} 元，達 {th.invoice_threshold:,} 元：應辦理稅籍登記，使用統一發票，"
            f"按 {pct(th.vat_rate)}% 營業稅每兩個月申報。"
        ), [
            "申請稅籍登記並購買或申請電子發票。",
            "每單數月15日前申報前兩個月的營業稅（401申報書）。",
            "在銷售網頁揭露營業人名稱及統一編號。",
        ]


def tax_check(monthly: int, kind: str, thresholds: list[Threshold], on: date) -> TaxCheck:
    t = in_force(thresholds, on)
    if t is None:
        raise LookupError(f"no registration threshold in force on {on}")
    limit = t.goods if kind == "goods" else t.services
    if monthly < limit:
        return TaxCheck(t, limit, False, "below", None)
    if monthly < t.invoice_threshold:
        return TaxCheck(t, limit, True, "small-scale", whole(Decimal(monthly) * 3 * t.small_scale_rate))
    return TaxCheck(t, limit, True, "invoice", None)


@dataclass(frozen=True)
class Withholding:
    rate: Decimal
    tax: Decimal
    tax_note: str
    premium: Decimal
    premium_base: Decimal
    premium_note: str
    net: Decimal


def withholding(
    amount: int,
    kind: IncomeKind,
    resident: bool,
    insured: bool,
    payer_is_business: bool,
    nhi: NhiRule,
    wage: MinimumWage,
) -> Withholding:
    amt = Decimal(amount)
    if not payer_is_business:
        # a private person is not a withholding agent (所得稅法 §88-89) and so not the NHI
        # premium's deducting party either (全民健康保險法 §31): nothing is taken from the payment
        return Withholding(Decimal(0), Decimal(0), "", Decimal(0), Decimal(0), "", amt)
    # income tax
    if resident:
        rate = kind.resident_rate
        if kind.resident_start_from is not None and amount < kind.resident_start_from:
            rate, note = Decimal(0), f"未達起扣標準 {kind.resident_start_from:,} 元，免扣繳"
        else:
            note = f"按給付額 {pct(rate)}% 扣繳"
        tax = whole(amt * rate, ROUND_FLOOR)
        if rate and kind.resident_exempt_tax_upto is not None and tax <= kind.resident_exempt_tax_upto:
            tax, note = (
                Decimal(0),
                f"應扣稅額 {whole(amt * rate, ROUND_FLOOR)} 元不超過 {kind.resident_exempt_tax_upto:,} 元，免予扣繳",
            )
    else:
        rate = kind.nonresident_rate
        note = f"非居住者按給付額 {pct(rate)}% 扣繳"
        if kind.nonresident_low_rate is not None and kind.nonresident_low_upto_wage_multiple is not None:
            limit = whole(wage.monthly * kind.nonresident_low_upto_wage_multiple)
            if amt <= limit:
                rate, note = (
                    kind.nonresident_low_rate,
                    f"非居住者全月薪資不超過基本工資 1.5 倍（{limit:,} 元），按 {pct(kind.nonresident_low_rate)}% 扣繳",
                )
        tax = whole(amt * rate, ROUND_FLOOR)
        if kind.nonresident_exempt_payment_upto is not None and amount <= kind.nonresident_exempt_payment_upto:
            tax, note = Decimal(0), f"非居住者每次給付額不超過 {kind.nonresident_exempt_payment_upto:,} 元，得免予扣繳"
    # NHI supplementary premium
    premium, base, pnote = Decimal(0), Decimal(0), ""
    if kind.nhi == "none":
        pnote = "此所得類別不屬補充保險費的計費項目"
    elif not insured:
        pnote = "領取人不是全民健保保險對象（或屬免扣取身分），不扣補充保險費"
    else:
        threshold = wage.monthly if kind.nhi == "part-time" else nhi.threshold_general
        if amount >= threshold:
            base = min(amt, Decimal(nhi.cap))
            premium = whole(base * nhi.rate)
            pnote = f"單次給付達 {threshold:,} 元，按 {pct(nhi.rate)}% 扣取（單次上限 {nhi.cap:,} 元，元以下四捨五入）"
        else:
            pnote = f"單次給付未達 {threshold:,} 元，免扣補充保險費"
    return Withholding(rate, tax, note, premium, base, pnote, amt - tax - premium)


@dataclass(frozen=True)
class Profit:
    platform_fee: Decimal
    payment_fee: Decimal
    commission: Decimal
    profit: Decimal
    margin: Decimal  # percent, 2 decimals
    break_even_price: Decimal | None
    fee_rate: Decimal
    payment_rate: Decimal


def profit(
    price: Decimal,
    cost: Decimal,
    ship: Decimal,
    commission_rate: Decimal,
    fee_rate: Decimal,
    payment_rate: Decimal,
    payment_min: Decimal | None = None,
    fee_vat: Decimal = Decimal(0),
) -> Profit:
    """Profit of one order. The platform and payment fees carry `fee_vat` (business tax on the fee)
    on top; the payment fee is at least `payment_min` before that tax."""
    k = ONE + fee_vat
    floor = payment_min or Decimal(0)
    platform_fee = whole(price * fee_rate * k)
    payment_fee = whole(max(price * payment_rate, floor) * k)
    commission = whole(price * commission_rate)
    result = price - cost - ship - platform_fee - payment_fee - commission
    margin = (result / price * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    # break-even: the price where the unrounded fees leave nothing; the payment fee is either its
    # rate (above the minimum) or the minimum itself, and profit rises with the price, so one holds
    share = ONE - fee_rate * k - payment_rate * k - commission_rate
    break_even = (cost + ship) / share if share > 0 else None
    if break_even is not None and break_even * payment_rate < floor:
        share = ONE - fee_rate * k - commission_rate
        break_even = (cost + ship + floor * k) / share if share > 0 else None
    return Profit(
        platform_fee,
        payment_fee,
        commission,
        result,
        margin,
        whole(break_even, ROUND_CEILING) if break_even is not None else None,
        fee_rate,
        payment_rate,
    )
