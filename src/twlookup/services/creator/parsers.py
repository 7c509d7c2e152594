"""The company register: the Ministry of Economic Affairs' open data (商工登記公示資料, GCIS).

The GCIS open-data API answers a JSON array of companies, e.g. for
GET https://data.gcis.nat.gov.tw/od/data/api/5F64D864-61CB-4D0D-8AD9-492047CC1EA6?$format=json&$filter=Business_Accounting_NO eq 22099131
with fields Business_Accounting_NO, Company_Name, Company_Status_Desc, Capital_Stock_Amount,
Paid_In_Capital_Amount, Responsible_Name, Company_Location, Register_Organization_Desc,
Company_Setup_Date and Change_Of_Approval_Data (dates in the ROC calendar, YYYMMDD). For a number it
does not know it answers an empty body or an empty array. The same row format is what the importer
reads from a saved file (a JSON array of such rows). Licence: Open Government Data License TW 1.0.
"""

from __future__ import annotations

import json
from datetime import date
from typing import TYPE_CHECKING, Any

from twlookup.platform.errors import Problem
from twlookup.platform.tls import client_context
from twlookup.services.creator.records import CompanyRecord

if TYPE_CHECKING:
    import httpx

GCIS_COMPANY = "https://data.gcis.nat.gov.tw/od/data/api/5F64D864-61CB-4D0D-8AD9-492047CC1EA6"
LICENCE = "政府資料開放授權條款-第1版"
UPSTREAM = "the Ministry of Economic Affairs company register (data.gcis.nat.gov.tw)"


def live_lookup_enabled() -> bool:
    """Ask the register live for numbers not in the store (setting TWLOOKUP_CREATOR_LIVE_REGISTER; default on)."""
    from twlookup.settings import get_settings

    return get_settings().creator_live_register


def _timeout() -> httpx.Timeout:
    import httpx  # imported when first used, not when the app starts

    from twlookup.settings import get_settings

    total = get_settings().creator_register_timeout_seconds
    return httpx.Timeout(total, connect=min(3.0, total))


def roc_date(value: Any) -> date | None:
    """'0680722' (ROC year 68, i.e. 1979-07-22) → date; blank or malformed → None."""
    text = str(value or "").strip()
    if not text.isdigit() or len(text) not in (6, 7):
        return None
    try:
        return date(int(text[:-4]) + 1911, int(text[-4:-2]), int(text[-2:]))
    except ValueError:
        return None


def _int(value: Any) -> int | None:
    try:
        return int(str(value).replace(",", "")) if value not in (None, "") else None
    except ValueError:
        return None


def parse_rows(rows: Any, checked: date) -> list[CompanyRecord]:
    """Company records from GCIS rows; ValueError naming the row when one is not a company row."""
    if rows in (None, ""):
        return []
    if not isinstance(rows, list):
        raise ValueError("expected a JSON array of GCIS company rows")
    out = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or "Business_Accounting_NO" not in row or "Company_Name" not in row:
            raise ValueError(f"row {index + 1} has no Business_Accounting_NO / Company_Name")
        ban = str(row["Business_Accounting_NO"]).strip()
        out.append(
            CompanyRecord(
                ban=ban,
                name=str(row["Company_Name"]).strip(),
                status=str(row.get("Company_Status_Desc") or "").strip() or "不明",
                capital=_int(row.get("Capital_Stock_Amount")),
                paid_in_capital=_int(row.get("Paid_In_Capital_Amount")),
                representative=(row.get("Responsible_Name") or None),
                address=(row.get("Company_Location") or None),
                registrar=(row.get("Register_Organization_Desc") or None),
                setup_date=roc_date(row.get("Company_Setup_Date")),
                last_change=roc_date(row.get("Change_Of_Approval_Data")),
                source=f"{GCIS_COMPANY}?$format=json&$filter=Business_Accounting_NO%20eq%20{ban}",
                source_title="經濟部商工登記公示資料：公司登記基本資料",
                checked=checked,
                licence=LICENCE,
            )
        )
    return out


async def fetch_company(ban: str, today: date, client: httpx.AsyncClient | None = None) -> CompanyRecord | None:
    """Ask the register for one number. None when it has no such company; Problem 503 (with
    Retry-After) when it cannot be reached or answers something that is not its format."""
    import httpx

    params = {"$format": "json", "$filter": f"Business_Accounting_NO eq {ban}"}
    try:
        if client is None:
            async with httpx.AsyncClient(timeout=_timeout(), trust_env=False, verify=client_context()) as own:
                response = await own.get(GCIS_COMPANY, params=params)
        else:
            response = await client.get(GCIS_COMPANY, params=params, timeout=_timeout())
        response.raise_for_status()
        text = response.text.strip()
        rows = json.loads(text) if text else []
        records = parse_rows(rows, today)
    except (httpx.HTTPError, ValueError) as exc:
        raise Problem(
            503,
            f"{UPSTREAM} could not be reached or gave an unreadable answer ({type(exc).__name__}); try again later.",
            kind="upstream-unavailable",
            headers={"Retry-After": "30"},
            extra={"upstream": "data.gcis.nat.gov.tw"},
        ) from None
    return next((r for r in records if r.ban == ban), None)
