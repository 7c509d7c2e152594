"""The creator service's live feed: the company register (經濟部商工登記公示資料, GCIS open data).

The register's open-data API answers one query at a time (no whole-register file), so a refresh
asks it again for each company the store holds, the least recently checked first (at most
MAX_COMPANIES per refresh), and imports the answers as one file. A number the register no longer
knows is left as it was. Numbers not in the store are asked live when a user looks them up.
"""

from __future__ import annotations

import json
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Fetched, Part, PartsContext, declared_feed
from twlookup.platform.feeds.declare import CompositeFetch
from twlookup.platform.feeds.download import Fetcher
from twlookup.services.creator.data import import_companies
from twlookup.services.creator.parsers import GCIS_COMPANY
from twlookup.services.creator.tables import Company

MAX_COMPANIES = 500


def _companies(bans: list[str]) -> CompositeFetch:
    def fetch(fetcher: Fetcher, part: Part) -> Fetched:
        rows: list = []
        for ban in bans:
            params = {"$format": "json", "$filter": f"Business_Accounting_NO eq {ban}"}
            answer = fetcher.get(GCIS_COMPANY, params=params)
            text = answer.body.decode("utf-8-sig").strip()
            try:
                found = json.loads(text) if text else []
            except json.JSONDecodeError as exc:
                raise ValueError(f"{ban}: not JSON ({exc})") from None
            if not isinstance(found, list):
                raise ValueError(f"{ban}: expected a JSON array of company rows")
            rows.extend(
                r for r in found if isinstance(r, dict) and str(r.get("Business_Accounting_NO", "")).strip() == ban
            )
        return Fetched(
            body=json.dumps(rows, ensure_ascii=False).encode(), filename="gcis-companies.json", url=GCIS_COMPANY
        )

    return fetch


def companies_parts(ctx: PartsContext) -> list[Part]:
    bans: list[str] = list(
        ctx.session.scalars(select(Company.ban).order_by(Company.checked, Company.ban).limit(MAX_COMPANIES))
    )
    if not bans:
        return []
    return [Part("register", GCIS_COMPANY, "gcis-companies.json", fetch=_companies(sorted(bans)))]


def companies_held(session: Session) -> date | None:
    """The newest day a stored company was checked against the register."""
    return session.scalar(select(func.max(Company.checked)))


def companies_holds(session: Session) -> str | None:
    total = session.scalar(select(func.count()).select_from(Company)) or 0
    if not total:
        return "no company (numbers are asked of the register live)"
    samples = session.scalar(select(func.count()).select_from(Company).where(Company.sample.is_(True))) or 0
    oldest = session.scalar(select(func.min(Company.checked)))
    word = "company" if total == 1 else "companies"
    return (
        f"{total} {word} ({samples} of them sample), checked against the register between "
        f"{oldest.isoformat() if oldest else '?'} and {companies_held(session)}"
    )


COMPANIES = declared_feed(
    "creator",
    "companies",
    importer=import_companies,
    parts=companies_parts,
    held=companies_held,
    holds=companies_holds,
)
