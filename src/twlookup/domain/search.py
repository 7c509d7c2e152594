"""Search over reference collections in Chinese and English (glossary, cardgame, opinions).

The interface (docs/search.md; what the services call):

    Document(key, names={field: [name, ...]}, text="", weights={field: weight})
    Stored(collections).search(query, limit=20, min_score=0.2) -> [Hit(key, score, reasons)]
    Stored(collections).best(query, min_score=0.6) -> Hit | None
    Index(documents): the same two methods over documents held in memory
    indexed(build): declares a service's collections; build(session) -> {collection: [Document]}
    sync(session, groups=None): writes the declared collections' searchable forms into the store
    normalise(text), compact(text), tokens(text)

A document has several name fields (e.g. name_zh, name_en, alias; Taiwan, mainland, English and
abbreviation names), each with a weight (default 1.0) that scales its name points, and a body
text. Names match as whole words: an English or number word only as a whole word, a Chinese name
character by character (Chinese has no spaces), so "rag" does not match inside "storage". Query
and indexed text are read the same way (`search_text`: NFKC folding, lower case, Simplified to
Traditional from generated tables, tokens, units).

The score of a document for a query is the best of its name matches (times the field's weight)
plus a share of its body-text overlap, each part reported as a `Reason`, so a ranking explains
itself:

    exact name or alias            1.00
    name inside the query          0.80 + 0.15 x len(name)/len(query)   ("什麼是大型語言模型")
    query inside a name (>= 2)     0.60 + 0.30 x len(query)/len(name)   (a prefix or part of a name)
    fuzzy name (typo)              0.90 x similarity, when similarity >= 0.75 (rapidfuzz ratio)
    body text                      0.30 x share of the query's tokens found in the text

The total is the sum (at most 1.30), so an exact name outranks a name found inside a longer query.
Documents scoring below `min_score` (0.2) are left out; ties are broken by key.

Where the searchable forms live: a service declares its collections with `indexed`, and every
seed and every feed import calls `sync`, which writes each document's prepared names, their
characters and its text tokens into the store (`search_tables`), re-indexing only the documents
whose content changed. `Stored` answers a query with two indexed reads: the names that share
enough characters with the query to match it in one of the four ways above (a bound that never
leaves out a match: a name inside the query shares all its characters with it, a typo at
similarity s shares at least s/2 of both lengths), and the documents holding any of the query's
tokens; those candidates are then scored exactly as `Index` scores them. No serving process holds
an index: a process needs only the normalisation tables to read a query.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rapidfuzz import fuzz
from sqlalchemy import bindparam, delete, func, or_, select
from sqlalchemy.orm import Session

from twlookup.domain import script_tables, search_text
from twlookup.domain.search_tables import SearchDocumentRow, SearchGramRow, SearchNameRow, SearchTokenRow
from twlookup.domain.search_text import compact, grams, normalise, tokens, unit_length, units
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base
from twlookup.platform.store.derived_rows import derived_from_records
from twlookup.platform.store.reference import group_of

__all__ = [
    "Document",
    "Hit",
    "Index",
    "Reason",
    "Searcher",
    "Stored",
    "compact",
    "indexed",
    "normalise",
    "sync",
    "tokens",
    "units",
]

_S2T = search_text._S2T  # the character table, for the tests that compare it with OpenCC
MIN_SCORE = 0.2
FUZZY_CUTOFF = 0.75
# How names and text are read into the index (the normalisation module and its tables): when it
# changes, every document is indexed again.
FORMS = hashlib.blake2b(
    b"".join(Path(m.__file__ or "").read_bytes() for m in (search_text, script_tables)), digest_size=8
).hexdigest()


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


@dataclass(frozen=True)
class Name:
    """A name as the ranking compares it."""

    field: str
    original: str
    compact: str
    units: tuple[str, ...]
    weight: float


@dataclass
class Document:
    key: str
    names: dict[str, list[str]]  # field -> names, e.g. {"name_zh": [...], "alias": [...]}
    text: str = ""
    weights: dict[str, float] = field(default_factory=dict)  # field -> weight of its name points (default 1.0)

    def prepared_names(self) -> list[Name]:
        return [
            Name(f, n, compact(n), units(n), self.weights.get(f, 1.0))
            for f, ns in self.names.items()
            for n in ns
            if n and compact(n)
        ]

    def text_tokens(self, prepared: list[Name] | None = None) -> frozenset[str]:
        """Tokens of the body text and of every name (`prepared`: the names, when already prepared)."""
        names = self.prepared_names() if prepared is None else prepared
        return frozenset(tokens(self.text + " " + " ".join(n.original for n in names)))

    def digest(self) -> str:
        """What the document is indexed from (and how): unchanged content is not indexed again."""
        content = json.dumps([FORMS, self.names, self.text, self.weights], ensure_ascii=False, sort_keys=True)
        return hashlib.blake2b(content.encode(), digest_size=16).hexdigest()


# --- ranking -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    text: str
    compact: str
    units: tuple[str, ...]
    tokens: tuple[str, ...]  # the tokens the body text is searched for (one-letter words left out)

    @classmethod
    def of(cls, text: str) -> Query | None:
        q = compact(text)
        if not q:
            return None
        return cls(text, q, units(text), tuple(t for t in tokens(text) if len(t) > 1 or not t.isascii()))


def _within(needle: tuple[str, ...], hay: tuple[str, ...]) -> bool:
    """Whether `needle` occurs in `hay` as a run of whole units."""
    n = len(needle)
    return 0 < n <= len(hay) and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def _name_reason(q: Query, names: Iterable[Name]) -> Reason | None:
    best: Reason | None = None
    for n in names:
        if n.compact == q.compact:
            reason = Reason("exact", n.field, n.original, round(1.0 * n.weight, 4))
        elif len(n.compact) >= 2 and _within(n.units, q.units):
            points = (0.80 + 0.15 * len(n.compact) / len(q.compact)) * n.weight
            reason = Reason("name-in-query", n.field, n.original, round(points, 4))
        elif len(q.compact) >= 2 and _within(q.units, n.units):
            points = (0.60 + 0.30 * len(q.compact) / len(n.compact)) * n.weight
            reason = Reason("query-in-name", n.field, n.original, round(points, 4))
        else:
            similarity = fuzz.ratio(q.compact, n.compact) / 100
            if similarity < FUZZY_CUTOFF:
                continue
            reason = Reason("fuzzy", n.field, n.original, round(0.90 * similarity * n.weight, 4))
        if best is None or reason.points > best.points:
            best = reason
    return best


def _hit(q: Query, key: str, names: Iterable[Name], found: Iterable[str]) -> Hit | None:
    """The document's hit: its best name reason and its share of the query's tokens (`found`: the
    query tokens its text holds)."""
    reasons: list[Reason] = []
    name = _name_reason(q, names)
    if name:
        reasons.append(name)
    found_set = set(found)
    matched = [t for t in q.tokens if t in found_set]
    if q.tokens and matched:
        reasons.append(Reason("text", "text", " ".join(matched[:8]), round(0.30 * len(matched) / len(q.tokens), 4)))
    if not reasons:
        return None
    return Hit(key, round(sum(r.points for r in reasons), 4), tuple(reasons))


def _ranked(hits: Iterable[Hit | None], limit: int, min_score: float) -> list[Hit]:
    kept = [h for h in hits if h and h.score >= min_score]
    kept.sort(key=lambda h: (-h.score, h.key))
    return kept[:limit]


def score(query: str, doc: Document) -> Hit | None:
    """The document's score for the query, with the reasons that make it up (None when no part matches)."""
    q = Query.of(query)
    names = doc.prepared_names()
    return _hit(q, doc.key, names, doc.text_tokens(names)) if q else None


class Searcher(Protocol):
    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]: ...

    def best(self, query: str, min_score: float = 0.6) -> Hit | None: ...


class _Best(ABC):
    @abstractmethod
    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]: ...

    def best(self, query: str, min_score: float = 0.6) -> Hit | None:
        hits = self.search(query, limit=1, min_score=min_score)
        return hits[0] if hits else None


class Index(_Best):
    """Documents prepared in memory (a collection a test or a tool builds for itself); services
    search the store through `Stored`. Ranks exactly as `Stored` does."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = [(d.key, names, d.text_tokens(names)) for d in documents for names in [d.prepared_names()]]

    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]:
        q = Query.of(query)
        if q is None:
            return []
        return _ranked(
            (_hit(q, key, names, toks & set(q.tokens)) for key, names, toks in self.documents), limit, min_score
        )


class Stored(_Best):
    """Collections indexed in the store (`sync`): each search reads the candidates from the
    store's index and ranks them. Blocking: call it off the event loop."""

    def __init__(self, *collections: str) -> None:
        self.collections = collections

    def search(self, query: str, limit: int = 20, min_score: float = MIN_SCORE) -> list[Hit]:
        q = Query.of(query)
        if q is None:
            return []
        with store_engine.session() as session:
            names, found = _candidates(session, self.collections, q)
        keys = names.keys() | found.keys()
        return _ranked((_hit(q, key, names.get(key, ()), found.get(key, ())) for key in keys), limit, min_score)


_shared = (
    select(SearchGramRow.collection, SearchGramRow.key, SearchGramRow.position, func.count().label("shared"))
    .where(
        SearchGramRow.collection.in_(bindparam("collections", expanding=True)),
        SearchGramRow.gram.in_(bindparam("grams", expanding=True)),
    )
    .group_by(SearchGramRow.collection, SearchGramRow.key, SearchGramRow.position)
    .subquery()
)
_n = SearchNameRow
# The names a query can match: the statement is built once, the query's figures are its parameters.
CANDIDATE_NAMES = (
    select(_n.key, _n.field, _n.name, _n.compact, _n.units, _n.weight)
    .join(
        _shared,
        (_shared.c.collection == _n.collection) & (_shared.c.key == _n.key) & (_shared.c.position == _n.position),
    )
    .where(
        or_(
            # the same name, or a typo: a ratio of 0.75 needs 0.375 x (both lengths) shared characters
            8 * _shared.c.shared >= 3 * (_n.length + bindparam("length")),
            # the name inside the query: the query has every character of the name's units
            (_n.length >= 2) & (_n.unit_length > 0) & (_shared.c.shared >= _n.unit_length),
            # the query inside the name: the name has every character of the query's units
            _shared.c.shared >= bindparam("unit_length"),
        )
    )
    .order_by(_n.key, _n.position)
)
CANDIDATE_TOKENS = select(SearchTokenRow.key, SearchTokenRow.token).where(
    SearchTokenRow.collection.in_(bindparam("collections", expanding=True)),
    SearchTokenRow.token.in_(bindparam("tokens", expanding=True)),
)
NEVER = 1 << 30  # a bound no name reaches (a query too short to be found inside a name)


def _candidates(
    session: Session, collections: Sequence[str], q: Query
) -> tuple[dict[str, list[Name]], dict[str, set[str]]]:
    """The names that could match the query (by the characters they share with it) and, for each
    document holding some of the query's tokens, those tokens."""
    inside = unit_length(q.units) if len(q.compact) >= 2 else 0
    params = {
        "collections": list(collections),
        "grams": grams(q.compact),
        "length": len(q.compact),
        "unit_length": inside or NEVER,
    }
    names: dict[str, list[Name]] = defaultdict(list)
    for key, fld, original, comp, unit_text, weight in session.execute(CANDIDATE_NAMES, params):
        names[key].append(Name(fld, original, comp, tuple(unit_text.split(" ")) if unit_text else (), weight))
    found: dict[str, set[str]] = defaultdict(set)
    if q.tokens:
        for key, token in session.execute(
            CANDIDATE_TOKENS, {"collections": list(collections), "tokens": list(q.tokens)}
        ):
            found[key].add(token)
    return names, found


# --- building the store-side index ------------------------------------------------------------

Build = Callable[[Session], Mapping[str, Iterable[Document]]]
_BUILDS: dict[str, Build] = {}  # by the builder's module and name: declared once per import


def indexed(build: Build) -> Build:
    """Declare a service's search collections: `build(session)` reads the store and returns every
    document of each collection it owns (an empty list empties a collection). Usable as a decorator."""
    _BUILDS[f"{build.__module__}.{build.__qualname__}"] = build
    return build


@derived_from_records  # every seed and feed import calls it (platform/store/derived_rows.py)
def sync(session: Session, groups: Iterable[str] | None = None) -> int:
    """Bring the declared collections (of the services named in `groups`; all when None) up to
    date with the store's data, in the caller's transaction. Returns the documents (re)indexed."""
    wanted = None if groups is None else set(groups)
    done = 0
    for name, build in sorted(_BUILDS.items()):
        if wanted is None or group_of(name) in wanted:
            for collection, documents in build(session).items():
                done += write(session, collection, documents)
    return done


def write(session: Session, collection: str, documents: Iterable[Document]) -> int:
    """Make the stored collection hold exactly `documents`: new and changed documents are indexed,
    those no longer given are removed. Returns how many were (re)indexed."""
    wanted = {d.key: d for d in documents}
    documents_now = select(SearchDocumentRow.key, SearchDocumentRow.digest).where(
        SearchDocumentRow.collection == collection
    )
    stored = dict(session.execute(documents_now).all())
    digests = {key: d.digest() for key, d in wanted.items()}
    gone = [key for key in stored if digests.get(key) != stored[key]]
    fresh = [wanted[key] for key in wanted if stored.get(key) != digests[key]]
    for chunk in _chunks(gone):
        for table in (SearchGramRow, SearchNameRow, SearchTokenRow, SearchDocumentRow):
            session.execute(delete(table).where(table.collection == collection, table.key.in_(chunk)))
    if fresh:
        _insert(session, collection, fresh, digests)
    return len(fresh)


def _insert(session: Session, collection: str, documents: list[Document], digests: dict[str, str]) -> None:
    """Many rows at a time, straight to the driver (SQLAlchemy's per-row parameter handling would be
    most of a seed's time here)."""
    names: list[tuple[object, ...]] = []
    gram_rows: list[tuple[object, ...]] = []
    token_rows: list[tuple[object, ...]] = []
    for d in documents:
        prepared = d.prepared_names()
        for position, n in enumerate(prepared):
            units_text, length, units_length = " ".join(n.units), len(n.compact), unit_length(n.units)
            names.append(
                (
                    collection,
                    d.key,
                    position,
                    n.field,
                    n.original,
                    n.compact,
                    units_text,
                    length,
                    units_length,
                    n.weight,
                )
            )
            gram_rows += [(collection, g, d.key, position) for g in grams(n.compact)]
        token_rows += [(collection, t, d.key) for t in d.text_tokens(prepared)]
    rows: dict[type[Base], list[tuple[Any, ...]]] = {
        SearchDocumentRow: [(collection, d.key, digests[d.key]) for d in documents],
        SearchNameRow: names,
        SearchGramRow: gram_rows,
        SearchTokenRow: token_rows,
    }
    conn = session.connection()
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    for model, values in rows.items():
        table = model.__table__
        columns = ", ".join(c.name for c in table.columns)
        sql = f"INSERT INTO {table.name} ({columns}) VALUES ({', '.join(mark for _ in table.columns)})"
        for chunk in _chunks(values, 5000):
            conn.exec_driver_sql(sql, list(chunk))


T = TypeVar("T")


def _chunks(items: Sequence[T], size: int = 500) -> Iterable[Sequence[T]]:
    return (items[i : i + size] for i in range(0, len(items), size))
