"""Seeding the stocks tables from data/stocks/*.yaml, and the cached market built from the store."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.platform.records import CitingRecord, file_defaults, to_row, validate_records
from twlookup.platform.schemas import Source
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.stocks import logic
from twlookup.services.stocks.records import Close, Etf, EtfEntry, Import, Member, Payout, Security, Theme, ThemeEntry
from twlookup.services.stocks.tables import (
    CloseRecord,
    DeductionRecord,
    EtfRecord,
    ImportRecord,
    MemberRecord,
    PayoutRecord,
    SecurityRecord,
    ThemeRecord,
)

PROVENANCE = ("source", "source_title", "checked", "licence", "sample")


def _inherit(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A nested item with the provenance of the item it sits in, unless it gives its own."""
    return {**{k: parent[k] for k in PROVENANCE if k in parent}, **child}


def seed_stocks(session: Session, data_dir: Path) -> int:
    folder = data_dir / "stocks"
    path = folder / "themes.yaml"
    themes_doc = load_yaml(path)
    items = [
        {**t, "members": [_inherit({**file_defaults(themes_doc, Theme), **t}, m) for m in t["members"]]}
        for t in themes_doc["themes"]
    ]
    themes = validate_records(path, items, ThemeEntry, file_defaults(themes_doc, Theme))
    path = folder / "etfs.yaml"
    etfs_doc = load_yaml(path)
    items = [
        {**e, "payouts": [_inherit(file_defaults(etfs_doc, Payout), p) for p in e["payouts"]]} for e in etfs_doc["etfs"]
    ]
    etfs = validate_records(path, items, EtfEntry, file_defaults(etfs_doc, Etf), label="code")
    securities: dict[str, SecurityRecord] = {}
    theme_rows, members = [], []
    for i, t in enumerate(themes):
        theme_rows.append(to_row(t, ThemeRecord, position=i))
        for j, m in enumerate(t.members):
            members.append(to_row(m, MemberRecord, theme=t.id, position=j))
            securities[m.code] = to_row(m, SecurityRecord, kind="stock")
    etf_rows: list[EtfRecord] = []
    payouts: list[PayoutRecord] = []
    for e in etfs:
        etf_rows.append(to_row(e, EtfRecord))
        securities[e.code] = to_row(e, SecurityRecord, kind="etf")
        payouts.extend(to_row(p, PayoutRecord, code=e.code) for p in e.payouts)
    deductions = []
    for key, d in etfs_doc["deductions"].items():
        params = {k: str(v) for k, v in d.items() if k not in ("note", "sources")}
        first = d["sources"][0]
        deductions.append(
            DeductionRecord(
                key=key,
                params=params,
                note=" ".join(d["note"].split()),
                sources=list(d["sources"]),
                source=first["url"],
                source_title=first["title"],
                **{k: etfs_doc[k] for k in PROVENANCE[2:] if k in etfs_doc},  # checked, licence, sample
            )
        )
    count = replace_rows(session, SecurityRecord, securities.values())
    count += replace_rows(session, ThemeRecord, theme_rows)
    count += replace_rows(session, MemberRecord, members)
    count += replace_rows(session, EtfRecord, etf_rows)
    count += replace_rows(session, PayoutRecord, payouts)
    count += replace_rows(session, DeductionRecord, deductions)
    return count + seed_sample_closes(session, folder / "closes_sample.yaml")


def seed_sample_closes(session: Session, path: Path) -> int:
    """Replace the sample snapshot; closes imported from an exchange feed are never touched, and a
    security with imported closes gets no sample closes back."""
    doc = load_yaml(path)
    session.execute(delete(CloseRecord).where(CloseRecord.sample.is_(True)))
    imported = set(session.scalars(select(CloseRecord.code).distinct()))
    items = [
        {"code": str(code), "date": day, "close": close, "change": change}
        for code, series in doc["closes"].items()
        for day, (close, change) in series.items()
        if str(code) not in imported
    ]
    rows = [
        to_row(c, CloseRecord)
        for c in validate_records(path, items, Close, {**file_defaults(doc, Close), "sample": True}, label="code")
    ]
    session.add_all(rows)
    session.flush()
    return len(rows)


def _citations(r: DeductionRecord) -> tuple[Source, ...]:
    """Every page a deduction rests on, cited from its row's provenance (check date, licence,
    sample flag)."""
    record = CitingRecord.model_validate({**{k: getattr(r, k) for k in PROVENANCE}, "sources": r.sources})
    return tuple(record.source_refs)


def _load(session: Session) -> logic.Market:
    securities = {r.code: Security.model_validate(r) for r in session.scalars(select(SecurityRecord))}
    members: dict[str, list[Member]] = {}
    for r in session.scalars(select(MemberRecord).order_by(MemberRecord.theme, MemberRecord.position)):
        members.setdefault(r.theme, []).append(Member.model_validate(r))
    themes = {
        r.id: Theme.model_validate(r).model_copy(update={"members": tuple(members.get(r.id, ()))})
        for r in session.scalars(select(ThemeRecord).order_by(ThemeRecord.position))
    }
    payouts: dict[str, list[Payout]] = {}
    for pr in session.scalars(select(PayoutRecord)):
        payouts.setdefault(pr.code, []).append(Payout.model_validate(pr))
    etfs = {}
    for er in session.scalars(select(EtfRecord).order_by(EtfRecord.code)):
        frequency = er.frequency
        ordered = sorted(payouts.get(er.code, []), key=lambda p: logic.period_index(p.period, frequency))
        etfs[er.code] = Etf.model_validate(er).model_copy(update={"payouts": tuple(ordered)})
    closes: dict[str, list[Close]] = {}
    for cr in session.scalars(select(CloseRecord).order_by(CloseRecord.code, CloseRecord.date)):
        closes.setdefault(cr.code, []).append(Close.model_validate(cr))
    ded = {r.key: r for r in session.scalars(select(DeductionRecord))}
    if set(ded) != {"nhi", "income_tax"}:
        raise RuntimeError("the stocks deductions are not seeded; run `twlookup seed`")
    nhi, tax = ded["nhi"], ded["income_tax"]
    deductions = logic.Deductions(
        nhi_rate=Decimal(nhi.params["rate"]),
        nhi_threshold=Decimal(nhi.params["threshold"]),
        nhi_cap=Decimal(nhi.params["cap_per_payment"]),
        nhi_proposed_yearly_cap=Decimal(nhi.params["proposed_yearly_cap"]),
        credit_rate=Decimal(tax.params["credit_rate"]),
        credit_cap=Decimal(tax.params["credit_cap"]),
        separate_rate=Decimal(tax.params["separate_rate"]),
        nhi_note=nhi.note,
        tax_note=tax.note,
        nhi_sources=_citations(nhi),
        tax_sources=_citations(tax),
    )
    imports = [
        Import.model_validate(r)
        for r in session.scalars(select(ImportRecord).order_by(ImportRecord.id.desc()).limit(50))
    ]
    return logic.Market(securities, themes, etfs, closes, deductions, imports)


MARKET: Reference[logic.Market] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_stocks,)
