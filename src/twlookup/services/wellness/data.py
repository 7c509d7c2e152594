"""Seeding the wellness tables from data/wellness/*.yaml, and the cached reference data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import (
    PROVENANCE_FIELDS,
    CitingRecord,
    SourcedRecord,
    file_defaults,
    to_row,
    validate_records,
)
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.wellness.records import (
    CrisisLine,
    Exercise,
    GuideSection,
    Instrument,
    Regulation,
    Situation,
    SleepMethod,
)
from twlookup.services.wellness.tables import CrisisLineRow, GuideRow, InstrumentRow, TelehealthSituationRow

G = TypeVar("G", bound=SourcedRecord)


@dataclass(frozen=True)
class WellnessData:
    regulation: Regulation
    situations: dict[str, Situation]  # in the regulation's order
    instruments: dict[str, Instrument]
    crisis_lines: tuple[CrisisLine, ...]
    sleep: SleepMethod
    breathing: tuple[Exercise, ...]
    breathing_caution: str
    digital: tuple[GuideSection, ...]


# What a guide row keeps beside `body`: its key, its citations and its provenance.
OUTSIDE_BODY = frozenset({"id", "sources", *PROVENANCE_FIELDS})


def guide_row(kind: str, ident: str, position: int, record: SourcedRecord) -> GuideRow:
    """The row holding one guide record: its own fields in `body`, its citations in `sources` (a
    record citing no list cites its source)."""
    cited = record.sources if isinstance(record, CitingRecord) else ()
    sources = [c.model_dump() for c in cited] or [{"title": record.source_title, "url": record.source}]
    return GuideRow(
        kind=kind,
        id=ident,
        position=position,
        body=record.model_dump(mode="json", exclude=set(OUTSIDE_BODY)),
        sources=sources,
        **record.model_dump(include=set(PROVENANCE_FIELDS)),
    )


def guide_record(row: GuideRow, model: type[G]) -> G:
    """A guide record back from its row."""
    values = {**row.body, "id": row.id, "sources": row.sources}
    values.update({name: getattr(row, name) for name in PROVENANCE_FIELDS})
    return model.model_validate({k: v for k, v in values.items() if k in model.model_fields})


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _read_list(path: Path, doc: Mapping[str, Any], key: str, model: type[G], label: str = "id") -> list[G]:
    return validate_records(path, doc[key], model, file_defaults(doc, model), label)


def seed_wellness(session: Session, data_dir: Path) -> int:
    folder = data_dir / "wellness"
    path = folder / "telehealth.yaml"
    tele = load_yaml(path)
    situations = [
        to_row(x, TelehealthSituationRow, position=i)
        for i, x in enumerate(_read_list(path, tele, "situations", Situation))
    ]
    (regulation,) = validate_records(
        path,
        [{**tele["regulation"], "common_conditions": tele["common_conditions"]}],
        Regulation,
        {"checked": tele["checked"]},
        label="name_en",
    )
    guides = [guide_row("telehealth", "regulation", 0, regulation)]
    path = folder / "instruments.yaml"
    doc = load_yaml(path)
    instruments = [to_row(x, InstrumentRow) for x in _read_list(path, doc, "instruments", Instrument)]
    path = folder / "crisis_lines.yaml"
    lines_doc = load_yaml(path)
    lines = [
        to_row(x, CrisisLineRow, position=i)
        for i, x in enumerate(_read_list(path, lines_doc, "lines", CrisisLine, label="number"))
    ]
    path = folder / "guides.yaml"
    g = load_yaml(path)
    checked = {"checked": g["checked"]}
    (sleep,) = validate_records(path, [g["sleep_method"]], SleepMethod, checked)
    guides.append(guide_row("sleep", "method", 0, sleep))
    exercises = validate_records(path, g["breathing"], Exercise, checked)
    guides.append(
        GuideRow(
            kind="breathing",
            id="caution",
            position=0,
            body={"text": _one_line(g["caution"])},
            sources=[],
            source=exercises[0].source,
            checked=g["checked"],
        )
    )
    guides += [guide_row("breathing", x.id, i, x) for i, x in enumerate(exercises, 1)]
    sections = validate_records(path, g["digital_wellness"], GuideSection, checked)
    guides += [guide_row("digital", x.id, i, x) for i, x in enumerate(sections, 1)]
    count = replace_rows(session, TelehealthSituationRow, situations)
    count += replace_rows(session, InstrumentRow, instruments)
    count += replace_rows(session, CrisisLineRow, lines)
    count += replace_rows(session, GuideRow, guides)
    return count


def _load(session: Session) -> WellnessData:
    situations = {
        r.id: Situation.model_validate(r)
        for r in session.scalars(select(TelehealthSituationRow).order_by(TelehealthSituationRow.position))
    }
    instruments = {r.id: Instrument.model_validate(r) for r in session.scalars(select(InstrumentRow))}
    lines = tuple(
        CrisisLine.model_validate(r) for r in session.scalars(select(CrisisLineRow).order_by(CrisisLineRow.position))
    )
    guides = {(r.kind, r.id): r for r in session.scalars(select(GuideRow).order_by(GuideRow.kind, GuideRow.position))}
    if ("telehealth", "regulation") not in guides or ("sleep", "method") not in guides:
        raise RuntimeError("the wellness guides are not seeded; run `twlookup seed`")

    def items(kind: str, model: type[G]) -> tuple[G, ...]:
        rows = sorted((r for (k, _), r in guides.items() if k == kind and r.position > 0), key=lambda r: r.position)
        return tuple(guide_record(r, model) for r in rows)

    return WellnessData(
        guide_record(guides[("telehealth", "regulation")], Regulation),
        situations,
        instruments,
        lines,
        guide_record(guides[("sleep", "method")], SleepMethod),
        items("breathing", Exercise),
        guides[("breathing", "caution")].body["text"],
        items("digital", GuideSection),
    )


WELLNESS: Reference[WellnessData] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_wellness,)
