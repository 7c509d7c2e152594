"""The daily-closes feed: the exchanges' open-data JSON, parsed into closes of the followed securities.

Two official formats are read (one JSON array of objects per trading day each):

- TWSE OpenAPI `exchangeReport/STOCK_DAY_ALL` (listed securities): fields Date (ROC calendar,
  e.g. "1151120"), Code, Name, TradeVolume, TradeValue, OpeningPrice, HighestPrice, LowestPrice,
  ClosingPrice, Change, Transaction.
- TPEx OpenAPI `tpex_mainboard_daily_close_quotes` (OTC securities): fields Date, SecuritiesCompanyCode,
  CompanyName, Close, Change, Open, High, Low, Average, TradingShares, TransactionAmount, ...

Only the securities the service follows (theme members and ETFs) are kept; a security without a
trade that day (close "--" / "----") is skipped. On an ex-dividend or ex-rights day the exchanges
write a marker instead of a number in Change (TPEx "除息", "除權", "除權息"; TWSE a leading "X",
not compared): the close is kept and its change is recorded as unknown.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.services.stocks.tables import CloseRecord, ImportRecord, SecurityRecord


@dataclass(frozen=True)
class Feed:
    market: str
    url: str
    title: str
    code: str
    name: str
    close: str
    change: str


FEEDS = (
    Feed(
        "TWSE",
        "https://openapi.twse.com.tw/v1/exchangeReport/STOCK_DAY_ALL",
        "TWSE OpenAPI STOCK_DAY_ALL: daily trading of every listed security",
        "Code",
        "Name",
        "ClosingPrice",
        "Change",
    ),
    Feed(
        "TPEx",
        "https://www.tpex.org.tw/openapi/v1/tpex_mainboard_daily_close_quotes",
        "TPEx OpenAPI tpex_mainboard_daily_close_quotes: daily close quotes of OTC securities",
        "SecuritiesCompanyCode",
        "CompanyName",
        "Close",
        "Change",
    ),
)
NO_TRADE = re.compile(r"^-+$")  # "--" on TWSE, "----" on TPEx
ROC_DATE = re.compile(r"^(\d{2,3})(\d{2})(\d{2})$")
NOT_COMPARED = re.compile(r"^(X|除權息|除權|除息)")  # ex-dividend / ex-rights day: no comparable change


@dataclass(frozen=True)
class ParsedClose:
    code: str
    date: date
    close: Decimal
    change: Decimal | None


def detect(rows: list[Any]) -> Feed:
    first = rows[0]
    if not isinstance(first, dict):
        raise ValueError("expected a JSON array of objects (one per security)")
    for feed in FEEDS:
        if feed.code in first and feed.close in first:
            return feed
    raise ValueError(
        "neither a TWSE STOCK_DAY_ALL file (fields Code, ClosingPrice) nor a TPEx daily close quotes "
        f"file (fields SecuritiesCompanyCode, Close); first record has fields {sorted(first)[:12]}"
    )


def roc_date(text: str, code: str) -> date:
    """'1151120' (ROC year 115) -> 2026-11-20; also accepts '115/11/20'."""
    match = ROC_DATE.match(text.strip().replace("/", ""))
    if not match:
        raise ValueError(f"record {code}: Date {text!r} is not an ROC date like 1151120")
    try:
        return date(int(match[1]) + 1911, int(match[2]), int(match[3]))
    except ValueError:
        raise ValueError(f"record {code}: Date {text!r} is not a real date") from None


def number(text: Any, field: str, code: str) -> Decimal:
    cleaned = str(text).strip().replace(",", "")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"record {code}: {field} {text!r} is not a number") from None
    if not value.is_finite():
        raise ValueError(f"record {code}: {field} {text!r} is not a number")
    return value


def daily_records(raw: bytes) -> tuple[Feed, list[Any]]:
    """The feed a file is in, and its records (a non-empty JSON array, as both exchanges serve)."""
    try:
        rows = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not UTF-8 JSON ({exc})") from None
    if not isinstance(rows, list) or not rows:
        raise ValueError("expected a non-empty JSON array of daily records")
    return detect(rows), rows


def parse(raw: bytes, wanted: Iterable[str]) -> tuple[Feed, list[ParsedClose]]:
    """The feed a file is in, and the closes in it of the `wanted` codes."""
    feed, rows = daily_records(raw)
    wanted = set(wanted)
    out: list[ParsedClose] = []
    for row in rows:
        if not isinstance(row, dict):
            raise ValueError("every record must be a JSON object")
        code = str(row.get(feed.code, "")).strip()
        if code not in wanted:
            continue
        if "Date" not in row:
            raise ValueError(f"record {code}: no Date field (the trading date is required)")
        day = roc_date(str(row["Date"]), code)
        close_text = str(row.get(feed.close, "")).strip()
        if not close_text or NO_TRADE.match(close_text):
            continue
        close = number(close_text, feed.close, code)
        if close <= 0:
            raise ValueError(f"record {code}: {feed.close} {close_text!r} is not a positive price")
        change_text = str(row.get(feed.change, "")).strip()
        unknown = not change_text or NO_TRADE.match(change_text) or NOT_COMPARED.match(change_text)
        change = None if unknown else number(change_text, feed.change, code)
        out.append(ParsedClose(code, day, close, change))
    if not out:
        raise ValueError(
            f"no traded record of a followed security (e.g. {', '.join(sorted(wanted)[:5])}) in this {feed.market} file"
        )
    return feed, out


def import_closes(session: Session, path: Path) -> int:
    """`twlookup ingest stocks.closes FILE`: add or replace the closes of the followed securities."""
    wanted = session.scalars(select(SecurityRecord.code)).all()
    if not wanted:
        raise ValueError("the store has no followed securities yet; run `twlookup seed` first")
    feed, closes = parse(path.read_bytes(), wanted)
    now = datetime.now(UTC)
    # a security's made-up sample closes go once its real closes arrive: no series mixes the two
    imported_codes = sorted({c.code for c in closes})
    session.execute(delete(CloseRecord).where(CloseRecord.code.in_(imported_codes), CloseRecord.sample.is_(True)))
    for c in closes:
        session.merge(
            CloseRecord(
                **asdict(c),  # code, date, close, change
                market=feed.market,
                source=feed.url,
                source_title=feed.title,
                checked=now.date(),
                sample=False,
            )
        )
    for day in sorted({c.date for c in closes}):
        rows = sum(1 for c in closes if c.date == day)
        session.add(
            ImportRecord(
                market=feed.market,
                trading_date=day,
                imported_at=now,
                rows=rows,
                file_name=path.name[:300],
                source=feed.url,
            )
        )
    session.flush()
    return len(closes)
