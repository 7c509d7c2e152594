"""Seeding the creator store from data/creator/, the company importer, and the cached catalogue."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from twlookup.platform.records import Record, load_records, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.creator import records
from twlookup.services.creator.parsers import parse_rows
from twlookup.services.creator.tables import (
    AdTermRow,
    Company,
    EndorsementRuleRow,
    IncomeKindRow,
    ListingDutyRow,
    MinimumWageRow,
    NhiRuleRow,
    PlatformRow,
    RuleRow,
    ThresholdRow,
    WithholdingAgentRow,
)

if TYPE_CHECKING:
    from twlookup.platform.store.record_tables import DerivedRow

# kind → (model, its table, file, key in the file)
KINDS: dict[str, tuple[type[Record], type[DerivedRow], str, str]] = {
    "term": (records.AdTerm, AdTermRow, "ad_terms.yaml", "terms"),
    "rule": (records.Rule, RuleRow, "rules.yaml", "rules"),
    "threshold": (records.Threshold, ThresholdRow, "tax.yaml", "thresholds"),
    "income": (records.IncomeKind, IncomeKindRow, "withholding.yaml", "kinds"),
    "nhi": (records.NhiRule, NhiRuleRow, "withholding.yaml", "nhi"),
    "agent": (records.WithholdingAgent, WithholdingAgentRow, "withholding.yaml", "agents"),
    "wage": (records.MinimumWage, MinimumWageRow, "withholding.yaml", "minimum_wage"),
    "platform": (records.Platform, PlatformRow, "platforms.yaml", "platforms"),
    "listing": (records.ListingDuty, ListingDutyRow, "listing.yaml", "duties"),
    "endorsement": (records.EndorsementRule, EndorsementRuleRow, "endorsement.yaml", "rules"),
}


def seed_creator(session: Session, data_dir: Path) -> int:
    count = 0
    for model, table, name, key in KINDS.values():
        found = load_records(data_dir / "creator" / name, model, key)
        count += replace_rows(session, table, [to_row(r, table) for r in found])
    # The shipped company extract only adds rows; it never removes what an import brought in.
    for r in load_records(data_dir / "creator" / "companies.yaml", records.CompanyRecord, "companies", label="ban"):
        if session.get(Company, r.ban) is None:
            session.add(to_row(r, Company))
            count += 1
    session.flush()
    return count


def import_companies(session: Session, path: Path) -> int:
    """`twlookup ingest creator.companies FILE`: upsert companies from a saved GCIS JSON array."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    records = parse_rows(rows, today_taipei())
    for r in records:
        session.merge(to_row(r, Company))
    return len(records)


@dataclass(frozen=True)
class Catalogue:
    terms: list[records.AdTerm]
    rules: dict[str, records.Rule]
    thresholds: list[records.Threshold]
    incomes: dict[str, records.IncomeKind]
    nhi: list[records.NhiRule]
    agents: dict[bool, records.WithholdingAgent]
    wages: list[records.MinimumWage]
    platforms: dict[str, records.Platform]
    listing: list[records.ListingDuty]
    endorsement: list[records.EndorsementRule]


def _load(session: Session) -> Catalogue:
    got: dict[str, list[Any]] = {
        kind: [model.model_validate(r) for r in session.scalars(select(table).order_by(table.id))]
        for kind, (model, table, _name, _key) in KINDS.items()
    }
    return Catalogue(
        terms=got["term"],
        rules={r.id: r for r in got["rule"]},
        thresholds=got["threshold"],
        incomes={i.id: i for i in got["income"]},
        nhi=got["nhi"],
        agents={a.payer_is_business: a for a in got["agent"]},
        wages=got["wage"],
        platforms={p.id: p for p in got["platform"]},
        listing=got["listing"],
        endorsement=got["endorsement"],
    )


CATALOGUE: Reference[Catalogue] = Reference(_load)


def company_by_ban(ban: str) -> records.CompanyRecord | None:
    with store_engine.session() as session:
        row = session.get(Company, ban)
        return records.CompanyRecord.model_validate(row) if row else None


def companies_by_name(name: str, limit: int = 20) -> list[records.CompanyRecord]:
    with store_engine.session() as session:
        rows = session.scalars(
            select(Company)
            .where(or_(Company.name == name, Company.name.contains(name)))
            .order_by(Company.name)
            .limit(limit)
        )
        return [records.CompanyRecord.model_validate(r) for r in rows]


def save_company(record: records.CompanyRecord) -> None:
    with store_engine.session() as session, session.begin():
        session.merge(to_row(record, Company))


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_creator,)
