"""The knowledge-base lookup shared by the release trackers: Wikidata entity search, the entity's
claims, and the Wikipedia summary, with a cache in the store.

One call of `lookup(q, domain)`:

1. the cache (table `kb_cache`, shared by every process on the store): a fresh entry answers with
   no outbound call;
2. Wikidata `wbsearchentities` (Chinese when the query has CJK characters, else English; labels
   asked for in zh-tw);
3. `wbgetentities` for the candidates; the one whose "instance of" (P31) is one of the domain's
   classes wins, else the one whose description names the domain, else the search's first;
4. `wbgetentities` for the labels of the items its claims point to (venue, platform, developer...);
5. the Wikipedia summary of its zh (Taiwan variant) or en article. A missing article is no error.

Labels prefer zh-tw, then zh-hant, then English, then zh. Wikidata is CC0; of Wikipedia (CC BY-SA
4.0) only the title, a short summary and the link are given.

Every call is bounded by the timeout setting. When Wikidata cannot be reached and the cache holds
nothing, `UpstreamUnavailable` (a 503 problem naming the upstream, Retry-After) is raised; a stale
cache entry is served instead, marked stale.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import anyio
from anyio import to_thread
from pydantic import Field
from sqlalchemy import JSON, DateTime, String
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.domain.release_dates import fold
from twlookup.platform.errors import Unreachable
from twlookup.platform.schemas import LazyModel, Source
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base
from twlookup.platform.tls import client_context

if TYPE_CHECKING:
    import httpx

WIKIDATA_API = "https://www.wikidata.org/w/api.php"
WIKIDATA_HOST = "www.wikidata.org"
ENTITY_URL = "https://www.wikidata.org/wiki/{id}"
SUMMARY_URL = "https://{lang}.wikipedia.org/api/rest_v1/page/summary/{title}"
LABEL_LANGUAGES = ("zh-tw", "zh-hant", "en", "zh")
RETRY_AFTER = "30"
MAX_VALUES = 8
EXTRACT_CHARS = 300
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

COMMON_PROPERTIES = {"P31": "instance of", "P856": "official website"}
WIKIDATA_LICENCE = "CC0-1.0"
WIKIPEDIA_LICENCE = "CC BY-SA 4.0"


class KnowledgeCache(Base):
    """A lookup's answer by domain and folded query, and when it was fetched."""

    __tablename__ = "kb_cache"

    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Domain:
    """What a service looks for: its name (cache namespace), the Wikidata classes it prefers, words
    of a matching description, and the properties it reports."""

    name: str
    classes: frozenset[str]
    keywords: tuple[str, ...]
    properties: dict[str, str] = field(default_factory=dict)


class KBValue(LazyModel):
    value: str = Field(description="Label, date (at its precision: YYYY-MM-DD, YYYY-MM or YYYY) or URL")
    id: str | None = Field(None, description="Wikidata item of the value, where it is an item")
    place: str | None = Field(None, description="Where this date applies (place of publication), if given")


class KBFact(LazyModel):
    property: str = Field(description="Wikidata property id, e.g. P577")
    name: str = Field(description="What the property means, e.g. publication date")
    values: list[KBValue]


class KBItem(LazyModel):
    id: str
    label: str | None
    label_language: str | None = Field(description="Language of the label: zh-tw, zh-hant, en or zh")
    description: str | None
    url: str


class KBArticle(LazyModel):
    title: str
    description: str | None
    summary: str | None = Field(description=f"The start of the article's summary (at most {EXTRACT_CHARS} characters)")
    url: str
    language: str
    licence: str = WIKIPEDIA_LICENCE


class KnowledgeResult(LazyModel):
    query: str
    found: bool = Field(description="False when Wikidata has no item matching the query")
    item: KBItem | None = None
    matches_domain: bool = Field(False, description="The item is of a kind this service looks for (film, game, event)")
    ambiguous: bool = Field(False, description="The search found several items; `candidates` lists the others")
    candidates: list[KBItem] = Field(default_factory=list)
    facts: list[KBFact] = Field(default_factory=list)
    article: KBArticle | None = None
    article_note: str | None = None
    licence: dict[str, str] = Field(
        default_factory=lambda: {
            "wikidata": WIKIDATA_LICENCE,
            "wikipedia": WIKIPEDIA_LICENCE + " (title, summary and link only)",
        }
    )
    source: Source
    fetched_at: datetime
    cached: bool = Field(False, description="Answered from the store's cache, with no outbound call")
    stale: bool = Field(
        False, description="The cache entry is older than the cache time; Wikidata could not be reached"
    )


class UpstreamUnavailable(Unreachable):
    def __init__(self, upstream: str, reason: str) -> None:
        super().__init__(
            upstream,
            f"The knowledge base ({upstream}) could not be reached: {reason}. Nothing was charged; try again later.",
            RETRY_AFTER,
        )


class _UpstreamError(Exception):
    pass


# ---------------------------------------------------------------- settings


@dataclass(frozen=True)
class KBSettings:
    timeout: float
    cache_seconds: int
    user_agent: str


def kb_settings() -> KBSettings:
    from twlookup.settings import get_settings

    s = get_settings()
    return KBSettings(s.kb_timeout_seconds, s.kb_cache_seconds, s.kb_user_agent)


# ---------------------------------------------------------------- cache (store, off the loop)


def cache_key(domain: Domain, query: str) -> str:
    return f"{domain.name}:{fold(query)}"[:400]


def _cache_get(key: str) -> KnowledgeCache | None:
    with store_engine.session() as session:
        return session.get(KnowledgeCache, key)


def _cache_put(key: str, value: dict[str, Any], fetched_at: datetime) -> None:
    with store_engine.session() as session, session.begin():
        row = session.get(KnowledgeCache, key)
        if row is None:
            session.add(KnowledgeCache(key=key, value=value, fetched_at=fetched_at))
        else:
            row.value, row.fetched_at = value, fetched_at
    return None


async def _store_put(key: str, result: KnowledgeResult) -> None:
    with contextlib.suppress(IntegrityError):  # another request stored the same lookup first
        await to_thread.run_sync(_cache_put, key, result.model_dump(mode="json"), result.fetched_at)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# ---------------------------------------------------------------- the lookup


async def lookup(query: str, domain: Domain, *, use_cache: bool = True) -> KnowledgeResult:
    """Look `query` up in Wikidata and Wikipedia (see the module text). Raises UpstreamUnavailable."""
    import httpx  # imported by the first lookup, not at start

    conf = kb_settings()
    key = cache_key(domain, query)
    row = await to_thread.run_sync(_cache_get, key) if use_cache else None
    now = datetime.now(UTC)
    if row is not None and now - _aware(row.fetched_at) < timedelta(seconds=conf.cache_seconds):
        return KnowledgeResult.model_validate({**row.value, "cached": True, "stale": False})
    try:
        with anyio.fail_after(conf.timeout * 2.5):
            result = await _fetch(query, domain, conf, now)
    except (httpx.HTTPError, _UpstreamError, TimeoutError) as exc:
        if row is not None:
            return KnowledgeResult.model_validate({**row.value, "cached": True, "stale": True})
        raise UpstreamUnavailable(WIKIDATA_HOST, _reason(exc)) from None
    await _store_put(key, result)
    return result


def _reason(exc: BaseException) -> str:
    import httpx

    if isinstance(exc, (httpx.TimeoutException, TimeoutError)):
        return "no answer within the time limit"
    if isinstance(exc, httpx.HTTPStatusError):
        return f"it answered HTTP {exc.response.status_code}"
    if isinstance(exc, httpx.HTTPError):
        return f"connection failed ({type(exc).__name__})"
    return str(exc)


async def _api(client: httpx.AsyncClient, params: dict[str, str]) -> dict[str, Any]:
    response = await client.get(WIKIDATA_API, params={**params, "format": "json"})
    response.raise_for_status()
    try:
        body = response.json()
    except ValueError:
        raise _UpstreamError("it answered something that is not JSON") from None
    if not isinstance(body, dict):
        raise _UpstreamError("it answered an unexpected document")
    if "error" in body:
        err = body["error"]
        info = (err.get("info") or err.get("code")) if isinstance(err, dict) else err
        raise _UpstreamError(f"it answered an API error ({info})")
    return body


async def _fetch(query: str, domain: Domain, conf: KBSettings, now: datetime) -> KnowledgeResult:
    import httpx

    headers = {"User-Agent": conf.user_agent, "Accept": "application/json"}
    async with httpx.AsyncClient(
        timeout=httpx.Timeout(conf.timeout), headers=headers, verify=client_context(trust_env=True)
    ) as client:
        language = "zh" if CJK.search(query) else "en"
        found = await _api(
            client,
            {
                "action": "wbsearchentities",
                "search": query,
                "language": language,
                "uselang": "zh-tw",
                "type": "item",
                "limit": "5",
            },
        )
        hits = [h for h in found.get("search", []) if isinstance(h, dict) and h.get("id")]
        source = Source(url="https://www.wikidata.org/", title="Wikidata", checked=now.date(), licence=WIKIDATA_LICENCE)
        if not hits:
            return KnowledgeResult(query=query, found=False, source=source, fetched_at=now)
        ids = [h["id"] for h in hits]
        body = await _api(
            client,
            {
                "action": "wbgetentities",
                "ids": "|".join(ids),
                "props": "labels|descriptions|claims|sitelinks",
                "languages": "|".join(LABEL_LANGUAGES),
                "sitefilter": "zhwiki|enwiki",
            },
        )
        entities = {k: v for k, v in (body.get("entities") or {}).items() if isinstance(v, dict) and "missing" not in v}
        if not entities:
            return KnowledgeResult(query=query, found=False, source=source, fetched_at=now)
        chosen, matches = _choose([i for i in ids if i in entities], entities, domain)
        entity = entities[chosen]
        properties = {**COMMON_PROPERTIES, **domain.properties}
        referenced = _referenced_items(entity, properties)
        labels: dict[str, str] = {}
        if referenced:
            named = await _api(
                client,
                {
                    "action": "wbgetentities",
                    "ids": "|".join(referenced[:50]),
                    "props": "labels",
                    "languages": "|".join(LABEL_LANGUAGES),
                },
            )
            for qid, ent in (named.get("entities") or {}).items():
                label, _ = _label(ent.get("labels") or {})
                if label:
                    labels[qid] = label
        article, article_note = await _article(client, entity)
    item = _item(chosen, entity)
    others = [_item(i, entities[i]) if i in entities else None for i in ids if i != chosen]
    return KnowledgeResult(
        query=query,
        found=True,
        item=item,
        matches_domain=matches,
        ambiguous=len(hits) > 1,
        candidates=[o for o in others if o is not None],
        facts=_facts(entity, properties, labels),
        article=article,
        article_note=article_note,
        source=Source(url=item.url, title=f"Wikidata {chosen}", checked=now.date(), licence=WIKIDATA_LICENCE),
        fetched_at=now,
    )


def _label(values: dict[str, Any]) -> tuple[str | None, str | None]:
    for lang in LABEL_LANGUAGES:
        entry = values.get(lang)
        if isinstance(entry, dict) and entry.get("value"):
            return entry["value"], lang
    return None, None


def _item(qid: str, entity: dict[str, Any]) -> KBItem:
    label, lang = _label(entity.get("labels") or {})
    description, _ = _label(entity.get("descriptions") or {})
    return KBItem(id=qid, label=label, label_language=lang, description=description, url=ENTITY_URL.format(id=qid))


def _statements(entity: dict[str, Any], prop: str) -> list[dict[str, Any]]:
    claims = (entity.get("claims") or {}).get(prop) or []
    return [c for c in claims if isinstance(c, dict) and c.get("rank") != "deprecated"]


def _snak_value(snak: dict[str, Any]) -> Any:
    if snak.get("snaktype") != "value":
        return None
    return (snak.get("datavalue") or {}).get("value")


def _choose(ids: list[str], entities: dict[str, Any], domain: Domain) -> tuple[str, bool]:
    for qid in ids:
        classes = {(_snak_value(c.get("mainsnak") or {}) or {}).get("id") for c in _statements(entities[qid], "P31")}
        if classes & domain.classes:
            return qid, True
    for qid in ids:
        description = " ".join(
            str(v.get("value", "")) for v in (entities[qid].get("descriptions") or {}).values() if isinstance(v, dict)
        ).casefold()
        if any(word in description for word in domain.keywords):
            return qid, True
    return ids[0], False


def _referenced_items(entity: dict[str, Any], properties: dict[str, str]) -> list[str]:
    out: list[str] = []
    for prop in properties:
        for claim in _statements(entity, prop)[:MAX_VALUES]:
            value = _snak_value(claim.get("mainsnak") or {})
            if isinstance(value, dict) and str(value.get("id", "")).startswith("Q"):
                out.append(value["id"])
            for qual in (claim.get("qualifiers") or {}).get("P291") or []:
                place = _snak_value(qual)
                if isinstance(place, dict) and place.get("id"):
                    out.append(place["id"])
    return list(dict.fromkeys(out))


def time_text(value: dict[str, Any]) -> str | None:
    """A Wikidata time value at its precision: day 2026-11-19, month 2026-11, year 2026."""
    raw = str(value.get("time", ""))
    m = re.match(r"^[+]?(\d{4,})-(\d{2})-(\d{2})T", raw)
    if not m:
        return None
    precision = int(value.get("precision", 11))
    year, month, day = m.groups()
    if precision >= 11:
        return f"{year}-{month}-{day}"
    if precision == 10:
        return f"{year}-{month}"
    return year


def _facts(entity: dict[str, Any], properties: dict[str, str], labels: dict[str, str]) -> list[KBFact]:
    facts: list[KBFact] = []
    for prop, name in properties.items():
        values: list[KBValue] = []
        for claim in _statements(entity, prop)[:MAX_VALUES]:
            raw = _snak_value(claim.get("mainsnak") or {})
            if raw is None:
                continue
            place = None
            for qual in (claim.get("qualifiers") or {}).get("P291") or []:
                pv = _snak_value(qual)
                if isinstance(pv, dict) and pv.get("id"):
                    place = labels.get(pv["id"], pv["id"])
            if isinstance(raw, dict) and "time" in raw:
                text = time_text(raw)
                if text:
                    values.append(KBValue(value=text, place=place))
            elif isinstance(raw, dict) and raw.get("id"):
                item: str = raw["id"]
                values.append(KBValue(value=labels.get(item, item), id=item, place=place))
            elif isinstance(raw, str):
                values.append(KBValue(value=raw))
        if values:
            facts.append(KBFact(property=prop, name=name, values=values))
    return facts


async def _article(client: httpx.AsyncClient, entity: dict[str, Any]) -> tuple[KBArticle | None, str | None]:
    import httpx

    links = entity.get("sitelinks") or {}
    for site, lang, accept in (("zhwiki", "zh", "zh-tw"), ("enwiki", "en", "en")):
        title = (links.get(site) or {}).get("title")
        if not title:
            continue
        url = SUMMARY_URL.format(lang=lang, title=quote(title.replace(" ", "_"), safe=""))
        try:
            response = await client.get(url, headers={"Accept-Language": accept})
        except httpx.HTTPError as exc:
            return None, f"Wikipedia ({lang}.wikipedia.org) did not answer ({_reason(exc)}); the Wikidata facts stand."
        if response.status_code == 404:
            return None, f"Wikipedia has no {lang} article {title!r}."
        if response.status_code != 200:
            return (
                None,
                f"Wikipedia ({lang}.wikipedia.org) answered HTTP {response.status_code}; the Wikidata facts stand.",
            )
        try:
            page = response.json()
        except ValueError:
            return None, "Wikipedia answered something that is not JSON."
        extract = page.get("extract") or None
        if extract and len(extract) > EXTRACT_CHARS:
            extract = extract[: EXTRACT_CHARS - 1].rstrip() + "…"
        page_url = ((page.get("content_urls") or {}).get("desktop") or {}).get("page") or (
            f"https://{lang}.wikipedia.org/wiki/{quote(title.replace(' ', '_'))}"
        )
        return (
            KBArticle(
                title=page.get("title") or title,
                description=page.get("description"),
                summary=extract,
                url=page_url,
                language="zh-tw" if lang == "zh" else "en",
            ),
            None,
        )
    return None, "The item has no zh or en Wikipedia article."
