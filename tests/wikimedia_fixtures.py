"""Wikidata and Wikipedia answers in their real formats, for respx (used by the sports, movie and
games tests and their e2e examples).

Formats: the action API's `wbsearchentities` and `wbgetentities` modules (entities in the
canonical Wikibase JSON format: labels/descriptions keyed by language, claims keyed by property,
each statement with mainsnak, rank, qualifiers; time values with precision 9/10/11) and the REST
`page/summary` endpoint (title, description, extract, wikibase_item, content_urls). The item ids
below are illustrative: the shapes are what matters to the parser.

Routes match on the API's path and `action` parameter, whatever the host, so they work both
against the real addresses and the blocked addresses the test session uses.
"""

from __future__ import annotations

from typing import Any

import httpx
import respx

CALENDAR = "http://www.wikidata.org/entity/Q1985727"


def hit(qid: str, label: str, description: str, language: str = "en") -> dict[str, Any]:
    return {
        "id": qid,
        "title": qid,
        "pageid": int(qid[1:]) + 1000,
        "concepturi": f"http://www.wikidata.org/entity/{qid}",
        "repository": "wikidata",
        "url": f"//www.wikidata.org/wiki/{qid}",
        "display": {
            "label": {"value": label, "language": language},
            "description": {"value": description, "language": language},
        },
        "label": label,
        "description": description,
        "match": {"type": "label", "language": language, "text": label},
    }


def search(query: str, hits: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"searchinfo": {"search": query}, "search": hits, "success": 1}
    if len(hits) >= 5:
        out["search-continue"] = 5
    return out


def _snak(prop: str, datatype: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"snaktype": "value", "property": prop, "datavalue": value, "datatype": datatype}


def item_claim(prop: str, qid: str, rank: str = "normal", place: str | None = None) -> dict[str, Any]:
    statement: dict[str, Any] = {
        "mainsnak": _snak(
            prop,
            "wikibase-item",
            {"value": {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}, "type": "wikibase-entityid"},
        ),
        "type": "statement",
        "id": f"{prop}${qid}-0000",
        "rank": rank,
    }
    if place:
        statement["qualifiers"] = {"P291": [item_claim("P291", place)["mainsnak"]]}
        statement["qualifiers-order"] = ["P291"]
    return statement


def time_claim(
    prop: str, when: str, precision: int = 11, place: str | None = None, rank: str = "normal"
) -> dict[str, Any]:
    statement: dict[str, Any] = {
        "mainsnak": _snak(
            prop,
            "time",
            {
                "value": {
                    "time": f"+{when}T00:00:00Z",
                    "timezone": 0,
                    "before": 0,
                    "after": 0,
                    "precision": precision,
                    "calendarmodel": CALENDAR,
                },
                "type": "time",
            },
        ),
        "type": "statement",
        "id": f"{prop}$time-{when}",
        "rank": rank,
    }
    if place:
        statement["qualifiers"] = {"P291": [item_claim("P291", place)["mainsnak"]]}
        statement["qualifiers-order"] = ["P291"]
    return statement


def url_claim(prop: str, url: str) -> dict[str, Any]:
    return {
        "mainsnak": _snak(prop, "url", {"value": url, "type": "string"}),
        "type": "statement",
        "id": f"{prop}$url",
        "rank": "normal",
    }


def no_value(prop: str) -> dict[str, Any]:
    return {
        "mainsnak": {"snaktype": "novalue", "property": prop, "datatype": "wikibase-item"},
        "type": "statement",
        "id": f"{prop}$none",
        "rank": "normal",
    }


def entity(
    qid: str,
    labels: dict[str, str],
    descriptions: dict[str, str] | None = None,
    claims: list[dict[str, Any]] | None = None,
    sitelinks: dict[str, str] | None = None,
) -> dict[str, Any]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for claim in claims or []:
        grouped.setdefault(claim["mainsnak"]["property"], []).append(claim)
    return {
        "type": "item",
        "id": qid,
        "labels": {lang: {"language": lang, "value": v} for lang, v in labels.items()},
        "descriptions": {lang: {"language": lang, "value": v} for lang, v in (descriptions or {}).items()},
        "claims": grouped,
        "sitelinks": {site: {"site": site, "title": title, "badges": []} for site, title in (sitelinks or {}).items()},
        "lastrevid": 2300000000,
        "modified": "2026-11-20T08:00:00Z",
        "pageid": int(qid[1:]) + 1000,
        "ns": 0,
        "title": qid,
    }


def entities(*items: dict[str, Any]) -> dict[str, Any]:
    return {"entities": {e["id"]: e for e in items}, "success": 1}


def labels_only(names: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {
        "entities": {
            qid: {
                "type": "item",
                "id": qid,
                "labels": {lang: {"language": lang, "value": v} for lang, v in by_lang.items()},
            }
            for qid, by_lang in names.items()
        },
        "success": 1,
    }


def summary(title: str, extract: str, qid: str, lang: str = "zh", description: str | None = None) -> dict[str, Any]:
    page = f"https://{lang}.wikipedia.org/wiki/{title.replace(' ', '_')}"
    return {
        "type": "standard",
        "title": title,
        "displaytitle": title,
        "namespace": {"id": 0, "text": ""},
        "wikibase_item": qid,
        "titles": {"canonical": title.replace(" ", "_"), "normalized": title, "display": title},
        "pageid": 7000000,
        "lang": lang,
        "dir": "ltr",
        "revision": "1250000000",
        "tid": "00000000-0000-11ef-8000-000000000000",
        "timestamp": "2026-11-20T08:00:00Z",
        "description": description,
        "description_source": "central",
        "content_urls": {
            "desktop": {
                "page": page,
                "revisions": page + "?action=history",
                "edit": page + "?action=edit",
                "talk": page,
            },
            "mobile": {"page": page.replace(".wikipedia", ".m.wikipedia")},
        },
        "extract": extract,
        "extract_html": f"<p>{extract}</p>",
    }


API_ERROR = {
    "error": {
        "code": "maxlag",
        "info": "Waiting for a database server: 6 seconds lagged.",
        "host": "db1234",
        "lag": 6,
        "type": "db",
        "*": "See https://www.wikidata.org/w/api.php for API usage.",
    },
    "servedby": "mw1234",
}

# --------------------------------------------------------------------- ready-made scenarios

GTA = "Q118121519"
GAME_SEARCH = search(
    "Grand Theft Auto VI",
    [
        hit("Q118121520", "Grand Theft Auto VI trailer", "2023 video game trailer"),
        hit(GTA, "Grand Theft Auto VI", "2026 video game by Rockstar Games"),
    ],
)
GAME_ENTITIES = entities(
    entity(
        "Q118121520",
        {"en": "Grand Theft Auto VI trailer"},
        {"en": "2023 video game trailer"},
        [item_claim("P31", "Q622550")],
    ),
    entity(
        GTA,
        {"zh-tw": "俠盜獵車手VI", "en": "Grand Theft Auto VI", "zh": "侠盗猎车手VI"},
        {"en": "2026 video game by Rockstar Games", "zh-hant": "Rockstar Games 開發的電子遊戲"},
        [
            item_claim("P31", "Q7889"),
            time_claim("P577", "2026-11-19", 11),
            time_claim("P577", "2026", 9, rank="deprecated"),
            item_claim("P400", "Q63184502"),
            item_claim("P400", "Q98973368"),
            item_claim("P178", "Q171374"),
            item_claim("P123", "Q171374"),
            item_claim("P136", "Q2752098"),
            url_claim("P856", "https://www.rockstargames.com/VI"),
            no_value("P750"),
        ],
        {"zhwiki": "俠盜獵車手VI", "enwiki": "Grand Theft Auto VI"},
    ),
)
GAME_LABELS = labels_only(
    {
        "Q7889": {"zh-tw": "電子遊戲", "en": "video game"},
        "Q63184502": {"en": "PlayStation 5"},
        "Q98973368": {"zh-hant": "Xbox Series X/S", "en": "Xbox Series X and Series S"},
        "Q171374": {"en": "Rockstar Games"},
        "Q2752098": {"zh-tw": "動作冒險遊戲", "en": "action-adventure game"},
    }
)
GAME_SUMMARY = summary(
    "俠盜獵車手VI",
    "《俠盜獵車手VI》是一款由Rockstar Games開發並發行的動作冒險遊戲，是俠盜獵車手系列的第八部主要作品。" * 6,
    GTA,
    description="2026年電子遊戲",
)


def route_api(router: respx.Router, action: str, side_effect: Any = None) -> respx.Route:
    route = router.route(path="/w/api.php", params={"action": action})
    if side_effect is not None:
        route.side_effect = side_effect
    return route


def mock_game_lookup(router: respx.Router) -> dict[str, respx.Route]:
    """GTA VI: an ambiguous search whose second hit is the video game."""
    search_route = route_api(router, "wbsearchentities")
    search_route.return_value = httpx.Response(200, json=GAME_SEARCH)

    def getentities(request: httpx.Request) -> httpx.Response:
        props = request.url.params.get("props")
        return httpx.Response(200, json=GAME_LABELS if props == "labels" else GAME_ENTITIES)

    entities_route = route_api(router, "wbgetentities", side_effect=getentities)
    summary_route = router.route(host="zh.wikipedia.org", path__startswith="/api/rest_v1/page/summary/")
    summary_route.return_value = httpx.Response(200, json=GAME_SUMMARY)
    return {"search": search_route, "entities": entities_route, "summary": summary_route}


def generic_item(
    qid: str, label_en: str, description: str, p31: str, label_zh: str | None = None, claims: list | None = None
) -> dict[str, Any]:
    labels = {"en": label_en}
    if label_zh:
        labels["zh-tw"] = label_zh
    return entity(qid, labels, {"en": description}, [item_claim("P31", p31), *(claims or [])], {"enwiki": label_en})


def mock_any_lookup(router: respx.Router, found: dict[str, dict[str, Any]]) -> None:
    """Answer every search with the entity registered for its text (folded), else no match; every
    summary with a short English extract. For warming the cache in e2e examples."""

    def fold(text: str) -> str:
        return "".join(ch for ch in text.casefold() if ch.isalnum())

    by_id = {e["id"]: e for e in found.values()}

    def search_effect(request: httpx.Request) -> httpx.Response:
        q = request.url.params.get("search", "")
        e = found.get(fold(q))
        hits = [hit(e["id"], e["labels"]["en"]["value"], e["descriptions"]["en"]["value"])] if e else []
        return httpx.Response(200, json=search(q, hits))

    def entities_effect(request: httpx.Request) -> httpx.Response:
        ids = request.url.params.get("ids", "").split("|")
        if request.url.params.get("props") == "labels":
            return httpx.Response(200, json=labels_only({i: {"en": i} for i in ids}))
        return httpx.Response(200, json=entities(*(by_id[i] for i in ids if i in by_id)))

    def summary_effect(request: httpx.Request) -> httpx.Response:
        title = request.url.path.rsplit("/", 1)[-1]
        return httpx.Response(200, json=summary(title, f"{title} (test summary).", "Q1", lang="en"))

    route_api(router, "wbsearchentities", side_effect=search_effect)
    route_api(router, "wbgetentities", side_effect=entities_effect)
    router.route(path__regex=r"/api/rest_v1/page/summary/").side_effect = summary_effect
