"""Konami's published Forbidden & Limited list for Asian-English (AE) cards, parsed into lists.

Konami Asia's page https://www.yugioh-card.com/asia//play/forbidden-and-limited-card-list-ae/
embeds the lists as a script variable, `const cardData = {...};`, with one entry per effective
month in each language:

    {"en": {"effective_dates": [{"effective_date_name": "Jul-26",
        "card_lists": [{"card_list_name": "Forbidden (AE)", "cards": [{"card_type": "Monster/Effect",
        "card_name": "...", ...}, ...]}, {"card_list_name": "Limited (AE)", ...},
        {"card_list_name": "Semi-Limited (AE)", ...}, {"card_list_name": "Released (AE)", ...}]}]}}

The same page also carries the Japanese OCG lists (names without "(AE)"); they are not AE lists,
but their entries print each card's English name in capitals beside `japanese_card_name`, which
gives the AE cards their Japanese names. A list takes effect on the first day of its month.

Duplicates: the page sometimes prints one card on two lists of the same month (Jul-26: Vanquish
Soul Hollie Sue on Limited, marked "Semi-Limited-to-limited", and again on Semi-Limited; Oct-25:
Fiendsmith's Tract on Limited and Semi-Limited). Such entries are merged, not dropped: the card is
kept once, on the strictest list it appears on (a deck that follows the stricter reading is legal
under either), with the other lists named in `also_listed` and Konami's change marker kept.
Pure: bytes in, lists out; ValueError names what is wrong.
"""

from __future__ import annotations

import json
import re
from datetime import date

from twlookup.services.cardgame.records import BanCard, BanList

PAGE_URL = "https://www.yugioh-card.com/asia//play/forbidden-and-limited-card-list-ae/"
PAGE_TITLE = "Forbidden and Limited List (AE), Yu-Gi-Oh! OFFICIAL CARD GAME (Konami Asia)"
FORMAT = "OCG-AE"
MONTHS = {
    m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)
}
LISTS = {"forbidden": "forbidden", "limited": "limited", "semi-limited": "semi_limited", "released": "released"}
STRICTNESS = ("forbidden", "limited", "semi_limited", "released")  # strictest first
EMBED = re.compile(r"const\s+cardData\s*=\s*")


def effective_date(name: str) -> date:
    """'Jul-26' -> 2026-07-01."""
    match = re.fullmatch(r"([A-Z][a-z]{2})-(\d{2})", name.strip())
    if not match or match.group(1) not in MONTHS:
        raise ValueError(f"effective_date_name {name!r} is not a month like Jul-26")
    return date(2000 + int(match.group(2)), MONTHS[match.group(1)], 1)


def extract(raw: bytes) -> dict:
    """The cardData object, from the whole HTML page or from the bare JSON."""
    text = raw.decode("utf-8-sig")
    match = EMBED.search(text)
    if match:
        try:
            obj, _ = json.JSONDecoder().raw_decode(text, match.end())
        except json.JSONDecodeError as exc:
            raise ValueError(f"cardData in the page is not valid JSON: {exc.msg}") from None
        return obj
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("not Konami's F&L page (no 'const cardData = ') nor its cardData JSON") from None


MANGLED = re.compile(r"(?:Monster|Spell|Trap)/")  # the page's English card-type words pasted into a Japanese name


def japanese_names(entries: list) -> dict[str, str]:
    """English name (case-folded) -> Japanese name, from the OCG lists' entries. A name the page has mangled
    (e.g. 烙印Monster/Fusion for 烙印融合: a card-type translation applied inside the name) is left out, not
    repaired."""
    out: dict[str, str] = {}
    for entry in entries:
        for card_list in (entry.get("card_lists") or []) if isinstance(entry, dict) else []:
            for card in card_list.get("cards") or []:
                if not isinstance(card, dict):
                    continue
                en, ja = card.get("card_name"), card.get("japanese_card_name")
                if not (isinstance(en, str) and isinstance(ja, str)) or MANGLED.search(ja):
                    continue
                if en.strip() not in ("", "‐", "-") and ja.strip():
                    out.setdefault(en.strip().casefold(), ja.strip())
    return out


def merge_duplicates(lists: dict[str, list[BanCard]]) -> dict[str, list[BanCard]]:
    """One entry per card name: on the strictest list it appears on, the others named in also_listed."""
    seen: dict[str, tuple[str, int]] = {}
    out: dict[str, list[BanCard]] = {k: [] for k in lists}
    for kind in sorted(lists, key=STRICTNESS.index):
        for card in lists[kind]:
            key = card.name.casefold()
            if key not in seen:
                seen[key] = (kind, len(out[kind]))
                out[kind].append(card)
                continue
            first_kind, i = seen[key]
            kept = out[first_kind][i]
            out[first_kind][i] = kept.model_copy(
                update={
                    "also_listed": sorted({*kept.also_listed, kind} - {first_kind}, key=STRICTNESS.index),
                    "remarks": kept.remarks or card.remarks,
                    "card_type": kept.card_type or card.card_type,
                }
            )
    return out


def parse(raw: bytes, checked: date, source: str = PAGE_URL) -> list[BanList]:
    data = extract(raw)
    try:
        entries = data["en"]["effective_dates"]
    except (KeyError, TypeError):
        raise ValueError("cardData has no en.effective_dates") from None
    ja = japanese_names(entries)
    out: dict[date, BanList] = {}
    for entry in entries:
        name = entry.get("effective_date_name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            raise ValueError("an entry of en.effective_dates has no effective_date_name")
        lists: dict[str, list[BanCard]] = {}
        for card_list in entry.get("card_lists") or []:
            label = str(card_list.get("card_list_name", ""))
            if "(AE)" not in label:
                continue
            kind = label.replace("(AE)", "").strip().lower()
            if kind == "latest":
                continue  # the page's "what changed" view, derivable from the lists
            if kind not in LISTS:
                raise ValueError(f"{name}: unknown list {label!r}")
            cards = []
            for card in card_list.get("cards") or []:
                card_name = card.get("card_name") if isinstance(card, dict) else None
                if not isinstance(card_name, str) or not card_name.strip():
                    raise ValueError(f"{name} {label}: a card has no card_name")
                remarks = card.get("remarks")
                cards.append(
                    BanCard(
                        name=card_name.strip(),
                        card_type=card.get("card_type"),
                        japanese_name=ja.get(card_name.strip().casefold()),
                        remarks=remarks if isinstance(remarks, str) and remarks.strip() else None,
                    )
                )
            lists.setdefault(LISTS[kind], []).extend(cards)
        if not lists:
            continue  # a month with only Japanese OCG lists
        lists = merge_duplicates(lists)
        when = effective_date(name)
        out[when] = BanList(
            effective=when,
            format=FORMAT,
            forbidden=lists.get("forbidden", []),
            limited=lists.get("limited", []),
            semi_limited=lists.get("semi_limited", []),
            released=lists.get("released", []),
            source=source,
            source_title=PAGE_TITLE,
            checked=checked,
        )
    if not out:
        raise ValueError("the file holds no Asian-English (AE) list")
    return [out[d] for d in sorted(out)]
