"""The store-side search index: written at seed and import time, read by each query, and ranking
exactly as the in-memory index does, on SQLite and on PostgreSQL (TWLOOKUP_TEST_DATABASE_URL)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from twlookup.bundled import data_dir
from twlookup.domain import search
from twlookup.domain.search_tables import SearchDocumentRow, SearchGramRow, SearchNameRow, SearchTokenRow
from twlookup.platform.records import load_records
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base
from twlookup.services.cardgame import data as cardgame_data
from twlookup.services.cardgame.logic import Guide
from twlookup.services.cardgame.logic import documents as cardgame_documents
from twlookup.services.glossary import data as glossary_data
from twlookup.services.glossary.logic import Catalog
from twlookup.services.glossary.logic import documents as glossary_documents
from twlookup.services.opinions import data as opinions_data
from twlookup.services.opinions.records import Post, Thread

TABLES = [t.__table__ for t in (SearchDocumentRow, SearchNameRow, SearchGramRow, SearchTokenRow)]
DATA = data_dir()


def _collections() -> dict[str, list[search.Document]]:
    """The three services' collections, built from the shipped data files."""
    g = glossary_data.read_all(DATA)
    catalog = Catalog({t.id: t for t in g.terms}, {c.id: c for c in g.comparisons}, {h.id: h for h in g.howtos})
    chapters, terms, faq = cardgame_data.read_guide(DATA)
    guide = Guide(
        {c.slug: c for c in chapters},
        {t.term: t for t in terms},
        {f.id: f for f in faq},
        cardgame_data.read_banlists(DATA),
    )
    folder = DATA / "opinions"
    store = opinions_data.Store(
        opinions_data.read_topics(DATA),
        load_records(folder / "threads.yaml", Thread, "threads"),
        load_records(folder / "posts.yaml", Post, "posts"),
    )
    return {**glossary_documents(catalog), **cardgame_documents(guide), **opinions_data.documents(store)}


COLLECTIONS = _collections()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A store holding only the search tables, every collection written into it."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('search') / 'search.db'}"
    else:
        url = os.environ.get("TWLOOKUP_TEST_DATABASE_URL", "")
        if not url:
            pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (PostgreSQL tests need a server; .ci/run sets it)")
    previous = store_engine.get_engine().url.render_as_string(hide_password=False)
    store_engine.configure(url)
    engine = store_engine.get_engine()
    Base.metadata.drop_all(engine, tables=TABLES)
    Base.metadata.create_all(engine, tables=TABLES)
    with store_engine.session() as session, session.begin():
        for name, docs in COLLECTIONS.items():
            search.write(session, name, docs)
    yield url
    Base.metadata.drop_all(engine, tables=TABLES)
    store_engine.configure(previous)


def _typo(word: str) -> str:
    """One character dropped from the middle (a common slip)."""
    return word[: len(word) // 2] + word[len(word) // 2 + 1 :] if len(word) > 3 else word + "x"


def _queries(docs: list[search.Document], step: int) -> list[str]:
    """Names as written, with a typo, in part, inside a question; words of the text."""
    out: list[str] = []
    for doc in docs[::step]:
        for name in [ns[0] for ns in doc.names.values() if ns][:3]:
            out += [name, _typo(name), name[: max(2, len(name) // 2)], f"什麼是{name}？", f"what is {name}"]
        out.append(doc.text[:12])
    return out


EXTRA = [
    "大语言模型",
    "ＬＬＭ",
    "RM",
    "AI",
    "ViT",
    "SGD",
    "ReLU",
    "逻辑回归",
    "kmeans",
    "sigmod",
    "dense layer",
    "computer vison",
    "speach recognition",
    "语音识别",
    "tribute summon",
    "kindle",
    "headphones",
    "耳機",
    "模型",
    "a",
    "x",
    "   ",
    "完全無關的字 xyzzy",
    "gpt-4.5 turbo",
    "c++ #include",
]


def _same(stored: search.Searcher, memory: search.Index, queries: list[str]) -> None:
    """Every hit down to score 0, in order (any smaller limit or higher floor is a cut of this list)."""
    for q in queries:
        assert stored.search(q, limit=50, min_score=0.0) == memory.search(q, limit=50, min_score=0.0), q


@pytest.mark.parametrize(
    "names",
    [
        ("glossary:term",),
        ("glossary:term", "glossary:comparison", "glossary:howto"),
        ("cardgame:chapter", "cardgame:term", "cardgame:faq", "cardgame:card"),
        ("opinions:thread", "opinions:post"),
        ("opinions:topic",),
    ],
)
def test_the_store_ranks_as_the_memory_index(store: str, names: tuple[str, ...]) -> None:
    docs = [d for n in names for d in COLLECTIONS[n]]
    step = max(1, len(docs) // 12)
    _same(search.Stored(*names), search.Index(docs), _queries(docs, step) + EXTRA)


def test_ranking_cases_of_the_memory_index_hold_in_the_store(store: str) -> None:
    """The cases of tests/domain/test_search.py, asked of the store."""
    from domain.test_search import DOCS

    with store_engine.session() as session, session.begin():
        search.write(session, "test:docs", DOCS)
    stored = search.Stored("test:docs")
    assert stored.best("大语言模型").key == "llm"  # type: ignore[union-attr]
    assert stored.search("什麼是大型語言模型？")[0].reasons[0].kind == "name-in-query"
    assert stored.search("transfomer")[0].reasons[0].kind == "fuzzy"
    assert stored.search("large language")[0].reasons[0].kind == "query-in-name"
    assert [r.kind for r in stored.search("注意力")[0].reasons] == ["text"]
    assert stored.search("完全無關的字 xyzzy") == [] and stored.search("  ") == []
    _same(stored, search.Index(DOCS), [d for doc in DOCS for ns in doc.names.values() for d in ns] + EXTRA)


def test_write_indexes_only_what_changed_and_removes_what_is_gone(store: str) -> None:
    docs = [
        search.Document("a", {"name_en": ["Object storage"]}, "blobs in buckets"),
        search.Document("b", {"name_en": ["Tokenizer"], "alias": ["分詞器"]}, "splits text"),
        search.Document("c", {"name_en": ["Retrieval augmented generation"], "alias": ["RAG"]}),
    ]
    with store_engine.session() as session, session.begin():
        assert search.write(session, "test:change", docs) == 3
        assert search.write(session, "test:change", docs) == 0  # nothing changed: nothing re-indexed
        changed = [docs[0], search.Document("b", {"name_en": ["Tokeniser"]}, "splits text"), docs[2]]
        assert (
            search.write(session, "test:change", [*changed[:2], search.Document("d", {"name_zh": ["向量資料庫"]})]) == 2
        )
    stored = search.Stored("test:change")
    assert stored.best("tokeniser").key == "b"  # type: ignore[union-attr]
    assert stored.best("分詞器") is None  # the alias was dropped with the change
    assert stored.search("rag") == []  # c is gone
    assert stored.best("向量数据库").key == "d"  # type: ignore[union-attr]
    with store_engine.session() as session:
        names = session.scalar(
            select(func.count()).select_from(SearchNameRow).where(SearchNameRow.collection == "test:change")
        )
        grams = set(
            session.execute(
                select(SearchGramRow.key, SearchGramRow.position).where(SearchGramRow.collection == "test:change")
            ).all()
        )
        named = set(
            session.execute(
                select(SearchNameRow.key, SearchNameRow.position).where(SearchNameRow.collection == "test:change")
            ).all()
        )
    assert names == 3 and grams == named  # no entry left of a removed name


def test_a_query_reads_its_own_entries_through_the_index(store: str) -> None:
    """The candidate reads use the primary keys' B-trees (no scan of the whole gram or token list)."""
    engine = store_engine.get_engine()
    values = {"collections": ["glossary:term"], "grams": ["a1", "i1"], "length": 2, "unit_length": 2, "tokens": ["ai"]}
    with engine.connect() as conn:
        explain = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
        if engine.dialect.name == "postgresql":
            conn.execute(text("SET enable_seqscan = off"))  # tables this small are scanned otherwise
        for statement, table in ((search.CANDIDATE_NAMES, "search_gram"), (search.CANDIDATE_TOKENS, "search_token")):
            sql = statement.params(values).compile(engine, compile_kwargs={"literal_binds": True})
            plan = " ".join(str(r[-1]) for r in conn.execute(text(explain + str(sql))))
            if engine.dialect.name == "sqlite":
                assert f"SEARCH {table} USING PRIMARY KEY" in plan, plan
            else:
                assert "Index" in plan and "Seq Scan" not in plan, plan


def test_a_seed_and_an_import_keep_the_index(fresh_store: str, tmp_path: Path) -> None:
    """`twlookup seed` writes every collection; a feed import makes its new rows searchable."""
    from twlookup.platform.feeds.run import import_file
    from twlookup.services.opinions.operations import SERVICE

    store_engine.configure(fresh_store)
    with store_engine.session() as session:
        counted = dict(
            session.execute(
                select(SearchDocumentRow.collection, func.count()).group_by(SearchDocumentRow.collection)
            ).all()
        )
    assert {name: counted.get(name, 0) for name in COLLECTIONS} == {n: len(d) for n, d in COLLECTIONS.items()}
    post = tmp_path / "posts.yaml"
    post.write_text(
        "posts:\n"
        "  - id: 990001\n    topic: noise-cancelling-headphones\n    author: 測試者\n    title: 降噪耳機通勤心得\n"
        "    body: 捷運上用了三個月的抗噪耳罩，電池與舒適度都寫在這裡。\n    products: [Zephyrix Q9]\n"
        "    stance: recommend\n    human_written: true\n    published: 2026-11-01\n"
    )
    assert search.Stored("opinions:post").best("Zephyrix Q9") is None
    import_file(SERVICE.feeds["posts"], post)
    hit = search.Stored("opinions:post").best("zephyrix q9")
    assert hit is not None and hit.key == "post:990001"
