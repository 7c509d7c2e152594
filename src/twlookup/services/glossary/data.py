"""Seeding the glossary tables from data/glossary/, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import DataFileError, load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.glossary.logic import Catalog
from twlookup.services.glossary.records import Comparison, HowTo, Term
from twlookup.services.glossary.tables import ComparisonRow, HowToRow, TermRow


def read_all(data_dir: Path) -> tuple[list[Term], list[Comparison], list[HowTo]]:
    """Read and cross-check the three files: related ids, comparison sides and how-to terms must exist."""
    folder = data_dir / "glossary"
    terms = load_records(folder / "terms.yaml", Term, "terms")
    comparisons = load_records(folder / "comparisons.yaml", Comparison, "comparisons")
    howtos = load_records(folder / "howtos.yaml", HowTo, "howtos")
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
    return terms, comparisons, howtos


def seed_glossary(session: Session, data_dir: Path) -> int:
    terms, comparisons, howtos = read_all(data_dir)
    n = replace_rows(session, TermRow, [to_row(t, TermRow) for t in terms])
    n += replace_rows(session, ComparisonRow, [to_row(c, ComparisonRow) for c in comparisons])
    n += replace_rows(session, HowToRow, [to_row(h, HowToRow) for h in howtos])
    return n


def _load(session: Session) -> Catalog:
    return Catalog(
        terms={r.id: Term.model_validate(r) for r in session.scalars(select(TermRow).order_by(TermRow.id))},
        comparisons={
            r.id: Comparison.model_validate(r)
            for r in session.scalars(select(ComparisonRow).order_by(ComparisonRow.id))
        },
        howtos={r.id: HowTo.model_validate(r) for r in session.scalars(select(HowToRow).order_by(HowToRow.id))},
    )


CATALOG: Reference[Catalog] = Reference(_load)
