"""The store-side search index (`twlookup.domain.search`): every indexed document's prepared names,
and two inverted lists, built when data is seeded or imported and read by each query.

- `search_document`: one row per document of a collection, with the digest of what it was indexed
  from (an unchanged document is not indexed again);
- `search_name`: each name of a document as the ranking compares it (folded, compact, its whole
  units), with its field, weight and lengths, at its place among the document's names;
- `search_gram`: each name's characters, the k-th occurrence of a character as its own entry
  (`a1`, `a2`), so that the number of entries a name shares with a query is the number of
  characters they share: the bound that finds every name a query can match, typos included;
- `search_token`: the words and character bigrams of each document's text and names.

The primary keys lead with the collection and the gram or token: a query reads only its own
entries (a B-tree range per entry), on SQLite and PostgreSQL alike. On SQLite the tables are
WITHOUT ROWID (the rows live in their primary key's B-tree: one tree to write, not two).
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base

CLUSTERED = {"sqlite_with_rowid": False}


class SearchDocumentRow(Base):
    __tablename__ = "search_document"
    __table_args__ = CLUSTERED

    collection: Mapped[str] = mapped_column(String(60), primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    digest: Mapped[str] = mapped_column(String(32))


class SearchNameRow(Base):
    __tablename__ = "search_name"
    __table_args__ = CLUSTERED

    collection: Mapped[str] = mapped_column(String(60), primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)  # among the document's names (ties: the first)
    field: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(Text)  # as written
    compact: Mapped[str] = mapped_column(Text)  # normalised, without spaces and punctuation
    units: Mapped[str] = mapped_column(Text)  # whole words and Chinese characters, space-separated
    length: Mapped[int] = mapped_column(Integer)  # characters of `compact`
    unit_length: Mapped[int] = mapped_column(Integer)  # characters of the units that `compact` also has
    weight: Mapped[float] = mapped_column(Float)


class SearchGramRow(Base):
    __tablename__ = "search_gram"
    __table_args__ = CLUSTERED

    collection: Mapped[str] = mapped_column(String(60), primary_key=True)
    gram: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)


class SearchTokenRow(Base):
    __tablename__ = "search_token"
    __table_args__ = CLUSTERED

    collection: Mapped[str] = mapped_column(String(60), primary_key=True)
    token: Mapped[str] = mapped_column(Text, primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
