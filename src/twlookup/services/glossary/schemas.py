"""Parameters and results of the glossary's operations."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.glossary.logic import Intent, Shape
from twlookup.services.glossary.records import Category, CitedSource, CodeBlock, Comparison, HowTo, Term

BATCH_LIMIT = 50  # document 1, Limits: glossary paid batch explain, at most 50 terms per call
Q = Field(
    min_length=1, max_length=200, description="Chinese, English, an alias or Simplified Chinese; typos are tolerated"
)


class CitationCheck(LazyModel):
    verified: bool = Field(description="True when the citation (address, title, authors, year) was confirmed")
    verified_on: date | None = Field(description="Day the citation was confirmed against stored copies")
    evidence: str | None = Field(description="What the stored copies showed")
    note: str = Field(description="What the check does and does not cover, in Traditional Chinese")


TAIWAN_USAGE_DOC = (
    "How the Taiwan name is attested: the strongest kind of Taiwan source found showing it, "
    "terminology-database (樂詞網), government, institute (a government-funded institute), university, media, "
    "community (iT邦幫忙, 方格子) or vendor (a vendor's zh-TW documentation); unverified when none was found"
)


class UsageSourceOut(Source):
    usage_kind: str = Field(
        description="terminology-database, government, institute, university, media, community or vendor"
    )
    evidence: str = Field(description="What the source was seen to say, in short")


class UsageCheck(LazyModel):
    status: str = Field(description=TAIWAN_USAGE_DOC)
    checked: bool = Field(description="True when a Taiwan document showing this Chinese name was found")
    sources: list[UsageSourceOut] = Field(description="Taiwan documents that show the name (kind, address, day read)")
    note: str


class TermOut(RecordAnswer, record=Term):
    category_name: str
    citation: CitationCheck = Field(description="Whether the source citation itself was verified")
    name_zh_usage: UsageCheck = Field(description="Whether the Chinese name was checked against Taiwan documents")


class TermBrief(
    RecordAnswer,
    record=Term,
    exclude=("aliases", "mainland", "abbreviations", "misspellings", "definition", "related"),
):
    source: Source | None = Field(description="Where the definition was checked and when; null if the term has none")
    citation_verified: bool = Field(description="Whether the source citation was verified (details at /api/term)")
    taiwan_usage: str = Field(description=TAIWAN_USAGE_DOC + " (the sources at /api/term)")


class Reason(LazyModel):
    kind: str = Field(description="exact, name-in-query, query-in-name, fuzzy or text")
    field: str
    value: str
    points: float


class TermQuery(Params):
    id: str | None = Field(None, min_length=1, max_length=80, description="Term id, e.g. large-language-model")
    q: str | None = Field(None, min_length=1, max_length=200, description="Name, alias, English or Simplified Chinese")


class TermDetail(LazyModel):
    query: str
    matched: list[Reason] = Field(description="How the query matched the term")
    term: TermOut
    related: list[TermBrief]
    comparisons: list[str] = Field(description="Ids of written comparisons involving the term")
    howtos: list[str] = Field(description="Ids of how-tos using the term")


class SearchQuery(Params):
    q: str = Q
    limit: int = Field(10, ge=1, le=50, description="At most this many results (1 to 50)")


class SearchHit(LazyModel):
    kind: Literal["term", "comparison", "howto"]
    id: str
    title: str
    score: float = Field(description="Sum of the reasons' points (see reasons)")
    reasons: list[Reason]
    source: Source | None = Field(description="Where the item was checked and when; null if it has none")
    citation_verified: bool = Field(description="Whether the source citation was verified (details at /api/term)")
    taiwan_usage: str | None = Field(description=TAIWAN_USAGE_DOC + "; null for comparisons and how-tos")


class SearchResult(LazyModel):
    query: str
    normalised: str = Field(description="The query after full-width folding and Simplified -> Traditional")
    count: int
    results: list[SearchHit]


class TermsQuery(Params):
    category: Category | None = Field(None, description="Only terms of this category")


class Topic(LazyModel):
    category: str
    name: str
    count: int


class TermList(LazyModel):
    category: str | None
    topics: list[Topic] = Field(description="Every category with its Chinese name and term count")
    count: int
    terms: list[TermBrief]
    comparisons: list[str] = Field(description="Ids of the written comparisons")
    howtos: list[str] = Field(description="Ids of the how-tos")


class CompareQuery(Params):
    id: str | None = Field(None, min_length=1, max_length=120, description="Comparison id, e.g. fine-tuning-vs-rag")
    a: str | None = Field(None, min_length=1, max_length=200, description="First concept (term id, name or alias)")
    b: str | None = Field(None, min_length=1, max_length=200, description="Second concept (term id, name or alias)")


class ComparisonOut(RecordAnswer, record=Comparison):
    id: str | None = Field(description="Id of the written comparison; null when derived from the two terms")
    written: bool = Field(
        description="False when no comparison was written and this one is put together from the two terms"
    )
    note: str | None
    a: TermOut
    b: TermOut
    choose_a: str | None
    choose_b: str | None
    source: Source | None = Field(description="Source of the written comparison (each term carries its own)")
    citation: CitationCheck | None = Field(description="Whether that source citation was verified")


class HowToQuery(Params):
    id: str = Field(min_length=1, max_length=80, description="How-to id, e.g. cosine-similarity")


class ModelCheck(LazyModel):
    written: str = Field(description="The model name as the how-to's text or code writes it")
    model: str = Field(description="The retirement record it resolves to (models service)")
    provider: str
    state: str = Field(description="scheduled, retired, deprecated or active, computed for today")
    retirement_date: date | None
    used_instead: str | None = Field(description="What this answer's code uses instead; null when unchanged")
    note: str
    source: Source = Field(description="The provider's deprecation notice the record was read from")


class HowToOut(RecordAnswer, record=HowTo):
    terms: list[TermBrief]
    code: list[CodeBlock] = Field(description="Code; a model its provider is retiring is swapped for its replacement")
    models: list[ModelCheck] = Field(
        description="Models the how-to names that have a deprecation record, with their state today"
    )
    citation: CitationCheck


class IntentQuery(Params):
    q: str = Q


class IntentOut(LazyModel):
    query: str
    intent: Intent
    intent_reason: str
    intent_note: str
    shape: Shape
    shape_reason: str
    structure: list[str] = Field(description="Suggested sections of the answer, in order")
    terms: list[str] = Field(description="Glossary terms the query names")
    method: str


class BatchBody(Params):
    terms: list[str] = Field(
        min_length=1, max_length=BATCH_LIMIT, description=f"Names, aliases or ids (1 to {BATCH_LIMIT})"
    )


class BatchItem(LazyModel):
    query: str
    found: bool
    term: TermOut | None
    suggestions: list[str]


class BatchResult(LazyModel):
    count: int
    found: int
    results: list[BatchItem]


class CitedSourceOut(RecordAnswer, record=CitedSource):
    """A registered source with the check of the citation itself."""


class Export(LazyModel):
    as_of: date
    licence: str
    terms: list[TermOut]
    comparisons: list[ComparisonOut]
    howtos: list[HowToOut]
    sources: list[Source] = Field(description="Every distinct source cited")
    citations: list[CitedSourceOut] = Field(description="Every cited source with the check of the citation")
    usage_sources: list[UsageSourceOut] = Field(description="Taiwan documents the Chinese names were checked against")
