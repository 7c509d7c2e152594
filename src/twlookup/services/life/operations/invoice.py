"""The life service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR, seed_calendar
from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.schemas import Source, today_taipei
from twlookup.platform.service import Service
from twlookup.services.life import logic
from twlookup.services.life.data import GAMES, INVOICE_PRIZES, LIFE_DATA, seed_life
from twlookup.services.life.feeds import FEEDS
from twlookup.services.life.records import Draw, DrawFacts, FuelPrice, Game, GameFacts, InvoicePeriod, Tier
from twlookup.services.life.schemas import (
    LOTTERY_DRAWS,
    BatchBody,
    BatchItem,
    BatchResult,
    BreakOut,
    DateQuery,
    DrawOut,
    FuelHistory,
    FuelNow,
    FuelPrices,
    FuelQuery,
    FuelWeekOut,
    GameDraws,
    GameInfo,
    GameQuery,
    HolidayOut,
    HolidaysYear,
    InvoiceCheck,
    InvoiceCheckQuery,
    InvoiceNumbers,
    IsHoliday,
    LatestDraws,
    LotteryCheck,
    LotteryCheckQuery,
    MakeupOut,
    NextHoliday,
    PeriodQuery,
    PrizeRuleOut,
    TierOut,
    YearQuery,
)

SERVICE = Service(
    name="life",
    title="Taiwan daily life: holidays, lottery, receipt lottery, fuel prices",
    description=(
        "Taiwan's days off from the official calendar, Taiwan Lottery draws and prize checks (lotto649, "
        "superlotto638, daily539), uniform-invoice (receipt) lottery numbers and checks, and CPC's weekly "
        "fuel prices. Draws, receipt numbers and fuel prices arrive through importers of the publishers' "
        "own formats; records that are illustrative snapshots say `sample: true`."
    ),
)

# The shared Taiwan calendar (idempotent, whichever service seeds it first), so that life also
# answers when served without the holiday service.
SERVICE.seeder(seed_calendar)
SERVICE.seeder(seed_life)
for _feed in FEEDS:  # receipt numbers, draws and fuel prices from their publishers (twlookup refresh)
    SERVICE.feed(_feed)
add_status_route(SERVICE)

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
INVOICE_FEED_SOURCE = Source(
    url="https://invoice.etax.nat.gov.tw/",
    title="財政部 統一發票中獎號碼 (Ministry of Finance uniform-invoice winning numbers and award rules)",
    checked=logic.CHECKED,
)
INVOICE_PLAN_SOURCE = Source(
    url="https://udn.com/news/story/7243/9344336",
    title="MoF Taxation Administration, 2026-02-25: prizes per period in 2026 (one special, one grand, three each "
    "of the first to sixth prizes; no additional sixth prizes)",
    checked=logic.CHECKED,
)
INVOICE_NOTES_SOURCE = Source(
    url="https://tw.news.yahoo.com/%E9%96%8B%E7%8D%8E%E8%B3%87%E8%A8%8A-%E7%B5%B1-%E7%99%BC%E7%A5%A811-12%E6%9C%88-%E5%A3%B9%E5%8D%83%E8%90%AC%E5%BE%97%E7%8D%8E%E8%99%9F%E7%A2%BC97023797-064051788.html",
    title="MoF claim notes of 114-11-12 (withholding from the third prize, stamp duty, who cannot claim), as reported",
    checked=logic.CHECKED,
)
INVOICE_CLAIM_SOURCE = Source(
    url="https://law-out.mof.gov.tw/LawContent.aspx?id=FL006085",
    title="統一發票給獎辦法 (Uniform Invoice Award Regulations): prizes and claim period",
    checked=logic.CHECKED,
)


# ---------------------------------------------------------------- helpers: calendar


def _calendar() -> TaiwanCalendar:
    cal = TAIWAN_CALENDAR.get()
    if not cal.years:
        raise Problem(503, "The Taiwan calendar is not in the store; run `twlookup seed`.")
    return cal


def _covered(cal: TaiwanCalendar) -> list[int]:
    return sorted(cal.years)


def _require_year(cal: TaiwanCalendar, year: int, param: str) -> None:
    if not cal.covers(year):
        years = _covered(cal)
        raise InvalidParameter(
            param,
            f"no official Taiwan calendar for {year} in this service; covered years: {', '.join(map(str, years))}",
            years,
        )


def _calendar_source(cal: TaiwanCalendar, year: int) -> Source:
    y = cal.years[year]
    return Source(url=y.source, title=y.source_title, checked=y.checked)


def _holiday(h: DayOff) -> HolidayOut:
    return HolidayOut(
        date=h.date, weekday=WEEKDAYS[h.date.weekday()], name_zh=h.name_zh, name_en=h.name_en, kind=h.kind
    )


def _break(b: Break) -> BreakOut:
    return BreakOut(start=b.start, end=b.end, days=b.days, holidays=[_holiday(h) for h in b.holidays])


# ---------------------------------------------------------------- holidays


@SERVICE.operation("GET", "/api/holidays", tool="get_holidays")
def holidays(p: YearQuery) -> HolidaysYear:
    """Taiwan's national holidays, long weekends and make-up workdays of one year, from the official calendar.

    Only years the government calendar is sourced for are answered; others get a 422 listing them."""
    cal = _calendar()
    _require_year(cal, p.year, "year")
    makeups = sorted((d, paid) for d, paid in cal.makeup_workdays.items() if d.year == p.year)
    return HolidaysYear(
        year=p.year,
        official=cal.years[p.year].official,
        holidays=[_holiday(h) for h in cal.holidays_in(p.year)],
        long_weekends=[_break(b) for b in cal.long_weekends(p.year)],
        makeup_workdays=[MakeupOut(date=d, weekday=WEEKDAYS[d.weekday()], pays_back=paid) for d, paid in makeups],
        days_off=len(cal.all_days_off(p.year)),
        sources=[_calendar_source(cal, p.year)],
    )


@SERVICE.operation("GET", "/api/holidays/next")
def next_holiday() -> NextHoliday:
    """Whether today (in Taiwan) is a day off, the next holiday and long weekend, and holidays nearby."""
    cal, today = _calendar(), today_taipei()
    covered = _covered(cal)
    upcoming = cal.next_day_off(today - timedelta(days=1))
    upcoming = upcoming if upcoming and upcoming.date >= today else None
    long_weekend = None
    for year in (y for y in covered if y >= today.year):
        long_weekend = next((b for b in cal.long_weekends(year) if b.end >= today), None)
        if long_weekend:
            break
    nearby = [
        h for d, h in sorted(cal.days_off.items()) if today - timedelta(days=30) <= d <= today + timedelta(days=60)
    ]
    note = None
    if today.year not in covered or upcoming is None:
        note = f"The official calendar covers {', '.join(map(str, covered))}; dates beyond it are not guessed."
    years = sorted(
        {today.year, *(h.date.year for h in nearby), *([upcoming.date.year] if upcoming else [])} & set(covered)
    )
    return NextHoliday(
        today=today,
        today_off=cal.is_day_off(today),
        today_reason=cal.reason(today),
        next_holiday=_holiday(upcoming) if upcoming else None,
        days_until_next_holiday=(upcoming.date - today).days if upcoming else None,
        next_long_weekend=_break(long_weekend) if long_weekend else None,
        nearby=[_holiday(h) for h in nearby],
        covered_years=covered,
        note=note,
        sources=[_calendar_source(cal, y) for y in years] or [_calendar_source(cal, covered[-1])],
    )


@SERVICE.operation("GET", "/api/is-holiday", tool="is_holiday")
def is_holiday(p: DateQuery) -> IsHoliday:
    """Whether a date (YYYY-MM-DD) is a day off in Taiwan, why, and the run of days off it belongs to."""
    cal = _calendar()
    _require_year(cal, p.date.year, "date")
    run = cal.run_around(p.date)
    holiday = cal.days_off.get(p.date)
    sources = [_calendar_source(cal, p.date.year)]
    labor, note = cal.labor_law_days.get(p.date), None
    if labor is not None:
        note = f"{labor.name_en} ({labor.name_zh}): {labor.note}"
        sources.append(Source(url=labor.source, title=labor.source_title, checked=labor.checked))
    elif (earlier := cal.labor_law_precedent(p.date)) is not None:
        note = (
            f"{earlier.name_en} is a day off for everyone on this year's government calendar; in "
            f"{earlier.date.year} and before only workers under the Labor Standards Act had it off."
        )
        sources.append(Source(url=earlier.source, title=earlier.source_title, checked=earlier.checked))
    return IsHoliday(
        date=p.date,
        weekday=WEEKDAYS[p.date.weekday()],
        off=cal.is_day_off(p.date),
        reason=cal.reason(p.date),
        holiday=_holiday(holiday) if holiday else None,
        makeup_workday=p.date in cal.makeup_workdays,
        labor_law_day_off=labor is not None and not cal.is_day_off(p.date),
        run=_break(run) if run else None,
        note=note,
        sources=sources,
    )


# ---------------------------------------------------------------- receipt lottery


def _period_source(p: InvoicePeriod) -> Source:
    return Source(url=p.source, title=p.source_title, checked=p.checked, sample=p.sample)


def _find_period(data: logic.LifeData, period: str | None) -> InvoicePeriod:
    if period is None or period == "latest":
        latest = data.latest_period()
        if latest is None:
            raise Problem(503, "No receipt-lottery numbers are in the store; run `twlookup ingest life.invoice FILE`.")
        return latest
    found = data.periods.get(period)
    if found is None:
        drawn = logic.draw_date(period)
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
    cal = _calendar()
    return logic.claim_window(period, cal.is_day_off)


def _months(period: str) -> str:
    year, first = logic.parse_period(period)
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
    prizes = [k for k in INVOICE_PRIZES if k != "additional_sixth" or period.additional_sixth]
    return InvoiceNumbers(
        period=period.period,
        months=_months(period.period),
        draw_date=logic.draw_date(period.period),
        special=period.special,
        grand=period.grand,
        first=list(period.first),
        additional_sixth=list(period.additional_sixth),
        claim_start=start,
        claim_end=end,
        claim_status=logic.claim_status(start, end, today),  # type: ignore[arg-type]
        prizes=[
            PrizeRuleOut(
                prize=k, name_zh=INVOICE_PRIZES[k].name_zh, amount=INVOICE_PRIZES[k].amount, rule=INVOICE_PRIZES[k].rule
            )
            for k in prizes
        ],
        claim_notes=logic.INVOICE_CLAIM_NOTES,
        known_periods=data.known_periods(),
        newest_drawn_period=logic.newest_drawn_period(today),
        note=logic.stale_note(period.period, today) if latest else None,
        sample=period.sample,
        source=_period_source(period),
        reported_by=period.reported_by,
        sources=[
            _period_source(period),
            INVOICE_FEED_SOURCE,
            INVOICE_CLAIM_SOURCE,
            INVOICE_PLAN_SOURCE,
            INVOICE_NOTES_SOURCE,
        ],
    )


def _check(number: str, period: InvoicePeriod, today: date, latest: bool) -> InvoiceCheck:
    match = logic.check_invoice(number, period, INVOICE_PRIZES)
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
        draw_date=logic.draw_date(period.period),
        claim_start=start,
        claim_end=end,
        claim_status=logic.claim_status(start, end, today),  # type: ignore[arg-type]
        newest_drawn_period=logic.newest_drawn_period(today),
        note=logic.stale_note(period.period, today) if latest else None,
        sample=period.sample,
        source=_period_source(period),
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
        claim_notes=logic.INVOICE_CLAIM_NOTES,
        sample=any(x.sample for x in used.values()),
        sources=[*(_period_source(x) for x in used.values()), INVOICE_CLAIM_SOURCE, INVOICE_NOTES_SOURCE],
    )


# ---------------------------------------------------------------- lottery


def _tier(t: Tier) -> TierOut:
    return TierOut(name_zh=t.name_zh, match=t.label, amount=t.amount, pari_mutuel=t.amount is None)


def _game_sources(g: Game) -> list[Source]:
    return [
        Source(url=g.source, title=g.source_title, checked=g.checked),
        Source(url=g.verified_by, title="Report the prize tiers were checked against", checked=g.checked),
    ]


def _game(g: Game) -> GameInfo:
    facts = g.model_dump(include=set(GameFacts.model_fields))
    return GameInfo(
        **facts, game=g.key, tiers=[_tier(t) for t in g.tiers], pool_rule=g.pool_rule, sources=_game_sources(g)
    )


def _draw(d: Draw) -> DrawOut:
    return DrawOut(
        **d.model_dump(include=set(DrawFacts.model_fields) | {"reported_by"}),
        claim_until=logic.lottery_claim_until(d.draw_date, _calendar().is_day_off),
        sample=d.sample,
        source=Source(url=d.source, title=d.source_title, checked=d.checked, sample=d.sample),
    )


def _draws(game: str) -> list[Draw]:
    draws = LIFE_DATA.get().draws.get(game) or []
    if not draws:
        raise Problem(503, f"No {game} draws are in the store; run `twlookup ingest life.lottery FILE`.")
    return draws


def _unique_sources(items: list[Source]) -> list[Source]:
    seen: dict[str, Source] = {}
    for s in items:
        seen.setdefault(f"{s.url}|{s.sample}", s)
    return list(seen.values())


def _lottery_stale(games: list[str]) -> str | None:
    """Every game draws at least weekly: a newest draw over 7 days old means the importer has not run."""
    today, notes = today_taipei(), []
    for game in games:
        newest = _draws(game)[0].draw_date
        if (today - newest).days > 7:
            notes.append(f"{game} {newest} ({(today - newest).days} days ago)")
    if not notes:
        return None
    return (
        "The newest draws in this store are old: " + ", ".join(notes) + ". Newer draws have not been imported, "
        "so `latest` here is not Taiwan Lottery's latest draw; check a ticket against its own draw."
    )


@SERVICE.operation("GET", "/api/lottery/latest")
def lottery_latest() -> LatestDraws:
    """The latest draw of lotto649, superlotto638 and daily539."""
    draws = [_draw(_draws(g)[0]) for g in GAMES]
    return LatestDraws(
        draws=draws,
        claim_rule=logic.LOTTERY_CLAIM_RULE,
        stale_note=_lottery_stale(list(GAMES)),
        sample=any(d.sample for d in draws),
        sources=_unique_sources([d.source for d in draws]),
    )


@SERVICE.operation("GET", "/api/lottery/{game}", tool="get_lottery_results")
def lottery_game(p: GameQuery) -> GameDraws:
    """The latest 20 draws of one game (lotto649, superlotto638 or daily539), newest first, with its prize tiers."""
    game = GAMES[p.game]
    draws = [_draw(d) for d in _draws(p.game)[:LOTTERY_DRAWS]]
    return GameDraws(
        game=_game(game),
        count=len(draws),
        limit=LOTTERY_DRAWS,
        draws=draws,
        claim_rule=logic.LOTTERY_CLAIM_RULE,
        stale_note=_lottery_stale([p.game]),
        sample=any(d.sample for d in draws),
        sources=_unique_sources([*_game_sources(game), *(d.source for d in draws)]),
    )


def _parse_numbers(text: str) -> list[int]:
    return [int(x) for x in text.replace(" ", "").split(",")]


@SERVICE.operation("GET", "/api/lottery/check", tool="check_lottery")
def lottery_check(p: LotteryCheckQuery) -> LotteryCheck:
    """Check picks against a draw (latest unless `period`): matched numbers and the prize tier.

    lotto649: 6 of 1-49; superlotto638: 6 of 1-38 plus `second` (1-8); daily539: 5 of 1-39.
    Counts, ranges and repeats are checked; fixed prizes give the NT$ amount, pari-mutuel tiers say so."""
    game = GAMES[p.game]
    numbers = _parse_numbers(p.numbers)
    problems = logic.validate_pick(game, numbers, p.second)
    if problems:
        name, _message = problems[0]
        allowed = (
            {"count": game.picks, "minimum": 1, "maximum": game.maximum}
            if name == "numbers"
            else ({"minimum": 1, "maximum": game.second_maximum} if game.second_maximum else None)
        )
        raise InvalidParameter(name, "; ".join(m for n, m in problems if n == name), allowed)
    draws = _draws(p.game)
    if p.period is None:
        draw = draws[0]
    else:
        draw = next((d for d in draws if d.period == p.period), None)  # type: ignore[assignment]
        if draw is None:
            raise NotFound(f"{p.game} draw", p.period, f"Draws in the store: {draws[-1].period} to {draws[0].period}.")
    result = logic.check_lottery(game, draw, numbers, p.second)
    tier = result.tier
    if tier is None:
        note = "No prize."
    elif tier.amount is None:
        note = f"{tier.name_zh}: a pari-mutuel tier; the amount per winning bet is the published share of this draw's pool."
    else:
        note = f"{tier.name_zh}: NT$ {tier.amount:,} per bet. {logic.LOTTERY_CLAIM_RULE}"
    return LotteryCheck(
        game=p.game,
        numbers=sorted(numbers),
        second=p.second,
        draw=_draw(draw),
        matched=list(result.matched),
        matched_count=len(result.matched),
        extra_matched=result.extra_matched,
        won=tier is not None,
        tier=_tier(tier) if tier else None,
        amount=tier.amount if tier else None,
        note=note,
        stale_note=_lottery_stale([p.game]) if p.period is None else None,
        sample=draw.sample,
        sources=_unique_sources(
            [
                Source(url=draw.source, title=draw.source_title, checked=draw.checked, sample=draw.sample),
                *_game_sources(game),
            ]
        ),
    )


# ---------------------------------------------------------------- fuel


def _fuel_source(f: FuelPrice) -> Source:
    return Source(url=f.source, title=f.source_title, checked=f.checked, sample=f.sample)


def _fuel(product: str) -> list[FuelPrice]:
    history = LIFE_DATA.get().fuel.get(product) or []
    if not history:
        raise Problem(503, f"No {product} fuel prices are in the store; run `twlookup ingest life.fuel FILE`.")
    return history


@SERVICE.operation("GET", "/api/fuel", tool="get_fuel_prices")
def fuel() -> FuelPrices:
    """CPC's posted retail prices this week (92, 95, 98 unleaded and premium diesel) and the change from last week."""
    today = today_taipei()
    products = []
    for key, (zh, en) in logic.FUEL_PRODUCTS.items():
        history = _fuel(key)
        now = history[0]
        change = logic.price_change(history)
        products.append(
            FuelNow(
                product=key,
                name_zh=zh,
                name_en=en,
                effective=now.effective,
                price=float(now.price),
                previous_price=float(history[1].price) if change is not None else None,
                change=float(change) if change is not None else None,
                sample=now.sample,
                source=_fuel_source(now),
                reported_by=now.reported_by,
            )
        )
    effective = max(p.effective for p in products)
    age = (today - effective).days
    note = "Prices in NT$ per litre at CPC's own stations, tax included; they change on Mondays."
    if age > 7:
        note += f" The newest prices in the store took effect {age} days ago: this week's have not been imported yet."
    if any(p.change is None for p in products):
        note += " `change` is null where the week before is not in the store."
    return FuelPrices(
        as_of=today,
        effective=effective,
        age_days=age,
        products=products,
        note=note,
        sample=any(p.sample for p in products),
        sources=_unique_sources([p.source for p in products]),
    )


def _history(product: str, limit: int | None) -> FuelHistory:
    full = _fuel(product)
    shown = full[:limit] if limit else full
    weeks = []
    for i, f in enumerate(shown):
        change = logic.price_change(full, i)
        weeks.append(
            FuelWeekOut(
                effective=f.effective,
                price=float(f.price),
                change=float(change) if change is not None else None,
                note=f.note,
                sample=f.sample,
                source=_fuel_source(f),
                reported_by=f.reported_by,
            )
        )
    zh, en = logic.FUEL_PRODUCTS[product]
    return FuelHistory(
        product=product,
        name_zh=zh,
        name_en=en,
        weeks=len(weeks),
        limit=limit,
        history=weeks,
        minimum=float(min(f.price for f in shown)),
        maximum=float(max(f.price for f in shown)),
        sample=any(f.sample for f in shown),
        sources=_unique_sources([w.source for w in weeks]),
    )


@SERVICE.operation("GET", "/api/fuel/history")
def fuel_history(p: FuelQuery) -> FuelHistory:
    """The latest 12 posted weeks of one product (92, 95, 98 or diesel), newest first, with weekly changes."""
    return _history(p.product, logic.FREE_FUEL_WEEKS)


@SERVICE.operation("GET", "/api/pro/fuel/history", price="$0.01", example={"product": "diesel"}, rests_on=("fuel",))
def fuel_history_full(p: FuelQuery) -> FuelHistory:
    """Every posted week of one product the store holds (92, 95, 98 or diesel), newest first."""
    return _history(p.product, None)
