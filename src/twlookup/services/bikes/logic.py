"""What a mechanic types, in Chinese or English, mapped to what the bikes records hold.

A query is split into words; a word that names a part (火星塞, spark plug, 化油器, carb, 混合油,
premix ...) selects maintenance items, a word that names a maker in either script (山葉, Yamaha,
光陽, Kymco, 三陽, SYM ...) selects makers, and any other word is matched as text (a maker's code
such as BR8HSA or NGK, a model name). Matching ignores case, spaces and punctuation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# part or topic -> the maintenance items it means. Multi-word English names are joined first.
PART_TERMS: dict[str, tuple[str, ...]] = {
    # spark plug
    "火星塞": ("spark_plug",),
    "火花塞": ("spark_plug",),
    "點火塞": ("spark_plug",),
    "sparkplug": ("spark_plug",),
    "sparkplugs": ("spark_plug",),
    "plug": ("spark_plug",),
    "plugs": ("spark_plug",),
    # carburettor
    "化油器": ("carburettor",),
    "化油": ("carburettor",),
    "carburettor": ("carburettor",),
    "carburetor": ("carburettor",),
    "carb": ("carburettor",),
    "jetting": ("carburettor",),
    "主油嘴": ("carburettor",),
    "油嘴": ("carburettor",),
    # two-stroke oil, premix, oil injection
    "混合油": ("oil_mix", "two_stroke_oil"),
    "premix": ("oil_mix", "two_stroke_oil"),
    "pre-mix": ("oil_mix", "two_stroke_oil"),
    "二行程機油": ("two_stroke_oil", "oil_mix"),
    "二行程油": ("two_stroke_oil", "oil_mix"),
    "2toil": ("two_stroke_oil", "oil_mix"),
    "twostrokeoil": ("two_stroke_oil", "oil_mix"),
    "2strokeoil": ("two_stroke_oil", "oil_mix"),
    "autolube": ("oil_mix", "two_stroke_oil"),
    "oilinjection": ("oil_mix", "two_stroke_oil"),
    "分離供油": ("oil_mix", "two_stroke_oil"),
    "機油幫浦": ("oil_mix", "two_stroke_oil"),
    # gear oil
    "齒輪油": ("gear_oil",),
    "齒輪箱油": ("gear_oil",),
    "gearoil": ("gear_oil",),
    "transmissionoil": ("gear_oil",),
    # engine oil
    "機油": ("engine_oil", "two_stroke_oil"),
    "engineoil": ("engine_oil",),
    # tyres
    "輪胎": ("tyres",),
    "tyre": ("tyres",),
    "tyres": ("tyres",),
    "tire": ("tyres",),
    "tires": ("tyres",),
    "胎壓": ("tyre_pressure",),
    "tyrepressure": ("tyre_pressure",),
    "tirepressure": ("tyre_pressure",),
    # fuel, intervals
    "汽油": ("fuel",),
    "fuel": ("fuel",),
    "保養週期": ("interval",),
    "interval": ("interval",),
    "intervals": ("interval",),
}

# parts a mechanic asks for that no record holds yet: the answer says so rather than nothing
UNRECORDED_PARTS: dict[str, str] = {
    "前叉油": "fork oil",
    "forkoil": "fork oil",
    "白鐵管": "stainless exhaust (白鐵管)",
    "排氣管": "exhaust",
    "exhaust": "exhaust",
}

# maker names in either script -> the word the records' maker field carries
MAKER_TERMS: dict[str, str] = {
    "山葉": "yamaha",
    "yamaha": "yamaha",
    "光陽": "kymco",
    "kymco": "kymco",
    "kwangyang": "kymco",
    "三陽": "sym",
    "sym": "sym",
    "sanyang": "sym",
    "摩特動力": "pgo",
    "摩特": "pgo",
    "pgo": "pgo",
    "鈴木": "suzuki",
    "台鈴": "suzuki",
    "suzuki": "suzuki",
    "本田": "honda",
    "honda": "honda",
    "川崎": "kawasaki",
    "kawasaki": "kawasaki",
    "偉士牌": "vespa",
    "vespa": "vespa",
    "gogoro": "gogoro",
}

# English names of more than one word, joined before the words are looked up
PHRASES = (
    "spark plug",
    "spark plugs",
    "two stroke oil",
    "two-stroke oil",
    "2t oil",
    "2-stroke oil",
    "oil injection",
    "gear oil",
    "transmission oil",
    "engine oil",
    "tyre pressure",
    "tire pressure",
    "fork oil",
    "kwang yang",
    "san yang",
)


def norm(text: str) -> str:
    """Lower case; letters, digits and CJK characters only."""
    return re.sub(r"[^0-9a-z\u3400-\u9fff]", "", text.lower())


@dataclass
class Query:
    items: set[str] = field(default_factory=set)  # maintenance items named
    makers: set[str] = field(default_factory=set)  # makers named
    words: list[str] = field(default_factory=list)  # other words, matched as text
    unrecorded: list[str] = field(default_factory=list)  # parts named that no record holds

    @property
    def empty(self) -> bool:
        return not (self.items or self.makers or self.words or self.unrecorded)


def _cjk_terms(word: str) -> list[str]:
    """A run of Chinese split into the longest known terms, left to right (山葉火星塞 -> 山葉, 火星塞);
    what is left is kept as text."""
    known = sorted([*PART_TERMS, *MAKER_TERMS, *UNRECORDED_PARTS], key=len, reverse=True)
    out: list[str] = []
    rest = ""
    i = 0
    while i < len(word):
        hit = next((k for k in known if word.startswith(k, i)), None)
        if hit:
            if rest:
                out.append(rest)
                rest = ""
            out.append(hit)
            i += len(hit)
        else:
            rest += word[i]
            i += 1
    if rest:
        out.append(rest)
    return out


def parse(q: str) -> Query:
    text = q.lower()
    for phrase in sorted(PHRASES, key=len, reverse=True):  # "spark plugs" before "spark plug"
        text = text.replace(phrase, phrase.replace(" ", "").replace("-", ""))
    query = Query()
    for raw in text.split():
        for word in _cjk_terms(norm(raw)) if re.search(r"[\u3400-\u9fff]", raw) else [norm(raw)]:
            if not word:
                continue
            if word in PART_TERMS:
                query.items.update(PART_TERMS[word])
            elif word in MAKER_TERMS:
                query.makers.add(MAKER_TERMS[word])
            elif word in UNRECORDED_PARTS:
                query.unrecorded.append(UNRECORDED_PARTS[word])
            else:
                query.words.append(word)
    return query
