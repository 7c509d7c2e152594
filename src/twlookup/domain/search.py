"""Search over small reference collections in Chinese and English (glossary, cardgame, opinions).

The interface (what callers and the glossary depth work build on):

    Document(key, names={field: [name, ...]}, text="", weights={field: weight})
    Index(documents).search(query, limit=20, min_score=0.2) -> [Hit(key, score, reasons)]
    Index(documents).best(query, min_score=0.6) -> Hit | None
    normalise(text), compact(text), tokens(text)

A document has several name fields (e.g. name_zh, name_en, alias; later Taiwan, mainland,
English and abbreviation names), each with a weight (default 1.0) that scales its name points,
and a body text. Names match as whole words: an English or number word only as a whole word, a
Chinese name character by character (Chinese has no spaces), so "rag" does not match inside
"storage".

Nothing heavy is loaded to answer a query: no segmenter and no OpenCC. What a person types is
normalised the same way as what is indexed:

1. NFKC folding: full-width letters, digits and punctuation become their ordinary forms
   (ＬＬＭ -> LLM, １２ -> 12), then lower case.
2. Simplified -> Traditional (Taiwan) from two small generated tables (`script_tables.py`, built
   from OpenCC by `python -m twlookup.domain.script_tables_build`): OpenCC's s2tw character
   table, then the mainland spellings of the indexed names (人工智能 -> 人工智慧, 数据集 -> 資料集),
   then the Taiwan term table below (大語言模型 -> 大型語言模型).
3. Tokens: English/number words, and for Chinese runs their character bigrams (a one-character
   run is its own token): bigram indexing needs no dictionary, and a partial phrase still meets
   the words it is part of.

The score of a document for a query is the best of its name matches (times the field's weight)
plus a share of its body-text overlap, each part reported as a `Reason`, so a ranking explains
itself:

    exact name or alias            1.00
    name inside the query          0.80 + 0.15 x len(name)/len(query)   ("什麼是大型語言模型")
    query inside a name (>= 2)     0.60 + 0.30 x len(query)/len(name)   (a prefix or part of a name)
    fuzzy name (typo)              0.90 x similarity, when similarity >= 0.75 (rapidfuzz ratio)
    body text                      0.30 x share of the query's tokens found in the text

The total is the sum (at most 1.30), so an exact name outranks a name found inside a longer query.
Documents scoring below `min_score` (0.2) are left out. Every document's prepared forms are
compared with the query (the collections hold hundreds of documents, not millions).

Planned behind the same interface: the prepared forms kept in the store when data is seeded
(SQLite FTS5, PostgreSQL full-text or pg_trgm), so that a serving process need not prepare them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz

from twlookup.domain.script_tables import CHARACTER_PAIRS, PHRASES

# Mainland usage the tables leave, mapped to the Taiwan term (applied in this order, after the tables).
TAIWAN_TERMS: dict[str, str] = {
    "數據集": "資料集",
    "數據": "資料",  # before 資料質量 below, which it may produce
    "大語言模型": "大型語言模型",
    "智慧體": "代理",
    "智能體": "代理",
    "損失函式": "損失函數",
    "啟用函式": "激勵函數",
    "啟用函數": "激勵函數",
    "激活函式": "激勵函數",
    "激活函數": "激勵函數",
    "資料質量": "資料品質",
}

_PAIRS = "".join(CHARACTER_PAIRS)
MIN_SCORE = 0.2
FUZZY_CUTOFF = 0.75
WORD = re.compile(r"[a-z0-9][a-z0-9+#._-]*[a-z0-9+#]|[a-z0-9]")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# matching units: words split at spaces, hyphens and underscores ("fine-tuning-vs-rag" holds "rag")
UNIT = re.compile(r"[a-z0-9][a-z0-9+#.]*[a-z0-9+#]|[a-z0-9]|[\u3400-\u9fff\uf900-\ufaff]")
DROP = re.compile(r"[\s\u3000,.!?;:'\"()\[\]{}<>/\\|`~@$%^&*=，。！？；：、「」『』（）【】《》〈〉…·・-]+")

_S2T = {ord(pair[0]): pair[1] for pair in (_PAIRS[i : i + 2] for i in range(0, len(_PAIRS), 2))}
# One pass over the text, longest first; a name already in its Taiwan form is kept as it is (so
# 演算法偏見 is not read as 演 + 算法偏見 -> 演演算法偏見).
_PHRASE_FORMS = {**{t: t for t in PHRASES.values()}, **PHRASES}
_PHRASE = re.compile("|".join(re.escape(k) for k in sorted(_PHRASE_FORMS, key=len, reverse=True)))


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """Folded, lower-case, Traditional (Taiwan usage), with single spaces."""
    folded = unicodedata.normalize("NFKC", text).lower()
    if CJK.search(folded):
        folded = _PHRASE.sub(lambda m: _PHRASE_FORMS[m.group(0)], folded.translate(_S2T))
        for mainland, taiwan in TAIWAN_TERMS.items():
            folded = folded.replace(mainland, taiwan)
    return " ".join(folded.split())


@lru_cache(maxsize=8192)
def compact(text: str) -> str:
    """The normalised text without spaces and punctuation: what names are compared as."""
    return DROP.sub("", normalise(text))


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[str, ...]:
    """Words of the normalised text: English/number words and Chinese character bigrams."""
    norm = normalise(text)
    out: list[str] = WORD.findall(norm)
    for run in CJK.findall(norm):
        if len(run) == 1:
            out.append(run)
            continue
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=8192)
def units(text: str) -> tuple[str, ...]:
    """The normalised text as matching units: English/number words whole, Chinese characters one by one."""
    return tuple(UNIT.findall(normalise(text)))


def _within(needle: tuple[str, ...], hay: tuple[str, ...]) -> bool:
    """Whether `needle` occurs in `hay` as a run of whole units."""
    n = len(needle)
    return 0 < n <= len(hay) and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


@dataclass(frozen=True)
class Reason:
    kind: str  # exact, name-in-query, query-in-name, fuzzy, text
    field: str  # which name or "text"
    value: str  # the name or the matched words
    points: float


@dataclass(frozen=True)
class Hit:
    key: str
    score: float
    reasons: tuple[Reason, ...]


@dataclass
class Document:
    key: str
    names: dict[str, list[str]]  # field -> names, e.g. {"name_zh": [...], "alias": [...]}
    text: str = ""
    weights: dict[str, float] = field(default_factory=dict)  # field -> weight of its name points (default 1.0)
    # (field, original, compact, units) of each name
    _names: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list, repr=False)
    _text_tokens: frozenset[str] = field(default_factory=frozenset, repr=False)

    def prepare(self) -> None:
        if self._names:
            return  # prepared already (a document may be in several indexes)
        self._names = [(f, n, compact(n), units(n)) for f, ns in self.names.items() for n in ns if n and compact(n)]
        self._text_tokens = frozenset(tokens(self.text + " " + " ".join(n for _, n, _, _ in self._names)))


def _name_reason(query: str, query_units: tuple[str, ...], doc: Document) -> Reason | None:
    best: Reason | None = None

    def consider(r: Reason) -> None:
        nonlocal best
        if best is None or r.points > best.points:
            best = r

    for fld, original, name, name_units in doc._names:
        weight = doc.weights.get(fld, 1.0)
        if name == query:
            consider(Reason("exact", fld, original, round(1.0 * weight, 4)))
        elif len(name) >= 2 and _within(name_units, query_units):
            points = (0.80 + 0.15 * len(name) / len(query)) * weight
            consider(Reason("name-in-query", fld, original, round(points, 4)))
        elif len(query) >= 2 and _within(query_units, name_units):
            points = (0.60 + 0.30 * len(query) / len(name)) * weight
            consider(Reason("query-in-name", fld, original, round(points, 4)))
        else:
            similarity = fuzz.ratio(query, name) / 100
            if similarity >= FUZZY_CUTOFF:
                consider(Reason("fuzzy", fld, original, round(0.90 * similarity * weight, 4)))
    return best


def score(query: str, doc: Document) -> Hit | None:
    """The document's score for the query, with the reasons that make it up (None when no part matches)."""
    q = compact(query)
    if not q:
        return None
    reasons: list[Reason] = []
    name = _name_reason(q, units(query), doc)
    if name:
        reasons.append(name)
    q_tokens = [t for t in tokens(query) if len(t) > 1 or not t.isascii()]
    found = [t for t in q_tokens if t in doc._text_tokens]
    if q_tokens and found:
        reasons.append(Reason("text", "text", " ".join(found[:8]), round(0.30 * len(found) / len(q_tokens), 4)))
    if not reasons:
        return None
    total = round(sum(r.points for r in reasons), 4)
    return Hit(doc.key, total, tuple(reasons))


class Index:
    """A prepared collection: search returns hits best first, ties broken by key."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = list(documents)
        for doc in self.documents:
            doc.prepare()

    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]:
        hits = [h for d in self.documents if (h := score(query, d)) and h.score >= min_score]
        hits.sort(key=lambda h: (-h.score, h.key))
        return hits[:limit]

    def best(self, query: str, min_score: float = 0.6) -> Hit | None:
        hits = self.search(query, limit=1, min_score=min_score)
        return hits[0] if hits else None
