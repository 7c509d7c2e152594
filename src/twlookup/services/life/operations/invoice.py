"""The uniform-invoice (receipt) lottery: winning numbers of a period, and checks of receipts."""

from __future__ import annotations

from datetime import date
from functools import partial

from twlookup.platform.errors import NotFound, Problem
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.life import logic
from twlookup.services.life.data import LIFE_DATA, invoice_prizes
from twlookup.services.life.logic import invoice as invoice_rules
from twlookup.services.life.operations.holidays import taiwan_calendar
from twlookup.services.life.operations.service import SERVICE
from twlookup.services.life.records import InvoicePeriod
from twlookup.services.life.schemas import (
    BatchBody,
    BatchItem,
    BatchResult,
    InvoiceCheck,
    InvoiceCheckQuery,
    InvoiceNumbers,
    PeriodQuery,
    PrizeRuleOut,
)

# pages of the award rules and claim notes, all checked on the rules' check date
_rules_page = partial(Source, checked=invoice_rules.CHECKED)

INVOICE_FEED_SOURCE = _rules_page(
    url="https://invoice.etax.nat.gov.tw/",
    title="財政部 統一發票中獎號碼 (Ministry of Finance uniform-invoice winning numbers and award rules)",
)


INVOICE_PLAN_SOURCE = _rules_page(
    url="https://udn.com/news/story/7243/9344336",
    title="MoF Taxation Administration, 2026-02-25: prizes per period in 2026 (one special, one grand, three each "
    "of the first to sixth prizes; no additional sixth prizes)",
)


INVOICE_NOTES_SOURCE = _rules_page(
    url="https://tw.news.yahoo.com/%E9%96%8B%E7%8D%8E%E8%B3%87%E8%A8%8A-%E7%B5%B1-%E7%99%BC%E7%A5%A811-12%E6%9C%88-%E5%A3%B9%E5%8D%83%E8%90%AC%E5%BE%97%E7%8D%8E%E8%99%9F%E7%A2%BC97023797-064051788.html",
    title="MoF claim notes of 114-11-12 (withholding from the third prize, stamp duty, who cannot claim), as reported",
)


INVOICE_CLAIM_SOURCE = _rules_page(
    url="https://law-out.mof.gov.tw/LawContent.aspx?id=FL006085",
    title="統一發票給獎辦法 (Uniform Invoice Award Regulations): prizes and claim period",
)


def _find_period(data: logic.LifeData, period: str | None) -> InvoicePeriod:
    if period is None or period == "latest":
        latest = data.latest_period()
        if latest is None:
            raise Problem(503, "No receipt-lottery numbers are in the store; run `twlookup ingest life.invoice FILE`.")
        return latest
    found = data.periods.get(period)
    if found is None:
        drawn = invoice_rules.draw_date(period)
        when = (
            f"It is drawn on {drawn}, not yet."
            if drawn > today_taipei()
            else f"It was drawn on {drawn}; its numbers are not in the store (`twlookup ingest life.invoice FILE`)."
        )
        raise NotFound(
            "receipt-lottery period", period, f"{when} Periods with numbers: {', '.join(data.known_periods())}."
        )
    return found


def _window(period: str) -> tuple[date, date]:
    cal = taiwan_calendar()
    return invoice_rules.claim_window(period, cal.is_day_off)


def _months(period: str) -> str:
    year, first = invoice_rules.parse_period(period)
    return f"{year}-{first:02d}/{first + 1:02d}"


@SERVICE.operation("GET", "/api/invoice/latest")
def invoice_latest() -> InvoiceNumbers:
    """The newest receipt-lottery winning numbers in the store, with the prizes and claim period."""
    return _invoice_numbers(_find_period(LIFE_DATA.get(), None), latest=True)


@SERVICE.operation("GET", "/api/invoice/{period}", tool="get_invoice_numbers")
def invoice_period(p: PeriodQuery) -> InvoiceNumbers:
    """Receipt-lottery winning numbers of a period (NNN-MM-MM in ROC years, e.g. 114-11-12) or `latest`."""
    return _invoice_numbers(_find_period(LIFE_DATA.get(), p.period), latest=p.period == "latest")


def _invoice_numbers(period: InvoicePeriod, latest: bool) -> InvoiceNumbers:
    data, today = LIFE_DATA.get(), today_taipei()
    start, end = _window(period.period)
    table = invoice_prizes()
    prizes = [k for k in table if k != "additional_sixth" or period.additional_sixth]
    return as_answer(
        period,
        InvoiceNumbers,
        months=_months(period.period),
        draw_date=invoice_rules.draw_date(period.period),
        claim_start=start,
        claim_end=end,
        claim_status=invoice_rules.claim_status(start, end, today),
        prizes=[as_answer(table[k], PrizeRuleOut, prize=k) for k in prizes],
        claim_notes=invoice_rules.INVOICE_CLAIM_NOTES,
        known_periods=data.known_periods(),
        newest_drawn_period=invoice_rules.newest_drawn_period(today),
        note=invoice_rules.stale_note(period.period, today) if latest else None,
        sample=period.sample,
        sources=[
            period.source_ref,
            INVOICE_FEED_SOURCE,
            INVOICE_CLAIM_SOURCE,
            INVOICE_PLAN_SOURCE,
            INVOICE_NOTES_SOURCE,
        ],
    )


def _check(number: str, period: InvoicePeriod, today: date, latest: bool) -> InvoiceCheck:
    match = invoice_rules.check_invoice(number, period, invoice_prizes())
    start, end = _window(period.period)
    prize = match.prize
    return InvoiceCheck(
        number=number,
        period=period.period,
        won=prize is not None,
        prize=prize.key if prize else None,
        prize_zh=prize.name_zh if prize else None,
        amount=prize.amount if prize else 0,
        matched=match.matched,
        rule=prize.rule if prize else None,
        draw_date=invoice_rules.draw_date(period.period),
        claim_start=start,
        claim_end=end,
        claim_status=invoice_rules.claim_status(start, end, today),
        newest_drawn_period=invoice_rules.newest_drawn_period(today),
        note=invoice_rules.stale_note(period.period, today) if latest else None,
        sample=period.sample,
        source=period.source_ref,
        reported_by=period.reported_by,
    )


@SERVICE.operation("GET", "/api/invoice/check", tool="check_invoice")
def invoice_check(p: InvoiceCheckQuery) -> InvoiceCheck:
    """Check an 8-digit receipt number: won or not, prize, amount (NT$) and claim period.

    Omit `period` for the latest period in the store."""
    period = _find_period(LIFE_DATA.get(), p.period)
    return _check(p.number, period, today_taipei(), latest=p.period is None)


@SERVICE.operation(
    "POST",
    "/api/pro/invoice/check-batch",
    price="$0.02",
    example={"receipts": [{"number": "97023797", "period": "114-11-12"}, {"number": "12345678"}]},
    rests_on=("invoice",),  # winning numbers gone stale would answer "no prize" for receipts of later periods
)
def invoice_check_batch(p: BatchBody) -> BatchResult:
    """Check up to 500 receipts in one call; each may name its period (default: the latest).

    Body: {"receipts": [{"number": "97023797", "period": "114-11-12"}, {"number": "12345678"}]}.
    A receipt whose period has no numbers gets an `error` instead of a result."""
    data, today = LIFE_DATA.get(), today_taipei()
    items: list[BatchItem] = []
    used: dict[str, InvoicePeriod] = {}
    for i, receipt in enumerate(p.receipts):
        try:
            period = _find_period(data, receipt.period)
        except Problem as problem:
            items.append(
                BatchItem(index=i, number=receipt.number, period=receipt.period, result=None, error=problem.detail)
            )
            continue
        used[period.period] = period
        items.append(
            BatchItem(
                index=i,
                number=receipt.number,
                period=period.period,
                result=_check(receipt.number, period, today, latest=receipt.period is None),
                error=None,
            )
        )
    won = [x.result for x in items if x.result and x.result.won]
    return BatchResult(
        checked=sum(1 for x in items if x.result),
        won=len(won),
        total_amount=sum(r.amount for r in won),
        results=items,
        claim_notes=invoice_rules.INVOICE_CLAIM_NOTES,
        sample=any(x.sample for x in used.values()),
        sources=[*(x.source_ref for x in used.values()), INVOICE_CLAIM_SOURCE, INVOICE_NOTES_SOURCE],
    )
