"""The upstream formats the seo service reads: the crawler operators' IP-range files, and the
AI-crawler list of ai-robots-txt/ai.robots.txt (`robots.json`, MIT), every name of which becomes a
crawler of the catalogue, so `robots/generate?mode=block_ai` blocks the whole list.

Shipped as `data/seo/ai-robots.yaml` (a snapshot, converted as below, with its commit and the day
it was checked) and kept current by the feed `seo.airobots` from the raw file on GitHub.

Conversion (the same for the snapshot and the feed):
- the name is read as a product token the way the robots.txt parser here reads a user-agent line:
  the leading run of letters, digits, '_' and '-' (`MistralAI-User/1.0` is `MistralAI-User`,
  `ChatGPT Agent` is `ChatGPT`, `AI2Bot` stays `AI2Bot`); names giving the same token
  (case-insensitive) are one crawler;
- its type comes from the list's `function`: "AI Search Crawlers" (or a function naming search) is
  ai_search, assistants and agents (or a function naming a user, prompt, assistant or agent) are
  user, data scrapers, data providers and everything else are train;
- `respect` starting "Yes" / "No" is yes / no, anything else unclear;
- the operator is the list's, a Markdown link reduced to its text; "Unclear" is "not stated".
The curated crawlers of data/seo/crawlers.yaml (from the operators' own pages) take precedence
over the list's entry for the same token. No description text of the list is copied.
"""

from __future__ import annotations

import ipaddress
import json
import re
from datetime import date
from typing import Any

from twlookup.services.seo.logic.robots import product_token
from twlookup.services.seo.records import AiAgent, Crawler, CrawlerType, HonoursRobots

REPO = "https://github.com/ai-robots-txt/ai.robots.txt"
RAW_URL = "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json"
# Where each listed crawler is described; also what marks a catalogue row as coming from the list.
LIST_DOCS = f"{REPO}/blob/main/table-of-bot-metrics.md"
USER_FUNCTIONS = {"AI Assistants", "AI Agents", "Undocumented AI Agents", "AI Coding Agents"}
TRAIN_FUNCTIONS = {"AI Data Scrapers", "AI Data Providers"}


def _type(function: str) -> CrawlerType:
    f = function.strip()
    if f == "AI Search Crawlers":
        return "ai_search"
    if f in USER_FUNCTIONS:
        return "user"
    if f in TRAIN_FUNCTIONS:
        return "train"
    low = f.lower()
    if "search" in low:
        return "ai_search"
    if re.search(r"\buser|prompt|assistant|agent", low):
        return "user"
    return "train"


def _respect(value: str) -> HonoursRobots:
    text = value.strip().lstrip("[").lower()
    return "yes" if text.startswith("yes") else "no" if text.startswith("no") else "unclear"


def _operator(value: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", value).strip()
    text = re.split(r",|\. | that | which | to | - |\(", text, maxsplit=1)[0].strip()  # the name, not a description
    if not text or text.lower().startswith(("unclear", "unknown", "http")):
        return "not stated"
    return text[:60]


def agents_from_robots_json(doc: Any) -> list[AiAgent]:
    """The list's entries, one per product token (the first name giving a token wins)."""
    if not isinstance(doc, dict) or not doc:
        raise ValueError("not ai.robots.txt's robots.json (a JSON object of crawler names)")
    out: dict[str, AiAgent] = {}
    for name, entry in doc.items():
        if not isinstance(entry, dict):
            raise ValueError(f"entry {name!r} is not an object")
        token = product_token(str(name))
        if not token or token == "*" or token.lower() in out:
            continue
        out[token.lower()] = AiAgent(
            name=str(name),
            token=token,
            type=_type(str(entry.get("function", ""))),
            operator=_operator(str(entry.get("operator", ""))),
            honours_robots=_respect(str(entry.get("respect", ""))),
        )
    return list(out.values())


def crawlers_from_agents(
    agents: list[AiAgent], curated: set[str], source: str, source_title: str, checked: date
) -> list[Crawler]:
    """Catalogue crawlers for the listed agents that data/seo/crawlers.yaml does not already hold."""
    return [
        Crawler(
            token=a.token,
            type=a.type,
            operator=a.operator,
            fetches=True,
            honours_robots=a.honours_robots,
            docs=LIST_DOCS,
            purpose=f"Listed by ai.robots.txt as an AI crawler ({a.type.replace('_', ' ')})"
            + (f"; listed under the name {a.name!r}" if a.name != a.token else ""),
            source=source,
            source_title=source_title,
            checked=checked,
            licence="MIT",
        )
        for a in agents
        if a.token.lower() not in curated
    ]


def list_day(source_title: str | None) -> date | None:
    """The day a list is as of, from its source title ("... commit 738c80d of 2026-08-22", "... imported 2026-11-26)")."""
    found = re.search(r"(?:of|imported) (\d{4}-\d{2}-\d{2})\)?$", source_title or "")
    return date.fromisoformat(found.group(1)) if found else None


def ai_robots_json(raw: bytes) -> Any:
    """ai.robots.txt's robots.json as JSON; ValueError when it is not JSON."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not ai.robots.txt's robots.json (JSON: {exc})") from None


# --- the operators' IP-range files ----------------------------------------------------------------

RANGE_FORMAT = "an IP-range file ({'creationTime', 'prefixes': [...]})"


def ip_range_doc(raw: bytes) -> dict[str, Any]:
    """An operator's IP-range file as JSON; ValueError when it is not one."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"not {RANGE_FORMAT}") from None
    if not isinstance(doc, dict):
        raise ValueError(f"not {RANGE_FORMAT}")
    return doc


def ip_range_prefixes(doc: dict[str, Any]) -> list[str]:
    """Every prefix of a range file as a network (IPv4 and IPv6 alike); ValueError naming the first
    that is not one."""
    entries = doc.get("prefixes")
    if not isinstance(entries, list):
        raise ValueError(f"not {RANGE_FORMAT}: no list of prefixes")
    prefixes: list[str] = []
    for index, entry in enumerate(entries):
        value = entry.get("ipv4Prefix") or entry.get("ipv6Prefix") if isinstance(entry, dict) else None
        if not value:
            raise ValueError(f"prefix {index + 1} has neither ipv4Prefix nor ipv6Prefix")
        try:
            prefixes.append(str(ipaddress.ip_network(value, strict=False)))
        except ValueError:
            raise ValueError(f"prefix {index + 1} {value!r} is not a network") from None
    return prefixes
