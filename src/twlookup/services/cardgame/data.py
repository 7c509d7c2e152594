"""Seeding the cardgame tables from data/cardgame/, and the cached guide."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain import search
from twlookup.platform.records import DataFileError, load_records, read_data_file, to_row
from twlookup.platform.schemas import LazyModel
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.cardgame import parsers
from twlookup.services.cardgame.logic import COLLECTIONS, TERMS, Guide, documents
from twlookup.services.cardgame.records import BanList, CardTerm, Chapter, FaqItem
from twlookup.services.cardgame.tables import BanListRow, ChapterRow, FaqRow, TermRow


class BanListSnapshot(LazyModel):
    file: str
    checked: str
    source: str


def read_guide(data_dir: Path) -> tuple[list[Chapter], list[CardTerm], list[FaqItem]]:
    folder = data_dir / "cardgame"
    chapters = load_records(folder / "chapters.yaml", Chapter, "chapters", label="slug")
    terms = load_records(folder / "glossary.yaml", CardTerm, "terms", label="term")
    faq = load_records(folder / "faq.yaml", FaqItem, "faq")
    slugs = {c.slug for c in chapters}
    for name, chapter in [(t.term, t.chapter) for t in terms] + [(f.id, f.chapter) for f in faq]:
        if chapter not in slugs:
            raise DataFileError(f"{folder}: record {name!r} points to chapter {chapter!r}, which does not exist")
    return chapters, terms, faq


def read_banlists(data_dir: Path) -> list[BanList]:
    folder = data_dir / "cardgame"
    meta = read_data_file(folder / "banlist.yaml")
    from datetime import date

    checked = meta["checked"] if isinstance(meta["checked"], date) else date.fromisoformat(meta["checked"])
    try:
        return parsers.parse((folder / meta["file"]).read_bytes(), checked, meta.get("source", parsers.PAGE_URL))
    except ValueError as exc:
        raise DataFileError(f"{folder / meta['file']}: {exc}") from None


def seed_cardgame(session: Session, data_dir: Path) -> int:
    chapters, terms, faq = read_guide(data_dir)
    n = replace_rows(session, ChapterRow, [to_row(c, ChapterRow) for c in chapters])
    n += replace_rows(session, TermRow, [to_row(t, TermRow) for t in terms])
    n += replace_rows(session, FaqRow, [to_row(f, FaqRow) for f in faq])
    n += store_banlists(session, read_banlists(data_dir), replace=True)
    return n


def store_banlists(session: Session, lists: list[BanList], replace: bool = False) -> int:
    rows = [to_row(b, BanListRow) for b in lists]
    if replace:
        return replace_rows(session, BanListRow, rows)
    for row in rows:
        session.merge(row)
    session.flush()
    return len(rows)


def import_banlist(session: Session, path: Path) -> int:
    """`twlookup ingest cardgame.banlist FILE`: Konami's AE F&L page (HTML) or its cardData JSON.
    Every AE list in the file is stored (a re-published month replaces the stored one); lists the
    file does not carry are kept."""
    from twlookup.platform.schemas import today_taipei

    return store_banlists(session, parsers.parse(path.read_bytes(), today_taipei()))


def _load(session: Session) -> Guide:
    return Guide(
        chapters={
            r.slug: Chapter.model_validate(r) for r in session.scalars(select(ChapterRow).order_by(ChapterRow.order))
        },
        terms={r.term: CardTerm.model_validate(r) for r in session.scalars(select(TermRow).order_by(TermRow.term))},
        faq={r.id: FaqItem.model_validate(r) for r in session.scalars(select(FaqRow))},
        banlists=[BanList.model_validate(r) for r in session.scalars(select(BanListRow))],
        searchers=(search.Stored(*COLLECTIONS), search.Stored(TERMS)),
    )


@search.indexed
def search_documents(session: Session) -> dict[str, list[search.Document]]:
    """The guide's search collections, as a seed or a ban list import writes them into the store."""
    return documents(_load(session))


GUIDE: Reference[Guide] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_cardgame,)
