"""Seeding the wellness tables from data/wellness/*.yaml, and the cached reference data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import file_defaults, to_row, validate_records
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.wellness.logic import SleepMethod
from twlookup.services.wellness.records import CrisisLine, Instrument, Ref, Situation
from twlookup.services.wellness.tables import (
    CrisisLineRecord,
    GuideRecord,
    InstrumentRecord,
    TelehealthSituationRecord,
)


@dataclass(frozen=True)
class Regulation:
    name_zh: str
    name_en: str
    amended: date
    in_force: date
    common_conditions: str
    source: Ref
    checked: date


@dataclass(frozen=True)
class GuideItem:
    """A breathing exercise or a digital wellness section: its fields as in the data file."""

    id: str
    fields: dict[str, Any]
    sources: tuple[Ref, ...]
    checked: date


@dataclass(frozen=True)
class WellnessData:
    regulation: Regulation
    situations: dict[str, Situation]  # in the regulation's order
    instruments: dict[str, Instrument]
    crisis_lines: tuple[CrisisLine, ...]
    sleep: SleepMethod
    breathing: tuple[GuideItem, ...]
    breathing_caution: str
    digital: tuple[GuideItem, ...]


def _refs(items: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{"title": s["title"], "url": s["url"]} for s in items]


def seed_wellness(session: Session, data_dir: Path) -> int:
    folder = data_dir / "wellness"
    path = folder / "telehealth.yaml"
    tele = load_yaml(path)
    situations = [
        to_row(x, TelehealthSituationRecord, position=i)
        for i, x in enumerate(validate_records(path, tele["situations"], Situation, file_defaults(tele, Situation)))
    ]
    reg = tele["regulation"]
    guides = [
        GuideRecord(
            kind="telehealth",
            id="regulation",
            position=0,
            body={
                "name_zh": reg["name_zh"],
                "name_en": reg["name_en"],
                "amended": reg["amended"].isoformat(),
                "in_force": reg["in_force"].isoformat(),
                "common_conditions": " ".join(tele["common_conditions"].split()),
            },
            sources=[{"title": reg["source_title"], "url": reg["source"]}],
            source=reg["source"],
            source_title=reg["source_title"],
            checked=tele["checked"],
        )
    ]
    path = folder / "instruments.yaml"
    doc = load_yaml(path)
    instruments = [
        to_row(x, InstrumentRecord)
        for x in validate_records(path, doc["instruments"], Instrument, file_defaults(doc, Instrument))
    ]
    path = folder / "crisis_lines.yaml"
    lines_doc = load_yaml(path)
    lines = [
        to_row(x, CrisisLineRecord, position=i)
        for i, x in enumerate(
            validate_records(path, lines_doc["lines"], CrisisLine, file_defaults(lines_doc, CrisisLine), label="number")
        )
    ]
    g = load_yaml(folder / "guides.yaml")
    sleep = g["sleep_method"]
    guides.append(
        GuideRecord(
            kind="sleep",
            id="method",
            position=0,
            body={
                "cycle_minutes": sleep["cycle_minutes"],
                "fall_asleep_minutes": sleep["fall_asleep_minutes"],
                "cycles": list(sleep["cycles"]),
                "explain": " ".join(sleep["explain"].split()),
            },
            sources=_refs(sleep["sources"]),
            source=sleep["sources"][0]["url"],
            source_title=sleep["sources"][0]["title"],
            checked=g["checked"],
        )
    )
    guides.append(
        GuideRecord(
            kind="breathing",
            id="caution",
            position=0,
            body={"text": " ".join(g["caution"].split())},
            sources=[],
            source=g["breathing"][0]["sources"][0]["url"],
            checked=g["checked"],
        )
    )
    for kind, items in (("breathing", g["breathing"]), ("digital", g["digital_wellness"])):
        for i, item in enumerate(items, 1):
            body = {k: v for k, v in item.items() if k not in ("id", "sources")}
            guides.append(
                GuideRecord(
                    kind=kind,
                    id=str(item["id"]),
                    position=i,
                    body=body,
                    sources=_refs(item["sources"]),
                    source=item["sources"][0]["url"],
                    source_title=item["sources"][0]["title"],
                    checked=g["checked"],
                )
            )
    count = replace_rows(session, TelehealthSituationRecord, situations)
    count += replace_rows(session, InstrumentRecord, instruments)
    count += replace_rows(session, CrisisLineRecord, lines)
    count += replace_rows(session, GuideRecord, guides)
    return count


def _ref_tuple(items: list[dict[str, str]]) -> tuple[Ref, ...]:
    return tuple(Ref(title=s["title"], url=s["url"]) for s in items)


def _load(session: Session) -> WellnessData:
    query = select(TelehealthSituationRecord).order_by(TelehealthSituationRecord.position)
    situations = {r.id: Situation.model_validate(r) for r in session.scalars(query)}
    instruments = {r.id: Instrument.model_validate(r) for r in session.scalars(select(InstrumentRecord))}
    query = select(CrisisLineRecord).order_by(CrisisLineRecord.position)
    lines = tuple(CrisisLine.model_validate(r) for r in session.scalars(query))
    guides = {
        (r.kind, r.id): r for r in session.scalars(select(GuideRecord).order_by(GuideRecord.kind, GuideRecord.position))
    }
    if ("telehealth", "regulation") not in guides or ("sleep", "method") not in guides:
        raise RuntimeError("the wellness guides are not seeded; run `twlookup seed`")
    reg = guides[("telehealth", "regulation")]
    regulation = Regulation(
        reg.body["name_zh"],
        reg.body["name_en"],
        date.fromisoformat(reg.body["amended"]),
        date.fromisoformat(reg.body["in_force"]),
        reg.body["common_conditions"],
        _ref_tuple(reg.sources)[0],
        reg.checked,
    )
    s = guides[("sleep", "method")]
    sleep = SleepMethod(
        s.body["cycle_minutes"],
        s.body["fall_asleep_minutes"],
        tuple(s.body["cycles"]),
        s.body["explain"],
        _ref_tuple(s.sources),
        s.checked,
    )

    def items(kind: str) -> tuple[GuideItem, ...]:
        rows = sorted((r for (k, i), r in guides.items() if k == kind and r.position > 0), key=lambda r: r.position)
        return tuple(GuideItem(r.id, r.body, _ref_tuple(r.sources), r.checked) for r in rows)

    return WellnessData(
        regulation,
        situations,
        instruments,
        lines,
        sleep,
        items("breathing"),
        guides[("breathing", "caution")].body["text"],
        items("digital"),
    )


WELLNESS: Reference[WellnessData] = Reference(_load)
