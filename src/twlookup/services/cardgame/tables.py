"""Store tables of the cardgame guide, each derived from its record in records.py (`record_table`)."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.cardgame.records import BanList, CardTerm, Chapter, FaqItem

ChapterRow = record_table(Chapter, "cardgame_chapter", key="slug")
TermRow = record_table(CardTerm, "cardgame_term", key="term")
FaqRow = record_table(FaqItem, "cardgame_faq")
BanListRow = record_table(BanList, "cardgame_banlist", key=("effective", "format"))
