"""Mobile01 topic pages: the parser on a fixture in the page's structure (as open-source Mobile01
scrapers read it; the words and handles are invented and marked 測試用範例), the importer, and the
weekly refresh of stored topics against www.mobile01.com mocked with respx."""

from datetime import date, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import respx
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.platform.feeds.download import Bounds
from twlookup.platform.feeds.run import Refresher, Store
from twlookup.services.opinions import operations
from twlookup.services.opinions.data import _load, import_mobile01, mobile01_holds
from twlookup.services.opinions.feeds import MOBILE01
from twlookup.services.opinions.parsers.mobile01 import parse_mobile01
from twlookup.services.opinions.tables import ThreadRow

FIX = Path(__file__).parent / "fixtures"
PAGE = FIX / "mobile01-291-9000001.html"
TOPIC = "https://www.mobile01.com/topicdetail.php?f=291&t=9000001"
CHECKED = date(2026, 11, 26)
NEXT_PAGE = '<ul class="l-pagination"><li><a href="topicdetail.php?f=291&amp;t=9000001&amp;p=2">2</a></li></ul></body>'
FOURTH = """<div class="l-articlePage"><div class="l-articlePage__author"><div class="c-authorInfo">
<div class="c-authorInfo__id"><a href="userinfo.php?id=9000004" class="c-link c-link--gn u-ellipsis">測試第四人</a></div>
</div></div><div class="l-articlePage__publish"><div class="l-navigation"><div class="l-navigation__item">
<span class="o-fNotes o-fSubMini">2025-03-04 09:00</span><span class="o-fNotes o-fSubMini">#4</span></div></div>
<div class="u-gapBottom--max c-articleLimit"><article id="article_90000004">測試回覆：不大聲。</article></div></div></div>
</body>"""


def html() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_topic_page_gives_title_handle_time_quote_and_link():
    t = parse_mobile01(PAGE.read_bytes(), CHECKED, PAGE.name)
    assert t.id == "mobile01:291:9000001" and t.community == "mobile01" and t.site == "mobile01.com/topiclist.php?f=291"
    assert t.url == TOPIC and t.source == TOPIC and t.title == "測試用範例：掃地機器人用了半年的心得"
    assert t.author == "測試樓主"  # the handle as the floor shows it, not the user number
    assert t.created == datetime(2025, 3, 2, 13, 15)  # 21:15 in Taiwan, kept as naive UTC
    assert t.quote.startswith("（測試用範例文字") and "RV-900" in t.quote and "門檻 2 公分" in t.quote
    assert "adSlot" not in t.quote and "我的也是" not in t.quote  # no script, no other floor
    assert (t.comments, t.score) == (2, None)  # the last floor is #3 and there is no later page; no votes shown
    assert t.licence.startswith("Copyright of the authors (Mobile01)") and t.summary is None


def test_quoted_floors_are_not_the_authors_words_and_later_pages_leave_the_count_unknown():
    quoted = html().replace("（測試用範例文字", "<blockquote>別人說：測試引用</blockquote>（測試用範例文字", 1)
    t = parse_mobile01(quoted.encode(), CHECKED, PAGE.name)
    assert "測試引用" not in t.quote and t.quote.startswith("（測試用範例文字")
    longer = parse_mobile01(html().replace("</body>", NEXT_PAGE).encode(), CHECKED, "saved.html")
    assert longer.comments is None and longer.id == "mobile01:291:9000001"  # the numbers from the page links


@pytest.mark.parametrize(
    ("page", "name", "words"),
    [
        (
            b"<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
            "x.html",
            "browser check",
        ),
        (None, "saved.html", "mobile01-<f>-<t>.html"),  # one page, no link to tell the topic by
        (None, "mobile01-291-9000001-p2.html", "first page"),
        ("other", PAGE.name, "not f=291&t=9000001"),
        (b"\xff\xfe", PAGE.name, "UTF-8"),
    ],
)
def test_what_is_not_a_topics_first_page_is_refused(page, name, words):
    if page is None:
        raw = html().encode()
    elif page == "other":
        raw = html().replace("</body>", NEXT_PAGE.replace("t=9000001", "t=9000777")).encode()
    else:
        raw = page
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_mobile01(raw, CHECKED, name)


def test_a_page_whose_first_floor_is_a_reply_is_refused():
    page = html()
    start = page.index('<div class="l-articlePage">')
    second = page.index('<div class="l-articlePage">', start + 1)
    with pytest.raises(ValueError, match=r"starts at floor #2"):
        parse_mobile01((page[:start] + '<h1 class="t2">x</h1>' + page[second:]).encode(), CHECKED, PAGE.name)


@pytest.fixture
def store_url(tmp_path):
    url = f"sqlite:///{tmp_path}/opinions.db"
    ensure_ready(url, DEFAULT_DATA)
    return url


def test_importer_stores_it_under_its_topic_with_the_same_credibility(store_url):
    engine = create_engine(store_url)
    with Session(engine) as session:
        assert import_mobile01(session, PAGE) == 1
        session.commit()
        store = _load(session)
        assert "Mobile01 topic" in mobile01_holds(session)
    engine.dispose()
    t = store.threads["mobile01:291:9000001"]
    assert "robot-vacuums" in t.topics  # 掃地機器人 in the title
    item = operations.thread_item(t, CHECKED)
    assert item.author == "測試樓主" and item.link == TOPIC and item.quote == t.quote
    parts = {p.name: p for p in item.credibility.parts}
    assert "age" not in parts and "own text" in parts["ai_check"].why  # the AI check reads the post's own words


def _refresh(url: str, router_setup) -> list:
    engine = create_engine(url)
    refresher = Refresher(
        bounds=Bounds(retries=0), lease=timedelta(minutes=5), sleep=lambda _s: None, store=Store(engine=engine)
    )
    with respx.mock(assert_all_called=True) as router:
        route = router_setup(router)
        outcomes = refresher.refresh(MOBILE01)
    with Session(engine) as session:
        row = session.get(ThreadRow, "mobile01:291:9000001")
        comments, summary = row.comments, row.summary
    engine.dispose()
    return outcomes, route, comments, summary


def test_refresh_reads_each_stored_topic_again(store_url):
    engine = create_engine(store_url)
    with Session(engine) as session:
        assert MOBILE01.parts is not None
        import_mobile01(session, PAGE)
        row = session.get(ThreadRow, "mobile01:291:9000001")
        row.summary = "本站寫的摘要"  # what the site wrote stays through a refresh
        row.checked = date(2026, 1, 1)
        session.commit()
    engine.dispose()
    grown = html().replace("</body>", FOURTH).encode()
    outcomes, route, comments, summary = _refresh(
        store_url, lambda r: r.get(TOPIC).mock(return_value=httpx.Response(200, content=grown))
    )
    assert [(o.part, o.outcome) for o in outcomes] == [("291-9000001", "imported")]
    assert str(route.calls[0].request.url) == TOPIC
    assert (comments, summary) == (3, "本站寫的摘要")


def test_refresh_refused_by_a_browser_check_keeps_the_stored_copy(store_url):
    engine = create_engine(store_url)
    with Session(engine) as session:
        import_mobile01(session, PAGE)
        session.commit()
    engine.dispose()
    challenge = httpx.Response(403, text="<html><title>Just a moment...</title></html>")
    outcomes, _, comments, _ = _refresh(store_url, lambda r: r.get(TOPIC).mock(return_value=challenge))
    assert [o.outcome for o in outcomes] == ["failed"] and "403" in outcomes[0].message
    assert comments == 2
    page = httpx.Response(200, text="<html><title>Just a moment...</title><body>Checking your browser</body></html>")
    outcomes, _, comments, _ = _refresh(store_url, lambda r: r.get(TOPIC).mock(return_value=page))
    assert [o.outcome for o in outcomes] == ["failed"] and "browser check" in outcomes[0].message
    assert comments == 2


def test_nothing_stored_means_nothing_to_fetch(store_url):
    engine = create_engine(store_url)
    with Session(engine) as session:
        assert "no Mobile01 topic yet" in mobile01_holds(session)
        refresher = Refresher(bounds=Bounds(retries=0), lease=timedelta(minutes=5), store=Store(engine=engine))
        assert refresher.parts(MOBILE01) == []
    engine.dispose()
