"""The movie service's operations: thin adapters from parameters to the shared tracker and logic."""

from __future__ import annotations

from datetime import date

from twlookup.domain.knowledge_base import Domain
from twlookup.domain.release_dates import month_bounds, parse_when
from twlookup.domain.release_operations import declare_delays, declare_lookup_and_watchlist
from twlookup.domain.release_ops import Tracker, countdown_out, item_countdown, release_answer
from twlookup.domain.release_schemas import MonthQuery, NameQuery
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.movie import logic
from twlookup.services.movie.data import CATALOGUE
from twlookup.services.movie.feeds import WIKIDATA
from twlookup.services.movie.records import Title
from twlookup.services.movie.schemas import (
    Calendar,
    CalendarRelease,
    Export,
    ListQuery,
    Region,
    TitleCountdown,
    TitleDetail,
    TitleList,
    TitleOut,
)

SERVICE = Service(
    name="movie",
    title="Film, series and anime release tracker",
    description=(
        "Release dates of films, series and anime with the Taiwan date where it differs from the "
        "origin's, the platform (cinema or streaming service), every delay with its source, "
        "countdowns in Taiwan time, and a Wikidata and Wikipedia lookup of any title."
    ),
    cors=True,
    network="testnet",
)
SERVICE.feed(WIKIDATA)  # films and series from Wikidata's SPARQL endpoint (twlookup refresh movie.wikidata)
add_status_route(SERVICE)

DOMAIN = Domain(
    name="movie",
    # Direct "instance of" (P31) classes preferred among the search's candidates. Each id was checked on
    # 2026-11-23 against stored public code that names Wikidata classes (search tool, find_string):
    #   Q11424 film, Q24869 feature film, Q202866 animated film, Q5398426 television series,
    #   Q1259759 miniseries, Q63952888 anime television series, Q20650540 anime film: labelled so in
    #   several independent class tables (one comment calls Q20650540 "adult animation film"; a
    #   README linking https://www.wikidata.org/wiki/Q20650540 calls it "anime film").
    classes=frozenset({"Q11424", "Q24869", "Q202866", "Q5398426", "Q1259759", "Q63952888", "Q20650540"}),
    keywords=("film", "movie", "series", "anime", "電影", "影集", "電視劇", "動畫", "电影", "电视剧"),
    properties={
        "P577": "publication date",
        "P57": "director",
        "P136": "genre",
        "P449": "original broadcaster",
        "P750": "distributor",
        "P272": "production company",
        "P495": "country of origin",
    },
)


def title_out(title: Title, today: date) -> TitleOut:
    when = logic.taiwan_when(title)
    state = logic.state(title, today)
    return release_answer(
        title,
        when,
        today,
        TitleOut,
        delays=title.delays,
        confirmed_by=title.release_confirmed_by,
        release_in_taiwan=when.text,
        state=state.state,
        released=state.released,
    )


def _countdown(title: Title, today: date) -> TitleCountdown:
    counts_to = "Taiwan release" if title.taiwan_release else "release"
    region = "TW" if title.taiwan_release else "origin"
    return item_countdown(title, logic.taiwan_when(title), today, counts_to, TitleCountdown, region=region)


TRACKER = Tracker(
    CATALOGUE,
    DOMAIN,
    "title",
    title_out,
    lambda title, today: countdown_out(logic.taiwan_when(title), today, "release"),
    logic.sort_key,
)


@SERVICE.operation("GET", "/api/titles", tool="list_titles")
def list_titles(p: ListQuery) -> TitleList:
    """List titles by the release that applies in Taiwan, filtered by type, platform keyword and upcoming;
    each says its state today (upcoming, window-open, released, overdue, tba) and why."""
    today = today_taipei()
    titles = [
        t
        for t in TRACKER.items()
        if (p.type is None or t.type == p.type)
        and (p.platform is None or logic.platform_matches(t, p.platform))
        and (not p.upcoming or logic.is_upcoming(t, today))
    ]
    return TitleList(as_of=today, count=len(titles), titles=TRACKER.answers(titles, today))


@SERVICE.operation("GET", "/api/title", tool="get_title")
def get_title(p: NameQuery) -> TitleDetail:
    """One title by id or name (English or Chinese): releases, platform, delays, source, countdown."""
    return TRACKER.detail(p.q, today_taipei(), TitleDetail, _countdown)


@SERVICE.operation("GET", "/api/calendar", tool="release_calendar")
def release_calendar(p: MonthQuery) -> Calendar:
    """Releases in one month (YYYY-MM): Taiwan and origin release days, and windows overlapping it."""
    today = today_taipei()
    first, last = month_bounds(p.month)
    releases: list[tuple[date, str, Region, TitleOut]] = []
    windows: list[TitleOut] = []
    for title in TRACKER.items():
        out = None
        regions: tuple[tuple[Region, str | None], ...] = (("TW", title.taiwan_release), ("origin", title.release))
        for region, text in regions:
            if text is None:
                continue
            when = parse_when(text)
            if when.exact and when.earliest and first <= when.earliest <= last:
                out = out or title_out(title, today)
                releases.append((when.earliest, title.id, region, out))
            elif (
                not when.exact and when.overlaps(first, last) and region == ("TW" if title.taiwan_release else "origin")
            ):
                windows.append(out or title_out(title, today))
    releases.sort(key=lambda r: r[:3])
    return Calendar(
        as_of=today,
        month=p.month,
        count=len(releases),
        releases=[CalendarRelease(date=day, region=region, title=out) for day, _, region, out in releases],
        windows=windows,
    )


declare_delays(SERVICE, TRACKER, module=__name__, tool="schedule_changes")


@SERVICE.operation("GET", "/api/countdown", tool="release_countdown")
def release_countdown(p: NameQuery) -> TitleCountdown:
    """Whole days (Asia/Taipei) to a title's release in Taiwan (the origin's where Taiwan has none);
    once the date has passed, no countdown but the days since it."""
    title, _how = TRACKER.find(p.q)
    return _countdown(title, today_taipei())


declare_lookup_and_watchlist(
    SERVICE,
    TRACKER,
    TitleOut,
    module=__name__,
    lookup_tool="lookup_any_title",
    lookup_doc="""Look any film, series or anime up in Wikidata and Wikipedia (release dates, director, genre,
broadcaster, distributor, official site), in the catalogue or not. 503 when Wikidata cannot be
reached and the store has no cached answer.""",
    plural="titles",
    watchlist_example="avengers-doomsday",
)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """Every title with its releases, platform, delay history and sources."""
    today, titles = today_taipei(), TRACKER.items()
    return Export(as_of=today, count=len(titles), titles=TRACKER.answers(titles, today))
