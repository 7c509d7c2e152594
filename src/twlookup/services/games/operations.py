"""The games service's operations: thin adapters from parameters to the shared tracker and logic."""

from __future__ import annotations

from collections import Counter
from datetime import date

from twlookup.domain.knowledge_base import Domain
from twlookup.domain.release_dates import month_bounds, parse_when
from twlookup.domain.release_operations import declare_delays, declare_lookup_and_watchlist
from twlookup.domain.release_ops import Tracker, countdown_out, item_countdown, release_answer
from twlookup.domain.release_schemas import MonthQuery, NameQuery
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.games import logic
from twlookup.services.games.data import CATALOGUE
from twlookup.services.games.feeds import WIKIDATA
from twlookup.services.games.records import Game
from twlookup.services.games.schemas import (
    Calendar,
    CalendarEntry,
    Export,
    GameCountdown,
    GameDetail,
    GameList,
    GameOut,
    ListQuery,
)

SERVICE = Service(
    name="games",
    title="Video game release tracker",
    description=(
        "Release dates of video games at the precision announced (exact date, window or tba), per "
        "platform, with the history of every delay, countdowns in Taiwan time, and a Wikidata and "
        "Wikipedia lookup of any game. Every game names the publisher's or platform holder's source."
    ),
    cors=True,
    network="testnet",
)
SERVICE.feed(WIKIDATA)  # video games from Wikidata's SPARQL endpoint (twlookup refresh games.wikidata)
add_status_route(SERVICE)

DOMAIN = Domain(
    name="games",
    # Q7889 video game: checked on 2026-11-23 against stored public code that names Wikidata classes
    # (search tool, find_string): labelled "video game" in several independent class tables.
    classes=frozenset({"Q7889"}),
    keywords=("video game", "電子遊戲", "遊戲", "电子游戏", "game"),
    properties={
        "P577": "publication date",
        "P400": "platform",
        "P178": "developer",
        "P123": "publisher",
        "P136": "genre",
    },
)


def game_out(game: Game, today: date) -> GameOut:
    return release_answer(
        game,
        parse_when(game.release),
        today,
        GameOut,
        delays=game.delays,
        confirmed_by=game.release_confirmed_by,
        status=logic.status(game, today),
    )


def _countdown(game: Game, today: date) -> GameCountdown:
    return item_countdown(
        game, parse_when(game.release), today, "release", GameCountdown, status=logic.status(game, today)
    )


TRACKER = Tracker(
    CATALOGUE,
    DOMAIN,
    "game",
    game_out,
    lambda game, today: countdown_out(parse_when(game.release), today, "release"),
    logic.release_sort_key,
)


@SERVICE.operation("GET", "/api/games", tool="list_games")
def list_games(p: ListQuery) -> GameList:
    """List games by release date, filtered by platform, status (from today's date: confirmed, window,
    tba, released, overdue) and upcoming (still to come)."""
    today = today_taipei()
    games = [
        g
        for g in TRACKER.items()
        if (p.platform is None or p.platform in g.platforms)
        and (p.status is None or logic.status(g, today) == p.status)
        and (not p.upcoming or logic.state(g, today).upcoming)
    ]
    return GameList(
        as_of=today,
        count=len(games),
        counts_by_status=dict(Counter(logic.status(g, today) for g in games)),
        games=TRACKER.answers(games, today),
    )


@SERVICE.operation("GET", "/api/game", tool="get_game")
def get_game(p: NameQuery) -> GameDetail:
    """One game by id or name (English or Chinese): platforms, release, delays, source, countdown."""
    return TRACKER.detail(p.q, today_taipei(), GameDetail, _countdown)


@SERVICE.operation("GET", "/api/calendar", tool="release_calendar")
def release_calendar(p: MonthQuery) -> Calendar:
    """Games released in one month (YYYY-MM) by day, and games announced for a window overlapping it."""
    today = today_taipei()
    first, last = month_bounds(p.month)
    days: dict[date, list[GameOut]] = {}
    windows: list[GameOut] = []
    for game in TRACKER.items():
        when = parse_when(game.release)
        if when.exact and when.earliest and first <= when.earliest <= last:
            days.setdefault(when.earliest, []).append(game_out(game, today))
        elif not when.exact and when.overlaps(first, last):
            windows.append(game_out(game, today))
    return Calendar(
        as_of=today,
        month=p.month,
        count=sum(len(v) for v in days.values()),
        days=[CalendarEntry(date=d, games=v) for d, v in sorted(days.items())],
        windows=windows,
    )


declare_delays(SERVICE, TRACKER, module=__name__, tool="delay_history")


@SERVICE.operation("GET", "/api/countdown", tool="release_countdown")
def release_countdown(p: NameQuery) -> GameCountdown:
    """Whole days (Asia/Taipei) to a game's release; a window counts to its earliest day; tba has none,
    and a passed date none either (the days since it instead)."""
    game, _how = TRACKER.find(p.q)
    return _countdown(game, today_taipei())


declare_lookup_and_watchlist(
    SERVICE,
    TRACKER,
    GameOut,
    module=__name__,
    lookup_tool="lookup_any_game",
    lookup_doc="""Look any game up in Wikidata and Wikipedia (release dates, platforms, developer, publisher,
genre, official site), in the catalogue or not. 503 when Wikidata cannot be reached and the
store has no cached answer.""",
    plural="games",
    watchlist_example="gta-6",
)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """Every game with its release, platforms, delay history and sources."""
    today, games = today_taipei(), TRACKER.items()
    return Export(as_of=today, count=len(games), games=TRACKER.answers(games, today))
