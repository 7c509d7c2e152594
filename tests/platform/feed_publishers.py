"""The feeds' publishers, mocked with respx in their real formats: the files the importer tests use
(tests/services/*/fixtures), served at the official URLs the feeds declare.

Where no fixture file exists, the answer is built in the publisher's documented format from data
the project already holds: web-features' data.json from data/motion/support.yaml (itself an
extract of web-features 3.40.0), npm version documents from data/motion/libraries.yaml, crawler
IP-range files with the sample prefixes of data/seo/ipranges.yaml, ai.robots.txt's robots.json with
the names of data/seo/ai-robots.yaml, and a GCIS row for the one
company the shipped store holds (its name and status as data/creator/companies.yaml gives them).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import httpx
import respx
from yaml_files import load_yaml

from twlookup.services.creator.parsers import GCIS_COMPANY
from twlookup.services.food.feeds import OVERPASS_SERVER
from twlookup.services.life.feeds import FUEL as FUEL_FEED
from twlookup.services.life.parsers import INVOICE_FEED
from twlookup.services.models.feeds import CLAUDE
from twlookup.services.opinions.parsers.mobile01 import topic_url
from twlookup.services.price.parsers import FEED_URL as FARM_URL
from twlookup.services.seo.parsers import RAW_URL as AI_ROBOTS_URL
from twlookup.services.stocks.parsers import FEEDS as EXCHANGES
from twlookup.services.trip.feeds import FX

# the official URLs the feeds download from (data/<service>/feeds.toml)
FUEL_CURRENT, CLAUDE_URL, BOARD_CSV = FUEL_FEED.urls[0], CLAUDE.urls[0], FX.urls[0]
ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "tests" / "services"
DATA = ROOT / "data"
OVERPASS_FILE = SERVICES / "food" / "fixtures" / "overpass-taipei-station.json"
MOBILE01_FILE = (
    SERVICES / "opinions" / "fixtures" / "mobile01-291-9000001.html"
)  # imported first: refresh reads it again
TODAY = date(2026, 11, 24)  # the refreshes in these tests run on this Taiwan day

TWSE = SERVICES / "stocks" / "fixtures" / "twse_stock_day_all.json"
TPEX = SERVICES / "stocks" / "fixtures" / "tpex_daily_close_quotes.json"
FX_FILE = SERVICES / "trip" / "fixtures" / "ExchangeRate@202611221600.csv"
INVOICE = SERVICES / "life" / "fixtures" / "invoice.xml"
FUEL = SERVICES / "life" / "fixtures" / "cpc_listprice.xml"
LOTTERY = {
    "Lotto649Result": SERVICES / "life" / "fixtures" / "lotto649.json",
    "SuperLotto638Result": SERVICES / "life" / "fixtures" / "superlotto638.json",
    "Daily539Result": SERVICES / "life" / "fixtures" / "daily539.json",
}
FARM = SERVICES / "price" / "fixtures" / "farm_trans_115.11.22.json"
KONAMI = SERVICES / "cardgame" / "fixtures" / "konami-ae-fl-page.html"
KONAMI_URL = "https://www.yugioh-card.com/asia//play/forbidden-and-limited-card-list-ae/"
WEB_FEATURES_LATEST = "https://github.com/web-platform-dx/web-features/releases/latest/download/data.json"
WEB_FEATURES_RELEASE = "https://github.com/web-platform-dx/web-features/releases/download/v3.41.0/data.json"


def web_features_data() -> bytes:
    """A data.json in web-features' format with the 18 features this service reads."""
    doc = load_yaml((DATA / "motion" / "support.yaml").read_text(encoding="utf-8"))
    features = {}
    for f in doc["features"]:
        status: dict = {"baseline": f["baseline"] if f["baseline"] != "none" else False, "support": f["support"]}
        for key in ("baseline_low_date", "baseline_high_date"):
            if f.get(key):
                status[key] = str(f[key])
        features[f["id"]] = {"name": f["name"], "status": status, "group": ["animation"]}
    return json.dumps({"browsers": {}, "groups": {}, "snapshots": {}, "features": features}).encode()


def npm_documents() -> dict[str, dict]:
    """registry.npmjs.org/<name>/latest documents of the libraries the store lists with an npm source."""
    docs = {d["name"]: d for d in json.loads((SERVICES / "motion" / "npm-motion.json").read_text())}
    libraries = load_yaml((DATA / "motion" / "libraries.yaml").read_text(encoding="utf-8"))["libraries"]
    for lib in libraries:
        if lib["source"].startswith("https://www.npmjs.com/package/") and lib["name"] not in docs:
            docs[lib["name"]] = {
                "name": lib["name"],
                "version": lib["version"],
                "license": lib["package_licence"],
                "dist": {"unpackedSize": lib.get("unpacked_bytes")},
            }
    return docs


def ip_range_file(created: str = "2026-11-23T15:46:04.000000") -> dict:
    return {
        "creationTime": created,
        "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}],
    }


GCIS_ROW = {  # the shipped store's one company; fields beyond its name and status are left empty
    "Business_Accounting_NO": "22099131",
    "Company_Name": "台灣積體電路製造股份有限公司",
    "Company_Status_Desc": "核准設立",
    "Capital_Stock_Amount": "",
    "Paid_In_Capital_Amount": "",
    "Responsible_Name": "",
    "Company_Location": "",
    "Register_Organization_Desc": "",
    "Company_Setup_Date": "",
    "Change_Of_Approval_Data": "",
}


def _lottery(request: httpx.Request) -> httpx.Response:
    name = request.url.path.rsplit("/", 1)[-1]
    fixture = json.loads(LOTTERY[name].read_text(encoding="utf-8"))
    if request.url.params.get("month") == TODAY.strftime("%Y-%m"):
        return httpx.Response(200, json=fixture)
    key = next(k for k in fixture["content"] if k.endswith("Res"))
    return httpx.Response(200, json={"rtCode": 0, "rtMsg": "", "content": {"totalSize": 0, key: []}})


def _npm(request: httpx.Request) -> httpx.Response:
    name = request.url.path.removeprefix("/").removesuffix("/latest").replace("%2F", "/").replace("%2f", "/")
    docs = npm_documents()
    return httpx.Response(200, json=docs[name]) if name in docs else httpx.Response(404, json={"error": "Not found"})


WIKIDATA_SPARQL = "https://query.wikidata.org/sparql"
SPARQL = {
    "movie": SERVICES / "movie" / "fixtures" / "wikidata-movie-2026-11-26.json",
    "games": SERVICES / "games" / "fixtures" / "wikidata-games-2026-11-26.json",
}


def _sparql(request: httpx.Request) -> httpx.Response:
    which = "games" if "wd:Q7889" in request.url.params.get("query", "") else "movie"
    return httpx.Response(
        200, content=SPARQL[which].read_bytes(), headers={"Content-Type": "application/sparql-results+json"}
    )


def mobile01_page_with_a_new_reply() -> bytes:
    """The saved topic page as Mobile01 shows it a little later: its last floor repeated as floor #4."""
    page = MOBILE01_FILE.read_text(encoding="utf-8")
    last = page[page.rindex('<div class="l-articlePage">') : page.rindex("</div>\n</body>")]
    return page.replace("</body>", last.replace("#3", "#4").replace("_90000003", "_90000004") + "</body>").encode()


def mock_publishers(router: respx.MockRouter) -> dict[str, respx.Route]:
    """Every refreshable feed's official URL answering its real format; returns the routes by feed."""
    routes = {
        "stocks.twse": router.get(EXCHANGES[0].url).mock(
            return_value=httpx.Response(200, content=TWSE.read_bytes(), headers={"ETag": '"twse-1"'})
        ),
        "stocks.tpex": router.get(EXCHANGES[1].url).mock(return_value=httpx.Response(200, content=TPEX.read_bytes())),
        "trip.fx": router.get(BOARD_CSV).mock(
            return_value=httpx.Response(
                200,
                content=FX_FILE.read_bytes(),
                headers={"Content-Disposition": f"attachment; filename={FX_FILE.name}", "Content-Type": "text/csv"},
            )
        ),
        "life.invoice": router.get(INVOICE_FEED).mock(
            return_value=httpx.Response(
                200, content=INVOICE.read_bytes(), headers={"Last-Modified": "Wed, 25 Mar 2026 05:40:00 GMT"}
            )
        ),
        "life.fuel": router.get(FUEL_CURRENT).mock(return_value=httpx.Response(200, content=FUEL.read_bytes())),
        "life.lottery": router.get(url__startswith="https://api.taiwanlottery.com/TLCAPIWeB/Lottery/").mock(
            side_effect=_lottery
        ),
        "price.daily": router.get(url__startswith=FARM_URL).mock(
            return_value=httpx.Response(200, content=FARM.read_bytes())
        ),
        "cardgame.banlist": router.get(KONAMI_URL).mock(return_value=httpx.Response(200, content=KONAMI.read_bytes())),
        "motion.support": router.get(WEB_FEATURES_LATEST).mock(
            return_value=httpx.Response(302, headers={"Location": WEB_FEATURES_RELEASE})
        ),
        "motion.support.release": router.get(WEB_FEATURES_RELEASE).mock(
            return_value=httpx.Response(200, content=web_features_data())
        ),
        "motion.libraries": router.get(url__startswith="https://registry.npmjs.org/").mock(side_effect=_npm),
        "creator.companies": router.get(url__startswith=GCIS_COMPANY).mock(
            return_value=httpx.Response(200, json=[GCIS_ROW])
        ),
        "food.overpass": router.get(url__startswith=OVERPASS_SERVER).mock(
            return_value=httpx.Response(200, content=OVERPASS_FILE.read_bytes())
        ),
        "opinions.mobile01": router.get(topic_url(291, 9000001)).mock(
            return_value=httpx.Response(200, content=mobile01_page_with_a_new_reply())
        ),
        # movie.wikidata and games.wikidata: one query each, told apart by what they ask for
        "wikidata": router.get(WIKIDATA_SPARQL).mock(side_effect=_sparql),
        "models.claude": router.get(CLAUDE_URL).mock(
            return_value=httpx.Response(
                200, content=(SERVICES / "models" / "fixtures" / "endoflife-anthropic-claude.json").read_bytes()
            )
        ),
    }
    listed = load_yaml((DATA / "seo" / "ai-robots.yaml").read_text(encoding="utf-8"))["agents"]
    robots_json = {
        a["name"]: {"operator": a["operator"], "respect": "Unclear at this time.", "function": ""} for a in listed
    }
    routes["seo.airobots"] = router.get(AI_ROBOTS_URL).mock(return_value=httpx.Response(200, json=robots_json))
    ranges = load_yaml((DATA / "seo" / "ipranges.yaml").read_text(encoding="utf-8"))["files"]
    for f in ranges:
        routes[f"seo.{f['id']}"] = router.get(f["source"]).mock(return_value=httpx.Response(200, json=ip_range_file()))
    return routes
