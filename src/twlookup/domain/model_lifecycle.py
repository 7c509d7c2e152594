"""The models service's one record: a model and its announced dates, as data/models/models.yaml
gives it, the store holds it (`tables.ModelRecord`) and the logic and answers use it."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord

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


class ModelFacts(Record):
    """What a provider announced about one model (answers repeat these fields as they are)."""

    id: str
    provider: Provider
    name: str
    kind: Kind
    aliases: tuple[str, ...] = ()
    deprecated_on: date | None = Field(None, description="Date the deprecation was announced")
    retirement_date: date | None = Field(None, description="Shutdown date: requests fail from this day")
    replacement: str | None = Field(None, description="The provider's recommended replacement")
    note: str | None = None


class Model(ModelFacts, SourcedRecord):
    """One model record with the notice it was read from."""
