"""The seo service's routes: computed answers, refusals and upstream failures."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest
import respx

from twlookup.platform import fetch as fetch_module
from twlookup.services.seo.logic import audit as audit_rules
from twlookup.services.seo.logic.robots import CRAWLER_TOKEN_PATTERN

PUBLIC = "93.184.216.34"


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    table = {"example.com": [PUBLIC], "www.example.com": [PUBLIC], "internal.example": ["10.0.0.8"]}
    monkeypatch.setattr(fetch_module, "resolve", fetch_module.static_resolver(table))
    return table


def mock_site(
    mock: respx.MockRouter,
    robots: httpx.Response,
    page: str = "<html></html>",
    sitemap: int = 200,
    llms: httpx.Response | None = None,
) -> None:
    mock.get("https://example.com/robots.txt").mock(return_value=robots)
    mock.get("https://example.com/").respond(200, html=page)
    mock.get("https://example.com/sitemap.xml").respond(
        sitemap, text='<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    )
    mock.get("https://example.com/llms.txt").mock(return_value=llms or httpx.Response(404))


# --- search URLs, operators, guide, share ------------------------------------------------------


async def test_search_urls_with_site_filetype_and_time(client) -> None:
    r = await client.get(
        "/seo/api/search-urls", params={"q": "年報", "site": "gov.tw", "filetype": "pdf", "time": "week"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["query"] == "年報 site:gov.tw filetype:pdf"
    urls = {u["engine"]: u["url"] for u in body["urls"]}
    assert (
        urls["google"] == "https://www.google.com/search?q=%E5%B9%B4%E5%A0%B1+site%3Agov.tw+filetype%3Apdf&tbs=qdr%3Aw"
    )
    assert (
        "df=w" in urls["duckduckgo"]
        and "age=1w" in urls["yahoo"]
        and urls["yahoo"].startswith("https://tw.search.yahoo.com/search?p=")
    )
    assert "ez2" in urls["bing"]


async def test_search_urls_rejects_bad_time(client) -> None:
    r = await client.get("/seo/api/search-urls", params={"q": "x", "time": "hour"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "time"


async def test_operators_one_and_all(client) -> None:
    one = (await client.get("/seo/api/operators", params={"engine": "bing"})).json()
    assert [e["engine"] for e in one["engines"]] == ["bing"] and one["engines"][0]["source"]["url"].startswith(
        "https://"
    )
    assert len((await client.get("/seo/api/operators")).json()["engines"]) == 4
    assert (await client.get("/seo/api/operators", params={"engine": "baidu"})).status_code == 422


async def test_submit_guide_and_share(client) -> None:
    guide = (await client.get("/seo/api/submit-guide")).json()
    by = {e["engine"]: e for e in guide["engines"]}
    assert by["google"]["submit"]["instantindex"] is False and by["bing"]["submit"]["instantindex"] is True
    share = (await client.get("/seo/api/share")).json()
    regions = {s["region"]: s for s in share["regions"]}
    # no invented Taiwan figure: the region is reported missing, with StatCounter's page to look at
    assert "TW" not in regions and share["missing"] == ["TW"] and "statcounter.com" in share["note"]
    world = regions["worldwide"]
    assert share["sample"] is False and world["source"]["sample"] is False and world["month"] == "2024-12"
    assert world["shares"] == [{"engine": "Google", "percent": 89.73}] and "StatCounter" in world["source"]["licence"]


# --- robots generate / test --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["allow_all", "block_all", "block_ai_training", "block_ai"])
async def test_generated_file_keeps_its_promise(client, mode: str) -> None:
    r = await client.get(
        "/seo/api/robots/generate", params={"mode": mode, "sitemap": "https://example.com/sitemap.xml"}
    )
    body = r.json()
    assert body["robots_txt"].rstrip().endswith("Sitemap: https://example.com/sitemap.xml")
    for c in body["check"]:
        # run the generated text back through the tester route as well
        t = (
            await client.post(
                "/seo/api/robots/test",
                json={"robots": body["robots_txt"], "user_agent": c["token"], "path": "/any/page"},
            )
        ).json()
        expected = {
            "allow_all": True,
            "block_all": False,
            "block_ai_training": c["type"] != "train",
            "block_ai": c["type"] == "search",
        }[mode]
        assert t["allowed"] is expected and c["allowed"] is expected, (mode, c)
        assert t["findings"] == [] or all(f["severity"] != "error" for f in t["findings"])


async def test_generate_rejects_unknown_mode_and_relative_sitemap(client) -> None:
    r = await client.get("/seo/api/robots/generate", params={"mode": "block_some"})
    assert r.status_code == 422 and "allow_all" in r.text
    r = await client.get("/seo/api/robots/generate", params={"sitemap": "/sitemap.xml"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "sitemap"


async def test_robots_test_names_group_rule_and_findings(client) -> None:
    robots = "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\nFoo bar baz\n\nUser-agent: Googlebot\nAllow: /private/ok\nDisallow: /private/\n"
    r = await client.post(
        "/seo/api/robots/test",
        json={"robots": robots, "user_agent": "googlebot", "path": "https://x.test/private/ok?a=1#frag"},
    )
    body = r.json()
    assert body["allowed"] is True and body["path"] == "/private/ok?a=1"
    assert body["group"] == {"agents": ["Googlebot"], "line": 6, "kind": "specific"}
    assert body["rule"] == {"kind": "allow", "pattern": "/private/ok", "line": 7}
    lines = {f["line"]: f["severity"] for f in body["findings"]}
    assert lines == {3: "warning", 4: "warning"}  # lines crawlers ignore are not errors
    assert len(body["differences_from_google"]) == 5


async def test_robots_test_body_bounds(client) -> None:
    r = await client.post("/seo/api/robots/test", json={"robots": "x", "user_agent": "", "path": "/"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "user_agent"


async def test_robots_test_reads_a_versioned_token_as_its_product_token(client) -> None:
    robots = "User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n"
    r = await client.post(
        "/seo/api/robots/test", json={"robots": robots, "user_agent": "Googlebot/2.1", "path": "/public"}
    )
    body = r.json()
    assert r.status_code == 200 and body["allowed"] is True
    assert body["user_agent"] == "Googlebot" and body["token_valid"] is False
    assert body["group"]["agents"] == ["Googlebot"]


@pytest.mark.parametrize(
    ("header", "named"),
    [
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot",
            "GPTBot",
        ),
        ("Googlebot Image", "no crawler 'Name/version' product"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36", "no crawler"),
    ],
)
async def test_robots_test_refuses_a_whole_user_agent_header(client, header: str, named: str) -> None:
    # Matched as given it would silently fall to the '*' group and answer "allowed".
    robots = "User-agent: Googlebot\nUser-agent: GPTBot\nDisallow: /\n"
    r = await client.post("/seo/api/robots/test", json={"robots": robots, "user_agent": header, "path": "/"})
    assert r.status_code == 422, r.text
    error = r.json()["errors"][0]
    assert error["parameter"] == "user_agent" and named in error["message"] and "Googlebot/2.1" in error["message"]
    assert error["allowed"]["pattern"] == CRAWLER_TOKEN_PATTERN


@pytest.mark.parametrize(
    "value",
    ["\x1cGooglebot", "Googlebot\x1f", "\ufeffGooglebot", "Googlebot/2.1\u00a0", " Googlebot\t", "Googlebot/2.1"],
)
async def test_robots_test_user_agent_pattern_agrees_with_the_server(client, value: str) -> None:
    """A client that checks user_agent against the schema's pattern (with Python's regex, as
    schemathesis does, or JavaScript's) is answered as the pattern says: control characters and
    Unicode spaces that one engine counts as whitespace and another does not are refused by both."""
    robots = "User-agent: Googlebot\nDisallow: /private\n"
    r = await client.post("/seo/api/robots/test", json={"robots": robots, "user_agent": value, "path": "/"})
    assert (r.status_code == 200) == (re.search(CRAWLER_TOKEN_PATTERN, value) is not None), (value, r.text)


async def test_robots_test_takes_a_file_over_500_kib_and_reads_its_first_500_kib(client) -> None:
    head = "User-agent: *\nDisallow: /a\n#"
    robots = head + "x" * (600_000 - len(head)) + "\nDisallow: /b\n"
    for path, allowed in (("/a", False), ("/b", True)):
        r = await client.post("/seo/api/robots/test", json={"robots": robots, "user_agent": "FooBot", "path": path})
        assert r.status_code == 200, r.text
        assert r.json()["allowed"] is allowed
    assert any("500 KiB" in f["message"] for f in r.json()["findings"])


# --- bots and verify-ip ------------------------------------------------------------------------


async def test_bots_types_and_tokens(client) -> None:
    all_ = (await client.get("/seo/api/bots")).json()
    assert {c["type"] for c in all_["crawlers"]} == {"search", "ai_search", "train", "user"}
    train = (await client.get("/seo/api/bots", params={"type": "train"})).json()["crawlers"]
    ext = {c["token"]: c for c in train}
    assert ext["Google-Extended"]["fetches"] is False and ext["Google-Extended"]["verify_by_ip"] is False
    assert ext["Applebot-Extended"]["fetches"] is False
    user = {c["token"]: c for c in (await client.get("/seo/api/bots", params={"type": "user"})).json()["crawlers"]}
    assert user["Perplexity-User"]["honours_robots"] == "no"
    search = {c["token"]: c for c in (await client.get("/seo/api/bots", params={"type": "search"})).json()["crawlers"]}
    assert search["Googlebot"]["verify_by_ip"] and search["Googlebot"]["verify_by_dns"]
    assert search["YandexBot"]["verify_by_dns"] and not search["YandexBot"]["verify_by_ip"]
    assert search["DuckDuckBot"]["verify_by_ip"] and not search["DuckDuckBot"]["verify_by_dns"]
    assert all(
        c["docs"].startswith("https://") and c["source"].startswith("https://") and c["checked"]
        for c in all_["crawlers"]
    )
    assert (await client.get("/seo/api/bots", params={"type": "spam"})).status_code == 422


# Addresses inside prefixes of the shipped files (data/seo/ipranges.yaml), each read from a copy of
# the operator's published file: (address, the prefix it falls in, the crawler).
IN_RANGE = [
    ("66.249.66.1", "66.249.66.0/27", "Googlebot"),
    ("::ffff:66.249.66.1", "66.249.66.0/27", "Googlebot"),
    ("2001:4860:4801:10::5", "2001:4860:4801:10::/64", "Googlebot"),
    ("157.55.39.200", "157.55.39.0/24", "Bingbot"),
    ("17.241.208.170", "17.241.208.160/27", "Applebot"),
    ("20.171.206.77", "20.171.206.0/24", "GPTBot"),
    ("104.210.140.130", "104.210.140.128/28", "OAI-SearchBot"),
    ("9.129.1.2", "9.129.0.0/17", "ChatGPT-User"),
    ("18.97.14.81", "18.97.14.80/29", "CCBot"),
    ("2600:1f28:365:80b1::9", "2600:1f28:365:80b0::/60", "CCBot"),
]


@pytest.mark.parametrize(("ip", "prefix", "token"), IN_RANGE)
async def test_verify_ip_in_published_range(client, ip: str, prefix: str, token: str) -> None:
    body = (await client.get("/seo/api/verify-ip", params={"ip": ip})).json()
    assert body["known_crawler"] is True and body["crawlers"] == [token]
    assert [m["prefix"] for m in body["matches"]] == [prefix]
    match = body["matches"][0]
    assert match["source"]["url"].startswith("https://") and match["source"]["checked"]
    assert body["sample"] is False and "sample" not in body["note"] and body["dns"]["enabled"] is False


async def test_verify_ip_shared_prefix_names_both_crawlers(client) -> None:
    """OpenAI publishes 74.7.228.0/25 in both gptbot.json and searchbot.json."""
    body = (await client.get("/seo/api/verify-ip", params={"ip": "74.7.228.5"})).json()
    assert sorted(body["crawlers"]) == ["GPTBot", "OAI-SearchBot"]
    assert {m["file"] for m in body["matches"]} == {"gptbot", "oai-searchbot"}


async def test_verify_ip_files_carry_dates(client) -> None:
    body = (await client.get("/seo/api/verify-ip", params={"ip": "8.8.8.8"})).json()
    assert body["known_crawler"] is False and body["crawlers"] == [] and body["sample"] is False
    urls = {s["url"] for s in body["files_consulted"]}
    assert "https://www.bing.com/toolbox/bingbot.json" in urls and "https://openai.com/gptbot.json" in urls
    assert all(s["checked"] for s in body["files_consulted"]) and "DNS" in body["note"]


async def test_verify_ip_bad_input(client) -> None:
    r = await client.get("/seo/api/verify-ip", params={"ip": "not-an-ip"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "ip"


class FakeResolver:
    """A resolver with fixed PTR and A/AAAA records; a missing record is NoName, `slow` never answers."""

    def __init__(self, ptr: dict[str, str], a: dict[str, list[str]], slow: bool = False) -> None:
        self.ptr, self.a, self.slow, self.calls = ptr, a, slow, []

    async def reverse(self, ip: str) -> str:
        from twlookup.services.seo.operations.dns import NoName

        self.calls.append(("PTR", ip))
        if self.slow:
            await asyncio.sleep(30)
        if ip not in self.ptr:
            raise NoName(f"no reverse DNS name for {ip}")
        return self.ptr[ip]

    async def forward(self, host: str) -> list[str]:
        from twlookup.services.seo.operations.dns import NoName

        self.calls.append(("A", host))
        if host not in self.a:
            raise NoName(f"{host} does not resolve")
        return self.a[host]


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch):
    from twlookup.services.seo.operations import dns as dns_module
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "seo_verify_dns", True)

    def use(fake: FakeResolver) -> FakeResolver:
        monkeypatch.setattr(dns_module, "RESOLVER", fake)
        return fake

    return use


async def test_verify_ip_dns_forward_confirmed(client, resolver) -> None:
    fake = resolver(
        FakeResolver(
            {"66.249.66.1": "crawl-66-249-66-1.googlebot.com."}, {"crawl-66-249-66-1.googlebot.com": ["66.249.66.1"]}
        )
    )
    body = (await client.get("/seo/api/verify-ip", params={"ip": "66.249.66.1"})).json()
    d = body["dns"]
    assert d["enabled"] and d["hostname"] == "crawl-66-249-66-1.googlebot.com"
    assert d["forward_confirmed"] is True and d["verified"] is True and d["operator_suffix"] == "googlebot.com"
    assert d["crawlers"] == ["Googlebot"] and body["crawlers"] == ["Googlebot"]
    assert fake.calls == [("PTR", "66.249.66.1"), ("A", "crawl-66-249-66-1.googlebot.com")]


async def test_verify_ip_dns_alone_confirms_a_crawler_without_a_range_file(client, resolver) -> None:
    """YandexBot has no published range file here; Yandex documents reverse-and-forward DNS."""
    resolver(
        FakeResolver(
            {"5.255.253.1": "5-255-253-1.spider.yandex.com"}, {"5-255-253-1.spider.yandex.com": ["5.255.253.1"]}
        )
    )
    body = (await client.get("/seo/api/verify-ip", params={"ip": "5.255.253.1"})).json()
    assert body["matches"] == [] and body["known_crawler"] is True and body["crawlers"] == ["YandexBot"]
    assert body["dns"]["operator_suffix"] == "yandex.com" and "DNS" in body["note"]


async def test_verify_ip_dns_ipv4_mapped_is_looked_up_as_ipv4(client, resolver) -> None:
    fake = resolver(
        FakeResolver(
            {"157.55.39.1": "msnbot-157-55-39-1.search.msn.com"},
            {"msnbot-157-55-39-1.search.msn.com": ["::ffff:157.55.39.1"]},
        )
    )
    body = (await client.get("/seo/api/verify-ip", params={"ip": "::ffff:157.55.39.1"})).json()
    assert fake.calls[0] == ("PTR", "157.55.39.1") and body["dns"]["verified"] is True
    assert body["crawlers"] == ["Bingbot"]


@pytest.mark.parametrize(
    ("ptr", "forward", "why"),
    [
        # a PTR anyone can publish, not backed by Google's forward record
        ("crawl-1.googlebot.com", ["203.0.113.9"], "not to 198.51.100.7"),
        # names that only look like the operator's domain
        ("crawl-1.googlebot.com.evil.example", ["198.51.100.7"], "none of the crawler operators"),
        ("evilgooglebot.com", ["198.51.100.7"], "none of the crawler operators"),
        # the name does not resolve at all
        ("crawl-2.googlebot.com", None, "forward lookup failed"),
    ],
)
async def test_verify_ip_dns_refuses_spoofed_names(client, resolver, ptr: str, forward, why: str) -> None:
    resolver(FakeResolver({"198.51.100.7": ptr}, {ptr: forward} if forward else {}))
    body = (await client.get("/seo/api/verify-ip", params={"ip": "198.51.100.7"})).json()
    assert body["known_crawler"] is False and body["crawlers"] == [] and body["dns"]["verified"] is False
    assert why in body["dns"]["note"]


async def test_verify_ip_dns_no_ptr_and_timeout(client, resolver, monkeypatch: pytest.MonkeyPatch) -> None:
    from twlookup.settings import get_settings

    resolver(FakeResolver({}, {}))
    body = (await client.get("/seo/api/verify-ip", params={"ip": "66.249.66.1"})).json()
    # still a crawler by its published range; the DNS side says why it could not confirm
    assert body["known_crawler"] is True and body["dns"]["verified"] is False and body["dns"]["hostname"] is None
    assert "no reverse DNS name" in body["dns"]["note"]
    monkeypatch.setattr(get_settings(), "seo_dns_timeout_seconds", 0.05)
    resolver(FakeResolver({}, {}, slow=True))
    r = await client.get("/seo/api/verify-ip", params={"ip": "66.249.66.1"})
    assert r.status_code == 200 and "no answer within 0.05 s" in r.json()["dns"]["note"]


async def test_system_resolver_goes_through_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default resolver asks the OS resolver through the event loop (off the loop thread)."""
    import ipaddress
    import socket

    from twlookup.services.seo.operations import dns as dns_module

    loop = asyncio.get_running_loop()

    async def getnameinfo(sockaddr, flags):
        assert flags == socket.NI_NAMEREQD
        if sockaddr[0] == "192.0.2.1":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return ("crawl-66-249-66-1.googlebot.com", "0")

    async def getaddrinfo(host, port, **kw):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("66.249.66.1", 0))]

    monkeypatch.setattr(loop, "getnameinfo", getnameinfo)
    monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
    suffixes = {"googlebot.com": ["Googlebot"]}
    ok = await dns_module.confirm(ipaddress.ip_address("66.249.66.1"), suffixes, 1.0, dns_module.SystemResolver())
    assert ok.verified and ok.crawlers == ["Googlebot"]
    none = await dns_module.confirm(ipaddress.ip_address("192.0.2.1"), suffixes, 1.0, dns_module.SystemResolver())
    assert not none.verified and "no reverse DNS name" in none.note


async def test_ip_range_importer(tmp_path, db_url) -> None:
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from twlookup.services.seo.data import import_ip_ranges
    from twlookup.services.seo.tables import IpRangeRow

    f = tmp_path / "bingbot.json"
    f.write_text(
        json.dumps(
            {
                "creationTime": "2026-11-01T00:00:00",
                "prefixes": [{"ipv4Prefix": "157.55.39.0/24"}, {"ipv6Prefix": "2620:1ec:c::/48"}],
            }
        )
    )
    engine = create_engine(db_url)
    with Session(engine) as s:
        assert import_ip_ranges(s, f) == 2
        row = s.get(IpRangeRow, "bingbot")
        assert row.sample is False and row.creation_time == "2026-11-01T00:00:00"
        s.rollback()  # keep the shared store as seeded
    google = tmp_path / "common-crawlers.json"  # Google's own name for googlebot.json
    google.write_text(
        json.dumps({"creationTime": "2026-11-20T00:00:00", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]})
    )
    with Session(engine) as s:
        assert import_ip_ranges(s, google) == 1
        assert s.get(IpRangeRow, "googlebot").prefixes == ["66.249.64.0/27"]
        s.rollback()
    bad = tmp_path / "nosuch.json"
    bad.write_text("{}")
    with Session(engine) as s, pytest.raises(ValueError, match="googlebot"):
        import_ip_ranges(s, bad)


# --- serp preview, meta tags, video ------------------------------------------------------------


async def test_serp_preview_cuts_by_width_with_cjk(client) -> None:
    title = "臺灣" * 20  # 40 CJK characters at 20 px = 800 px > 600 px
    body = (await client.get("/seo/api/serp-preview", params={"title": title, "url": "https://example.com/a/b"})).json()
    t = body["title"]
    assert t["truncated"] and t["width_px"] == 800.0 and t["shown"].endswith(" ...")
    # 600 px holds 28 CJK characters with the ' ...' (4 chars ~ 1.34 em); here 28 fit
    assert t["shown"] == "臺灣" * 14 + " ..."
    latin = "a" * 40  # 40 x 0.5 em x 20 px = 400 px: fits although as long as the CJK title
    assert (await client.get("/seo/api/serp-preview", params={"title": latin, "url": "https://example.com/"})).json()[
        "title"
    ]["truncated"] is False
    assert body["display_url"] == "https://example.com › a › b" and "Heuristic" in body["method"]


async def test_meta_tags_escape(client) -> None:
    evil = '"><script>alert(1)</script>'
    body = (
        await client.get(
            "/seo/api/meta-tags",
            params={
                "title": evil,
                "description": "a & b",
                "url": "https://example.com/?a=1&b=2",
                "image": "https://example.com/i.png",
            },
        )
    ).json()
    html = body["html"]
    assert "<script>" not in html and "&quot;&gt;&lt;script&gt;" in html
    assert '<link rel="canonical" href="https://example.com/?a=1&amp;b=2">' in html
    assert 'property="og:image"' in html and 'content="summary_large_image"' in html and "a &amp; b" in html


async def test_video_check_rules(client) -> None:
    good = {
        "chapters": [
            {"time": "00:00", "title": "Intro"},
            {"time": "00:10", "title": "A"},
            {"time": "1:00", "title": "B"},
        ],
        "duration": 90,
        "title": "T",
        "tags": ["a b", "c"],
    }
    body = (await client.post("/seo/api/video-check", json=good)).json()
    assert body["ok"] is True, body
    bad = {
        "chapters": [{"time": "00:05", "title": "Intro"}, {"time": "00:12", "title": "A"}],
        "duration": 20,
        "title": "x" * 101,
        "tags": ["t" * 501],
    }
    found = {f["rule"]: f for f in (await client.post("/seo/api/video-check", json=bad)).json()["findings"]}
    assert not found["chapters-first"]["ok"] and not found["chapters-count"]["ok"] and not found["title-length"]["ok"]
    assert (
        not found["chapters-length"]["ok"]
        and "7 s" in found["chapters-length"]["detail"]
        and not found["tags-length"]["ok"]
    )
    assert found["chapters-first"]["source"]["url"] == "https://support.google.com/youtube/answer/9884579"
    assert found["title-length"]["source"]["url"] == "https://developers.google.com/youtube/v3/docs/videos"
    assert (
        await client.post("/seo/api/video-check", json={"title": "t", "chapters": [{"time": "5 min", "title": "x"}]})
    ).status_code == 422


async def test_video_check_counts_the_description_in_bytes_and_tags_as_youtube_does(client) -> None:
    # 1,667 CJK characters = 5,001 bytes in UTF-8: over the limit although far below 5,000 characters
    cjk = (await client.post("/seo/api/video-check", json={"title": "t", "description": "臺" * 1667})).json()
    d = {f["rule"]: f for f in cjk["findings"]}["description-length"]
    assert d["ok"] is False and d["detail"] == "5001 bytes (1667 characters)"
    ok = (await client.post("/seo/api/video-check", json={"title": "t", "description": "臺" * 1666})).json()
    assert {f["rule"]: f for f in ok["findings"]}["description-length"]["ok"] is True
    # the API's own example: "Foo-Baz" counts 7, "Foo Baz" counts 9 (quotes), plus one comma: 17
    tags = (await client.post("/seo/api/video-check", json={"title": "t", "tags": ["Foo-Baz", "Foo Baz"]})).json()
    assert {f["rule"]: f for f in tags["findings"]}["tags-length"]["detail"] == "17 characters"
    # 250 two-letter tags: 500 letters + 249 commas = 749 > 500
    many = (await client.post("/seo/api/video-check", json={"title": "t", "tags": ["ab"] * 250})).json()
    assert {f["rule"]: f for f in many["findings"]}["tags-length"]["ok"] is False
    br = (await client.post("/seo/api/video-check", json={"title": "a <b>", "description": "x > y"})).json()
    found = {f["rule"]: f for f in br["findings"]}
    assert found["title-brackets"]["ok"] is False and found["title-brackets"]["detail"] == "< and >"
    assert found["description-brackets"]["ok"] is False and br["ok"] is False


# --- IndexNow ----------------------------------------------------------------------------------


async def test_instantindex_key(client) -> None:
    a = (await client.get("/seo/api/instantindex/key")).json()
    b = (await client.get("/seo/api/instantindex/key")).json()
    assert (
        a["key"] != b["key"]
        and len(a["key"]) == 32
        and a["key_file"] == f"/{a['key']}.txt"
        and a["content"] == a["key"]
    )


SUBMIT = {
    "host": "www.example.com",
    "key": "abcdef0123456789",
    "urls": ["https://www.example.com/a", "http://www.example.com/b"],
}


@pytest.mark.parametrize(
    ("code", "status"), [(200, 200), (202, 200), (400, 422), (403, 422), (422, 422), (429, 503), (500, 503)]
)
async def test_instantindex_upstream_codes(client, code: int, status: int) -> None:
    with respx.mock(assert_all_called=False) as mock:
        route = mock.post("https://api.indexnow.org/indexnow").respond(code)
        r = await client.post("/seo/api/instantindex", json=SUBMIT)
    sent = json.loads(route.calls.last.request.content)
    assert sent == {"host": "www.example.com", "key": "abcdef0123456789", "urlList": SUBMIT["urls"]}
    assert r.status_code == status, r.text
    if status == 200:
        assert r.json()["batches"] == [{"urls": 2, "status": code, "meaning": r.json()["meaning"]}]
    if status == 503:
        assert r.headers["retry-after"] and "api.indexnow.org" in r.json()["detail"]
    if code == 403:
        assert r.json()["errors"][0]["parameter"] == "key"


async def test_instantindex_unreachable_is_503(client) -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock.post("https://api.indexnow.org/indexnow").mock(side_effect=httpx.ConnectTimeout("slow"))
        r = await client.post("/seo/api/instantindex", json=SUBMIT)
    assert r.status_code == 503 and r.headers["retry-after"] == "30"


async def test_instantindex_input_rules(client) -> None:
    r = await client.post("/seo/api/instantindex", json={**SUBMIT, "urls": ["https://other.example/a"]})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "urls[0]"
    r = await client.post("/seo/api/instantindex", json={**SUBMIT, "key": "short"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "key"
    r = await client.post(
        "/seo/api/instantindex", json={**SUBMIT, "urls": [f"https://www.example.com/{i}" for i in range(101)]}
    )
    assert r.status_code == 422 and "100" in r.text and r.json()["errors"][0]["parameter"] == "urls"
    r = await client.post("/seo/api/instantindex", json={**SUBMIT, "key_location": "https://other.example/k.txt"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "key_location"
    # a key file in /catalog/ covers /catalog/... only (Yandex's example), so /help/ is refused before posting
    folder = {**SUBMIT, "key_location": "https://www.example.com/catalog/abcdef0123456789.txt"}
    r = await client.post(
        "/seo/api/instantindex",
        json={**folder, "urls": ["https://www.example.com/catalog/a", "https://www.example.com/help/b"]},
    )
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "urls[1]" and "/catalog/" in r.text
    with respx.mock(assert_all_called=True) as mock:
        route = mock.post("https://api.indexnow.org/indexnow").respond(202)
        r = await client.post("/seo/api/instantindex", json={**folder, "urls": ["https://www.example.com/catalog/a"]})
    assert r.status_code == 200 and json.loads(route.calls.last.request.content)["keyLocation"].endswith(
        "/catalog/abcdef0123456789.txt"
    )


async def test_bulk_limit_and_batches(monkeypatch) -> None:
    from twlookup.services.seo.logic import indexnow
    from twlookup.services.seo.schemas import BulkSubmitBody

    assert [len(b) for b in indexnow.batches([str(i) for i in range(25)], 10)] == [10, 10, 5]
    with pytest.raises(Exception, match="10000"):
        BulkSubmitBody(host="a.example", key="abcdef0123", urls=["https://a.example/"] * 10_001)


# --- site-check --------------------------------------------------------------------------------


async def test_site_check_ok(client) -> None:
    robots = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nNoindex: /x\nSitemap: https://example.com/sitemap.xml\n"
    with respx.mock(assert_all_called=False) as mock:
        mock_site(
            mock,
            httpx.Response(200, text=robots),
            llms=httpx.Response(
                200, text="# Example\n\n> A site.\n\n## Docs\n- [API](https://example.com/api): the API\n- bad item\n"
            ),
        )
        r = await client.get("/seo/api/site-check", params={"url": "https://example.com/some/page"})
    body = r.json()
    assert r.status_code == 200, body
    assert body["robots"]["status"] == "ok" and body["robots"]["sitemaps"] == ["https://example.com/sitemap.xml"]
    assert body["robots"]["findings"][0]["line"] == 6
    verdicts = {c["token"]: c["allowed"] for c in body["crawlers"]}
    assert verdicts["GPTBot"] is False and verdicts["Googlebot"] is True
    assert body["sitemaps"][0]["looks_like_sitemap"] and body["sitemaps"][0]["declared"]
    assert body["llms_txt"]["present"] and body["llms_txt"]["findings"][0]["line"] == 7
    assert [f["impact"] for f in body["fixes"]] == sorted(
        [f["impact"] for f in body["fixes"]], key=["critical", "high", "medium", "low"].index
    )


@pytest.mark.parametrize(
    ("robots", "status", "googlebot"),
    [(httpx.Response(404), "unavailable", True), (httpx.Response(503), "unreachable", False)],
)
async def test_site_check_robots_status_rules(client, robots, status, googlebot) -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock_site(mock, robots, sitemap=404)
        body = (await client.get("/seo/api/site-check", params={"url": "https://example.com/"})).json()
    assert body["robots"]["status"] == status
    assert {c["token"]: c["allowed"] for c in body["crawlers"]}["Googlebot"] is googlebot
    if status == "unreachable":
        assert body["fixes"][0]["impact"] == "critical"
    assert any(f["impact"] == "medium" and "sitemap" in f["what"] for f in body["fixes"])


@pytest.mark.parametrize(
    "failure", [httpx.ConnectError("connection refused"), httpx.ConnectTimeout("no connection in time")]
)
async def test_site_check_our_connection_failure_is_503_not_a_verdict(client, failure) -> None:
    # Issue 23: the site was never reached, so nothing can be said about its robots.txt.
    with respx.mock(assert_all_called=False) as mock:
        mock.get(url__startswith="https://example.com/").mock(side_effect=failure)
        r = await client.get("/seo/api/site-check", params={"url": "https://example.com/"})
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["upstream"] == "example.com" and "crawlers" not in r.json()


async def test_site_check_unresolvable_host_is_503(client) -> None:
    with respx.mock(assert_all_called=False) as mock:
        other = mock.route().respond(200)
        r = await client.get("/seo/api/site-check", params={"url": "https://no-such-host.example/"})
    assert r.status_code == 503 and r.headers["retry-after"]
    assert "does not resolve" in r.json()["detail"] and not other.called


@pytest.mark.parametrize(
    "failure", [httpx.ReadTimeout("no answer"), httpx.RemoteProtocolError("peer closed"), httpx.ReadError("reset")]
)
async def test_site_check_robots_not_answering_is_the_rfc_9309_verdict(client, failure) -> None:
    # The site accepted the connection, but robots.txt did not come: RFC 9309 2.3.1.4, complete disallow.
    with respx.mock(assert_all_called=False) as mock:
        mock_site(mock, httpx.Response(200))
        mock.get("https://example.com/robots.txt").mock(side_effect=failure)
        r = await client.get("/seo/api/site-check", params={"url": "https://example.com/"})
    body = r.json()
    assert r.status_code == 200, body
    assert body["robots"]["status"] == "unreachable" and body["robots"]["http_status"] is None
    assert {c["token"]: c["allowed"] for c in body["crawlers"]}["Googlebot"] is False


@pytest.mark.parametrize("url", ["http://[::1", "http://[2001:db8::zz]/", "http://exa_mple.com:99999/"])
async def test_site_check_malformed_url_is_422_naming_url(client, url: str) -> None:
    r = await client.get("/seo/api/site-check", params={"url": url})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["parameter"] == "url"


async def test_site_check_ipv6_literal_is_kept_in_brackets(client, monkeypatch) -> None:
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "fetch_extra_ports", [8080])
    site6 = "http://[2606:4700::6810:84e5]:8080"
    with respx.mock(assert_all_called=False) as mock:
        robots = mock.get(f"{site6}/robots.txt").respond(200, text="User-agent: *\nDisallow: /private/\n")
        mock.get(f"{site6}/sitemap.xml").respond(404)
        mock.get(f"{site6}/llms.txt").respond(404)
        r = await client.get("/seo/api/site-check", params={"url": f"{site6}/page"})
    body = r.json()
    assert r.status_code == 200, body
    assert robots.called and body["robots"]["url"] == f"{site6}/robots.txt"
    assert body["robots"]["status"] == "ok" and body["sitemaps"][0]["url"] == f"{site6}/sitemap.xml"
    assert body["llms_txt"]["url"] == f"{site6}/llms.txt"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://[::1]:8080/", "loopback"),
        ("http://[2001:db8::1]/", "not globally routable"),
        ("http://[fd00:ec2::254]/", "cloud metadata"),
        ("http://[::ffff:127.0.0.1]/", "IPv4-mapped"),
    ],
)
async def test_site_check_ipv6_private_literals_are_refused_by_address(client, monkeypatch, url: str, why: str) -> None:
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "fetch_extra_ports", [8080])
    with respx.mock(assert_all_called=False) as mock:
        other = mock.route().respond(200)
        r = await client.get("/seo/api/site-check", params={"url": url})
    assert r.status_code == 422, r.text
    error = r.json()["errors"][0]
    # refused for its address, not mangled into an invalid URL
    assert error["parameter"] == "url" and error["reason"] == "address" and why in error["message"]
    assert not other.called


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://169.254.169.254/",
        "http://internal.example/",
        "http://[::1]/",
        "http://example.com:22/",
    ],
)
async def test_site_check_never_reaches_private_addresses(client, url: str) -> None:
    with respx.mock(assert_all_called=False) as mock:
        other = mock.route().respond(200)
        r = await client.get("/seo/api/site-check", params={"url": url})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "url"
    assert not other.called


async def test_site_check_slow_site_does_not_block_other_requests(client, monkeypatch) -> None:
    """While a site check waits on a site that does not answer, another request is answered: the
    quick one comes back while the check is still waiting (no clock is read)."""
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "fetch_timeout_seconds", 30.0)
    release = asyncio.Event()

    async def slow(request):
        await release.wait()
        return httpx.Response(200, text="User-agent: *\nAllow: /\n")

    assert (await client.get("/seo/api/bots")).status_code == 200  # the catalogue loaded
    with respx.mock(assert_all_called=False) as mock:
        mock.get(url__startswith="https://example.com/").mock(side_effect=slow)
        check = asyncio.create_task(client.get("/seo/api/site-check", params={"url": "https://example.com/"}))
        await asyncio.sleep(0.05)
        quick = await client.get("/seo/api/bots")
        waiting = not check.done()
        release.set()
        r = await check
    assert quick.status_code == 200 and waiting
    assert r.status_code == 200 and r.json()["robots"]["status"] == "ok"


# --- paid audit (called directly; the x402 flow is in tests/e2e) ------------------------------


GOOD_PAGE = (
    "<!doctype html><html><head><title>臺灣連假 2027</title>"
    "<meta name='description' content='2027 年的連假整理'>"
    "<link rel='canonical' href='https://example.com/page'>"
    "<meta property='og:title' content='t'><meta property='og:type' content='article'>"
    "<meta property='og:image' content='https://example.com/i.png'><meta property='og:url' content='https://example.com/page'>"
    "<meta name='twitter:card' content='summary'>"
    '<script type=\'application/ld+json\'>{"@type": "Article"}</script></head>'
    "<body><h1>連假</h1><img src=a.png alt='a'><a href='/other'>x</a><p>" + "字" * 300 + "</p></body></html>"
)


async def test_audit_scores_thirteen_items(client) -> None:  # client: the store the catalogue reads
    from twlookup.services.seo.operations.site_check import seo_audit
    from twlookup.services.seo.schemas import UrlQuery

    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/page").respond(200, html=GOOD_PAGE)
        mock.get("https://example.com/robots.txt").respond(
            200,
            text="User-agent: GPTBot\nDisallow: /\nUser-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n",
        )
        mock.get("https://example.com/sitemap.xml").respond(200, text="<urlset></urlset>")
        audit = await seo_audit(UrlQuery(url="https://example.com/page"))
    assert len(audit.items) == 13 and sum(audit.weights.values()) == 100
    assert audit.score == 100, [i for i in audit.items if i.score < 1]

    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/page").respond(
            200, html="<html><head><meta name=robots content='noindex'></head><body><img src=x></body></html>"
        )
        mock.get("https://example.com/robots.txt").respond(404)
        mock.get("https://example.com/sitemap.xml").respond(404)
        audit = await seo_audit(UrlQuery(url="https://example.com/page"))
    by = {i.item: i for i in audit.items}
    assert by["noindex"].score == 0 and by["title"].score == 0 and by["image_alt"].score == 0
    assert (audit.score < 30 and audit.fixes[0] == by["noindex"].fix) or audit.fixes[0] == by["title"].fix


async def test_audit_refuses_private_page() -> None:
    from twlookup.platform.fetch import FetchRefused
    from twlookup.services.seo.operations.site_check import seo_audit
    from twlookup.services.seo.schemas import UrlQuery

    with pytest.raises(FetchRefused):
        await seo_audit(UrlQuery(url="http://internal.example/"))


def _facts(html: str):
    return audit_rules.page_facts(html, "https://example.com/page")


@pytest.mark.parametrize(
    ("title", "score"),
    [
        ("A", 0.5),  # issue 27: a 1-character title had full marks
        ("Home", 0.5),  # Google's own example of a vague title
        ("首頁", 0.5),
        ("About us", 0.5),  # two words
        ("臺灣連假 2027", 1),  # four CJK characters and a year: five words
        ("Mary's Maple Bar Fast-Baking Recipe", 1),
        ("", 0),
    ],
)
def test_audit_title_too_short_or_vague_is_not_full_marks(title: str, score: float) -> None:
    items = {
        i.item: i for i in audit_rules.audit_page(_facts(f"<html><head><title>{title}</title></head></html>"), "u")
    }
    assert items["title"].score == score, items["title"].detail
    assert (items["title"].fix is None) is (score == 1)


def test_audit_social_tags_asks_only_for_what_is_missing() -> None:
    head = (
        "<meta property='og:title' content='t'><meta property='og:type' content='article'>"
        "<meta property='og:image:url' content='https://example.com/i.png'>"  # ogp.me: og:image:url is og:image
        "<meta property='og:url' content='https://example.com/page'>"
    )
    item = next(
        i for i in audit_rules.audit_page(_facts(f"<html><head>{head}</head></html>"), "u") if i.item == "social_tags"
    )
    assert item.score == 0.8 and item.fix == "Add twitter:card."
    assert "4/4" in item.detail
    full = head + "<meta name='twitter:card' content='summary'>"
    item = next(
        i for i in audit_rules.audit_page(_facts(f"<html><head>{full}</head></html>"), "u") if i.item == "social_tags"
    )
    assert item.score == 1 and item.fix is None
    item = next(i for i in audit_rules.audit_page(_facts("<html></html>"), "u") if i.item == "social_tags")
    assert item.score == 0 and item.fix == "Add og:title, og:type, og:image, og:url and twitter:card."


async def test_audit_with_a_one_character_title_is_not_100(client) -> None:
    from twlookup.services.seo.operations.site_check import seo_audit
    from twlookup.services.seo.schemas import UrlQuery

    page = GOOD_PAGE.replace("<title>臺灣連假 2027</title>", "<title>A</title>")
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/page").respond(200, html=page)
        mock.get("https://example.com/robots.txt").respond(
            200,
            text="User-agent: GPTBot\nDisallow: /\nUser-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n",
        )
        mock.get("https://example.com/sitemap.xml").respond(200, text="<urlset></urlset>")
        audit = await seo_audit(UrlQuery(url="https://example.com/page"))
    by = {i.item: i for i in audit.items}
    assert by["title"].score == 0.5 and audit.score == 94 and by["social_tags"].fix is None
    assert any(s.url == "https://ogp.me/" and s.checked for s in audit.sources)


async def test_site_check_rates_unknown_lines_low_not_high(client) -> None:
    # Issue 27: lines crawlers ignore were "high-impact format errors".
    robots = "User-agent: *\nDisallow: /private/\nHost: example.com\nFoo bar baz\nCrawl-delay: 5\n"
    with respx.mock(assert_all_called=False) as mock:
        mock_site(mock, httpx.Response(200, text=robots))
        body = (await client.get("/seo/api/site-check", params={"url": "https://example.com/"})).json()
    assert {f["severity"] for f in body["robots"]["findings"]} == {"warning"}
    assert not [f for f in body["fixes"] if f["impact"] in ("critical", "high")]
    assert any(f["impact"] == "low" and "3 warning(s)" in f["what"] for f in body["fixes"])


async def test_site_check_reads_the_first_500_kib_of_a_huge_robots_txt(client, monkeypatch) -> None:
    # Issue 27: a file over the size read is cut as Google cuts it, not refused.
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "fetch_max_bytes", 600_000)
    head = "User-agent: *\nDisallow: /private/\n#"
    whole = (head + "x" * (700_000 - len(head)) + "\nDisallow: /\n").encode()

    def robots_txt(request: httpx.Request) -> httpx.Response:
        asked = request.headers.get("range")
        if asked == "bytes=0-511999":
            return httpx.Response(
                206, content=whole[:512_000], headers={"content-range": f"bytes 0-511999/{len(whole)}"}
            )
        return httpx.Response(200, content=whole)

    with respx.mock(assert_all_called=False) as mock:
        mock_site(mock, httpx.Response(200))
        route = mock.get("https://example.com/robots.txt").mock(side_effect=robots_txt)
        r = await client.get("/seo/api/site-check", params={"url": "https://example.com/"})
    body = r.json()
    assert r.status_code == 200, body
    assert route.call_count == 2 and body["robots"]["status"] == "ok" and body["robots"]["http_status"] == 206
    assert "500 KiB" in body["robots"]["meaning"]
    # the Disallow: / past 500 KiB is not read: Googlebot may fetch the home page
    assert {c["token"]: c["allowed"] for c in body["crawlers"]}["Googlebot"] is True


HOSTILE_JSON_LD = "[" * 100_000 + "]" * 100_000  # nested deeper than any JSON parser recurses


def test_deeply_nested_json_ld_is_invalid_structured_data_not_a_crash() -> None:
    facts = _facts(f"<html><head><script type='application/ld+json'>{HOSTILE_JSON_LD}</script></head></html>")
    assert (facts.json_ld, facts.json_ld_valid) == (1, 0)


async def test_audit_of_a_page_with_hostile_json_ld_answers_as_a_bad_page(client) -> None:
    """A script tag of JSON nested 100,000 deep made the parser raise RecursionError (a 500): the page
    is audited like any page whose structured data does not parse."""
    from twlookup.services.seo.operations.site_check import seo_audit
    from twlookup.services.seo.schemas import UrlQuery

    page = GOOD_PAGE.replace('{"@type": "Article"}', HOSTILE_JSON_LD)
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/page").respond(200, html=page)
        mock.get("https://example.com/robots.txt").respond(404)
        mock.get("https://example.com/sitemap.xml").respond(404)
        audit = await seo_audit(UrlQuery(url="https://example.com/page"))
    by = {i.item: i for i in audit.items}
    assert by["structured_data"].score < 1 and by["structured_data"].fix
