"""Seeding the motion store from data/motion/ and the cached catalogue built from it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import Record, load_records, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.motion.parsers import parse_npm_latest, read_web_features
from twlookup.services.motion.records import A11yRecord, EasingRecord, LibraryRecord, SupportRecord
from twlookup.services.motion.tables import MotionRecord

KINDS: dict[str, type[Record]] = {
    "easing": EasingRecord,
    "support": SupportRecord,
    "library": LibraryRecord,
    "a11y": A11yRecord,
}
FILES = {
    "easing": ("easings.yaml", "easings"),
    "support": ("support.yaml", "features"),
    "library": ("libraries.yaml", "libraries"),
    "a11y": ("a11y.yaml", "items"),
}


def _row(kind: str, record: Record) -> MotionRecord:
    return to_row(record, MotionRecord, record_type=kind, payload=record.model_dump(mode="json"))


def seed_motion(session: Session, data_dir: Path) -> int:
    rows = []
    for kind, (name, key) in FILES.items():
        path = data_dir / "motion" / name
        label = "id"
        rows += [_row(kind, r) for r in load_records(path, KINDS[kind], key, label)]
    return replace_rows(session, MotionRecord, rows)


def import_support(session: Session, path: Path) -> int:
    """`twlookup ingest motion.support data.json`: replace the support rows from web-features."""
    return _replace(session, "support", read_web_features(path, today_taipei()))


def import_libraries(session: Session, path: Path) -> int:
    """`twlookup ingest motion.libraries FILE`: library rows from a JSON list of npm registry
    documents (`npm view --json NAME` or registry.npmjs.org/NAME/latest); notes are kept by name."""
    try:
        docs = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    old = {
        row.payload.get("name"): row.payload
        for row in session.scalars(select(MotionRecord).where(MotionRecord.record_type == "library"))
    }
    notes = {name: payload.get("note", "") for name, payload in old.items()}
    records = parse_npm_latest(docs, today_taipei(), notes)
    # the registry's version document has no tarball size or publish time: a version already held keeps them
    records = [
        LibraryRecord.model_validate(
            {**r.model_dump(), **{k: old[r.name].get(k) for k in ("tarball_bytes", "released")}}
        )
        if r.name in old and old[r.name].get("version") == r.version
        else r
        for r in records
    ]
    kept = [LibraryRecord.model_validate(p) for name, p in old.items() if name not in {r.name for r in records}]
    return _replace(session, "library", records + kept)


def _replace(session: Session, kind: str, records: list) -> int:  # type: ignore[type-arg]
    for old in session.scalars(select(MotionRecord).where(MotionRecord.record_type == kind)):
        session.delete(old)
    session.flush()
    for r in records:
        session.add(_row(kind, r))
    return len(records)


@dataclass(frozen=True)
class Catalogue:
    easings: dict[str, EasingRecord]
    support: list[SupportRecord]
    libraries: list[LibraryRecord]
    a11y: list[A11yRecord]


def _load(session: Session) -> Catalogue:
    by_kind: dict[str, list[Record]] = {k: [] for k in KINDS}
    for row in session.scalars(select(MotionRecord).order_by(MotionRecord.record_type, MotionRecord.id)):
        model = KINDS.get(row.record_type)
        if model is not None:
            by_kind[row.record_type].append(model.model_validate(row.payload))
    easings = {e.id: e for e in by_kind["easing"]}  # type: ignore[attr-defined]
    return Catalogue(easings, by_kind["support"], by_kind["library"], by_kind["a11y"])  # type: ignore[arg-type]


CATALOGUE: Reference[Catalogue] = Reference(_load)
