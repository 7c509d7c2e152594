"""The Ministry of Agriculture's daily wholesale price feed 農產品交易行情 (FarmTransData):
its published JSON format, parsed into rows. Pure: bytes in, rows out, ValueError naming the
record and field that is wrong.

One record per crop, market and trading day, for example
{"交易日期": "115.11.21", "種類代碼": "N04", "作物代號": "LA1", "作物名稱": "甘藍-初秋",
 "市場代號": "109", "市場名稱": "台北一", "上價": 27.0, "中價": 20.4, "下價": 12.4,
 "平均價": 20.0, "交易量": 8000.0}
with the date in the ROC calendar (year - 1911), prices in NT$ per kg and volume in kg. Older
downloads give numbers as strings and may lack 種類代碼; both are accepted. A market's rest day
is a record with 作物代號 "rest" / 作物名稱 "休市" and zero prices: skipped.
"""

from __future__ import annotations

import json
import re
from datetime import date

from twlookup.services.price.records import Trade

FEED_URL = "https://data.moa.gov.tw/Service/OpenData/FromM/FarmTransData.aspx"
FEED_TITLE = "農產品交易行情 FarmTransData (農業部資料開放平臺, dataset 037)"
FEED_LICENCE = "Open Government Data License, version 1.0 (https://data.gov.tw/license)"

FIELDS = ("交易日期", "作物代號", "作物名稱", "市場代號", "市場名稱", "上價", "中價", "下價", "平均價", "交易量")
PRICE_FIELDS = ("上價", "中價", "下價", "平均價")
ROC_DATE = re.compile(r"^(\d{2,3})\.(\d{1,2})\.(\d{1,2})$")


class FeedRow(Trade):
    """One trading record of the feed: a trade, with the crop's name and kind as the feed gives them."""

    name: str
    type_code: str | None  # 種類代碼, e.g. N04 vegetables, N05 fruits


def roc_date(text: str) -> date:
    """'115.11.21' (ROC year 115 = 2026) -> 2026-11-21."""
    match = ROC_DATE.match(text.strip())
    if not match:
        raise ValueError(f"交易日期 {text!r} is not an ROC date like 115.11.21")
    year, month, day = (int(g) for g in match.groups())
    try:
        return date(year + 1911, month, day)
    except ValueError as exc:
        raise ValueError(f"交易日期 {text!r} is not a calendar date: {exc}") from None


def roc(day: date) -> str:
    """2026-11-21 -> '115.11.21', as the feed's StartDate and EndDate take it."""
    return f"{day.year - 1911}.{day.month:02d}.{day.day:02d}"


def page_records(body: bytes, page: int) -> list[object]:
    """The records of one page of the feed's answer (an empty body is an empty page); ValueError
    naming the page when it is not a JSON list."""
    try:
        chunk = json.loads(body) if body.strip() else []
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"page {page}: not JSON ({exc})") from None
    if not isinstance(chunk, list):
        raise ValueError(f"page {page}: expected a JSON list of records")
    return chunk


def _number(record: dict, name: str) -> float:
    value = record[name]
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if number != number or number in (float("inf"), float("-inf")) or number < 0:
        raise ValueError(f"{name} must be a non-negative number, got {value!r}")
    return number


def _text(record: dict, name: str, max_length: int) -> str:
    value = record[name]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"{name} must be text, got {value!r}")
    text = str(value).strip()
    if not text:
        raise ValueError(f"{name} is empty")
    if len(text) > max_length:
        raise ValueError(f"{name} is longer than {max_length} characters")
    return text


def is_rest_day(record: dict) -> bool:
    return (
        str(record.get("作物代號", "")).strip().lower() == "rest" or str(record.get("作物名稱", "")).strip() == "休市"
    )


def parse_feed(raw: bytes) -> list[FeedRow]:
    """Every trading record of one download; rest-day markers are skipped."""
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(doc, list):
        raise ValueError("expected a JSON list of records, as FarmTransData.aspx returns")
    rows: list[FeedRow] = []
    seen: set[tuple[str, str, date]] = set()
    for i, record in enumerate(doc):
        try:
            if not isinstance(record, dict):
                raise ValueError("is not a JSON object")
            if is_rest_day(record):
                continue
            missing = [f for f in FIELDS if f not in record]
            if missing:
                raise ValueError(f"missing {', '.join(missing)}")
            type_code = record.get("種類代碼")
            row = FeedRow(
                product_id=_text(record, "作物代號", 20).upper(),
                name=_text(record, "作物名稱", 100),
                type_code=str(type_code).strip().upper() if type_code not in (None, "") else None,
                market_code=_text(record, "市場代號", 10),
                market_name=_text(record, "市場名稱", 50),
                day=roc_date(_text(record, "交易日期", 20)),
                upper=_number(record, "上價"),
                middle=_number(record, "中價"),
                lower=_number(record, "下價"),
                average=_number(record, "平均價"),
                volume=_number(record, "交易量"),
            )
            if row.average <= 0:
                raise ValueError(f"平均價 must be above 0 on a trading record, got {record['平均價']!r}")
            if not row.product_id.isascii() or not row.product_id.isalnum():
                raise ValueError(f"作物代號 {row.product_id!r} is not a crop code (letters and digits)")
        except ValueError as exc:
            raise ValueError(f"record {i}: {exc}") from None
        key = (row.product_id, row.market_code, row.day)
        if key in seen:
            raise ValueError(f"record {i}: {row.product_id} at market {row.market_code} on {row.day} appears twice")
        seen.add(key)
        rows.append(row)
    return rows
