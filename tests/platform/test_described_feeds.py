"""Feeds declared from their description (`platform/feeds/described.py`): the facts in
`data/<service>/feeds.toml`, the code in the service's `feeds.py`. A description that does not
read fails at import, naming the file, the feed and the key; every table describes a declared
feed, and every declared feed is its table."""

from __future__ import annotations

import tomllib
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from twlookup.cli_feeds import declared_feeds
from twlookup.domain import release_import
from twlookup.platform.feeds import Part, PartsContext, declared_feed
from twlookup.platform.feeds.described import FeedDescriptionError, duration
from twlookup.services.cardgame import feeds as cardgame
from twlookup.services.cardgame import parsers as cardgame_parsers
from twlookup.services.creator import feeds as creator
from twlookup.services.creator import parsers as creator_parsers
from twlookup.services.food import feeds as food
from twlookup.services.food import parsers as food_parsers
from twlookup.services.games import feeds as games
from twlookup.services.life import feeds as life
from twlookup.services.life import parsers as life_parsers
from twlookup.services.models import feeds as models
from twlookup.services.models import parsers as models_parsers
from twlookup.services.motion import feeds as motion
from twlookup.services.movie import feeds as movie
from twlookup.services.opinions import feeds as opinions
from twlookup.services.opinions.parsers import foreign, mobile01, taiwan
from twlookup.services.price import feeds as price
from twlookup.services.price import parsers as price_parsers
from twlookup.services.seo import feeds as seo
from twlookup.services.seo import parsers as seo_parsers
from twlookup.services.stocks import feeds as stocks
from twlookup.services.stocks import parsers as stocks_parsers
from twlookup.services.trip import feeds as trip
from twlookup.services.trip import parsers as trip_parsers

DATA = Path(__file__).resolve().parents[2] / "data"
FACTS = """
title = "Tide tables"
publisher = "Harbour office"
format = "CSV"
licence = "CC0"
page = "https://example.org/tides"
changes = "daily"
"""


def no_import(_session: Any, _path: Path) -> int:
    return 0


def described(tmp_path: Path, text: str) -> Path:
    """A data folder whose `harbour` service describes its feeds with `text`."""
    (tmp_path / "harbour").mkdir()
    (tmp_path / "harbour" / "feeds.toml").write_text(text, encoding="utf-8")
    return tmp_path


def refused(data: Path, name: str = "tides", **code: Any) -> str:
    with pytest.raises(FeedDescriptionError) as caught:
        declared_feed("harbour", name, importer=no_import, data=data, **code)
    return str(caught.value)


def test_a_described_feed_takes_its_facts_from_the_table_and_its_code_from_the_call(tmp_path):
    data = described(
        tmp_path,
        "[tides]"
        + FACTS
        + 'every = "6h"\nstale_after = "64d"\nstale_by = "check"\nurls = ["https://example.org/tides.csv"]\n'
        + '[[tides.parts]]\nkey = "all"\nurl = "https://example.org/tides.csv"\nfilename = "tides.csv"\n'
        + "publisher_name = true\n",
    )
    feed = declared_feed("harbour", "tides", importer=no_import, data=data)
    assert (feed.full_name, feed.title, feed.licence, feed.importer) == (
        "harbour.tides",
        "Tide tables",
        "CC0",
        no_import,
    )
    assert (feed.every, feed.stale_after, feed.stale_by) == (timedelta(hours=6), timedelta(days=64), "check")
    assert feed.urls == ("https://example.org/tides.csv",)
    assert (feed.history, feed.ingest_hint, feed.default_part) == (False, "FILE", "file")  # Feed's defaults
    assert feed.parts is not None
    [part] = feed.parts(PartsContext(today=date(2026, 1, 1), session=None))
    assert part == Part("all", "https://example.org/tides.csv", "tides.csv", publisher_name=True)


def test_a_fixed_part_gets_its_fetch_from_the_code(tmp_path):
    data = described(
        tmp_path, "[tides]" + FACTS + '[[tides.parts]]\nkey = "all"\nurl = "https://x.test/"\nfilename = "t"\n'
    )

    def fetch(_fetcher: Any, _part: Part) -> Any:
        raise AssertionError("not called")

    feed = declared_feed("harbour", "tides", importer=no_import, fetch={"all": fetch}, data=data)
    assert feed.parts is not None
    assert feed.parts(PartsContext(today=date(2026, 1, 1), session=None))[0].fetch is fetch
    where = f"{data / 'harbour' / 'feeds.toml'}: feed 'tides'"
    assert refused(data, fetch={"al": fetch}) == f"{where}: a fetch for al, which is no fixed part of it"
    assert refused(data, parts=lambda _ctx: []) == (
        f"{where}: key 'parts': fixed here and listed by a function in code; keep one"
    )


def test_an_unknown_key_is_refused(tmp_path):
    data = described(tmp_path, "[tides]" + FACTS + 'tittle = "Tide tables"\n')
    assert refused(data) == f"{data / 'harbour' / 'feeds.toml'}: feed 'tides': unknown key 'tittle'"


def test_a_missing_key_is_refused(tmp_path):
    data = described(tmp_path, "[tides]" + FACTS.replace('licence = "CC0"\n', ""))
    assert refused(data) == f"{data / 'harbour' / 'feeds.toml'}: feed 'tides': missing key 'licence'"


def test_a_bad_duration_is_refused(tmp_path):
    data = described(tmp_path, "[tides]" + FACTS + 'stale_after = "1.5d"\n')
    assert refused(data) == (
        f"{data / 'harbour' / 'feeds.toml'}: feed 'tides': key 'stale_after': '1.5d' is not a duration like 6h "
        "or 64d (a whole number of hours or days)"
    )


def test_a_missing_table_is_refused(tmp_path):
    data = described(tmp_path, "[tide]" + FACTS)
    assert refused(data) == f"{data / 'harbour' / 'feeds.toml'}: feed 'tides': no [tides] table"
    assert refused(tmp_path / "elsewhere") == f"{tmp_path / 'elsewhere' / 'harbour' / 'feeds.toml'}: no such file"


def test_a_value_of_the_wrong_kind_is_refused(tmp_path):
    data = described(
        tmp_path,
        "[tides]"
        + FACTS
        + 'history = "yes"\n[bad_by]'
        + FACTS
        + 'stale_by = "day"\n[part]'
        + FACTS
        + "[[part.parts]]\n"
        'key = "all"\nurl = "https://x.test/"\n',
    )
    where = data / "harbour" / "feeds.toml"
    assert refused(data) == f"{where}: feed 'tides': key 'history': expected bool, got 'yes'"
    assert refused(data, "bad_by") == f"{where}: feed 'bad_by': key 'stale_by': 'day' is neither 'data' nor 'check'"
    assert refused(data, "part") == f"{where}: feed 'part': parts[0]: missing key 'filename'"


@pytest.mark.parametrize("text", ["6", "6 h", "6H", "1.5d", "0d", "06h", "30m", "", "-1d", "1w"])
def test_durations_are_whole_hours_or_days_only(text):
    with pytest.raises(ValueError, match="is not a duration like 6h or 64d"):
        duration(text)


def test_durations():
    assert duration("6h") == timedelta(hours=6)
    assert duration("64d") == timedelta(days=64)
    assert duration("1d") == timedelta(days=1)


def tables() -> dict[str, dict[str, Any]]:
    """Every table of every service's feeds.toml, by SERVICE.FEED."""
    found = {}
    for path in sorted(DATA.glob("*/feeds.toml")):
        with path.open("rb") as file:
            for name, table in tomllib.load(file).items():
                found[f"{path.parent.name}.{name}"] = table
    return found


def test_every_table_describes_a_declared_feed_and_every_feed_is_described():
    described_names, declared = set(tables()), set(declared_feeds())
    assert described_names - declared == set(), "tables no feed declares (orphans)"
    assert declared - described_names == set(), "feeds without a table in their service's feeds.toml"


def test_every_declared_feed_states_what_its_table_says():
    """A feed built by hand beside its table (a `Feed(...)` in a service) would say its own thing."""
    for full_name, feed in declared_feeds().items():
        table = tables()[full_name]
        for key, value in table.items():
            if key == "parts":
                continue
            stated = getattr(feed, key)
            if isinstance(stated, timedelta):
                assert stated == duration(value), (full_name, key)
            else:
                assert stated == (tuple(value) if isinstance(value, list) else value), (full_name, key)


def test_what_the_code_also_states_agrees_with_the_description():
    """Records cite their feed's title, page and licence, and the code fetches or recognises some
    of the URLs; those live in the services' code as well as in feeds.toml, and must not drift."""

    def part_urls(feed: Any) -> list[str]:
        return [p.url for p in feed.parts(PartsContext(today=date(2026, 3, 1), session=None))]

    assert part_urls(life.INVOICE) == [life_parsers.INVOICE_FEED]
    assert life.LOTTERY.urls == tuple(
        life_parsers.LOTTERY_API.format(name=api) + "?period&month=YYYY-MM&pageNum=1&pageSize=50"
        for _game, api in life_parsers.LOTTERY_KEYS.values()
    )
    assert (trip.FX.title, trip.FX.page) == (trip_parsers.BOARD_TITLE, trip_parsers.BOARD_URL)
    assert (models.CLAUDE.licence, models.CLAUDE.page) == (models_parsers.LICENCE, models_parsers.PAGE)
    assert (price.DAILY.title, price.DAILY.licence) == (price_parsers.FEED_TITLE, price_parsers.FEED_LICENCE)
    assert price.DAILY.urls[0].startswith(price_parsers.FEED_URL + "?")
    assert seo.AIROBOTS.page == seo_parsers.REPO
    assert part_urls(seo.AIROBOTS) == list(seo.AIROBOTS.urls) == [seo_parsers.RAW_URL]
    assert (cardgame.BANLIST.title, cardgame.BANLIST.page) == (
        cardgame_parsers.PAGE_TITLE,
        cardgame_parsers.PAGE_URL,
    )
    assert part_urls(cardgame.BANLIST) == list(cardgame.BANLIST.urls) == [cardgame_parsers.PAGE_URL]
    assert food.OVERPASS.licence == food.PBF.licence == food_parsers.ODBL
    assert food.OVERPASS.urls == (f"{food.OVERPASS_SERVER}?data={food.OVERPASS_QUERY}",)
    assert creator.COMPANIES.licence.startswith(creator_parsers.LICENCE + " ")
    assert creator.COMPANIES.urls[0].startswith(creator_parsers.GCIS_COMPANY + "?")
    assert [opinions.HN.licence, opinions.PTT.licence, opinions.DCARD.licence, opinions.MOBILE01.licence] == [
        foreign.HN_LICENCE,
        taiwan.PTT_LICENCE,
        taiwan.DCARD_LICENCE,
        mobile01.LICENCE,
    ]
    assert motion.LIBRARIES.urls == (motion.NPM_LATEST,)
    assert stocks.CLOSES.urls == tuple(f.url for f in stocks_parsers.FEEDS)
    for wikidata in (movie.WIKIDATA, games.WIKIDATA):
        assert wikidata.urls[0].startswith(release_import.ENDPOINT + "?query=")
