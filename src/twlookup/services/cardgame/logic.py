"""Domain rules of the cardgame guide: which ban list is in force on a day, what changed from the
previous one, and search over chapters (by section), glossary, FAQ and ban-listed card names."""

from __future__ import annotations

import re
from dataclasses import InitVar, dataclass, field
from datetime import date
from typing import Literal

from twlookup.domain import search
from twlookup.services.cardgame.records import BanCard, BanList, CardTerm, Chapter, FaqItem

HEADING = re.compile(r"^## +(.+)$", re.MULTILINE)


def sections(chapter: Chapter) -> list[tuple[str, str, str]]:
    """(anchor, heading, text) of each '## ' section; the text before the first heading is the intro."""
    parts = HEADING.split(chapter.body)
    out = [("", chapter.title, parts[0])]
    for heading, text in zip(parts[1::2], parts[2::2]):
        anchor = re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")
        out.append((anchor, heading.strip(), text))
    return out


def lists_in_force(lists: list[BanList], today: date) -> tuple[BanList | None, BanList | None, BanList | None]:
    """(current, previous, upcoming): the latest list effective on or before today, the one before it,
    and the first announced list that takes effect after today."""
    ordered = sorted(lists, key=lambda b: b.effective)
    past = [b for b in ordered if b.effective <= today]
    future = [b for b in ordered if b.effective > today]
    current = past[-1] if past else None
    previous = past[-2] if len(past) >= 2 else None
    return current, previous, future[0] if future else None


QUARTER_MONTHS = (1, 4, 7, 10)  # Konami Asia's AE lists since 2025 take effect on 1 Jan, Apr, Jul and Oct


def next_expected(after: date) -> date:
    """The first quarterly effective date after `after` (the day a newer list is due)."""
    for year in (after.year, after.year + 1):
        for month in QUARTER_MONTHS:
            day = date(year, month, 1)
            if day > after:
                return day
    raise AssertionError("unreachable")


def status_of(ban: BanList) -> dict[str, int]:
    """Card name -> copies allowed (0, 1 or 2) under this list."""
    out = {c.name: 0 for c in ban.forbidden}
    out.update({c.name: 1 for c in ban.limited})
    out.update({c.name: 2 for c in ban.semi_limited})
    return out


Status = Literal["forbidden", "limited", "semi-limited", "unlimited"]
STATUS: dict[int, Status] = {0: "forbidden", 1: "limited", 2: "semi-limited", 3: "unlimited"}
LIST_COPIES = {"forbidden": 0, "limited": 1, "semi_limited": 2, "released": 3}


def find_card(lists: list[BanList], query: str) -> BanCard | None:
    """The card whose English or Japanese name equals the query (case, width and punctuation folded), as the
    newest stored list that prints it has it; None when no stored list prints it."""
    want = search.compact(query)
    if not want:
        return None
    for ban in sorted(lists, key=lambda b: b.effective, reverse=True):
        for kind in LIST_COPIES:
            for card in getattr(ban, kind):
                if want in (search.compact(card.name), search.compact(card.japanese_name or "")):
                    return card
    return None


def card_on(ban: BanList, name: str) -> tuple[int, str | None, BanCard | None]:
    """(copies allowed, the list that prints the card or None, its entry) under one list; 3 when unlisted."""
    for kind, copies in LIST_COPIES.items():
        for card in getattr(ban, kind):
            if card.name.casefold() == name.casefold():
                return copies, kind, card
    return 3, None, None


def changes(current: BanList, previous: BanList) -> list[tuple[str, int, int]]:
    """(card, copies before, copies now) for every card whose allowance changed (3 = unrestricted)."""
    before, now = status_of(previous), status_of(current)
    out = [(name, before.get(name, 3), now.get(name, 3)) for name in sorted(set(before) | set(now))]
    return [c for c in out if c[1] != c[2]]


TERMS = "cardgame:term"
COLLECTIONS = ("cardgame:chapter", TERMS, "cardgame:faq", "cardgame:card")  # what search_rules searches


@dataclass
class Guide:
    chapters: dict[str, Chapter]
    terms: dict[str, CardTerm]
    faq: dict[str, FaqItem]
    banlists: list[BanList]
    # (everything, terms): the store's index when loaded from the store; given none, the guide
    # indexes its own records in memory
    searchers: InitVar[tuple[search.Searcher, search.Searcher] | None] = None
    index: search.Searcher = field(init=False)
    term_index: search.Searcher = field(init=False)

    def __post_init__(self, searchers: tuple[search.Searcher, search.Searcher] | None) -> None:
        if searchers is None:
            docs = documents(self)
            searchers = search.Index([d for c in COLLECTIONS for d in docs[c]]), search.Index(docs[TERMS])
        self.index, self.term_index = searchers


def documents(guide: Guide) -> dict[str, list[search.Document]]:
    """The guide's search collections: chapter sections, glossary terms, FAQ and ban-listed card names."""
    chapters = [
        search.Document(f"chapter:{ch.slug}#{anchor}" if anchor else f"chapter:{ch.slug}", {"title": [heading]}, text)
        for ch in guide.chapters.values()
        for anchor, heading, text in sections(ch)
    ]
    names = {c.name for b in guide.banlists for c in [*b.forbidden, *b.limited, *b.semi_limited]}
    return {
        "cardgame:chapter": chapters,
        TERMS: [
            search.Document(f"term:{t.term}", {"term": [t.term], "alias": list(t.aliases)}, t.definition)
            for t in guide.terms.values()
        ],
        "cardgame:faq": [
            search.Document(f"faq:{f.id}", {"question": [f.question]}, f.answer) for f in guide.faq.values()
        ],
        "cardgame:card": [search.Document(f"card:{n}", {"card": [n]}, "") for n in sorted(names)],
    }
