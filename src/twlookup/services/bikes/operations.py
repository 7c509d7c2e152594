"""The bikes service's operations. Contributions go through the platform's review
(platform/review.py): submitted, then public only once an operator approves them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform import review
from twlookup.platform.errors import NotFound
from twlookup.platform.records import as_answer, to_row
from twlookup.platform.schemas import LazyModel
from twlookup.platform.service import Service
from twlookup.platform.store import engine as store_engine
from twlookup.services.bikes import logic
from twlookup.services.bikes.data import CATALOGUE, Catalogue
from twlookup.services.bikes.records import SOURCE_KINDS, BikeModel, Contribution, Maintenance
from twlookup.services.bikes.schemas import (
    TARGET_MODELS,
    ContributeBody,
    ContributionOut,
    ExportOut,
    FactOut,
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
    Understood,
)
from twlookup.services.bikes.tables import ContributionRow

SERVICE = Service(
    name="bikes",
    title="Two-stroke classics and Taiwan's scooters: specs, parts, maintenance, sale prices",
    description=(
        "Classic two-stroke road bikes and the scooters of Kymco (光陽), SYM (三陽), PGO, Yamaha (山葉) and "
        "others, with each fact's source: engine figures, maintenance (spark plugs, oils, oil injection or "
        "premix, carburettor and jetting, tyres), parts by number or name in Chinese or English, and dated "
        "sale reports. Riders' contributions are public only after review."
    ),
)
review.operator_routes(SERVICE)


# ------------------------------------------------------------------ contributions (reviewed)


class ContributionPayload(LazyModel):
    slug: str
    kind: str
    item: str
    value: str
    note: str | None
    source: str


def _publish(session: Session, sub: review.Submission, p: ContributionPayload) -> None:
    record = Contribution.model_validate({**p.model_dump(), "submission_id": sub.id, "approved_at": datetime.now(UTC)})
    session.add(to_row(record, ContributionRow))


review.register_kind(
    "bikes",
    "contribution",
    ContributionPayload,
    key=lambda p, _c, _n: f"{p.slug}|{p.kind}|{p.item.strip().lower()}|{p.value.strip().lower()}",
    subject=lambda p: p.slug,
    on_approve=_publish,
)


def _contributions(session: Session, slug: str | None = None, kind: str | None = None) -> list[Contribution]:
    query = select(ContributionRow).order_by(ContributionRow.id)
    if slug:
        query = query.where(ContributionRow.slug == slug)
    if kind:
        query = query.where(ContributionRow.kind == kind)
    return [Contribution.model_validate(r) for r in session.scalars(query)]


def contribution_out(c: Contribution) -> ContributionOut:
    return as_answer(c, ContributionOut)


# ------------------------------------------------------------------ answers


def summary(m: BikeModel) -> ModelSummary:
    s = m.spec
    return as_answer(m, ModelSummary, cycle=s.cycle, displacement_cc=s.displacement_cc, oil_supply=s.oil_supply)


def _model(cat: Catalogue, slug: str) -> BikeModel:
    model = cat.by_slug.get(slug)
    if model is None:
        raise NotFound("model", slug, "List slugs at /api/models.")
    return model


def detail(cat: Catalogue, m: BikeModel, contributions: list[Contribution]) -> ModelDetail:
    return as_answer(
        m,
        ModelDetail,
        spec_source=m.source_ref,
        source_kind_meaning=SOURCE_KINDS[m.source_kind],
        maintenance=[as_answer(x, MaintenanceOut) for x in cat.maintenance if x.slug == m.slug],
        parts=[as_answer(p, PartOut) for p in cat.parts if m.slug in p.fits],
        sales=[as_answer(s, SaleOut) for s in cat.sales if s.slug == m.slug],
        contributions=[contribution_out(c) for c in contributions],
    )


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def fact_out(cat: Catalogue, x: Maintenance) -> FactOut:
    return as_answer(x, FactOut, name=cat.by_slug[x.slug].name)


def _model_text(m: BikeModel) -> str:
    return logic.norm(f"{m.name} {m.maker} {m.years} {m.slug}")


def find(cat: Catalogue, query: logic.Query) -> tuple[list[BikeModel], list[Maintenance]]:
    """Models and facts for a parsed query. Words found in some model's name, maker, years or slug
    narrow the models; the other words (a code such as BR8HSA, a maker such as NGK or Mikuni) must
    appear in a fact's value. With a part named or a code given, the answer is the matching facts
    and the models they belong to; otherwise it is the models alone (a name search)."""
    texts = {m.slug: _model_text(m) for m in cat.models}
    name_words = [w for w in query.words if any(w in t for t in texts.values())]
    value_words = [w for w in query.words if w not in name_words]
    models = [
        m
        for m in cat.models
        if (not query.makers or any(k in texts[m.slug] for k in query.makers))
        and all(w in texts[m.slug] for w in name_words)
    ]
    if not (query.items or value_words):
        return models, []
    slugs = {m.slug for m in models}
    facts = [
        x
        for x in cat.maintenance
        if x.slug in slugs
        and (not query.items or x.item in query.items)
        and all(w in logic.norm(x.value) for w in value_words)
    ]
    with_facts = {x.slug for x in facts}
    return [m for m in models if m.slug in with_facts], facts


def _unrecorded_note(query: logic.Query) -> str | None:
    if not query.unrecorded:
        return None
    return f"No record holds {', '.join(dict.fromkeys(query.unrecorded))} yet; contribute one with its source."


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
        f"{len(cat.models)} models (at least {TARGET_MODELS} asked for), each spec read on the page it cites; "
        + (f"the other {missing} are not listed rather than guessed. " if missing > 0 else "")
        + "makers no longer publish spec pages for most of these bikes, so source_kind says what each spec "
        "rests on (website: a private site, weaker than a manual); a figure the page does not give is absent, "
        "not guessed."
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
    """Models by name, maker (山葉/Yamaha, 光陽/Kymco, 三陽/SYM ...) or years, and maintenance facts by
    part (火星塞/spark plug, 化油器/carburettor, 混合油/premix, 齒輪油/gear oil, 輪胎/tyre) or by a
    maker's code (NGK, BR8HSA), each fact with its source. Case, spaces and punctuation are ignored."""
    cat = CATALOGUE.get()
    query = logic.parse(p.q)
    found, facts = find(cat, query) if not query.empty else ([], [])
    if query.unrecorded and not (query.items or query.words):
        found = []
    return SearchOut(
        q=p.q,
        count=len(found),
        understood=Understood(items=sorted(query.items), makers=sorted(query.makers), words=query.words),
        models=[summary(m) for m in found],
        facts=[fact_out(cat, x) for x in facts],
        note=_unrecorded_note(query),
    )


@SERVICE.operation("GET", "/api/parts", tool="find_part", blocking=True)
def parts(p: PartQuery) -> PartsOut:
    """Parts whose number contains q (spaces, dashes and case ignored), and the models they fit;
    maintenance facts naming the part (火星塞/spark plug, 化油器/carburettor ...) or the code (NGK,
    BP7HS) and reviewed part contributions are searched too."""
    cat, q = CATALOGUE.get(), _norm(p.q)
    found = [x for x in cat.parts if q and q in _norm(x.number)]
    query = logic.parse(p.q)
    facts: list[Maintenance] = []
    if query.items or query.words:
        _models, facts = find(cat, logic.Query(items=query.items, makers=query.makers, words=query.words))
    with store_engine.session() as session:
        contributed = [c for c in _contributions(session, kind="part") if q and q in _norm(c.value)]
    fits = sorted({s for x in found for s in x.fits} | {c.slug for c in contributed} | {x.slug for x in facts})
    return PartsOut(
        q=p.q,
        count=len(found) + len(contributed) + len(facts),
        parts=[as_answer(x, PartOut) for x in found],
        contributed=[c.model_dump(include={"slug", "item", "value", "source"}) for c in contributed],
        facts=[fact_out(cat, x) for x in facts],
        models=fits,
    )


# What a mechanic expects to find for a model, by engine cycle: the answer lists what no cited
# source gave (an electric scooter has no plug, oil or premix to list).
EXPECTED: dict[str | None, tuple[str, ...]] = {
    "two-stroke": ("spark_plug", "gear_oil", "oil_mix", "interval"),
    "four-stroke": ("spark_plug", "engine_oil", "gear_oil", "interval"),
    "electric": ("tyres", "interval"),
    None: ("spark_plug", "gear_oil", "oil_mix", "interval"),
}


@SERVICE.operation("GET", "/api/maintenance/{slug}", tool="get_maintenance", blocking=True)
def maintenance(p: SlugQuery) -> MaintenanceList:
    """A model's maintenance facts (spark plug, carburettor, engine, two-stroke and gear oil, oil
    injection or premix, tyres, fuel, intervals) with sources, and what no cited source gave."""
    cat = CATALOGUE.get()
    m = _model(cat, p.slug)
    facts = [x for x in cat.maintenance if x.slug == m.slug]
    with store_engine.session() as session:
        contributed = [contribution_out(c) for c in _contributions(session, m.slug, "maint")]
    have: set[str] = {x.item for x in facts}
    if m.spec.oil_supply:  # the spec's own source already says oil injection or premix
        have.add("oil_mix")
    missing = [k for k in EXPECTED.get(m.spec.cycle, EXPECTED[None]) if k not in have]
    return MaintenanceList(
        slug=m.slug,
        name=m.name,
        cycle=m.spec.cycle,
        oil_supply=m.spec.oil_supply,
        items=[as_answer(x, MaintenanceOut) for x in facts],
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
        by_slug: dict[str, list[Contribution]] = {}
        for c in _contributions(session):
            by_slug.setdefault(c.slug, []).append(c)
    return ExportOut(
        generated=datetime.now(UTC),
        count=len(cat.models),
        models=[detail(cat, m, by_slug.get(m.slug, [])) for m in cat.models],
    )
