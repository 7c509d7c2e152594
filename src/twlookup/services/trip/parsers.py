"""Bank of Taiwan's posted-rate CSV, the upstream format `twlookup ingest trip.fx FILE` reads.

The file is what https://rate.bot.com.tw/xrt/flcsv/0/day (or /flcsv/0/YYYY-MM-DD) returns, saved
under the name the bank gives it, ExchangeRate@YYYYMMDDHHMM.csv (the posting time, Taiwan time).
Layout (UTF-8 with a BOM; older downloads Big5), 21 columns, a trailing comma on data rows:

    幣別,匯率,現金,即期,遠期10天,...,遠期180天,匯率,現金,即期,遠期10天,...,遠期180天
    USD,本行買入,<cash buy>,<spot buy>,<7 forwards>,本行賣出,<cash sell>,<spot sell>,<7 forwards>,

Column 0 is the currency code, 1 the marker 本行買入 (bank buys), 2 cash and 3 spot buying;
11 the marker 本行賣出 (bank sells), 12 cash and 13 spot selling. A rate the bank does not post
is 0 (or '-'). The history download (/flcsv/0/L3M/USD ...) puts a 資料日期 (YYYYMMDD) column
first; its newest date's rows are taken, and that date gives the posting day. How a file goes
into the store (a day board replaces the board, a history file updates its currency) is
`data.import_fx`.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path

from twlookup.platform.feeds import Stamp

BOARD_URL = "https://rate.bot.com.tw/xrt?Lang=zh-TW"
BOARD_TITLE = "臺灣銀行牌告匯率 (Bank of Taiwan posted exchange rates)"
FILENAME = re.compile(r"ExchangeRate@(\d{12})")
CODE = re.compile(r"^[A-Z]{3}$")
BUY_MARK, SELL_MARK = "本行買入", "本行賣出"
# The bank's own names, in its board order; a code it adds later is imported without a name.
NAMES = {
    "USD": "美金",
    "HKD": "港幣",
    "GBP": "英鎊",
    "AUD": "澳幣",
    "CAD": "加拿大幣",
    "SGD": "新加坡幣",
    "CHF": "瑞士法郎",
    "JPY": "日圓",
    "ZAR": "南非幣",
    "SEK": "瑞典幣",
    "NZD": "紐元",
    "THB": "泰幣",
    "PHP": "菲國比索",
    "IDR": "印尼幣",
    "EUR": "歐元",
    "KRW": "韓元",
    "VND": "越南盾",
    "MYR": "馬來幣",
    "CNY": "人民幣",
}


@dataclass(frozen=True)
class ParsedRate:
    currency: str
    cash_buy: Decimal | None
    cash_sell: Decimal | None
    spot_buy: Decimal | None
    spot_sell: Decimal | None


def _decode(raw: bytes) -> str:
    for encoding in ("utf-8-sig", "cp950"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValueError("the file is neither UTF-8 nor Big5 text")


def _rate(cell: str, where: str) -> Decimal | None:
    cell = cell.strip()
    if cell in ("", "-"):
        return None
    try:
        value = Decimal(cell)
    except InvalidOperation:
        raise ValueError(f"{where}: {cell!r} is not a number") from None
    if value < 0 or not value.is_finite():
        raise ValueError(f"{where}: {cell!r} is not a rate")
    return value if value > 0 else None


def parse_bot_csv(raw: bytes, filename: str) -> tuple[datetime, list[ParsedRate]]:
    """The posting time and the rates of one downloaded board file. Raises ValueError naming
    the line and what is wrong."""
    rows = [r for r in csv.reader(io.StringIO(_decode(raw))) if any(c.strip() for c in r)]
    if not rows:
        raise ValueError("the file is empty")
    header = [c.strip() for c in rows[0]]
    dated = bool(header) and header[0] == "資料日期"
    offset = 1 if dated else 0
    if len(header) < offset + 14 or header[offset] != "幣別" or header[offset + 2 : offset + 4] != ["現金", "即期"]:
        raise ValueError("line 1 is not the bank's header (幣別,匯率,現金,即期,... twice)")
    body = list(enumerate(rows[1:], start=2))  # (line number, cells)
    if not body:
        raise ValueError("the file has a header but no rates")
    day: date | None = None
    if dated:
        try:
            days = [datetime.strptime(row[0].strip(), "%Y%m%d").date() for _, row in body]
        except ValueError:
            raise ValueError("column 資料日期 must hold dates as YYYYMMDD") from None
        day = max(days)
        body = [line for line, d in zip(body, days, strict=True) if d == day]
    match = FILENAME.search(Path(filename).name)
    if match:
        posted = datetime.strptime(match.group(1), "%Y%m%d%H%M")
        if day is not None and posted.date() != day:
            raise ValueError(f"the file name says {posted.date()} but its newest 資料日期 is {day}")
    elif day is not None:
        posted = datetime.combine(day, datetime.min.time())
    else:
        raise ValueError(
            "the posting time is unknown: keep the bank's file name ExchangeRate@YYYYMMDDHHMM.csv "
            "(or use the history download, whose first column is 資料日期)"
        )
    out: list[ParsedRate] = []
    seen: set[str] = set()
    for number, row in body:
        cells = [c.strip() for c in row[offset:]]
        where = f"line {number}"
        if len(cells) < 14:
            raise ValueError(f"{where}: {len(cells)} columns, the bank's rows have 21")
        code = cells[0]
        if not CODE.match(code):
            raise ValueError(f"{where}: {code!r} is not a currency code")
        if cells[1] != BUY_MARK or cells[11] != SELL_MARK:
            raise ValueError(f"{where}: columns 2 and 12 must be {BUY_MARK} and {SELL_MARK}")
        if code in seen:
            raise ValueError(f"{where}: {code} appears twice")
        seen.add(code)
        rate = ParsedRate(
            code,
            cash_buy=_rate(cells[2], f"{where} {code} cash buying"),
            cash_sell=_rate(cells[12], f"{where} {code} cash selling"),
            spot_buy=_rate(cells[3], f"{where} {code} spot buying"),
            spot_sell=_rate(cells[13], f"{where} {code} spot selling"),
        )
        for kind in ("cash", "spot"):
            buy, sell = getattr(rate, f"{kind}_buy"), getattr(rate, f"{kind}_sell")
            if buy is not None and sell is not None and buy > sell:
                raise ValueError(f"{where}: {code} {kind} buying rate {buy} is above its selling rate {sell}")
        out.append(rate)
    return posted, out


def is_history_download(raw: bytes) -> bool:
    """The history download (one currency, dated rows) rather than the whole day board."""
    first = _decode(raw).lstrip("\ufeff").split(",", 1)[0].strip()
    return first == "資料日期"


def fx_stamp(raw: bytes, filename: str) -> Stamp:
    """The day board (part "board") or a one-currency history download ("history-USD"), and its posting time."""
    posted, rates = parse_bot_csv(raw, filename)
    part = "history-" + "+".join(sorted(r.currency for r in rates)) if is_history_download(raw) else "board"
    label = posted.strftime("%Y-%m-%d %H:%M")
    return Stamp(part=part, key=(posted.isoformat(),), label=label, data_date=posted.date())
