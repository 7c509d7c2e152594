"""Domain rules of the glossary: finding a term, comparing two concepts, and classifying a search
query's intent. Pure functions over a `Catalog` built from the store."""

from __future__ import annotations

import re
from dataclasses import InitVar, dataclass, field
from typing import Literal, TypeVar

from twlookup.domain import search
from twlookup.services.glossary.records import CitedSource, Comparison, HowTo, Term, UsageSource

TERMS = "glossary:term"
COLLECTIONS = (TERMS, "glossary:comparison", "glossary:howto")  # what search_glossary searches


def name_key(name: str) -> str:
    """A Chinese name compared without its spacing (「AI代理」 and 「AI 代理」 are one name)."""
    return "".join(name.split())


def usage_showing(name_zh: str, usage: list[UsageSource]) -> list[UsageSource]:
    """The usage sources that show `name_zh`."""
    key = name_key(name_zh)
    return [u for u in usage if key in {name_key(n) for n in u.names}]


@dataclass
class Catalog:
    terms: dict[str, Term]
    comparisons: dict[str, Comparison]
    howtos: dict[str, HowTo]
    citations: dict[str, CitedSource] = field(default_factory=dict)
    usage: list[UsageSource] = field(default_factory=list)
    # (terms, everything): the store's index when loaded from the store; given none, the catalogue
    # indexes its own records in memory
    searchers: InitVar[tuple[search.Searcher, search.Searcher] | None] = None
    term_index: search.Searcher = field(init=False)
    all_index: search.Searcher = field(init=False)

    def __post_init__(self, searchers: tuple[search.Searcher, search.Searcher] | None) -> None:
        if searchers is None:
            docs = documents(self)
            searchers = search.Index(docs[TERMS]), search.Index([d for c in COLLECTIONS for d in docs[c]])
        self.term_index, self.all_index = searchers

    def find_term(self, text: str) -> tuple[Term, search.Hit] | None:
        """The term a person meant by `text` (an id, a name, an alias, Simplified, a typo)."""
        if text in self.terms:
            return self.terms[text], search.Hit(text, 1.0, (search.Reason("exact", "id", text, 1.0),))
        hit = next((h for h in self.term_index.search(text, limit=3, min_score=0.6) if self.term_of(h)), None)
        return (self.terms[self.term_of(hit)], hit) if hit else None

    def term_of(self, hit: search.Hit) -> str:
        """The id of the hit's term, or "" when this catalogue has no such term (the store's index
        was re-seeded after the catalogue was read)."""
        ident = hit.key.removeprefix("term:")
        return ident if ident in self.terms else ""

    def suggestions(self, text: str, n: int = 5) -> list[str]:
        return [t for h in self.term_index.search(text, limit=n) if (t := self.term_of(h))]

    def comparison_for(self, a: str, b: str) -> Comparison | None:
        for c in self.comparisons.values():
            if {c.a, c.b} == {a, b}:
                return c
        return None

    def comparisons_of(self, term_id: str) -> list[Comparison]:
        return [c for c in self.comparisons.values() if term_id in (c.a, c.b)]

    def howtos_of(self, term_id: str) -> list[HowTo]:
        return [h for h in self.howtos.values() if term_id in h.terms]

    def citation(self, url: str) -> CitedSource | None:
        """The registry entry of a cited source (with the check of the citation), if registered."""
        return self.citations.get(url)

    def usage_of(self, name_zh: str) -> list[UsageSource]:
        """Taiwan documents that show `name_zh` as used by this glossary."""
        return usage_showing(name_zh, self.usage)


# A misspelling finds its term, a shade below the same text spelled right in another term's names.
NAME_WEIGHTS = {"misspelling": 0.95}


def term_document(t: Term) -> search.Document:
    """A term as the store-side search sees it: every kind of name is a whole-word name field."""
    names = {
        "id": [t.id],
        "name_zh": [t.name_zh],
        "name_en": [t.name_en],
        "mainland": list(t.mainland),
        "abbreviation": list(t.abbreviations),
        "alias": list(t.aliases),
        "misspelling": list(t.misspellings),
    }
    return search.Document(f"term:{t.id}", names, t.definition, dict(NAME_WEIGHTS))


def documents(catalog: Catalog) -> dict[str, list[search.Document]]:
    """The catalogue's search collections: terms (every kind of name), comparisons and how-tos."""
    return {
        TERMS: [term_document(t) for t in catalog.terms.values()],
        "glossary:comparison": [
            search.Document(f"comparison:{c.id}", {"id": [c.id], "title": [c.title]}, c.summary)
            for c in catalog.comparisons.values()
        ],
        "glossary:howto": [
            search.Document(f"howto:{h.id}", {"id": [h.id], "title": [h.title]}, h.summary + " " + " ".join(h.steps))
            for h in catalog.howtos.values()
        ],
    }


def derived_differences(a: Term, b: Term) -> list[tuple[str, str, str]]:
    """What the two term records themselves say, side by side, when no comparison was written."""
    rows = [
        ("中文名稱", a.name_zh, b.name_zh),
        ("英文名稱", a.name_en, b.name_en),
        ("類別", a.category, b.category),
        ("定義", a.definition, b.definition),
    ]
    if b.id in a.related or a.id in b.related:
        rows.append(
            (
                "關聯",
                f"{a.name_zh} 的相關詞包含 {b.name_zh}" if b.id in a.related else "—",
                f"{b.name_zh} 的相關詞包含 {a.name_zh}" if a.id in b.related else "—",
            )
        )
    return rows


# --- search intent -------------------------------------------------------------------------

Shape = Literal["definition", "comparison", "how-to", "troubleshooting", "list"]
Intent = Literal["informational", "navigational", "commercial", "transactional"]
N = TypeVar("N", bound=str)

# Question shapes, checked in this order; the first rule with a matching cue wins.
SHAPE_RULES: list[tuple[Shape, tuple[str, ...]]] = [
    (
        "troubleshooting",
        (
            "錯誤",
            "報錯",
            "失敗",
            "無法",
            "不能用",
            "沒反應",
            "怎麼辦",
            "error",
            "exception",
            "traceback",
            "not working",
            "fails",
            "failed",
            "fix",
            "bug",
            "crash",
            "timeout",
            "oom",
        ),
    ),
    (
        "comparison",
        (
            " vs ",
            "vs.",
            " vs",
            "versus",
            "比較",
            "差別",
            "差異",
            "區別",
            "不同",
            "哪個好",
            "還是",
            "difference between",
            "compare",
            "compared",
        ),
    ),
    (
        "how-to",
        (
            "如何",
            "怎麼",
            "怎樣",
            "教學",
            "步驟",
            "實作",
            "範例",
            "how to",
            "how do",
            "tutorial",
            "example",
            "guide",
            "implement",
            "step by step",
        ),
    ),
    (
        "list",
        (
            "有哪些",
            "推薦",
            "清單",
            "列表",
            "排行",
            "幾種",
            "種類",
            "top ",
            "best ",
            "list of",
            "examples of",
            "types of",
            "alternatives",
        ),
    ),
    (
        "definition",
        (
            "什麼是",
            "是什麼",
            "定義",
            "意思",
            "意義",
            "what is",
            "what are",
            "meaning",
            "define",
            "definition",
            "explain",
        ),
    ),
]

# Intent classes (Broder 2002 plus the SEO convention of commercial investigation).
INTENT_RULES: list[tuple[Intent, tuple[str, ...]]] = [
    (
        "transactional",
        (
            "下載",
            "購買",
            "訂閱",
            "註冊",
            "申請",
            "安裝",
            "價格方案",
            "download",
            "buy",
            "subscribe",
            "sign up",
            "signup",
            "install",
            "pricing",
            "api key",
            "coupon",
            "free trial",
        ),
    ),
    (
        "navigational",
        (
            "官網",
            "官方網站",
            "登入",
            "網址",
            "login",
            "log in",
            "official site",
            "homepage",
            "github",
            "documentation",
            "docs",
        ),
    ),
    (
        "commercial",
        (
            "推薦",
            "最好",
            "評價",
            "評比",
            "哪個好",
            "值得",
            "便宜",
            "best",
            "review",
            "top ",
            " vs ",
            "versus",
            "alternative",
            "cheapest",
            "worth",
        ),
    ),
]

STRUCTURES: dict[Shape, list[str]] = {
    "definition": ["一句話定義", "運作方式", "例子", "相關詞", "來源"],
    "comparison": ["一句話結論", "逐項比較表", "各自適用情境", "來源"],
    "how-to": ["前置條件", "步驟", "可執行的程式碼", "驗證結果", "常見錯誤"],
    "troubleshooting": ["症狀", "可能原因（由常見到少見）", "檢查步驟", "修正方法", "如何避免再發生"],
    "list": ["篩選標準", "清單（每項一句說明）", "比較表", "來源"],
}
INTENT_NOTES: dict[Intent, str] = {
    "informational": "想了解或學會某件事：先給答案本身，再給延伸閱讀。",
    "navigational": "想到某個特定網站或頁面：直接給官方連結，少說明。",
    "commercial": "購買或採用前的比較研究：給比較表、優缺點與選擇依據。",
    "transactional": "想完成一個動作（下載、購買、註冊）：給步驟與官方入口，注意費用。",
}


@dataclass(frozen=True)
class IntentResult:
    intent: Intent
    intent_reason: str
    shape: Shape
    shape_reason: str
    structure: list[str]
    terms: list[str]


def _cue(text: str, cues: tuple[str, ...]) -> str | None:
    """The first cue found: Chinese cues as substrings, English cues as whole words."""
    for cue in cues:
        word = cue.strip()
        if word.isascii():
            if re.search(r"(?<![a-z0-9])" + re.escape(word) + r"(?![a-z0-9])", text):
                return word
        elif word in text:
            return word
    return None


def _first_rule(text: str, rules: list[tuple[N, tuple[str, ...]]]) -> tuple[N, str] | None:
    """The first rule of the table with a cue in `text`, and that cue."""
    for name, cues in rules:
        cue = _cue(text, cues)
        if cue:
            return name, cue
    return None


def classify_intent(query: str, catalog: Catalog) -> IntentResult:
    """Classify by the stated rules: the first matching cue of each rule table decides; a query
    with no cue that names a glossary term is a definition question; otherwise informational."""
    text = " ".join(re.sub(r"[?？!！。，,]", " ", search.normalise(query)).split())
    terms = [t for h in catalog.term_index.search(query, limit=3, min_score=0.6) if (t := catalog.term_of(h))]

    shape: Shape = "definition"
    shape_reason = "沒有其他問句線索；預設為定義問題"
    shape_hit = _first_rule(text, SHAPE_RULES)
    if shape_hit:
        shape, shape_reason = shape_hit[0], f"含有線索「{shape_hit[1]}」"
    elif terms:
        shape_reason = f"查詢就是術語名稱（{terms[0]}）"

    intent: Intent = "informational"
    intent_reason = "沒有導覽、商業或交易線索；預設為資訊型"
    intent_hit = _first_rule(text, INTENT_RULES)
    if intent_hit:
        intent, intent_reason = intent_hit[0], f"含有線索「{intent_hit[1]}」"
    return IntentResult(intent, intent_reason, shape, shape_reason, STRUCTURES[shape], terms)
