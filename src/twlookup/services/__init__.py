"""The service list: all twenty of the spec, and the packages of those implemented so far.

Adding a service: create its package with `SERVICE = Service(...)` and add its name to
IMPLEMENTED. The platform never imports a service; only this list and the app do.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from twlookup.platform.service import Service


@dataclass(frozen=True)
class Entry:
    name: str
    subject: str


CATALOG = [
    Entry("opinions", "Human-written product opinions: Taiwan reviews, foreign discussion, AI-text check"),
    Entry("sports", "Sports events, calendar, Taiwan broadcast platforms, countdowns"),
    Entry("glossary", "AI glossary terms, comparisons, how-tos, search-intent classification"),
    Entry("movie", "Film, series and anime release data, calendar, delays, countdowns"),
    Entry("games", "Video game release data, calendar, delays, countdowns"),
    Entry("seo", "Search URLs and operators, robots.txt, crawler checks, SERP preview, meta tags"),
    Entry("food", "Meal draw with a deity theme, fortune poem, dish and nearby open restaurants"),
    Entry("trip", "Exchange rates, conversion, entry preparation, destinations, eSIM, holidays"),
    Entry("motion", "Web animation generators: easing, spring, keyframes, gradient, video command"),
    Entry("creator", "Compliance helpers for group-buy creators: ad wording, profit, tax, withholding"),
    Entry("health", "Counseling, weight-loss drugs, cancer diet and screening, BP and glucose checks"),
    Entry("wellness", "Telehealth eligibility, mood/PHQ-9/GAD-7 self-scoring, sleep, breathing, crisis lines"),
    Entry("stocks", "Taiwan stock themes, daily closes, high-dividend ETF payouts"),
    Entry("life", "Holidays, lottery draws and checks, receipt lottery, fuel prices"),
    Entry("holiday", "2027 long weekends, leave planning, destination holidays and crowds, flight timing"),
    Entry("price", "Price tracking in New Taiwan dollars, updated daily"),
    Entry("share", "Rankings of videos and posts that Taiwan users share"),
    Entry("bikes", "Classic two-stroke motorcycles: specs, parts, maintenance, sale prices"),
    Entry("cardgame", "English beginner guide of a card game: chapters, glossary, ban list, FAQ"),
    Entry("models", "Retirement and replacement schedule of AI models"),
]

IMPLEMENTED = ["health", "holiday", "life", "models", "price", "stocks", "trip", "wellness"]


def load_services() -> list[Service]:
    return [importlib.import_module(f"twlookup.services.{name}").SERVICE for name in IMPLEMENTED]


def load_tables() -> None:
    """Import every implemented service's tables so that their metadata is complete."""
    import twlookup.platform.payments.ledger  # noqa: F401
    import twlookup.platform.store.meta  # noqa: F401
    import twlookup.domain.taiwan_calendar_tables  # noqa: F401

    for name in IMPLEMENTED:
        importlib.import_module(f"twlookup.services.{name}.tables")
