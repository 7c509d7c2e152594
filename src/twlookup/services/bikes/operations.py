"""The bikes service's operations. Contributions go through the platform's review
(platform/review.py): submitted, then public only once an operator approves them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform import review
from twlookup.platform.errors import NotFound
from twlookup.platform.service import Service
from twlookup.platform.store import engine as store_engine
from twlookup.services.bikes.data import CATALOGUE, Catalogue, seed_bikes
from twlookup.services.bikes.records import SOURCE_KINDS, BikeModel
from twlookup.services.bikes.schemas import (
    TARGET_MODELS,
    ContributeBody,
    ContributionOut,
    ExportOut,
    MaintenanceList,
    MaintenanceOut,
    ModelDetail,
    ModelList,
    ModelSummary,
    PartOut,
    PartQuery,
    PartsOut,
    SaleOut,
    SearchOut,
    SearchQuery,
    SlugQuery,
)
from twlookup.services.bikes.tables import ContributionRow

SERVICE = Service(
    name="bikes",
    title="Classic two-stroke motorcycles: specs, parts, maintenance, sale prices",
    description=(
        "Classic two-stroke road bikes and scooters with each spec's source: engine figures, maintenance "
        "(plugs, oils, oil injection or premix), parts by number and dated sale reports. Riders' contributions "
        "are public only after review."
    ),
)
SERVICE.seeder(seed_bikes)
review.operator_routes(SERVICE)


# ------------------------------------------------------------------ contributions (reviewed)


class ContributionPayload(BaseModel):
    slug: str
    kind: str
    item: str
    value: str
    note: str | None
    source: str


def _publish(session: Session, sub: review.Submission, p: ContributionPayload) -> None:
    session.add(
        ContributionRow(
            submission_id=sub.id,
            slug=p.slug,
            kind=p.kind,
            item=p.item,
            value=p.value,
            note=p.note,
            source=p.source,
            approved_at=datetime.now(UTC),
        )
    )


review.register_kind(
    "bikes",
    "contribution",
    ContributionPayload,
    key=lambda p, _c, _n: f"{p.slug}|{p.kind}|{p.item.strip().lower()}|{p.value.strip().lower()}",
    subject=lambda p: p.slug,
    on_approve=_publish,
)


def _contributions(session: Session, slug: str | None = None, kind: str | None = None) -> list[ContributionRow]:
    query = select(ContributionRow).order_by(ContributionRow.id)
    if slug:
        query = query.where(ContributionRow.slug == slug)
    if kind:
        query = query.where(ContributionRow.kind == kind)
    return list(session.scalars(query))


def contribution_out(r: ContributionRow) -> ContributionOut:
    approved = r.approved_at if r.approved_at.tzinfo else r.approved_at.replace(tzinfo=UTC)
    return ContributionOut(kind=r.kind, item=r.item, value=r.value, note=r.note, source=r.source, approved_at=approved)


# ------------------------------------------------------------------ answers


def summary(m: BikeModel) -> ModelSummary:
    return ModelSummary(
        slug=m.slug,
        name=m.name,
        maker=m.maker,
        years=m.years,
        displacement_cc=m.spec.displacement_cc,
        oil_supply=m.spec.oil_supply,
        source_kind=m.source_kind,
    )


def _model(cat: Catalogue, slug: str) -> BikeModel:
    model = cat.by_slug.get(slug)
    if model is None:
        raise NotFound("model", slug, "List slugs at /api/models.")
    return model


def detail(cat: Catalogue, m: BikeModel, contributions: list[ContributionRow]) -> ModelDetail:
    return ModelDetail(
        slug=m.slug,
        name=m.name,
        maker=m.maker,
        years=m.years,
        spec=m.spec,
        spec_source=m.source_ref,
        source_kind=m.source_kind,
        source_kind_meaning=SOURCE_KINDS[m.source_kind],
        note=m.note,
        maintenance=[
            MaintenanceOut(item=x.item, value=x.value, source=x.source_ref) for x in cat.maintenance if x.slug == m.slug
        ],
        parts=[
            PartOut(number=p.number, name=p.name, fits=p.fits, source=p.source_ref)
            for p in cat.parts
            if m.slug in p.fits
        ],
        sales=[
            SaleOut(
                market=s.market,
                currency=s.currency,
                low=s.low,
                high=s.high,
                kind=s.kind,
                date=s.date,
                note=s.note,
                source=s.source_ref,
            )
            for s in cat.sales
            if s.slug == m.slug
        ],
        contributions=[contribution_out(c) for c in contributions],
    )


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


# ------------------------------------------------------------------ free routes


@SERVICE.operation("GET", "/api/models")
def models() -> ModelList:
    """All models, with displacement and oil supply (oil injection or premix)."""
    cat = CATALOGUE.get()
    kinds: dict[str, int] = {}
    for m in cat.models:
        kinds[m.source_kind] = kinds.get(m.source_kind, 0) + 1
    missing = TARGET_MODELS - len(cat.models)
    note = (
        f"{len(cat.models)} of the {TARGET_MODELS} models the spec calls for, each spec read on the page it cites; "
        + (f"the other {missing} are not listed rather than guessed. " if missing > 0 else "")
        + "makers no longer publish spec pages for these long-discontinued bikes (none could be found to cite), "
        "so source_kind says what each spec rests on; a figure the page does not give is absent, not guessed."
    )
    return ModelList(count=len(cat.models), by_source_kind=kinds, note=note, models=[summary(m) for m in cat.models])


@SERVICE.operation("GET", "/api/model/{slug}", tool="get_model_specs", blocking=True)
def model(p: SlugQuery) -> ModelDetail:
    """One model's spec with its source, maintenance, parts, dated sale reports and reviewed contributions."""
    cat = CATALOGUE.get()
    m = _model(cat, p.slug)
    with store_engine.session() as session:
        return detail(cat, m, _contributions(session, m.slug))


@SERVICE.operation("GET", "/api/search", tool="search_models")
def search(p: SearchQuery) -> SearchOut:
    """Models whose name, maker, years or slug contain every word of q (case and punctuation ignored)."""
    cat = CATALOGUE.get()
    words = [_norm(w) for w in p.q.split() if _norm(w)]
    found = (
        [m for m in cat.models if all(w in _norm(f"{m.name} {m.maker} {m.years} {m.slug}") for w in words)]
        if words
        else []
    )
    return SearchOut(q=p.q, count=len(found), models=[summary(m) for m in found])


@SERVICE.operation("GET", "/api/parts", tool="find_part", blocking=True)
def parts(p: PartQuery) -> PartsOut:
    """Parts whose number contains q (spaces, dashes and case ignored), and the models they fit;
    reviewed part contributions are searched too."""
    cat, q = CATALOGUE.get(), _norm(p.q)
    found = [x for x in cat.parts if q and q in _norm(x.number)]
    with store_engine.session() as session:
        contributed = [c for c in _contributions(session, kind="part") if q and q in _norm(c.value)]
    fits = sorted({s for x in found for s in x.fits} | {c.slug for c in contributed})
    return PartsOut(
        q=p.q,
        count=len(found) + len(contributed),
        parts=[PartOut(number=x.number, name=x.name, fits=x.fits, source=x.source_ref) for x in found],
        contributed=[{"slug": c.slug, "item": c.item, "value": c.value, "source": c.source} for c in contributed],
        models=fits,
    )


@SERVICE.operation("GET", "/api/maintenance/{slug}", tool="get_maintenance", blocking=True)
def maintenance(p: SlugQuery) -> MaintenanceList:
    """A model's maintenance facts (spark plug, gear oil, oil injection or premix) with sources."""
    cat = CATALOGUE.get()
    m = _model(cat, p.slug)
    items = [
        MaintenanceOut(item=x.item, value=x.value, source=x.source_ref) for x in cat.maintenance if x.slug == m.slug
    ]
    with store_engine.session() as session:
        contributed = [contribution_out(c) for c in _contributions(session, m.slug, "maint")]
    have = {i.item for i in items}
    missing = [k for k in ("spark_plug", "gear_oil", "oil_mix", "interval") if k not in have]
    return MaintenanceList(
        slug=m.slug,
        name=m.name,
        oil_supply=m.spec.oil_supply,
        items=items,
        contributions=contributed,
        missing=f"No cited source gave: {', '.join(missing)}." if missing else None,
    )


@SERVICE.operation("POST", "/api/contribute", blocking=True)
def contribute(p: ContributeBody) -> review.Receipt:
    """Contribute a part, maintenance fact, sale report or spec with its source. It is recorded as
    submitted and becomes public only after an operator reviews and approves it."""
    _model(CATALOGUE.get(), p.slug)
    payload = ContributionPayload(
        slug=p.slug, kind=p.kind, item=p.item.strip(), value=p.value.strip(), note=p.note, source=p.source
    )
    return review.submit("bikes", "contribution", payload)


# ------------------------------------------------------------------ paid route


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> ExportOut:
    """Every model with its sourced facts and reviewed contributions (switchable: TWLOOKUP_PRO_CLOSED)."""
    cat = CATALOGUE.get()
    with store_engine.session() as session:
        by_slug: dict[str, list[ContributionRow]] = {}
        for c in _contributions(session):
            by_slug.setdefault(c.slug, []).append(c)
    return ExportOut(
        generated=datetime.now(UTC),
        count=len(cat.models),
        models=[detail(cat, m, by_slug.get(m.slug, [])) for m in cat.models],
    )
