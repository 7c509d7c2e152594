"""An AI model's announced lifecycle and what it means on a given day.

The record is one model as its provider announced it: deprecation, shutdown, replacement, with the
notice it was read from (data/models/models.yaml and the models.claude feed fill it; the table is
`model_lifecycle_tables.ModelRow`). `status` gives its state on a day, and a `Catalog` finds the
model a written name (an id, an alias, a dated snapshot, a provider-prefixed id) refers to.

Shared by the models service, which seeds, imports and answers these records, and the glossary,
whose how-tos must not recommend a model its provider is retiring: both take a model's state from
`status`, so a how-to's advice follows the models service's answer for the same day. Pure: `today`
is always passed in, and the state is derived when asked, never stored.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import SourcedRecord

# Providers this service knows; a record naming another fails `twlookup seed`.
Provider = Literal[
    "openai",
    "anthropic",
    "google",
    "google-vertex",
    "azure-openai",
    "aws-bedrock",
    "mistral",
    "cohere",
    "meta",
    "xai",
    "deepseek",
]
Kind = Literal[
    "chat",
    "reasoning",
    "embedding",
    "image",
    "audio",
    "speech",
    "transcription",
    "realtime",
    "moderation",
    "completion",
    "video",
    "code",
    "ocr",
]
State = Literal["scheduled", "active", "retired", "deprecated"]
STATUSES: tuple[State, ...] = ("scheduled", "active", "retired", "deprecated")


class Model(SourcedRecord):
    """What a provider announced about one model, with the notice it was read from."""

    id: str = Field(max_length=120)
    provider: Provider
    name: str = Field(max_length=200)
    kind: Kind
    aliases: tuple[str, ...] = ()
    deprecated_on: date | None = Field(None, description="Date the deprecation was announced")
    retirement_date: date | None = Field(None, description="Shutdown date: requests fail from this day")
    replacement: str | None = Field(None, max_length=120, description="The provider's recommended replacement")
    note: str | None = None


def status(model: Model, today: date) -> State:
    """retired once the shutdown date has come; scheduled while it is ahead; deprecated when a
    deprecation was announced without a date; active otherwise, and active before the day the
    deprecation was announced (a clock set earlier than the notice)."""
    if model.retirement_date is not None and model.retirement_date <= today:
        return "retired"
    if model.deprecated_on is not None and model.deprecated_on > today:
        return "active"
    if model.retirement_date is not None:
        return "scheduled"
    if model.deprecated_on is not None:
        return "deprecated"
    return "active"


Match = Literal["id", "alias", "snapshot"]

# Text around an id in code: provider prefixes and version suffixes that still name the same model.
TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9._:/@-]*[A-Za-z0-9]")
SNAPSHOT_SUFFIX = re.compile(r"(?:-\d{4}-\d{2}-\d{2}|-\d{8}|-\d{4}|@\d{8}|@latest|-latest|-v\d+(?::\d+)?|:\d+)$")
PREFIXES = ("us.", "eu.", "apac.", "global.", "anthropic.", "openai.", "google.")


@dataclass
class Catalog:
    """The known models by id, and the names they are written by."""

    models: dict[str, Model]
    lookup: dict[str, str] = field(default_factory=dict)  # lowercased id or alias -> id
    bigrams: dict[str, list[str]] = field(default_factory=dict)  # two letters -> names holding them

    def __post_init__(self) -> None:
        for model in self.models.values():
            self.lookup[model.id.lower()] = model.id
            for alias in model.aliases:
                self.lookup.setdefault(alias.lower(), model.id)
        for key in self.lookup:  # built once, so that an unknown name costs about what a hit does
            for gram in {key[i : i + 2] for i in range(len(key) - 1)}:
                self.bigrams.setdefault(gram, []).append(key)

    @property
    def providers(self) -> list[str]:
        return sorted({m.provider for m in self.models.values()})

    def resolve(self, name: str) -> tuple[Model, Match] | None:
        """The model a written name refers to, and how it matched: 'id', 'alias' or 'snapshot'."""
        key = name.strip().lower()
        key = key.rsplit("/", 1)[-1]
        for prefix in PREFIXES:
            if key.startswith(prefix) and key[len(prefix) :].split(".")[0] and key not in self.lookup:
                key = key[len(prefix) :]
        if key in self.lookup:
            model = self.models[self.lookup[key]]
            return model, "id" if model.id.lower() == key else "alias"
        stripped = key
        while True:
            shorter = SNAPSHOT_SUFFIX.sub("", stripped)
            if shorter == stripped:
                break
            stripped = shorter
            if stripped in self.lookup:
                return self.models[self.lookup[stripped]], "snapshot"
        return None

    def suggestions(self, name: str, n: int = 5) -> list[str]:
        """Known names close to `name`: difflib's ranking over the 40 names sharing the most
        letter pairs with it (a close name shares many), not over every name."""
        word = name.lower()[:200]
        shared: dict[str, int] = {}
        for gram in {word[i : i + 2] for i in range(len(word) - 1)}:
            for key in self.bigrams.get(gram, ()):
                shared[key] = shared.get(key, 0) + 1
        shortlist = sorted(shared, key=lambda k: (-shared[k], k))[:40]
        return difflib.get_close_matches(word, shortlist, n=n, cutoff=0.6)

    def find_in_text(self, text: str) -> list[tuple[Model, str, Match]]:
        """Every distinct model named in `text`, in order of first mention: (model, as written, match)."""
        seen: dict[str, tuple[Model, str, Match]] = {}
        for token in TOKEN.findall(text):
            token = token.rstrip(".:/")
            if not any(ch.isdigit() for ch in token) and token.lower() not in self.lookup:
                continue  # every model id has a digit or is known verbatim; skip ordinary words fast
            hit = self.resolve(token)
            if hit and hit[0].id not in seen:
                seen[hit[0].id] = (hit[0], token, hit[1])
        return list(seen.values())
