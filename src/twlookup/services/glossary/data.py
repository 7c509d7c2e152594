"""Seeding the glossary tables from data/glossary/, and the cached catalogue."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain import model_lifecycle, search
from twlookup.domain.model_lifecycle_tables import read_catalog
from twlookup.platform.records import (
    DataFileError,
    SourcedRecord,
    file_defaults,
    read_data_file,
    to_row,
    validate_records,
)
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.glossary.logic import COLLECTIONS, TERMS, Catalog, documents, name_key, usage_showing
from twlookup.services.glossary.records import USAGE_KINDS, CitedSource, Comparison, HowTo, Term, UsageSource
from twlookup.services.glossary.tables import ComparisonRow, HowToRow, SourceRow, TermRow

R = TypeVar("R", bound=SourcedRecord)


class GlossaryData(NamedTuple):
    terms: list[Term]
    comparisons: list[Comparison]
    howtos: list[HowTo]
    citations: list[CitedSource]
    usage: list[UsageSource]


def _list(path: Path, key: str) -> tuple[Mapping[str, Any], list[Any]]:
    doc = read_data_file(path)
    if not isinstance(doc, Mapping) or not isinstance(doc.get(key), list):
        raise DataFileError(f"{path}: expected a mapping with a list under {key!r}")
    return doc, doc[key]


def read_sources(folder: Path) -> tuple[list[CitedSource], list[UsageSource]]:
    path = folder / "sources.yaml"
    doc, citations = _list(path, "citations")
    cited = validate_records(path, citations, CitedSource, label="url")
    usage = validate_records(path, doc.get("usage") or [], UsageSource, label="url")
    urls = [c.url for c in cited]
    if len(set(urls)) != len(urls):
        raise DataFileError(f"{path}: a citation url is listed twice")
    return cited, usage


def _cited_records(path: Path, key: str, model: type[R], titles: Mapping[str, str]) -> list[R]:
    """Records of `path` whose source must be a registered citation; the title comes from the
    registry (an item that gives its own must give the same)."""
    doc, items = _list(path, key)
    filled = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise DataFileError(f"{path}: record {index + 1} is not a mapping")
        name = item.get("id", f"#{index + 1}")
        url = item.get("source")
        if not isinstance(url, str) or url not in titles:
            raise DataFileError(f"{path}: record {name!r}: source {url!r} is not in sources.yaml")
        if item.get("source_title") not in (None, titles[url]):
            raise DataFileError(f"{path}: record {name!r}: source_title differs from sources.yaml")
        filled.append({**item, "source_title": titles[url]})
    return validate_records(path, filled, model, file_defaults(doc, model))


def taiwan_usage(name_zh: str, usage: list[UsageSource]) -> str:
    """The strongest kind of usage source showing `name_zh`, or unverified."""
    kinds = {u.usage_kind for u in usage_showing(name_zh, usage)}
    return next((k for k in USAGE_KINDS if k in kinds), "unverified")


def read_all(data_dir: Path) -> GlossaryData:
    """Read and cross-check the files: sources registered, related ids, comparison sides and how-to
    terms must exist."""
    folder = data_dir / "glossary"
    citations, usage = read_sources(folder)
    titles = {c.url: c.title for c in citations}
    terms = _cited_records(folder / "terms.yaml", "terms", Term, titles)
    comparisons = _cited_records(folder / "comparisons.yaml", "comparisons", Comparison, titles)
    howtos = _cited_records(folder / "howtos.yaml", "howtos", HowTo, titles)
    ids = {t.id for t in terms}
    if len(ids) != len(terms):
        raise DataFileError(f"{folder / 'terms.yaml'}: duplicate term ids")
    for t in terms:
        missing = [r for r in t.related if r not in ids]
        if missing:
            raise DataFileError(f"{folder / 'terms.yaml'}: record {t.id!r}: related ids {missing} are not terms")
    for c in comparisons:
        if c.a not in ids or c.b not in ids or c.a == c.b:
            raise DataFileError(f"{folder / 'comparisons.yaml'}: record {c.id!r}: a and b must be two term ids")
    for h in howtos:
        missing = [r for r in h.terms if r not in ids]
        if missing:
            raise DataFileError(f"{folder / 'howtos.yaml'}: record {h.id!r}: terms {missing} are not terms")
    known = {name_key(n) for t in terms for n in [t.name_zh, *t.aliases]}
    for u in usage:
        strays = [n for n in u.names if name_key(n) not in known]
        if strays:
            raise DataFileError(
                f"{folder / 'sources.yaml'}: usage {u.url!r}: names {strays} are no term's name or alias"
            )
    for t in terms:
        found = taiwan_usage(t.name_zh, usage)
        if t.taiwan_usage != found:
            raise DataFileError(
                f"{folder / 'terms.yaml'}: record {t.id!r}: taiwan_usage is {t.taiwan_usage!r}, but the usage sources "
                f"in sources.yaml showing {t.name_zh!r} make it {found!r}"
            )
    cited = {t.source for t in [*terms, *comparisons, *howtos]}
    unused = [c.url for c in citations if c.url not in cited]
    if unused:
        raise DataFileError(f"{folder / 'sources.yaml'}: citations no item cites: {unused}")
    return GlossaryData(terms, comparisons, howtos, citations, usage)


def seed_glossary(session: Session, data_dir: Path) -> int:
    data = read_all(data_dir)
    n = replace_rows(session, TermRow, [to_row(t, TermRow) for t in data.terms])
    n += replace_rows(session, ComparisonRow, [to_row(c, ComparisonRow) for c in data.comparisons])
    n += replace_rows(session, HowToRow, [to_row(h, HowToRow) for h in data.howtos])
    rows = [to_row(c, SourceRow, kind="citation") for c in data.citations]
    rows += [to_row(u, SourceRow, kind="usage") for u in data.usage]
    n += replace_rows(session, SourceRow, rows)
    return n


def _load(session: Session) -> Catalog:
    sources = list(session.scalars(select(SourceRow).order_by(SourceRow.kind, SourceRow.url)))
    return Catalog(
        terms={r.id: Term.model_validate(r) for r in session.scalars(select(TermRow).order_by(TermRow.id))},
        comparisons={
            r.id: Comparison.model_validate(r)
            for r in session.scalars(select(ComparisonRow).order_by(ComparisonRow.id))
        },
        howtos={r.id: HowTo.model_validate(r) for r in session.scalars(select(HowToRow).order_by(HowToRow.id))},
        citations={r.url: CitedSource.model_validate(r) for r in sources if r.kind == "citation"},
        usage=[UsageSource.model_validate(r) for r in sources if r.kind == "usage"],
        searchers=(search.Stored(TERMS), search.Stored(*COLLECTIONS)),
    )


@search.indexed
def search_documents(session: Session) -> dict[str, list[search.Document]]:
    """The glossary's search collections, as `twlookup seed` writes them into the store."""
    return documents(_load(session))


CATALOG: Reference[Catalog] = Reference(_load)


def _models(session: Session) -> model_lifecycle.Catalog:
    """The models service's retirement records, which the how-tos' model advice reads."""
    return read_catalog(session)


MODELS: Reference[model_lifecycle.Catalog] = Reference(_models)
# A group of its own: the glossary's other operations do not read it, so its first search does not
# wait for it to be built; the operations that do (get_howto, export) run in a worker thread.
MODELS.group = "glossary:models"


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_glossary,)
