"""The AI-crawler list: robots/generate?mode=block_ai blocks every crawler ai.robots.txt lists
(robots.json at commit 738c80d of 2026-08-22, checked 2026-11-26), search engines keep access,
ChatGPT-User is not said to honour robots.txt (OpenAI, December 2025), and the feed seo.airobots
keeps the list current."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from yaml_files import load_yaml

from twlookup.services.seo.data import import_ai_robots
from twlookup.services.seo.logic.robots import decide, parse
from twlookup.services.seo.parsers import LIST_DOCS, RAW_URL, agents_from_robots_json

DATA = Path(__file__).resolve().parents[3] / "data" / "seo"
SNAPSHOT = load_yaml((DATA / "ai-robots.yaml").read_text(encoding="utf-8"))

# Names exactly as robots.json at 738c80d lists them, and the token a robots.txt parser reads.
PUBLISHED = [
    ("AI2Bot", "AI2Bot"),
    ("Amazonbot", "Amazonbot"),
    ("anthropic-ai", "anthropic-ai"),
    ("Bytespider", "Bytespider"),
    ("ChatGPT Agent", "ChatGPT"),
    ("Claude-Web", "Claude-Web"),
    ("DeepSeekBot", "DeepSeekBot"),
    ("Gemini-Deep-Research", "Gemini-Deep-Research"),
    ("MistralAI-User/1.0", "MistralAI-User"),
    ("meta-externalagent", "meta-externalagent"),
    ("TikTokSpider", "TikTokSpider"),
    ("YouBot", "YouBot"),
    ("Reflectionbot", "Reflectionbot"),  # the commit's own addition
]
SEARCH = ["Googlebot", "Bingbot", "Applebot", "DuckDuckBot", "YandexBot", "Baiduspider", "Yeti"]


def test_the_snapshot_records_its_source_and_dates() -> None:
    assert SNAPSHOT["commit"].startswith("738c80d") and str(SNAPSHOT["commit_date"]) == "2026-08-22"
    assert str(SNAPSHOT["checked"]) == "2026-11-26" and SNAPSHOT["licence"] == "MIT"
    assert SNAPSHOT["source"].startswith("https://github.com/ai-robots-txt/ai.robots.txt/blob/738c80d")
    assert SNAPSHOT["names"] == 166  # the list's names; fewer tokens once versions and spellings fold
    tokens = {a["token"] for a in SNAPSHOT["agents"]}
    assert len(tokens) == len(SNAPSHOT["agents"]) >= 150
    for name, token in PUBLISHED:
        assert token in tokens, name


async def test_block_ai_blocks_every_listed_crawler_and_keeps_search(client) -> None:
    r = await client.get("/seo/api/robots/generate", params={"mode": "block_ai"})
    body = r.json()
    assert r.status_code == 200, body
    parsed = parse(body["robots_txt"])
    listed = {a["token"] for a in SNAPSHOT["agents"]}
    curated_search = {s.lower() for s in SEARCH}
    blocked = {t.lower() for t in body["blocked"]}
    for token in listed:
        if token.lower() in curated_search:
            continue
        assert token.lower() in blocked, token
        assert decide(parsed, token, "/any/page").allowed is False, token
    for name, token in PUBLISHED:
        assert decide(parsed, token, "/").allowed is False, name
    for token in SEARCH:  # search engines keep access, Applebot included although the list names it
        assert decide(parsed, token, "/").allowed is True, token
    for token in ("Google-Extended", "Applebot-Extended", "GPTBot", "ChatGPT-User", "PerplexityBot"):
        assert decide(parsed, token, "/").allowed is False, token
    assert len(body["blocked"]) >= 150
    assert {"ChatGPT-User", "Perplexity-User", "Bytespider"} <= set(body["not_honouring"])
    urls = [s["url"] for s in body["sources"]]
    assert any("ai.robots.txt/blob/738c80d" in u for u in urls) and all(s["checked"] for s in body["sources"])
    assert "Applebot" in body["note"]


async def test_block_ai_training_keeps_ai_search_and_user_fetchers(client) -> None:
    body = (await client.get("/seo/api/robots/generate", params={"mode": "block_ai_training"})).json()
    parsed = parse(body["robots_txt"])
    types = {c["token"]: c["type"] for c in body["check"]}
    assert decide(parsed, "GPTBot", "/").allowed is False and decide(parsed, "CCBot", "/").allowed is False
    assert decide(parsed, "OAI-SearchBot", "/").allowed is True and decide(parsed, "Claude-User", "/").allowed is True
    assert all(types[t] == "train" for t in body["blocked"])


async def test_chatgpt_user_is_not_said_to_honour_robots_txt(client) -> None:
    crawlers = (await client.get("/seo/api/bots", params={"type": "user"})).json()["crawlers"]
    chatgpt = next(c for c in crawlers if c["token"] == "ChatGPT-User")
    assert chatgpt["honours_robots"] == "no"
    assert "December 2025" in chatgpt["purpose"] and "may not apply" in chatgpt["purpose"]
    assert chatgpt["source"] == "https://developers.openai.com/api/docs/bots"
    assert chatgpt["checked"] == "2026-11-26" and "seroundtable.com" in chatgpt["source_title"]


async def test_listed_crawlers_carry_the_list_as_source(client) -> None:
    crawlers = (await client.get("/seo/api/bots")).json()["crawlers"]
    listed = [c for c in crawlers if c["docs"] == LIST_DOCS]
    assert len(listed) >= 130 and all(c["licence"] == "MIT" for c in listed)
    assert all("738c80d" in c["source"] and c["checked"] == "2026-11-26" for c in listed)
    by = {c["token"]: c for c in crawlers}
    # curated crawlers (from their operators' pages) take precedence over the list's entry
    assert by["GPTBot"]["docs"] != LIST_DOCS and by["Applebot"]["type"] == "search"
    assert by["ChatGPT"]["purpose"].endswith("listed under the name 'ChatGPT Agent'")


@pytest.mark.parametrize(
    ("entry", "type_", "respect", "operator"),
    [
        (
            {"function": "AI Search Crawlers", "respect": "Yes", "operator": "[Exa](https://exa.ai)"},
            "ai_search",
            "yes",
            "Exa",
        ),
        (
            {"function": "AI Assistants", "respect": "[No](https://x)", "operator": "Unclear at this time."},
            "user",
            "no",
            "not stated",
        ),
        (
            {"function": "AI Data Scrapers", "respect": "Unclear at this time.", "operator": "Meta/Facebook"},
            "train",
            "unclear",
            "Meta/Facebook",
        ),
        (
            {"function": "Takes action based on user prompts.", "respect": "", "operator": "OpenAI"},
            "user",
            "unclear",
            "OpenAI",
        ),
        (
            {"function": "Scrapes data for search engine and LLMs.", "respect": "No", "operator": "x"},
            "ai_search",
            "no",
            "x",
        ),
        (
            {"function": "LLM training.", "respect": "Yes", "operator": "Cohere to download data"},
            "train",
            "yes",
            "Cohere",
        ),
    ],
)
def test_conversion_of_one_entry(entry: dict, type_: str, respect: str, operator: str) -> None:
    (agent,) = agents_from_robots_json({"SomeBot": entry})
    assert (agent.type, agent.honours_robots, agent.operator) == (type_, respect, operator)


def test_names_giving_one_token_are_one_crawler() -> None:
    agents = agents_from_robots_json(
        {
            "iaskspider": {},
            "iaskspider/2.0": {},
            "Meta-ExternalAgent": {},
            "meta-externalagent": {},
            "Brightbot 1.0": {},
        }
    )
    assert [a.token for a in agents] == ["iaskspider", "Meta-ExternalAgent", "Brightbot"]
    with pytest.raises(ValueError, match=r"robots\.json"):
        agents_from_robots_json([])


async def test_the_feed_importer_replaces_the_list_and_keeps_curated_crawlers(fresh_store, tmp_path) -> None:
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from twlookup.services.seo.data import seed_seo
    from twlookup.services.seo.tables import CrawlerRow

    newer = {
        "NewAIBot": {"operator": "[New AI](https://new.example)", "respect": "Yes", "function": "AI Data Scrapers"},
        "GPTBot": {"operator": "OpenAI", "respect": "Yes", "function": "AI Data Scrapers"},  # curated: kept as is
        "Amazonbot": {"operator": "Amazon", "respect": "Yes", "function": "AI Search Crawlers"},
    }
    f = tmp_path / "robots.json"
    f.write_text(json.dumps(newer))
    engine = create_engine(fresh_store)
    with Session(engine) as s:
        curated_before = s.get(CrawlerRow, "GPTBot").purpose
        assert import_ai_robots(s, f) == 2
        s.commit()
    with Session(engine) as s:
        rows = {r.token: r for r in s.scalars(select(CrawlerRow))}
        assert rows["NewAIBot"].source == RAW_URL and rows["NewAIBot"].type == "train"
        assert rows["NewAIBot"].operator == "New AI" and rows["Amazonbot"].type == "ai_search"
        assert "TikTokSpider" not in rows  # no longer listed: gone
        assert rows["GPTBot"].purpose == curated_before and rows["Googlebot"].type == "search"
        # a later seed (data files changed) keeps the imported list, not the older shipped snapshot
        seed_seo(s, DATA.parent)
        s.commit()
    with Session(engine) as s:
        tokens = set(s.scalars(select(CrawlerRow.token)))
        assert "NewAIBot" in tokens and "TikTokSpider" not in tokens and "ChatGPT-User" in tokens
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with Session(engine) as s, pytest.raises(ValueError, match=r"robots\.json"):
        import_ai_robots(s, bad)


async def test_status_says_what_the_store_holds_and_how_old(client) -> None:
    # Issue 27: the status route said "stale" without saying what the store holds or how old it is.
    feeds = {f["feed"]: f for f in (await client.get("/seo/api/status")).json()["feeds"]}
    listed = feeds["seo.airobots"]
    assert listed["data_date"] == "2026-08-22"  # the snapshot's commit day
    assert "738c80d" in listed["holds"] and "checked 2026-11-26" in listed["holds"]
    curated = {c["token"].lower() for c in load_yaml((DATA / "crawlers.yaml").read_text())["crawlers"]}
    own = [a for a in SNAPSHOT["agents"] if a["token"].lower() not in curated]  # the curated ones take precedence
    assert listed["holds"].startswith(f"{len(own)} AI crawlers")
    ranges = feeds["seo.ipranges"]
    files = load_yaml((DATA / "ipranges.yaml").read_text())["files"]
    oldest = min(str(f["creation_time"])[:10] for f in files if f.get("creation_time"))
    assert ranges["data_date"] == oldest  # the oldest file's creationTime
    assert ranges["holds"].startswith(f"{len(files)} range files") and f"created {oldest} to" in ranges["holds"]
