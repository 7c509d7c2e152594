"""Taiwan forums (PTT article pages, Dcard's post API) parsed from fixtures in their formats, their
importers, credibility that does not reward age, and the AI-text check's stated error rate.

The fixtures hold the sites' structure with invented test words and handles (marked 測試用範例 in
the files); they are never data and never shown as anyone's opinion."""

import importlib.util
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.services.opinions import operations
from twlookup.services.opinions.data import _load, import_dcard, import_ptt
from twlookup.services.opinions.logic import aicheck
from twlookup.services.opinions.parsers import taiwan
from twlookup.services.opinions.records import Thread

FIX = Path(__file__).parent / "fixtures"
CHECKED = date(2026, 11, 26)
API = "/opinions/api"

_spec = importlib.util.spec_from_file_location("opinions_calibration_f", Path(__file__).parent / "calibration.py")
_calibration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_calibration)


def test_ptt_article_page():
    t = taiwan.parse_ptt((FIX / "ptt-article.html").read_bytes(), CHECKED)
    assert t.id == "ptt:e-shopping:M.1678768496.A.ABC" and t.community == "ptt" and t.site == "ptt.cc/bbs/e-shopping"
    assert t.url == "https://www.ptt.cc/bbs/e-shopping/M.1678768496.A.ABC.html"
    assert t.title == "[心得] 測試用範例：電子書閱讀器用了一年"
    assert t.author == "testuser01"  # the id as PTT shows it, without the nickname
    # M.1678768496 = 2023-03-14 04:34:56 UTC = the 時間 line's 12:34:56 Taiwan time
    assert t.created == datetime(2023, 3, 14, 4, 34, 56)
    assert t.score == 1 and t.comments == 4  # 推 2 - 噓 1; four push lines
    assert "每天讀 2 小時" in t.quote and "KT-5000" in t.quote
    assert "引用別人" not in t.quote and "簽名檔" not in t.quote and "發信站" not in t.quote
    assert t.summary is None and t.stance == "unrated" and t.licence.startswith("Copyright of the authors (PTT)")


def test_ptt_refuses_what_is_not_an_article():
    with pytest.raises(ValueError, match="main-content"):
        taiwan.parse_ptt(b"<html><body><div id='main-content'>no meta</div></body></html>", CHECKED)
    page = (FIX / "ptt-article.html").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="文章網址"):
        taiwan.parse_ptt(page.replace("https://www.ptt.cc/bbs/e-shopping/", "https://example.org/").encode(), CHECKED)
    with pytest.raises(ValueError, match="does not match"):
        taiwan.parse_ptt(page.replace("Tue Mar 14 12:34:56 2023", "Tue Mar 14 12:34:56 2024").encode(), CHECKED)
    with pytest.raises(ValueError, match="UTF-8"):
        taiwan.parse_ptt(b"\xff\xfe", CHECKED)


def test_dcard_post_and_forum_list():
    (t,) = taiwan.parse_dcard((FIX / "dcard-post.json").read_bytes(), CHECKED)
    assert t.id == "dcard:900000001" and t.url == "https://www.dcard.tw/f/3c/p/900000001"
    assert t.author == "測試暱稱 @test_persona" and t.score == 34 and t.comments == 12
    assert t.created == datetime(2024, 5, 1, 3, 0) and "5200mAh" in t.quote
    (a,) = taiwan.parse_dcard((FIX / "dcard-forum-list.json").read_bytes(), CHECKED)
    assert a.author == "匿名" and a.quote.endswith("預算 3000 元以內")  # the list's excerpt, the author's words
    with pytest.raises(ValueError, match="not JSON"):
        taiwan.parse_dcard(b"<html>", CHECKED)
    with pytest.raises(ValueError, match="likeCount"):
        taiwan.parse_dcard(b'{"id": 1, "title": "t", "forumAlias": "3c", "createdAt": "2024-01-01T00:00:00Z"}', CHECKED)
    with pytest.raises(ValueError, match="createdAt"):
        taiwan.parse_dcard(
            b'{"id": 1, "title": "t", "forumAlias": "3c", "createdAt": "yesterday", "likeCount": 0, "commentCount": 0}',
            CHECKED,
        )


@pytest.fixture
def fresh_session(tmp_path):
    url = f"sqlite:///{tmp_path}/opinions.db"
    ensure_ready(url, DEFAULT_DATA)
    engine = create_engine(url)
    with Session(engine) as session:
        yield session
    engine.dispose()


def test_importers_store_handle_quote_and_topic(fresh_session):
    assert import_ptt(fresh_session, FIX / "ptt-article.html") == 1
    assert import_dcard(fresh_session, FIX / "dcard-post.json") == 1
    store = _load(fresh_session)
    ptt = store.threads["ptt:e-shopping:M.1678768496.A.ABC"]
    assert ptt.author == "testuser01" and "KT-5000" in ptt.quote
    assert "e-readers" in ptt.topics  # 電子書閱讀器 in the title
    dcard = store.threads["dcard:900000001"]
    assert "robot-vacuums" in dcard.topics and dcard.author == "測試暱稱 @test_persona"


def test_credibility_does_not_rise_with_age():
    thread = taiwan.parse_ptt((FIX / "ptt-article.html").read_bytes(), CHECKED)
    old = thread.model_copy(update={"created": datetime(2012, 1, 1)})
    new = thread.model_copy(update={"created": datetime(2026, 11, 1)})
    values = {
        operations.thread_item(t, today).credibility.value
        for t in (old, new)
        for today in (date(2026, 11, 26), date(2040, 1, 1))
    }
    assert len(values) == 1  # same post, any age, any day: the same value
    names = [p.name for p in operations.thread_item(old, date(2026, 11, 26)).credibility.parts]
    assert "age" not in names and "pre_ai" not in names


def test_text_checks_run_on_the_post_not_our_summary():
    t = Thread(
        id="hn:1",
        community="hackernews",
        site="news.ycombinator.com",
        title="A title",
        url="https://news.ycombinator.com/item?id=1",
        created=datetime(2020, 1, 1, tzinfo=UTC),
        score=0,
        comments=0,
        summary="As an AI language model, I hope this helps. In conclusion, a testament to delve.",
        source="https://news.ycombinator.com/item?id=1",
        checked=CHECKED,
    )
    parts = {p.name: p for p in operations.thread_item(t, CHECKED).credibility.parts}
    assert parts["ai_check"].points == 0 and "not stored" in parts["ai_check"].why  # the summary is not checked
    quoted = t.model_copy(update={"quote": "Bought it in 2019, 14 months of daily use, battery down to 80%."})
    parts = {p.name: p for p in operations.thread_item(quoted, CHECKED).credibility.parts}
    assert parts["ai_check"].points == 0.10 and "own text" in parts["ai_check"].why
    ai_quote = t.model_copy(update={"quote": "As an AI language model, I hope this helps!"})
    parts = {p.name: p for p in operations.thread_item(ai_quote, CHECKED).credibility.parts}
    assert parts["ai_check"].points == 0


def test_stated_error_rate_is_the_measured_one():
    human = [aicheck.check(t).label for t in _calibration.HUMAN]
    ai = [aicheck.check(t).label for t in _calibration.AI]
    assert (len(human), len(ai)) == (aicheck.CALIBRATION_HUMAN, aicheck.CALIBRATION_AI)
    assert human.count("likely-ai") == aicheck.FALSE_POSITIVES
    assert human.count("uncertain") == aicheck.HUMAN_UNCERTAIN
    assert ai.count("likely-human") == aicheck.FALSE_NEGATIVES
    assert ai.count("uncertain") == aicheck.AI_UNCERTAIN


async def test_ai_check_route_reports_signals_and_error_rate(client):
    body = (await client.post(f"{API}/ai-check", json={"text": "Bought it in 2019. It still works."})).json()
    assert body["label"] == "likely-human" and "never a verdict" in body["note"]
    assert set(body["signals"]) >= {"phrase_points", "uniformity", "repetition"}
    rate = body["error_rate"]
    assert rate["in_sample"] is True and rate["human_texts"] == 10 and rate["false_positive_rate"] == 0.0
    assert rate["human_uncertain_rate"] == 0.1 and any("false positive" in x for x in rate["limits"])
