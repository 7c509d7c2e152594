"""How the search reads text (`twlookup.domain.search`): query and indexed text are normalised
the same way, then cut into the units the ranking compares.

1. NFKC folding: full-width letters, digits and punctuation become their ordinary forms
   (ＬＬＭ -> LLM, １２ -> 12), then lower case.
2. Simplified -> Traditional (Taiwan) from two small generated tables (`script_tables.py`, built
   from OpenCC by `python -m twlookup.domain.script_tables_build`): OpenCC's s2tw character
   table, then the mainland spellings of the indexed names (人工智能 -> 人工智慧, 数据集 -> 資料集),
   then the Taiwan term table below (大語言模型 -> 大型語言模型).
3. `tokens`: English/number words, and for Chinese runs their character bigrams (a one-character
   run is its own token): bigram indexing needs no dictionary, and a partial phrase still meets
   the words it is part of. `units`: whole English/number words and single Chinese characters
   (what a name is matched as). `grams`: the characters of the compact form, the k-th occurrence
   of a character as its own entry (what the store-side index counts).

Nothing here loads a segmenter or OpenCC: the tables are a Python module, and the phrase table is
applied by a longest-match scan (no large regular expression to compile at start-up).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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

WORD = re.compile(r"[a-z0-9][a-z0-9+#._-]*[a-z0-9+#]|[a-z0-9]")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# matching units: words split at spaces, hyphens and underscores ("fine-tuning-vs-rag" holds "rag")
UNIT = re.compile(r"[a-z0-9][a-z0-9+#.]*[a-z0-9+#]|[a-z0-9]|[\u3400-\u9fff\uf900-\ufaff]")
DROP = re.compile(r"[\s\u3000,.!?;:'\"()\[\]{}<>/\\|`~@$%^&*=，。！？；：、「」『』（）【】《》〈〉…·・-]+")

_PAIRS = "".join(CHARACTER_PAIRS)
_S2T = {ord(_PAIRS[i]): _PAIRS[i + 1] for i in range(0, len(_PAIRS), 2)}
# A name already in its Taiwan form is kept as it is (so 演算法偏見 is not read as 演 + 算法偏見 ->
# 演演算法偏見); at each place the longest phrase wins.
_PHRASE_FORMS = {**{t: t for t in PHRASES.values()}, **PHRASES}
_PHRASES_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _phrase in sorted(_PHRASE_FORMS, key=len, reverse=True):
    _PHRASES_BY_FIRST[_phrase[0]] = (*_PHRASES_BY_FIRST.get(_phrase[0], ()), _phrase)


def traditional(text: str) -> str:
    """`text` with each Simplified character of the table in its Traditional (Taiwan) form, one
    character for one (so positions are kept); no phrase is read."""
    return text.translate(_S2T)


def _taiwan_phrases(text: str) -> str:
    """One pass over `text`, each place taking the longest phrase of the table that starts there."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        for phrase in _PHRASES_BY_FIRST.get(text[i], ()):
            if text.startswith(phrase, i):
                out.append(_PHRASE_FORMS[phrase])
                i += len(phrase)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """Folded, lower-case, Traditional (Taiwan usage), with single spaces."""
    folded = unicodedata.normalize("NFKC", text).lower()
    if CJK.search(folded):
        folded = _taiwan_phrases(folded.translate(_S2T))
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


def grams(compact_text: str) -> list[str]:
    """The characters of a compact form, each with its occurrence number (`aab` -> a1, a2, b1): two
    texts share as many grams as they share characters, counted with repeats."""
    seen: dict[str, int] = {}
    out = []
    for ch in compact_text:
        seen[ch] = seen.get(ch, 0) + 1
        out.append(f"{ch}{seen[ch]}")
    return out


def unit_length(unit_words: tuple[str, ...]) -> int:
    """Characters of the units that the compact form also has (a unit may hold a `.`, which the
    compact form drops): a name found inside a text shares at least this many characters with it."""
    return sum(len(u) - u.count(".") for u in unit_words)
