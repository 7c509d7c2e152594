"""The service list: all twenty of the spec, and the packages of those implemented so far.

Adding a service: create its package, declare `SERVICE = Service(...)` in its `operations`, its
seeders as `SEEDERS` in its `data` module, and add its name to IMPLEMENTED. The platform never
imports a service; only this list and the app do. A package's `__init__` imports nothing, so the
seed (tables and data modules) runs without the serving code (operations, schemas, FastAPI).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the list itself is read without importing the platform (e.g. by `serve`'s parent)
    from collections.abc import Sequence

    from twlookup.platform.service import Service
    from twlookup.platform.store.seed import Seeder


@dataclass(frozen=True)
class Entry:
    name: str
    subject: str
    zh: str = ""  # the service's name in Traditional Chinese, shown on the HTML pages
    # its queries are kept out of logs (the spec: "queries are not stored"); known here, before the
    # service is loaded, so that the access log's filter is in place from the start; a service
    # whose declaration (`Service(private=...)`) disagrees does not load (twlookup/service_slots.py)
    private: bool = False


CATALOG = [
    Entry("opinions", "Human-written product opinions: Taiwan reviews, foreign discussion, AI-text check", "產品口碑"),
    Entry("sports", "Sports events, calendar, Taiwan broadcast platforms, countdowns", "運動賽事"),
    Entry("glossary", "AI glossary terms, comparisons, how-tos, search-intent classification", "AI 詞彙"),
    Entry("movie", "Film, series and anime release data, calendar, delays, countdowns", "影劇上映"),
    Entry("games", "Video game release data, calendar, delays, countdowns", "遊戲發售"),
    Entry("seo", "Search URLs and operators, robots.txt, crawler checks, SERP preview, meta tags", "搜尋優化工具"),
    Entry("food", "Meal draw with a deity theme, fortune poem, dish and nearby open restaurants", "今天吃什麼"),
    Entry("trip", "Exchange rates, conversion, entry preparation, destinations, eSIM, holidays", "出國旅遊"),
    Entry("motion", "Web animation generators: easing, spring, keyframes, gradient, video command", "網頁動畫產生器"),
    Entry("creator", "Compliance helpers for group-buy creators: ad wording, profit, tax, withholding", "團購主合規"),
    Entry(
        "health",
        "Counseling, weight-loss drugs, cancer diet and screening, BP and glucose checks",
        "健康資訊",
        private=True,
    ),
    Entry(
        "wellness",
        "Telehealth eligibility, mood/PHQ-9/GAD-7 self-scoring, sleep, breathing, crisis lines",
        "身心健康",
        private=True,
    ),
    Entry("stocks", "Taiwan stock themes, daily closes, high-dividend ETF payouts", "台股資訊"),
    Entry("life", "Holidays, lottery draws and checks, receipt lottery, fuel prices", "生活查詢"),
    Entry(
        "holiday", "2027 long weekends, leave planning, destination holidays and crowds, flight timing", "2027 連假規劃"
    ),
    Entry("price", "Price tracking in New Taiwan dollars, updated daily", "物價追蹤"),
    Entry("share", "Rankings of videos and posts that Taiwan users share", "熱門分享排行"),
    Entry("bikes", "Classic two-stroke motorcycles: specs, parts, maintenance, sale prices", "經典二行程機車"),
    Entry("cardgame", "English beginner guide of a card game: chapters, glossary, ban list, FAQ", "卡牌遊戲入門"),
    Entry("models", "Retirement and replacement schedule of AI models", "AI 模型退役時程"),
]

IMPLEMENTED = [
    "bikes",
    "cardgame",
    "creator",
    "food",
    "games",
    "glossary",
    "health",
    "holiday",
    "life",
    "models",
    "motion",
    "movie",
    "opinions",
    "price",
    "seo",
    "share",
    "sports",
    "stocks",
    "trip",
    "wellness",
]


# The services a new SQLite store's seed hands to a helper process (platform/store/seed_shared.py):
# about half of the seed's work, measured by CPU time (the glossary's search index is most of that;
# with the tables created in one transaction the helper had time to spare, and price's 2,300
# observations balance it). Which ones changes only the speed of a cold start; a service whose
# seeders another service also runs stays with the main process.
SEED_HELPER = ("glossary", "stocks", "opinions", "price")


def load_service(name: str) -> Service:
    """The service declared in `twlookup.services.<name>.operations` (importing it)."""
    service: Service = importlib.import_module(f"twlookup.services.{name}.operations").SERVICE
    return service


def load_services() -> list[Service]:
    return [load_service(name) for name in IMPLEMENTED]


def load_seeders() -> dict[str, Sequence[Seeder]]:
    """Every implemented service's seeders (its data module's SEEDERS), by service name, in the
    list's order; importing them imports no operation, schema or web framework."""
    return {name: importlib.import_module(f"twlookup.services.{name}.data").SEEDERS for name in IMPLEMENTED}


def load_tables() -> None:
    """Import every implemented service's tables (those with a tables module) and the shared ones,
    so that their metadata is complete."""
    import twlookup.domain.model_lifecycle_tables
    import twlookup.domain.release_tables  # the release trackers' Wikidata imports and lookup cache
    import twlookup.domain.search_tables
    import twlookup.domain.taiwan_calendar_tables
    import twlookup.platform.payments.ledger_tables
    import twlookup.platform.review
    import twlookup.platform.store.feed_tables
    import twlookup.platform.store.meta  # noqa: F401

    for name in IMPLEMENTED:
        if importlib.util.find_spec(f"twlookup.services.{name}.tables") is not None:
            importlib.import_module(f"twlookup.services.{name}.tables")


def upgrade_store(url: str) -> bool:
    """Bring the store at `url` to the latest schema: an empty store gets every table at once,
    stamped at the migrations' head (True: a new store); any other is migrated by Alembic
    (platform/store/migrate.py)."""
    from twlookup.platform.store.migrate import upgrade

    return upgrade(url, load_tables)
