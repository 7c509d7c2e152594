"""The cardgame service's live feed: Konami Asia's Forbidden & Limited List (AE) page.

The page embeds every published month's lists; the newest effective month in it orders one page
against another, so a page captured before a new list never replaces that list.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Stamp, declared_feed
from twlookup.platform.schemas import today_taipei
from twlookup.services.cardgame import parsers
from twlookup.services.cardgame.data import import_banlist
from twlookup.services.cardgame.tables import BanListRow


def banlist_stamp(raw: bytes, _name: str) -> Stamp:
    lists = parsers.parse(raw, today_taipei())
    newest = max(b.effective for b in lists)
    return Stamp(part="ae", key=(newest.isoformat(),), label=newest.isoformat(), data_date=newest)


def banlist_held(session: Session) -> date | None:
    """The day the newest list held was read from Konami's page."""
    rows = list(session.scalars(select(BanListRow).order_by(BanListRow.effective)))
    return rows[-1].checked if rows else None


def banlist_holds(session: Session) -> str | None:
    rows = list(session.scalars(select(BanListRow).order_by(BanListRow.effective)))
    if not rows:
        return None
    new = rows[-1]
    return (
        f"{len(rows)} AE lists, {rows[0].effective.isoformat()} to {new.effective.isoformat()}; the newest "
        f"({len(new.forbidden)} forbidden, {len(new.limited)} limited, {len(new.semi_limited)} semi-limited) was read "
        f"from Konami's page on {new.checked.isoformat()}"
    )


BANLIST = declared_feed(
    "cardgame", "banlist", importer=import_banlist, stamp=banlist_stamp, held=banlist_held, holds=banlist_holds
)
