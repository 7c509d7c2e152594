"""Search over small reference collections in Chinese and English (glossary, cardgame, opinions).

What a person types is normalised the same way as what is indexed:

1. NFKC folding: full-width letters, digits and punctuation become their ordinary forms
   (ＬＬＭ -> LLM, １２ -> 12), then lower case.
2. Simplified -> Traditional (Taiwan) with OpenCC's `s2twp` profile (phrases and Taiwan usage:
   人工智能 -> 人工智慧, 数据集 -> 資料集, 算法 -> 演算法), then the Taiwan term table below for
   what s2twp leaves in mainland usage (大語言模型 -> 大型語言模型).
3. Tokens: English/number words, and for Chinese runs jieba's search-mode segmentation plus
   character bigrams (so a partial phrase still meets the words it is part of).

A document has names (its title, id and aliases: what someone would type to mean exactly it)
and text (the body). The score of a document for a query is the best of its name matches plus a
share of its body-text overlap, each part reported as a `Reason`, so a ranking explains itself:

    exact name or alias            1.00
    name inside the query          0.80 + 0.15 x len(name)/len(query)   ("什麼是大型語言模型")
    query inside a name (>= 2)     0.60 + 0.30 x len(query)/len(name)   (a prefix or part of a name)
    fuzzy name (typo)              0.90 x similarity, when similarity >= 0.75 (rapidfuzz ratio)
    body text                      0.30 x share of the query's tokens found in the text

The total is the sum (at most 1.30), so an exact name outranks a name found inside a longer query.
Documents scoring below `min_score` (0.2) are left out.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz

# What OpenCC's s2twp leaves in mainland usage, mapped to the Taiwan term (applied after s2twp).
TAIWAN_TERMS: dict[str, str] = {
    "大語言模型": "大型語言模型",
    "智慧體": "代理",
    "損失函式": "損失函數",
    "啟用函式": "激勵函數",
    "啟用函數": "激勵函數",
    "激活函式": "激勵函數",
    "激活函數": "激勵函數",
    "資料質量": "資料品質",
    "數據集": "資料集",
    "數據": "資料",
}

MIN_SCORE = 0.2
FUZZY_CUTOFF = 0.75
WORD = re.compile(r"[a-z0-9][a-z0-9+#._-]*[a-z0-9+#]|[a-z0-9]")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
DROP = re.compile(r"[\s\u3000,.!?;:'\"()\[\]{}<>/\\|`~@$%^&*=，。！？；：、「」『』（）【】《》〈〉…·・-]+")

_lock = threading.Lock()
_converter = None
_jieba = None


def _opencc():
    global _converter
    if _converter is None:
        with _lock:
            if _converter is None:
                import opencc

                _converter = opencc.OpenCC("s2twp")
    return _converter


def _segmenter():
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                tokenizer.initialize()
                _jieba = tokenizer
    return _jieba


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """Folded, lower-case, Traditional (Taiwan usage), with single spaces."""
    folded = unicodedata.normalize("NFKC", text).lower()
    if CJK.search(folded):
        folded = _opencc().convert(folded)
        for mainland, taiwan in TAIWAN_TERMS.items():
            folded = folded.replace(mainland, taiwan)
    return " ".join(folded.split())


def compact(text: str) -> str:
    """The normalised text without spaces and punctuation: what names are compared as."""
    return DROP.sub("", normalise(text))


def add_words(words: Iterable[str]) -> None:
    """Teach the segmenter whole terms (e.g. glossary names) so they stay one token."""
    seg = _segmenter()
    for word in words:
        w = normalise(word)
        if CJK.fullmatch(w) and len(w) >= 2:
            seg.add_word(w, freq=50000)


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[str, ...]:
    """Words of the normalised text: English/number words, Chinese words and character bigrams."""
    norm = normalise(text)
    out: list[str] = WORD.findall(norm)
    for run in CJK.findall(norm):
        if len(run) == 1:
            out.append(run)
            continue
        out.extend(w for w in _segmenter().lcut_for_search(run) if w.strip())
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return tuple(dict.fromkeys(out))


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
    _names: list[tuple[str, str, str]] = field(default_factory=list, repr=False)  # (field, original, compact)
    _text_tokens: frozenset[str] = field(default_factory=frozenset, repr=False)

    def prepare(self) -> None:
        self._names = [(f, n, compact(n)) for f, ns in self.names.items() for n in ns if n and compact(n)]
        self._text_tokens = frozenset(tokens(self.text + " " + " ".join(n for _, n, _ in self._names)))


def _name_reason(query: str, doc: Document) -> Reason | None:
    best: Reason | None = None

    def consider(r: Reason) -> None:
        nonlocal best
        if best is None or r.points > best.points:
            best = r

    for fld, original, name in doc._names:
        if name == query:
            return Reason("exact", fld, original, 1.0)
        if len(name) >= 2 and name in query:
            consider(Reason("name-in-query", fld, original, round(0.80 + 0.15 * len(name) / len(query), 4)))
        elif len(query) >= 2 and query in name:
            consider(Reason("query-in-name", fld, original, round(0.60 + 0.30 * len(query) / len(name), 4)))
        else:
            similarity = fuzz.ratio(query, name) / 100
            if similarity >= FUZZY_CUTOFF:
                consider(Reason("fuzzy", fld, original, round(0.90 * similarity, 4)))
    return best


def score(query: str, doc: Document) -> Hit | None:
    """The document's score for the query, with the reasons that make it up (None when no part matches)."""
    q = compact(query)
    if not q:
        return None
    reasons: list[Reason] = []
    name = _name_reason(q, doc)
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
        add_words(n for d in self.documents for ns in d.names.values() for n in ns)
        for doc in self.documents:
            doc.prepare()

    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]:
        hits = [h for d in self.documents if (h := score(query, d)) and h.score >= min_score]
        hits.sort(key=lambda h: (-h.score, h.key))
        return hits[:limit]

    def best(self, query: str, min_score: float = 0.6) -> Hit | None:
        hits = self.search(query, limit=1, min_score=min_score)
        return hits[0] if hits else None
