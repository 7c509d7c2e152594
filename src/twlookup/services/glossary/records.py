"""The glossary's records, declared once: data files are validated against them, the logic works
on them, and the tables (tables.py) and answers (schemas.py) are derived from them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord

Category = Literal[
    "basics",
    "machine-learning",
    "deep-learning",
    "llm",
    "generative",
    "training",
    "inference",
    "retrieval",
    "agents",
    "evaluation",
    "safety",
    "data",
    "vision",
]

CATEGORY_NAMES: dict[str, str] = {
    "basics": "基礎概念",
    "machine-learning": "機器學習",
    "deep-learning": "深度學習",
    "llm": "大型語言模型",
    "generative": "生成式人工智慧",
    "training": "訓練與微調",
    "inference": "推論與部署",
    "retrieval": "檢索與知識",
    "agents": "代理與工具使用",
    "evaluation": "評估與指標",
    "safety": "安全、治理與風險",
    "data": "資料與資料集",
    "vision": "電腦視覺與多模態",
}

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"

UsageKind = Literal["terminology-database", "government", "institute", "university", "media", "community", "vendor"]
"""What kind of Taiwan reference a usage source is, strongest first: the National Academy for
Educational Research's term database (樂詞網), a Taiwan government page, a Taiwan government-funded
institute (資策會 and the like), a Taiwan university page (syllabus, course or university news),
Taiwan news or tech media, a Taiwan writers' or practitioners' community site (iT邦幫忙, 方格子), a
vendor's Taiwan-Chinese (zh-TW) documentation."""

USAGE_KINDS: tuple[str, ...] = (
    "terminology-database",
    "government",
    "institute",
    "university",
    "media",
    "community",
    "vendor",
)

TaiwanUsage = Literal[
    "terminology-database", "government", "institute", "university", "media", "community", "vendor", "unverified"
]
"""How a term's Taiwan name is attested: the strongest kind of usage source that shows it, or
`unverified` when no Taiwan source showing it was found."""


class Term(SourcedRecord):
    """One AI term: Taiwan Chinese name, English name, the other names people search it by
    (aliases; mainland Chinese names; abbreviations; common misspellings), category, a definition
    written for this service, related term ids, and the source the definition was checked against."""

    id: str = Field(pattern=SLUG, max_length=80)
    name_zh: str = Field(max_length=120, description="Taiwan Traditional Chinese name")
    name_en: str = Field(max_length=200)
    aliases: list[str] = Field(default_factory=list)
    mainland: list[str] = Field(default_factory=list, description="Names used in mainland China (Simplified Chinese)")
    abbreviations: list[str] = Field(default_factory=list, description="Abbreviations, e.g. NLP")
    misspellings: list[str] = Field(default_factory=list, description="Common misspellings that search also finds")
    category: Category
    definition: str = Field(
        min_length=20, description="Written for this service, in Traditional Chinese (Taiwan usage)"
    )
    related: list[str] = Field(default_factory=list, description="Ids of related terms")
    taiwan_usage: TaiwanUsage = Field(
        description="The strongest kind of Taiwan source found showing name_zh (see usage in sources.yaml), "
        "or unverified"
    )


class Difference(Record):
    aspect: str
    a: str
    b: str


class Comparison(SourcedRecord):
    """A written comparison of two terms (by their ids)."""

    id: str = Field(pattern=SLUG, max_length=120)
    a: str = Field(max_length=80)
    b: str = Field(max_length=80)
    title: str = Field(max_length=200)
    summary: str
    differences: list[Difference] = Field(min_length=2)
    choose_a: str
    choose_b: str


class CodeBlock(Record):
    language: Literal["python", "bash", "json", "text"]
    code: str
    runs: bool = Field(
        True,
        description="True when the tests execute it; False when they only compile it (it needs a network or a key)",
    )


class HowTo(SourcedRecord):
    """An implementation tutorial with code that the tests execute (or compile)."""

    id: str = Field(pattern=SLUG, max_length=80)
    title: str = Field(max_length=200)
    summary: str
    terms: list[str] = Field(default_factory=list)
    steps: list[str] = Field(min_length=1)
    code: list[CodeBlock] = Field(min_length=1)


class CitedSource(Record):
    """A source the glossary cites, and the check of the citation itself: `verified` is the day its
    address, title, authors and year were confirmed against stored copies of public material
    (None: not verified), `evidence` what was seen. Items take their `source_title` from here."""

    url: str = Field(pattern=r"^https?://", max_length=500)
    title: str = Field(min_length=3, max_length=300)
    verified: date | None = None
    evidence: str | None = None


class UsageSource(Record):
    """A Taiwan document that shows Chinese names this glossary uses (`names`), read on `checked`."""

    url: str = Field(pattern=r"^https?://", max_length=500)
    title: str = Field(min_length=3, max_length=300)
    usage_kind: UsageKind = Field(description="What kind of Taiwan reference the document is")
    checked: date
    names: list[str] = Field(min_length=1)
    evidence: str = Field(min_length=10)
