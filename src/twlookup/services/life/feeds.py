"""The life service's live feeds: where each publisher puts its file, how often it changes, and how
a file's newest data is read (so that an older file never replaces a newer import).

- life.invoice: the Ministry of Finance winning-number RSS, one item per two-month period, drawn on
  the 25th of each odd month.
- life.lottery: Taiwan Lottery's result service, one JSON answer per game and month; a refresh asks
  for the previous and the current month (so a draw at the end of a month is not missed) and
  imports them as one file per game.
- life.fuel: CPC's list-price web service (HTTP GET form of the .NET service), the current prices;
  CPC changes them weekly, effective each Monday.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Fetched, Part, PartsContext, Stamp, declared_feed
from twlookup.platform.feeds.download import DownloadError, Fetcher
from twlookup.services.life.logic.invoice import draw_date, period_of
from twlookup.services.life.parsers import (
    FUEL_NAMES,
    LOTTERY_API,
    LOTTERY_KEYS,
    TITLE,
    import_fuel,
    import_invoice,
    import_lottery,
)
from twlookup.services.life.tables import FuelPriceRow, InvoicePeriodRow, LotteryDrawRow


def _root(raw: bytes) -> ET.Element:
    try:
        return ET.fromstring(raw)
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed XML ({exc})") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


# ---------------------------------------------------------------- receipt numbers


def invoice_stamp(raw: bytes, _name: str) -> Stamp:
    """The newest period in the RSS; its data date is that period's draw."""
    periods = []
    for item in (e for e in _root(raw).iter() if _local(e.tag) == "item"):
        title = next((c.text or "" for c in item if _local(c.tag) == "title"), "")
        match = TITLE.search(title)
        if match:
            roc, first = int(match.group(1)), int(match.group(2))
            periods.append(period_of(roc + 1911, first))
    if not periods:
        raise ValueError("no <item> with a period title: not the MoF winning-number RSS feed")
    newest = max(periods)
    return Stamp(part="rss", key=(newest,), label=newest, data_date=draw_date(newest))


def invoice_held(session: Session) -> date | None:
    newest = session.scalar(select(func.max(InvoicePeriodRow.period)).where(InvoicePeriodRow.sample.is_(False)))
    return draw_date(newest) if newest else None


INVOICE = declared_feed("life", "invoice", importer=import_invoice, stamp=invoice_stamp, held=invoice_held)


# ---------------------------------------------------------------- lottery draws


def lottery_stamp(raw: bytes, _name: str) -> Stamp:
    """The game(s) the answer is for, and its newest draw date."""
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    content = doc.get("content") if isinstance(doc, dict) else None
    if not isinstance(content, dict):
        raise ValueError("no `content` object: not a Taiwan Lottery result response")
    games = sorted(LOTTERY_KEYS[k][0] for k in LOTTERY_KEYS if isinstance(content.get(k), list))
    if not games:
        raise ValueError(f"content has none of {', '.join(LOTTERY_KEYS)}")
    dates = []
    for key in LOTTERY_KEYS:
        for row in content.get(key) or []:
            value = row.get("lotteryDate") if isinstance(row, dict) else None
            if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
                dates.append(date.fromisoformat(value[:10]))
    newest = max(dates) if dates else None
    return Stamp(
        part="+".join(games),
        key=(newest.isoformat(),) if newest else None,
        label=newest.isoformat() if newest else "no draws",
        data_date=newest,
    )


def _months(today: date) -> list[str]:
    first = today.replace(day=1)
    previous = (first - timedelta(days=1)).replace(day=1)
    return [previous.strftime("%Y-%m"), first.strftime("%Y-%m")]


def _lottery_url(api_name: str, month: str) -> str:
    # the query as the result service takes it (period empty, one page of up to 50 draws)
    return LOTTERY_API.format(name=api_name) + f"?period&month={month}&pageNum=1&pageSize=50"


def _lottery_fetch(result_key: str, api_name: str, months: list[str]) -> Callable[[Fetcher, Part], Fetched]:
    def fetch(fetcher: Fetcher, part: Part) -> Fetched:
        draws: dict[str, dict] = {}
        for month in months:
            answer = fetcher.get(_lottery_url(api_name, month))
            try:
                doc = json.loads(answer.body.decode("utf-8-sig"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{month}: not JSON ({exc})") from None
            if not isinstance(doc, dict) or doc.get("rtCode", 0) != 0:
                message = doc.get("rtMsg") if isinstance(doc, dict) else None
                raise DownloadError(f"{month}: the result service reports an error ({message!r})")
            rows = (doc.get("content") or {}).get(result_key)
            if not isinstance(rows, list):
                raise ValueError(f"{month}: the answer has no content.{result_key} list")
            for row in rows:
                if isinstance(row, dict):
                    draws[str(row.get("period"))] = row
        merged = {
            "rtCode": 0,
            "rtMsg": "",
            "content": {result_key: sorted(draws.values(), key=lambda r: str(r.get("period")), reverse=True)},
        }
        body = json.dumps(merged, ensure_ascii=False).encode()
        return Fetched(body=body, filename=f"{part.key}.json", url=_lottery_url(api_name, months[-1]))

    return fetch


def lottery_parts(ctx: PartsContext) -> list[Part]:
    months = _months(ctx.today)
    return [
        Part(game, _lottery_url(api_name, months[-1]), f"{game}.json", fetch=_lottery_fetch(key, api_name, months))
        for key, (game, api_name) in LOTTERY_KEYS.items()
    ]


def lottery_held(session: Session) -> date | None:
    """The oldest of the games' newest real draws (each game draws at least weekly)."""
    newest: list[date] = list(
        session.scalars(
            select(func.max(LotteryDrawRow.draw_date))
            .where(LotteryDrawRow.sample.is_(False))
            .group_by(LotteryDrawRow.game)
        )
    )
    return min(newest, default=None)


LOTTERY = declared_feed(
    "life", "lottery", importer=import_lottery, stamp=lottery_stamp, parts=lottery_parts, held=lottery_held
)


# ---------------------------------------------------------------- fuel prices


def fuel_stamp(raw: bytes, _name: str) -> Stamp:
    """Current prices (rows named 產品名稱) or one product's history (產品名); the newest effective date."""
    names, dates, current = set(), [], False
    for row in _root(raw).iter():
        fields = {_local(c.tag): (c.text or "").strip() for c in row}
        if "參考牌價" not in fields or "牌價生效時間" not in fields:
            continue
        current = current or "產品名稱" in fields
        product = FUEL_NAMES.get((fields.get("產品名稱") or fields.get("產品名") or "").replace(" ", ""))
        if product is None:
            continue
        names.add(product)
        when = fields["牌價生效時間"]
        if re.match(r"\d{4}-\d{2}-\d{2}", when):
            dates.append(date.fromisoformat(when[:10]))
    if not dates:
        raise ValueError("no dated rows for 92, 95 or 98 unleaded gasoline or premium diesel: not CPC's list-price XML")
    newest = max(dates)
    part = "current" if current else "history-" + "+".join(sorted(names))
    return Stamp(part=part, key=(newest.isoformat(),), label=newest.isoformat(), data_date=newest)


def fuel_held(session: Session) -> date | None:
    return session.scalar(select(func.max(FuelPriceRow.effective)).where(FuelPriceRow.sample.is_(False)))


FUEL = declared_feed("life", "fuel", importer=import_fuel, stamp=fuel_stamp, held=fuel_held)

FEEDS = (INVOICE, LOTTERY, FUEL)
