"""Seeding the stocks tables from data/stocks/*.yaml, and the cached market built from the store."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.stocks import logic
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


def _prov(item: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": item["source"],
        "source_title": item.get("source_title"),
        "checked": item.get("checked", doc["checked"]),
        "sample": bool(item.get("sample", doc.get("sample", False))),
    }


def seed_stocks(session: Session, data_dir: Path) -> int:
    folder = data_dir / "stocks"
    themes_doc = load_yaml(folder / "themes.yaml")
    etfs_doc = load_yaml(folder / "etfs.yaml")
    securities: dict[str, SecurityRecord] = {}
    themes, members = [], []
    for i, t in enumerate(themes_doc["themes"]):
        themes.append(ThemeRecord(id=t["id"], position=i, name_en=t["name_en"], name_zh=t["name_zh"], note=" ".join(t["note"].split()), **_prov(t, themes_doc)))
        for j, m in enumerate(t["members"]):
            members.append(MemberRecord(theme=t["id"], code=m["code"], position=j, note=m["note"], **_prov({**t, **m}, themes_doc)))
            securities[m["code"]] = SecurityRecord(code=m["code"], name_zh=m["name_zh"], name_en=m["name_en"], kind="stock", **_prov({**t, **m}, themes_doc))
    etfs, payouts = [], []
    for e in etfs_doc["etfs"]:
        etfs.append(EtfRecord(code=e["code"], issuer=e["issuer"], frequency=e["frequency"], note=e["note"], **_prov(e, etfs_doc)))
        securities[e["code"]] = SecurityRecord(code=e["code"], name_zh=e["name_zh"], name_en=e["name_en"], kind="etf", **_prov(e, etfs_doc))
        for p in e["payouts"]:
            payouts.append(
                PayoutRecord(
                    code=e["code"], period=str(p["period"]), ex_date=p.get("ex_date"), pay_date=p.get("pay_date"),
                    amount=Decimal(str(p["amount"])), **_prov(p, etfs_doc),
                )  # fmt: skip
            )
    deductions = []
    for key, d in etfs_doc["deductions"].items():
        params = {k: str(v) for k, v in d.items() if k not in ("note", "sources")}
        first = d["sources"][0]
        deductions.append(
            DeductionRecord(
                key=key, params=params, note=" ".join(d["note"].split()), sources=list(d["sources"]),
                source=first["url"], source_title=first["title"], checked=etfs_doc["checked"],
            )  # fmt: skip
        )
    count = replace_rows(session, SecurityRecord, securities.values())
    count += replace_rows(session, ThemeRecord, themes)
    count += replace_rows(session, MemberRecord, members)
    count += replace_rows(session, EtfRecord, etfs)
    count += replace_rows(session, PayoutRecord, payouts)
    count += replace_rows(session, DeductionRecord, deductions)
    return count + seed_sample_closes(session, folder / "closes_sample.yaml")


def seed_sample_closes(session: Session, path: Path) -> int:
    """Replace the sample snapshot; closes imported from an exchange feed are never touched, and a
    security with imported closes gets no sample closes back."""
    doc = load_yaml(path)
    session.execute(delete(CloseRecord).where(CloseRecord.sample.is_(True)))
    imported = set(session.scalars(select(CloseRecord.code).distinct()))
    prov = {"source": doc["source"], "source_title": doc["source_title"], "checked": doc["checked"], "sample": True}
    rows = [
        CloseRecord(code=str(code), date=day, close=Decimal(close), change=Decimal(change), market=None, **prov)
        for code, series in doc["closes"].items()
        for day, (close, change) in series.items()
        if str(code) not in imported
    ]
    session.add_all(rows)
    session.flush()
    return len(rows)


def _provenance(r: Any) -> logic.Provenance:
    return logic.Provenance(r.source, r.source_title, r.checked, bool(r.sample))


def _sources(items: list[dict[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((s["title"], s["url"]) for s in items)


def _load(session: Session) -> logic.Market:
    securities = {
        r.code: logic.Security(r.code, r.name_zh, r.name_en, r.kind, _provenance(r)) for r in session.scalars(select(SecurityRecord))
    }
    members: dict[str, list[logic.Member]] = {}
    for r in session.scalars(select(MemberRecord).order_by(MemberRecord.theme, MemberRecord.position)):
        members.setdefault(r.theme, []).append(logic.Member(r.code, r.note, _provenance(r)))
    themes = {
        r.id: logic.Theme(r.id, r.name_en, r.name_zh, r.note, tuple(members.get(r.id, ())), _provenance(r))
        for r in session.scalars(select(ThemeRecord).order_by(ThemeRecord.position))
    }
    payouts: dict[str, list[logic.Payout]] = {}
    for r in session.scalars(select(PayoutRecord)):
        payouts.setdefault(r.code, []).append(logic.Payout(r.period, r.ex_date, r.pay_date, Decimal(r.amount), _provenance(r)))
    etfs = {}
    for r in session.scalars(select(EtfRecord).order_by(EtfRecord.code)):
        ordered = sorted(payouts.get(r.code, []), key=lambda p: logic.period_index(p.period, r.frequency))
        etfs[r.code] = logic.Etf(r.code, r.issuer, r.frequency, r.note, tuple(ordered), _provenance(r))
    closes: dict[str, list[logic.Close]] = {}
    for r in session.scalars(select(CloseRecord).order_by(CloseRecord.code, CloseRecord.date)):
        change = None if r.change is None else Decimal(r.change)
        closes.setdefault(r.code, []).append(logic.Close(r.code, r.date, Decimal(r.close), change, r.market, _provenance(r)))
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
        nhi_sources=_sources(nhi.sources),
        tax_sources=_sources(tax.sources),
        checked=nhi.checked,
    )
    imports = [
        logic.Import(r.market, r.trading_date, r.imported_at, r.rows, r.source)
        for r in session.scalars(select(ImportRecord).order_by(ImportRecord.id.desc()).limit(50))
    ]
    return logic.Market(securities, themes, etfs, closes, deductions, imports)


MARKET: Reference[logic.Market] = Reference(_load)
