"""Importers of the life service's live feeds, each reading its publisher's own file format.

- life.invoice: the Ministry of Finance winning-number RSS feed (https://invoice.etax.nat.gov.tw/invoice.xml):
  one <item> per period, title like "114年 11~12月", description "<p>特別獎：…</p><p>特獎：…</p>
  <p>頭獎：…、…、…</p>" and, in older periods, "<p>增開六獎：…</p>".
- life.lottery: Taiwan Lottery's result JSON (https://api.taiwanlottery.com/TLCAPIWeB/Lottery/<Game>Result):
  {"rtCode": 0, "content": {"lotto649Res" | "superLotto638Res" | "daily539Res": [{"period", "lotteryDate",
  "drawNumberSize", ...}]}}; drawNumberSize lists the main numbers ascending, then the special
  (lotto649) or zone-2 (superlotto638) number.
- life.fuel: CPC's list-price web service XML (a .NET DataSet): rows with 產品名稱 (current prices,
  getCPCMainProdListPrice) or 產品名 (one product's history, getCPCMainProdListPrice_Historical),
  參考牌價 and 牌價生效時間.

Each importer builds the records (records.py validates them) and upserts them (earlier records
stay), and raises ValueError naming what is wrong with a file that is not in the format.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from twlookup.platform.records import to_row
from twlookup.platform.schemas import today_taipei
from twlookup.services.life.data import games
from twlookup.services.life.logic.invoice import period_of
from twlookup.services.life.records import Draw, FuelPrice, InvoicePeriod
from twlookup.services.life.tables import FuelPriceRow, InvoicePeriodRow, LotteryDrawRow

INVOICE_FEED = "https://invoice.etax.nat.gov.tw/invoice.xml"
INVOICE_PAGE = "https://www.etax.nat.gov.tw/etw-main/ETW183W2_{roc:03d}{month:02d}/"
LOTTERY_API = "https://api.taiwanlottery.com/TLCAPIWeB/Lottery/{name}Result"
LOTTERY_KEYS = {
    "lotto649Res": ("lotto649", "Lotto649"),
    "superLotto638Res": ("superlotto638", "SuperLotto638"),
    "daily539Res": ("daily539", "Daily539"),
}
FUEL_SOURCE = "https://vipmbr.cpc.com.tw/CPCSTN/ListPriceWebService.asmx"
FUEL_NAMES = {
    "92無鉛汽油": "92",
    "無鉛汽油92": "92",
    "95無鉛汽油": "95",
    "無鉛汽油95": "95",
    "98無鉛汽油": "98",
    "無鉛汽油98": "98",
    "超級柴油": "diesel",
    "超級/高級柴油": "diesel",
    "高級柴油": "diesel",
}

TITLE = re.compile(r"(\d{2,3})\s*年\s*(\d{1,2})\s*月?\s*[~～、\-]\s*(\d{1,2})\s*月")
PRIZE_LINE = re.compile(r"(特別獎|特獎|頭獎|增開六獎)\s*[:：]\s*([0-9、,，\s]+)")


def _xml(path: Path) -> ET.Element:
    try:
        return ET.fromstring(path.read_bytes())
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed XML ({exc})") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _digits(text: str, width: int, label: str) -> list[str]:
    values = [v for v in re.split(r"[、,，\s]+", text.strip()) if v]
    for v in values:
        if not re.fullmatch(rf"\d{{{width}}}", v):
            raise ValueError(f"{label} number {v!r} is not {width} digits")
    return values


def imported_from(source: str, title: str, today: date) -> dict[str, Any]:
    """The provenance of a record read from its publisher's feed today: the page and its title, reported by no
    one, not a sample."""
    return {"reported_by": None, "source": source, "source_title": title, "checked": today, "sample": False}


def import_invoice(session: Session, path: Path) -> int:
    root = _xml(path)
    items = [e for e in root.iter() if _local(e.tag) == "item"]
    if not items:
        raise ValueError("no <item> elements: not the MoF winning-number RSS feed")
    today = today_taipei()
    count = 0
    for item in items:
        fields = {_local(c.tag): (c.text or "").strip() for c in item}
        title = fields.get("title", "")
        match = TITLE.search(title)
        if not match:
            raise ValueError(f"item title {title!r} names no period like '114年 11~12月'")
        roc, first, second = (int(g) for g in match.groups())
        if first % 2 == 0 or second != first + 1:
            raise ValueError(f"item title {title!r}: periods run odd month to the next even month")
        period = period_of(roc + 1911, first)
        text = html.unescape(re.sub(r"<[^>]+>", "\n", fields.get("description", "")))
        prizes: dict[str, list[str]] = {}
        for name, numbers in PRIZE_LINE.findall(text):
            width = 3 if name == "增開六獎" else 8
            prizes[name] = _digits(numbers, width, f"{period} {name}")
        for required in ("特別獎", "特獎", "頭獎"):
            if not prizes.get(required):
                raise ValueError(f"{period}: the description has no {required} number")
        if len(prizes["特別獎"]) != 1 or len(prizes["特獎"]) != 1:
            raise ValueError(f"{period}: expected one 特別獎 and one 特獎 number")
        session.merge(
            to_row(
                InvoicePeriod(
                    period=period,
                    special=prizes["特別獎"][0],
                    grand=prizes["特獎"][0],
                    first=tuple(prizes["頭獎"]),
                    additional_sixth=tuple(prizes.get("增開六獎", ())),
                    **imported_from(
                        fields.get("link") or INVOICE_PAGE.format(roc=roc, month=first),
                        f"財政部 統一發票中獎號碼 {title} (imported from {INVOICE_FEED})",
                        today,
                    ),
                ),
                InvoicePeriodRow,
            )
        )
        count += 1
    session.flush()
    return count


def _draw_date(value: Any, period: str) -> date:
    if not isinstance(value, str) or not re.match(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError(f"draw {period}: lotteryDate {value!r} is not an ISO date")
    return date.fromisoformat(value[:10])


def import_lottery(session: Session, path: Path) -> int:
    try:
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    content = doc.get("content") if isinstance(doc, dict) else None
    if not isinstance(content, dict):
        raise ValueError("no `content` object: not a Taiwan Lottery result response")
    if doc.get("rtCode", 0) != 0:
        raise ValueError(f"the response reports an error (rtCode {doc.get('rtCode')!r}: {doc.get('rtMsg')!r})")
    found = [k for k in LOTTERY_KEYS if isinstance(content.get(k), list)]
    if not found:
        raise ValueError(f"content has none of {', '.join(LOTTERY_KEYS)}")
    today = today_taipei()
    count = 0
    for key in found:
        game_key, api_name = LOTTERY_KEYS[key]
        game = games()[game_key]
        width = game.picks + (1 if game.has_special or game.second_maximum else 0)
        for row in content[key]:
            period = str(row.get("period", "")).strip()
            if not re.fullmatch(r"\d{9}", period):
                raise ValueError(f"{game_key}: period {row.get('period')!r} is not a 9-digit draw number")
            numbers = row.get("drawNumberSize")
            if not isinstance(numbers, list) or len(numbers) != width or not all(isinstance(n, int) for n in numbers):
                raise ValueError(f"{game_key} draw {period}: drawNumberSize must list {width} integers")
            main, extra = numbers[: game.picks], (numbers[game.picks] if width > game.picks else None)
            if len(set(main)) != game.picks or not all(1 <= n <= game.maximum for n in main):
                raise ValueError(
                    f"{game_key} draw {period}: main numbers {main} are not {game.picks} distinct numbers 1-{game.maximum}"
                )
            if extra is not None:
                top = game.second_maximum or game.maximum
                if not 1 <= extra <= top or (game.has_special and extra in main):
                    raise ValueError(
                        f"{game_key} draw {period}: the last number {extra} is not a valid special/zone-2 number"
                    )
            session.merge(
                to_row(
                    Draw(
                        game=game_key,
                        period=period,
                        draw_date=_draw_date(row.get("lotteryDate"), period),
                        numbers=tuple(sorted(main)),
                        second=extra,
                        **imported_from(
                            LOTTERY_API.format(name=api_name), f"台灣彩券 {game.name_zh} 第{period}期 開獎結果", today
                        ),
                    ),
                    LotteryDrawRow,
                )
            )
            count += 1
    session.flush()
    return count


def import_fuel(session: Session, path: Path) -> int:
    root = _xml(path)
    today = today_taipei()
    count = 0
    rows = 0
    for row in root.iter():
        fields = {_local(c.tag): (c.text or "").strip() for c in row}
        if "參考牌價" not in fields or "牌價生效時間" not in fields:
            continue
        rows += 1
        name = fields.get("產品名稱") or fields.get("產品名") or ""
        product = FUEL_NAMES.get(name.replace(" ", ""))
        if product is None:
            continue  # fuel oils, marine diesel, alcohol gasoline: not products of this service
        try:
            price = Decimal(fields["參考牌價"]).quantize(Decimal("0.01"))
        except InvalidOperation:
            raise ValueError(f"{name}: 參考牌價 {fields['參考牌價']!r} is not a number") from None
        if not Decimal(0) < price < Decimal(1000):
            raise ValueError(f"{name}: 參考牌價 {price} is not a price per litre")
        when = fields["牌價生效時間"]
        if not re.match(r"\d{4}-\d{2}-\d{2}", when):
            raise ValueError(f"{name}: 牌價生效時間 {when!r} is not an ISO date-time")
        session.merge(
            to_row(
                FuelPrice(
                    product=product,
                    effective=date.fromisoformat(when[:10]),
                    price=price,
                    note=None,
                    **imported_from(FUEL_SOURCE, f"台灣中油 牌價 {name} (list-price web service)", today),
                ),
                FuelPriceRow,
            )
        )
        count += 1
    if rows == 0:
        raise ValueError("no rows with 參考牌價 and 牌價生效時間: not CPC's list-price XML")
    if count == 0:
        raise ValueError("no rows for 92, 95 or 98 unleaded gasoline or premium diesel")
    session.flush()
    return count
