"""The format of the models service's feed: Anthropic's Claude lifecycle as endoflife.date keeps it.

endoflife.date (https://endoflife.date, a community-maintained catalogue) has an `anthropic-claude`
product that its own automation fills from Anthropic's model-deprecations page (the "deprecation
history" and "model status" tables). Its API v1 answers

    GET https://endoflife.date/api/v1/products/anthropic-claude/
    {"schema_version": "1.2.x", "generated_at": "...", "result": {"name": "anthropic-claude",
     "label": "Anthropic Claude", "links": {"html": "https://endoflife.date/claude", ...},
     "releases": [{"name": "claude-sonnet-4-20250514", "label": "Claude Sonnet 4",
       "releaseDate": "2025-05-22", "isEoas": true, "eoasFrom": "2026-04-14", "isEol": true,
       "eolFrom": "2026-06-15", "isMaintained": false, "latest": null,
       "custom": {"recommendedReplacement": "claude-sonnet-4-6"}}, ...]}}

For Claude, `eoasFrom` is the deprecation date and `eolFrom` the retirement date; for a model
not yet deprecated `eolFrom` is Anthropic's tentative "not sooner than" date, kept here as the
earliest retirement in the note, not as a shutdown date. A curated record (data/models/models.yaml,
citing the provider) wins over an imported one: the importer adds or updates only ids that are not
curated, and the answer's source says which it is.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from twlookup.domain.model_lifecycle import Model
from twlookup.platform.feeds import Stamp

PAGE = "https://endoflife.date/claude"
SOURCE_TITLE = "endoflife.date, Anthropic Claude (from Anthropic's model-deprecations page)"
LICENCE = "endoflife.date data: MIT"


def _date(value: Any, where: str) -> date | None:
    if value in (None, "", False):
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{where}: {value!r} is not a date") from None


def parse(raw: bytes, checked: date) -> list[Model]:
    """Model records from an endoflife.date API v1 product document; ValueError names what is wrong."""
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    result = doc.get("result") if isinstance(doc, dict) else None
    releases = result.get("releases") if isinstance(result, dict) else None
    if not isinstance(result, dict) or not isinstance(releases, list) or not releases:
        raise ValueError("expected an endoflife.date API v1 product document with result.releases")
    page = (result.get("links") or {}).get("html") or PAGE
    out = []
    for index, rel in enumerate(releases):
        if not isinstance(rel, dict) or not rel.get("name"):
            raise ValueError(f"release {index + 1} has no name")
        name = str(rel["name"]).strip()
        deprecated = _date(rel.get("eoasFrom"), name) if rel.get("isEoas") or rel.get("eoasFrom") else None
        eol = _date(rel.get("eolFrom"), name)
        replacement = (rel.get("custom") or {}).get("recommendedReplacement")
        replacement = None if replacement in (None, "", "N/A") else str(replacement)
        if deprecated is not None:
            retirement, note = eol, None
        else:  # active: the eol date is Anthropic's tentative earliest retirement
            retirement = None
            note = "Active; no retirement announced." + (
                f" Anthropic's model-status table gives its earliest retirement as not before {eol.isoformat()}."
                if eol
                else ""
            )
        out.append(
            Model(
                id=name,
                provider="anthropic",
                name=str(rel.get("label") or name),
                kind="chat",
                deprecated_on=deprecated,
                retirement_date=retirement,
                replacement=replacement if deprecated is not None else None,
                note=note,
                source=page,
                source_title=SOURCE_TITLE,
                checked=checked,
                licence=LICENCE,
            )
        )
    return out


def claude_stamp(raw: bytes, _name: str) -> Stamp:
    doc = json.loads(raw.decode("utf-8-sig"))
    generated = str(doc.get("generated_at") or "")
    day = _date(generated[:10], "generated_at") if generated else None
    return Stamp(part="claude", key=(generated,) if generated else None, label=generated or None, data_date=day)
