"""The creator service's operations: thin adapters from parameters to the rules and the data."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

from anyio import to_thread

from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer, from_attributes
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.creator import parsers
from twlookup.services.creator.data import (
    CATALOGUE,
    Catalogue,
    companies_by_name,
    company_by_ban,
    save_company,
)
from twlookup.services.creator.feeds import COMPANIES
from twlookup.services.creator.logic import adcheck, money, ubn
from twlookup.services.creator.records import CompanyRecord, ListingDuty
from twlookup.services.creator.schemas import (
    AD_CHECK_NOTE,
    CAMPAIGN_EXAMPLE,
    SAMPLE_RATES_NOTE,
    AdCheck,
    AdCheckBody,
    AdFinding,
    AdTermAnswer,
    AllowedPhrase,
    BanCheck,
    CampaignBody,
    CampaignReview,
    CompanyAnswer,
    CompanyQuery,
    CompanyRecordAnswer,
    EndorsementAnswer,
    EndorsementRuleAnswer,
    Export,
    IncomeKindAnswer,
    ListingAnswer,
    ListingDutyAnswer,
    ListingQuery,
    MinimumWageAnswer,
    NhiRuleAnswer,
    Penalty,
    PlatformAnswer,
    PlatformsAnswer,
    ProfitAnswer,
    ProfitQuery,
    RuleAnswer,
    TaxAnswer,
    TaxQuery,
    ThresholdAnswer,
    Todo,
    WithholdingAgentAnswer,
    WithholdingAnswer,
    WithholdingQuery,
)
from twlookup.services.creator.tables import KIND_TABLES

SERVICE = Service(
    name="creator",
    title="團購主法規小幫手",
    description=(
        "Compliance helpers for Taiwan group-buy creators, answering in Traditional Chinese: ad wording "
        "against the regulators' word lists for food, cosmetics, medical devices and general goods, profit "
        "after platform fees, business-tax registration thresholds, withholding and the NHI supplementary premium, business-ID check digits "
        "and the company register, listing duties and endorsement rules. Each rule cites its regulation."
    ),
    network="testnet",
    notice="資訊參考，不是法律或稅務意見；重要決定請向主管機關或專業人士確認。",
)
SERVICE.feed(COMPANIES)  # the company register, asked again per stored company (twlookup refresh creator.companies)
add_status_route(SERVICE)

PCT = Decimal(100)


def _ad_check(catalogue: Catalogue, text: str, category: str) -> AdCheck:
    norm, hits, allowed = adcheck.scan(text, catalogue.terms, category)
    findings = []
    for h in hits:
        rule = catalogue.rules[h.term.rule]
        findings.append(
            AdFinding(
                words=h.term.term,
                group=h.term.group,
                rule=rule.title,
                article=rule.article,
                why=rule.why,
                penalty=Penalty(min_twd=rule.penalty_min, max_twd=rule.penalty_max, text=rule.penalty_text),
                suggestion=h.term.suggestion,
                basis=h.term.basis,
                source=h.term.source_ref,
            )
        )
    return AdCheck(
        category=category,
        normalised_text=norm,
        verdict="risky" if findings else "ok",
        count=len(findings),
        findings=findings,
        allowed_phrases=[AllowedPhrase(words=a.term.term, source=a.term.source_ref) for a in allowed],
        note=AD_CHECK_NOTE,
    )


@SERVICE.operation("POST", "/api/ad-check", tool="check_ad_claims")
def ad_check(p: AdCheckBody) -> AdCheck:
    """Check ad copy for food, cosmetics, medical devices or general goods against the regulators' word lists
    (JSON body: text, category).

    Each finding names the words, the rule and its article, why it is a problem, the penalty range and,
    where the annex offers one, an allowed phrase instead. Phrases the annex allows are not flagged."""
    return _ad_check(CATALOGUE.get(), p.text, p.category)


def _profit(catalogue: Catalogue, q: ProfitQuery) -> ProfitAnswer:
    price, cost, platform, fee_rate, payment_rate = q.price, q.cost, q.platform, q.fee_rate, q.payment_rate
    record = catalogue.platforms.get(platform)
    if platform == "custom":
        if fee_rate is None:
            raise InvalidParameter("fee_rate", "platform=custom needs fee_rate (% of price)")
        record = None
    elif record is None:
        raise Problem(503, f"Platform {platform} is not in the store; run `twlookup seed`.")
    fr = fee_rate / PCT if fee_rate is not None else (record.commission_rate if record else Decimal(0))
    pr = payment_rate / PCT if payment_rate is not None else (record.payment_rate if record else Decimal(0))
    cr = q.commission / PCT
    if fr + pr + cr >= 1:
        raise InvalidParameter(
            "commission", "platform fee, payment fee and commission together must stay below 100% of the price"
        )
    # the record's minimum and tax on fees apply only to its own rates, not to rates the caller gives
    own_payment = record is not None and payment_rate is None
    vat = record.fee_vat if record is not None and fee_rate is None and payment_rate is None else Decimal(0)
    payment_min = record.payment_min if record is not None and own_payment else None
    result = money.profit(price, cost, q.ship, cr, fr, pr, payment_min=payment_min, fee_vat=vat)
    sample = bool(record and record.sample and (fee_rate is None or payment_rate is None))
    note = "利潤 = 售價 − 成本 − 運費 − 平台手續費 − 金流手續費 − 分潤。"
    if vat:
        note += f"手續費另加{money.pct(vat)}%營業稅。"
    if own_payment and record is not None and record.payment_min:
        note += f"金流手續費每筆最低{record.payment_min}元（未稅）。"
    if sample:
        note += "平台費率為示意值（未能找到公開來源），請以平台後台公告覆寫 fee_rate、payment_rate。"
    if result.profit < 0:
        note += "此售價下每筆虧損。"
    # the fees, profit and break-even price are the result's, by name
    return from_attributes(
        ProfitAnswer,
        result,
        price=price,
        cost=cost,
        ship=q.ship,
        platform=platform,
        platform_fee_rate_pct=fr * PCT,
        payment_fee_rate_pct=pr * PCT,
        commission_rate_pct=cr * PCT,
        margin_pct=result.margin,
        rounding="各項費用（含手續費的營業稅）按每筆四捨五入到元；毛利率到0.01%；損益兩平售價無條件進位到元（以未進位費用計算）。",
        sample=sample,
        note=note,
        source=record.source_ref if record else None,
    )


@SERVICE.operation("GET", "/api/profit", tool="calc_group_buy_profit")
def profit(p: ProfitQuery) -> ProfitAnswer:
    """Profit, margin and break-even price of one group-buy order after platform, payment and commission fees."""
    return _profit(CATALOGUE.get(), p)


def _tax(catalogue: Catalogue, monthly: int, kind: str, on: date) -> TaxAnswer:
    try:
        t = money.tax_check(monthly, kind, catalogue.thresholds, on)
    except LookupError:
        first = min(x.effective_from for x in catalogue.thresholds).isoformat()
        raise InvalidParameter("date", f"no threshold is known here before {first}", {"minimum": first}) from None
    th = t.threshold
    summary, steps = t.advice(monthly, kind)
    shown = {"effective_from", "effective_to", "goods", "services", "source"}
    earlier = [
        x.model_dump(mode="json", include=shown)
        for x in sorted(catalogue.thresholds, key=lambda x: x.effective_from)
        if x.id != th.id
    ]
    return TaxAnswer(
        as_of=on,
        monthly=monthly,
        type=kind,
        threshold=t.limit,
        must_register=t.must_register,
        tier=t.tier,
        summary=summary,
        next_steps=steps,
        estimated_quarterly_tax=int(t.quarterly_tax) if t.quarterly_tax is not None else None,
        thresholds_in_force_from=th.effective_from,
        earlier_thresholds=earlier,
        source=th.source_ref,
    )


@SERVICE.operation("GET", "/api/tax-check", tool="check_tax_registration")
def tax_check(p: TaxQuery) -> TaxAnswer:
    """Whether an online seller must register for business tax, by the thresholds in force on the date."""
    return _tax(CATALOGUE.get(), p.monthly, p.type, p.date or today_taipei())


@SERVICE.operation("GET", "/api/withholding", tool="calc_creator_withholding")
def withholding(p: WithholdingQuery) -> WithholdingAnswer:
    """Income tax withheld and the NHI supplementary premium on one payment to a creator, and the net amount."""
    catalogue, on = CATALOGUE.get(), p.date or today_taipei()
    kind = catalogue.incomes.get(p.kind)
    nhi, wage = money.in_force(catalogue.nhi, on), money.in_force(catalogue.wages, on)
    agent = catalogue.agents.get(p.payer_is_business)
    if kind is None or nhi is None or wage is None or agent is None:
        if wage is None and catalogue.wages:
            raise InvalidParameter("date", "the minimum wage is known here from 2026-01-01", {"minimum": "2026-01-01"})
        raise Problem(503, "Withholding data is not in the store; run `twlookup seed`.")
    r = money.withholding(p.amount, kind, p.residency == "resident", p.nhi_insured, p.payer_is_business, nhi, wage)
    latest_wage = max(catalogue.wages, key=lambda w: w.effective_from)
    note = kind.note
    if on.year > latest_wage.effective_from.year:
        note += f"（注意：此處最新的基本工資資料為 {latest_wage.effective_from.year} 年 {latest_wage.monthly:,} 元，{on.year} 年的公告尚未收錄。）"
    withheld = p.payer_is_business
    return WithholdingAnswer(
        **p.model_dump(include={"amount", "residency"}),
        **kind.model_dump(include={"code", "name"}),
        as_of=on,
        kind=kind.id,
        tax_rate_pct=r.rate * PCT,
        tax=int(r.tax),
        tax_note=r.tax_note if withheld else agent.tax_note,
        nhi_premium=int(r.premium),
        nhi_base=int(r.premium_base),
        nhi_rate_pct=nhi.rate * PCT,
        nhi_note=r.premium_note if withheld else agent.tax_note,
        net=int(r.net),
        withheld_by_payer=withheld,
        who_reports=agent.who_reports,
        minimum_wage=wage.monthly,
        rounding="扣繳稅額元以下捨去（法規未定，本服務取不高估的做法）；補充保險費元以下四捨五入。",
        note=note,
        sources=[kind.source_ref, nhi.source_ref, wage.source_ref, agent.source_ref],
    )


def _ban_check(ban: str) -> BanCheck:
    c = ubn.check(ban)
    rules: tuple[tuple[Literal["2023", "pre-2023"], bool], ...] = (("2023", c.valid), ("pre-2023", c.valid_old_rule))
    under = [r for r, ok in rules if ok]
    return BanCheck(
        ban=ban,
        valid=c.valid,
        valid_old_rule=c.valid_old_rule,
        valid_under=under,
        checksum=c.checksum,
        note=ubn.note(c),
    )


async def _company_by_name(name: str) -> CompanyAnswer:
    found = await to_thread.run_sync(companies_by_name, name)
    return CompanyAnswer(
        query=name,
        check=None,
        found=bool(found),
        from_register="store" if found else "none",
        companies=[as_answer(c, CompanyRecordAnswer) for c in found],
        note="名稱查詢只搜尋本服務已匯入的登記資料。" + ("" if found else "找不到；請改用統一編號查詢。"),
    )


async def _company(ban: str) -> tuple[CompanyAnswer, CompanyRecord | None]:
    """The answer for a business ID, and the company found (None when there is none)."""
    check = _ban_check(ban)
    record = await to_thread.run_sync(company_by_ban, ban)
    source: Literal["store", "live"] = "store"
    if record is None and parsers.live_lookup_enabled():
        try:
            record = await parsers.fetch_company(ban, today_taipei())
        except Problem as away:
            if check.valid:
                # a number that looks right: only the register can say whether it is registered
                away.extra["check"] = check.model_dump(mode="json")
                raise
            return CompanyAnswer(
                query=ban,
                check=check,
                found=False,
                from_register="unavailable",
                register_retry_after_seconds=int(away.headers.get("Retry-After", "30")),
                companies=[],
                note=(
                    "檢查碼不符（2023年起的規則與舊規則皆不符）：很可能是打錯號碼。"
                    "公司登記資料目前無法查詢，稍後可再查是否為早期核發的例外號碼。"
                ),
            ), None
        source = "live"
        if record is not None:
            await to_thread.run_sync(save_company, record)
    if record is None:
        note = "公司登記資料查無此統一編號（也可能是商業登記的行號，或尚未匯入）。"
        if not check.valid:
            note = "檢查碼不符，且登記資料查無此號碼：很可能是打錯號碼。"
        return CompanyAnswer(query=ban, check=check, found=False, from_register="none", companies=[], note=note), None
    note = check.note
    if not check.valid:
        note = "此號碼不符合檢查碼規則，但確實存在於登記資料中（早期核發的號碼有少數例外），以登記資料為準。"
    if record.sample:
        note += "（此筆為示例資料，不是由匯入程式取得。）"
    return CompanyAnswer(
        query=ban,
        check=check,
        found=True,
        from_register=source,
        companies=[as_answer(record, CompanyRecordAnswer)],
        note=note,
    ), record


@SERVICE.operation("GET", "/api/company", tool="lookup_supplier_company")
async def company(p: CompanyQuery) -> CompanyAnswer:
    """A supplier by business ID (check digit by the 2023 rule, then the company register) or by name.

    Numbers not in the store are asked of the Ministry of Economic Affairs' open data live (5 s
    timeout). When it cannot be reached, a number whose check digit fails still gets its verdict
    (from_register: unavailable, register_retry_after_seconds); a number that passes answers 503 with
    Retry-After and the check-digit verdict in `check`."""
    if (p.ban is None) == (p.name is None):
        raise InvalidParameter("ban", "give exactly one of ban or name", ["ban", "name"])
    if p.name is not None:
        return await _company_by_name(p.name)
    assert p.ban is not None  # exactly one of the two was given
    answer, _found = await _company(p.ban)
    return answer


RISK_ORDER = {"high": 0, "medium": 1, "low": 2}


def _duties(catalogue: Catalogue, categories: list[str]) -> list[ListingDuty]:
    """The listing duties of the categories (and of every listing), the riskiest first."""
    duties = [d for d in catalogue.listing if d.category in categories or d.category == "all"]
    return sorted(duties, key=lambda d: (RISK_ORDER[d.risk], d.category, d.id))


def _listing(catalogue: Catalogue, categories: list[str]) -> ListingAnswer:
    duties = _duties(catalogue, categories)
    return ListingAnswer(
        categories=categories, count=len(duties), duties=[as_answer(d, ListingDutyAnswer) for d in duties]
    )


@SERVICE.operation("GET", "/api/listing", tool="listing_checklist")
def listing(p: ListingQuery) -> ListingAnswer:
    """Labelling and registration duties for listing food and/or cosmetics, each with its regulation."""
    return _listing(CATALOGUE.get(), sorted(set(p.categories.split(","))))


@SERVICE.operation("GET", "/api/endorsement", tool="endorsement_rules")
def endorsement() -> EndorsementAnswer:
    """The Fair Trade Act's endorsement rules and the endorser's liability."""
    rules = CATALOGUE.get().endorsement
    return EndorsementAnswer(count=len(rules), rules=[as_answer(r, EndorsementRuleAnswer) for r in rules])


@SERVICE.operation("GET", "/api/platforms", tool="platform_fees")
def platforms() -> PlatformsAnswer:
    """The marketplace fee table (platform identifiers for /api/profit)."""
    items = sorted(CATALOGUE.get().platforms.values(), key=lambda x: x.id)
    sample = any(x.sample for x in items)
    return PlatformsAnswer(
        count=len(items),
        sample=sample,
        platforms=[as_answer(x, PlatformAnswer) for x in items],
        note=SAMPLE_RATES_NOTE if sample else "",
    )


async def _review(p: CampaignBody) -> CampaignReview:
    catalogue, today = CATALOGUE.get(), today_taipei()
    cats = sorted(set(p.categories.split(","))) if p.categories else []
    todo: list[Todo] = []
    ad = None
    if p.copy_text:
        if not cats:
            raise InvalidParameter(
                "categories", "give the categories (food, cosmetic, device, general) to check the copy against"
            )
        ad = _ad_check(catalogue, p.copy_text, cats[0])
        for extra in cats[1:]:
            more = _ad_check(catalogue, p.copy_text, extra)
            ad = ad.model_copy(
                update={
                    "findings": ad.findings + more.findings,
                    "count": ad.count + more.count,
                    "verdict": "risky" if ad.findings or more.findings else "ok",
                }
            )
        todo += [
            Todo(
                risk="high",
                check="ad-check",
                item=f"刪改廣告用語「{f.words}」",
                detail=f"{f.article}；{f.penalty.text}",
            )
            for f in ad.findings
        ]
    prof = None
    if p.price is not None and p.cost is not None:
        order = ProfitQuery(price=p.price, cost=p.cost, platform=p.platform, commission=p.commission, ship=p.ship)
        prof = _profit(catalogue, order)
        if prof.profit < 0:
            loss = f"每筆虧損 {-prof.profit} 元；損益兩平售價 {prof.break_even_price} 元"
            todo.append(Todo(risk="high", check="profit", item="售價低於損益兩平", detail=loss))
        elif prof.margin_pct < 10:
            todo.append(Todo(risk="medium", check="profit", item="毛利率低於10%", detail=f"毛利率 {prof.margin_pct}%"))
        if prof.sample:
            todo.append(Todo(risk="low", check="profit", item="以平台後台的實際費率重算", detail="平台費率為示意值"))
    tax = None
    if p.monthly_sales is not None:
        tax = _tax(catalogue, p.monthly_sales, p.sales_type, today)
        if tax.must_register:
            todo.append(Todo(risk="high", check="tax-check", item="辦理稅籍登記", detail=tax.summary))
    supplier = None
    if p.supplier_ban is not None:
        supplier, found = await _company(p.supplier_ban)
        if found is None:
            todo.append(Todo(risk="high", check="company", item="核對供應商統一編號", detail=supplier.note))
        elif found.status not in ("核准設立",):
            todo.append(Todo(risk="high", check="company", item="供應商登記狀態異常", detail=found.status))
    listing_answer = None
    if cats:
        listing_answer = _listing(catalogue, cats)
        for d in _duties(catalogue, cats):
            todo.append(Todo(risk=d.risk, check="listing", item=d.title, detail=f"{d.article}：{d.duty}"))
    todo.sort(key=lambda t: RISK_ORDER[t.risk])
    return CampaignReview(
        as_of=today,
        count=len(todo),
        todo=todo,
        ad_check=ad,
        profit=prof,
        tax=tax,
        supplier=supplier,
        listing=listing_answer,
    )


@SERVICE.operation("GET", "/api/pro/campaign-review", price="$0.02", example=CAMPAIGN_EXAMPLE)
async def campaign_review(p: CampaignBody) -> CampaignReview:
    """One to-do list ordered by risk from the copy, profit, tax, supplier and listing checks."""
    return await _review(p)


@SERVICE.operation("POST", "/api/pro/campaign-review", price="$0.02", example=CAMPAIGN_EXAMPLE)
async def campaign_review_post(p: CampaignBody) -> CampaignReview:
    """The campaign review with its inputs in a JSON body (for long copy)."""
    return await _review(p)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=KIND_TABLES)
def export() -> Export:
    """All word lists, rules, thresholds, withholding data and fees, with their sources. Not for sale
    (503, nothing charged) while any of them is sample data, as the marketplace fees are until their
    published rates are found: /api/platforms shows them free, marked sample."""
    c = CATALOGUE.get()
    return Export(
        terms=[as_answer(x, AdTermAnswer) for x in c.terms],
        rules=[as_answer(x, RuleAnswer) for x in c.rules.values()],
        thresholds=[as_answer(x, ThresholdAnswer) for x in c.thresholds],
        withholding=[as_answer(x, IncomeKindAnswer) for x in c.incomes.values()],
        withholding_agents=[as_answer(x, WithholdingAgentAnswer) for x in c.agents.values()],
        nhi=[as_answer(x, NhiRuleAnswer) for x in c.nhi],
        minimum_wage=[as_answer(x, MinimumWageAnswer) for x in c.wages],
        platforms=platforms().platforms,
        listing=_listing(c, ["cosmetic", "food"]).duties,
        endorsement=endorsement().rules,
    )


__all__ = ["SERVICE"]
