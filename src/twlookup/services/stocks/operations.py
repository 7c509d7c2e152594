"""The stocks service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from pydantic import BaseModel

from twlookup.platform.errors import NotFound, Problem
from twlookup.platform.feeds.route import status_of
from twlookup.platform.records import Record
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.stocks import logic
from twlookup.services.stocks.data import MARKET
from twlookup.services.stocks.feeds import CLOSES
from twlookup.services.stocks.records import Close, Etf, EtfFacts, Security, SecurityNames, Theme, ThemeNames
from twlookup.services.stocks.schemas import (
    NOTICE,
    STOCK_DAYS,
    CloseOut,
    EstimateOut,
    EtfDetail,
    EtfOut,
    EtfQuery,
    EtfTable,
    Export,
    History,
    HistoryQuery,
    IncomePlan,
    IncomePlanQuery,
    MemberClose,
    MemberOut,
    NhiOut,
    PayoutOut,
    PlanLineOut,
    Status,
    StockDetail,
    StockQuery,
    TaxOut,
    ThemeDetail,
    ThemeList,
    ThemeQuery,
    ThemeRef,
    ThemeStatsOut,
    ThemeSummary,
)
from twlookup.services.stocks.tables import CloseRecord

SERVICE = Service(
    name="stocks",
    title="Taiwan stock themes, daily closes and high-dividend ETF payouts",
    description=(
        "Four Taiwan stock themes (AI servers, semiconductor equipment, liquid cooling, co-packaged "
        "optics) with their listed member companies and daily closes from the TWSE and TPEx open-data "
        "files, and the payout history of high-dividend ETFs with a mechanical 2027 estimate."
    ),
    network="mainnet",
    notice=NOTICE,
)
SERVICE.feed(CLOSES)  # the TWSE and TPEx daily close files (twlookup refresh stocks.closes)

ESTIMATE_METHOD = (
    "2027 estimate per ETF: the payouts of the trailing year (the last 4 quarterly or 12 monthly periods) "
    "repeated unchanged, i.e. their sum; where some periods of that year are not recorded, the average of "
    "the recorded ones times the payouts per year. A mechanical extrapolation of history, not a forecast."
)


# ---------------------------------------------------------------- helpers


def shared_figures(figures: Any, answer: type[BaseModel]) -> dict[str, Any]:
    """The values a logic result (a dataclass: the deductions) holds for the fields of `answer` of the same names;
    the answer's field types make its decimals JSON numbers."""
    names = set(answer.model_fields)
    return {k: v for k, v in vars(figures).items() if k in names}


def shared(record: Record, part: type[Record]) -> dict[str, Any]:
    """The values `record` holds for the fields of `part`, a record its answer shares (a security's or theme's
    names, an ETF's facts): each such field is declared once, on `part`."""
    return record.model_dump(include=set(part.model_fields))


def close_out(c: Close | None) -> CloseOut | None:
    if c is None:
        return None
    pct = c.change_pct
    return CloseOut(
        date=c.date,
        close=float(c.close),
        change=None if c.change is None else float(c.change),
        change_pct=None if pct is None else float(pct),
        market=c.market,
        sample=c.sample,
    )


def stats_out(s: logic.ThemeStats) -> ThemeStatsOut:
    return ThemeStatsOut(**s.model_dump(exclude={"sample"}))


def security(market: logic.Market, code: str) -> Security:
    found = market.securities.get(code)
    if found is None:
        raise NotFound("stock", code, f"Followed codes: {', '.join(sorted(market.securities))}.")
    return found


def theme_detail(market: logic.Market, theme: Theme, today: date) -> ThemeDetail:
    stats = logic.theme_stats(theme, market)
    members = []
    for m in theme.members:
        sec = market.securities[m.code]
        members.append(
            MemberOut(
                **shared(sec, SecurityNames),
                note=m.note,
                latest=close_out(market.latest(m.code)),
                source=m.source_ref,
            )
        )
    return ThemeDetail(
        sample=stats.sample,
        as_of=today,
        id=theme.id,  # type: ignore[arg-type]  # the record's id is one of ThemeId's (the seed holds the file to them)
        name_en=theme.name_en,
        name_zh=theme.name_zh,
        note=theme.note,
        stats=stats_out(stats),
        members=members,
        source=theme.source_ref,
    )


def estimate_out(
    est: logic.Estimate | None, etf: Etf, latest: Close | None, missing: list[str] | None = None
) -> EstimateOut | None:
    if est is None:
        return None
    stale_note = (
        f"Built from payouts up to {est.window[1]}; {', '.join(missing)} ended since without a payout recorded "
        "here, so the estimate may be out of date."
        if missing
        else None
    )
    price = latest.close if latest else None
    yield_pct = (est.per_unit / price * 100).quantize(logic.CENT, ROUND_HALF_UP) if price else None
    return EstimateOut(
        per_unit=float(est.per_unit),
        payouts_per_year=logic.PER_YEAR[etf.frequency],
        window=list(est.window),
        basis=[p.period for p in est.basis],
        complete=est.complete,
        method=est.method,
        price=None if price is None else float(price),
        price_date=latest.date if latest else None,
        yield_pct=None if yield_pct is None else float(yield_pct),
        stale=bool(missing),
        warning=stale_note,
    )


def etf_out(market: logic.Market, etf: Etf, today: date) -> EtfOut:
    sec = market.securities[etf.code]
    latest = market.latest(etf.code)
    missing = logic.periods_missing(etf, today)
    through = (
        max(etf.payouts, key=lambda p: logic.period_index(p.period, etf.frequency)).period if etf.payouts else None
    )
    # the ETF's facts (code, issuer, frequency, note) and the security's names, as their records hold them
    facts = shared(etf, EtfFacts) | shared(sec, SecurityNames)
    return EtfOut(
        **facts,
        latest=close_out(latest),
        payouts=[PayoutOut.model_validate(p.model_dump() | {"source": p.source_ref}) for p in etf.payouts],
        payouts_through=through,
        periods_missing=missing,
        stale=bool(missing),
        warning=(
            f"Payouts are recorded here up to {through}; {', '.join(missing)} ended since (as of {today.isoformat()}) "
            f"without one: check {etf.issuer}'s announcements for newer distributions."
            if missing
            else None
        ),
        estimate_2027=estimate_out(logic.estimate(etf), etf, latest, missing),
        source=etf.source_ref,
    )


def _etf_sample(market: logic.Market, codes: list[str]) -> bool:
    return any((c := market.latest(code)) is not None and c.sample for code in codes)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# ---------------------------------------------------------------- free operations


@SERVICE.operation("GET", "/api/themes", tool="list_stock_themes")
def list_themes() -> ThemeList:
    """The four themes: member count, advancing and declining members, average change and latest closes."""
    market, today = MARKET.get(), today_taipei()
    themes, sample = [], False
    for theme in market.themes.values():
        stats = logic.theme_stats(theme, market)
        sample = sample or stats.sample
        themes.append(
            ThemeSummary(
                **shared(theme, ThemeNames),  # the id is one of ThemeId's (the seed holds the file to them)
                stats=stats_out(stats),
                members=[
                    MemberClose(
                        **shared(market.securities[m.code], SecurityNames), latest=close_out(market.latest(m.code))
                    )
                    for m in theme.members
                ],
                source=theme.source_ref,
            )
        )
    return ThemeList(sample=sample, as_of=today, count=len(themes), themes=themes)


@SERVICE.operation("GET", "/api/themes/{theme}", tool="get_theme_stocks")
def get_theme(p: ThemeQuery) -> ThemeDetail:
    """One theme: its member stocks with business notes and latest closes."""
    market = MARKET.get()
    theme = market.themes.get(p.theme)
    if theme is None:
        raise Problem(503, f"Theme {p.theme} is not in the store; run `twlookup seed`.")
    return theme_detail(market, theme, today_taipei())


@SERVICE.operation("GET", "/api/stock/{code}", tool="get_stock")
def get_stock(p: StockQuery) -> StockDetail:
    """A followed stock or ETF: latest close, its themes and the latest 60 trading days."""
    market = MARKET.get()
    sec = security(market, p.code)
    closes = market.history(p.code, STOCK_DAYS)
    latest = closes[-1] if closes else None
    feeds = {(c.source, c.sample): c.source_ref for c in closes}
    return StockDetail(
        **shared(sec, SecurityNames),
        sample=any(c.sample for c in closes),
        kind=sec.kind,
        market=next((c.market for c in reversed(closes) if c.market), None),
        latest=close_out(latest),
        themes=[ThemeRef(**shared(t, ThemeNames)) for t in market.themes_of(sec.code)],
        etf_payouts=f"/api/etf/{sec.code}" if sec.code in market.etfs else None,
        days=len(closes),
        closes=[c for c in map(close_out, closes) if c is not None],
        source=sec.source_ref,
        close_sources=list(feeds.values()),
    )


@SERVICE.operation("GET", "/api/etf-dividends", tool="get_etf_dividends")
def etf_dividends() -> EtfTable:
    """High-dividend ETFs: payouts per period and the 2027 estimate with its method."""
    market, today = MARKET.get(), today_taipei()
    etfs = [etf_out(market, e, today) for e in market.etfs.values()]
    return EtfTable(
        sample=_etf_sample(market, list(market.etfs)),
        as_of=today,
        count=len(etfs),
        method=ESTIMATE_METHOD,
        etfs=etfs,
    )


@SERVICE.operation("GET", "/api/etf/{code}", tool="estimate_etf_dividend_2027")
def etf_detail(p: EtfQuery) -> EtfDetail:
    """One ETF: payouts per period and the mechanical 2027 estimate, with the method stated."""
    market = MARKET.get()
    etf = market.etfs.get(p.code)
    if etf is None:
        raise NotFound("ETF", p.code, f"ETFs with payout data: {', '.join(market.etfs)}.")
    today = today_taipei()
    return EtfDetail(sample=_etf_sample(market, [p.code]), as_of=today, etf=etf_out(market, etf, today))


@SERVICE.operation("GET", "/api/status", blocking=True)
def status() -> Status:
    """When the data was last updated: the feeds' state (as every service with feeds answers it), the latest trading date and counts.

    Each exchange's file is a part of the `stocks.closes` feed, with its own last attempt, last
    import, last error and newest trading date."""
    market = MARKET.get()
    latest_date = market.latest_trading_date
    latest_closes = [series[-1] for series in market.closes.values() if series and series[-1].date == latest_date]
    feeds = status_of(SERVICE)
    return Status(
        **feeds.model_dump(),
        sample=any(c.sample for c in latest_closes),
        latest_trading_date=latest_date,
        updated_at=_utc(market.imports[0].imported_at) if market.imports else None,
        securities=len(market.securities),
        closes=sum(len(s) for s in market.closes.values()),
    )


# ---------------------------------------------------------------- paid operations


@SERVICE.operation(
    "GET", "/api/pro/history", price="$0.01", example={"code": "0056", "days": 30}, rests_on=(CLOSES, CloseRecord)
)
def history(p: HistoryQuery) -> History:
    """Accumulated daily closes of a followed stock or ETF: the latest `days` trading days, oldest first."""
    market = MARKET.get()
    sec = security(market, p.code)
    closes = market.history(p.code, p.days)
    return History(
        **shared(sec, SecurityNames),
        sample=any(c.sample for c in closes),
        days=p.days,
        count=len(closes),
        first_date=closes[0].date if closes else None,
        last_date=closes[-1].date if closes else None,
        closes=[c for c in map(close_out, closes) if c is not None],
    )


@SERVICE.operation(
    "GET",
    "/api/pro/income-plan",
    price="$0.01",
    example={"budget": 300000, "codes": "0056,00878,00713"},
    rests_on=(CLOSES, CloseRecord),
)
def income_plan(p: IncomePlanQuery) -> IncomePlan:
    """Split a budget equally over chosen ETFs, buy whole units at the latest close, estimate 2027 cash income and deductions."""
    market = MARKET.get()
    codes = p.codes.split(",")
    picks = []
    for code in codes:
        etf = market.etfs[code]
        latest, est = market.latest(code), logic.estimate(etf)
        if latest is None or est is None:
            raise Problem(
                503,
                f"ETF {code} has no close or no payouts in the store; import closes with `twlookup ingest stocks.closes`.",
            )
        picks.append((etf, latest, est))
    d = market.deductions
    plan = logic.income_plan(Decimal(p.budget), picks, d)
    methods = [f"{etf.code} 2027 estimate: {est.method}" for etf, _, est in picks]
    today = today_taipei()
    for etf, _, est in picks:
        missing = logic.periods_missing(etf, today)
        if missing:
            methods.append(
                f"{etf.code}: payouts recorded up to {est.window[1]}; {', '.join(missing)} ended since without one, "
                "so its estimate may be out of date."
            )
    lines = [
        # the line's figures under their own names (JSON numbers by the fields' types)
        PlanLineOut.model_validate(
            asdict(line)
            | dict(
                name_zh=market.securities[line.code].name_zh,
                board_lots=line.units // 1000,
                sample_price=close.sample,
            )
        )
        for line, (_, close, _) in zip(plan.lines, picks, strict=True)
    ]
    return IncomePlan(
        sample=any(close.sample for _, close, _ in picks),
        as_of=today_taipei(),
        budget=p.budget,
        codes=codes,
        assumptions=[
            "The budget is split equally over the ETFs (each share rounded down to the cent).",
            "Each share buys whole units at the ETF's latest close in the store; odd-lot trading allows fewer than "
            "1,000 units (one board lot), so units are not rounded to lots. Brokerage fees and transaction tax are ignored.",
            *methods,
            "Each estimated 2027 payout is units x that payout per unit, to the cent.",
            "Deductions are shown as an upper bound that treats every payout as dividend income; the dividend share of "
            "each real distribution is in the issuer's distribution notice.",
            "The NHI supplementary premium is computed under today's per-payment rule (premium_2027) and, for comparison, "
            "under the health ministry's proposed per-year rule (premium_2027_if_yearly), which is not in force on the checked date.",
        ],
        lines=lines,
        invested=float(plan.invested),
        leftover=float(plan.leftover),
        income_2027=float(plan.income_2027),
        nhi_premium=float(plan.nhi_premium),
        income_after_nhi=float(plan.income_after_nhi),
        yield_on_cost_pct=None if plan.yield_on_cost_pct is None else float(plan.yield_on_cost_pct),
        nhi=NhiOut(
            rate=float(d.nhi_rate),
            threshold=float(d.nhi_threshold),
            cap_per_payment=float(d.nhi_cap),
            premium_2027=float(plan.nhi_premium),
            premium_2027_if_yearly=float(plan.nhi_premium_if_yearly),
            proposed_yearly_cap=float(d.nhi_proposed_yearly_cap),
            note=d.nhi_note,
            sources=list(d.nhi_sources),
        ),
        income_tax=TaxOut(
            **shared_figures(d, TaxOut),
            credit_option=float(plan.tax_credit_option),
            separate_option=float(plan.separate_tax_option),
            note=d.tax_note,
            sources=list(d.tax_sources),
        ),
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=(CLOSES, CloseRecord))
def export() -> Export:
    """Everything: every theme with its members' latest closes, every ETF's payouts and 2027 estimate."""
    market, today = MARKET.get(), today_taipei()
    themes = [theme_detail(market, t, today) for t in market.themes.values()]
    return Export(
        sample=any(t.sample for t in themes) or _etf_sample(market, list(market.etfs)),
        as_of=today,
        latest_trading_date=market.latest_trading_date,
        themes=themes,
        etfs=[etf_out(market, e, today) for e in market.etfs.values()],
    )
