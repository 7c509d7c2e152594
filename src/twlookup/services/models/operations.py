"""The models service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.model_lifecycle import Catalog, Match, Model, status
from twlookup.domain.release_state import days_since, days_until
from twlookup.platform.errors import NotFound
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.models import logic
from twlookup.services.models.data import CATALOG
from twlookup.services.models.feeds import CLAUDE
from twlookup.services.models.schemas import (
    FREE_CHECK_LIMIT,
    PAID_AUDIT_LIMIT,
    AuditBody,
    Calendar,
    CalendarDay,
    CalendarQuery,
    CheckBody,
    CheckResult,
    Export,
    Finding,
    ListQuery,
    ModelDetail,
    ModelList,
    ModelOut,
    ModelQuery,
    Replacement,
    ReplacementQuery,
    Upcoming,
    UpcomingQuery,
)

SERVICE = Service(
    name="models",
    title="AI model retirement schedule",
    description=(
        "Retirement and replacement schedule of AI models from the providers' official deprecation "
        "notices. Status follows the dates: scheduled, active, retired or deprecated."
    ),
)
SERVICE.feed(CLAUDE)  # Anthropic's Claude lifecycle via endoflife.date (twlookup refresh models.claude)
add_status_route(SERVICE)


def model_out(m: Model, today: date) -> ModelOut:
    return as_answer(
        m,
        ModelOut,
        status=status(m, today),
        days_until_retirement=days_until(m.retirement_date, today),
        days_since_retirement=days_since(m.retirement_date, today),
    )


def _resolve(catalog: Catalog, name: str) -> tuple[Model, Match]:
    hit = catalog.resolve(name)
    if hit is None:
        close = catalog.suggestions(name)
        raise NotFound("model", name, f"Did you mean: {', '.join(close)}?" if close else "List ids at /api/models.")
    return hit


@SERVICE.operation("GET", "/api/models", tool="list_models")
def list_models(p: ListQuery) -> ModelList:
    """List models, filtered by provider, status and kind."""
    catalog, today = CATALOG.get(), today_taipei()
    models = logic.filter_models(catalog, today, p.provider, p.status, p.kind)
    return ModelList(
        as_of=today,
        count=len(models),
        counts_by_status=logic.count_by_status(models, today),
        models=[model_out(m, today) for m in models],
    )


@SERVICE.operation("GET", "/api/model", tool="get_model")
def get_model(p: ModelQuery) -> ModelDetail:
    """One model by id, alias or dated snapshot, with its status and what to do about it."""
    catalog, today = CATALOG.get(), today_taipei()
    model, how = _resolve(catalog, p.id)
    return ModelDetail(
        as_of=today, query=p.id, matched_as=how, model=model_out(model, today), action=logic.action(model, today)
    )


@SERVICE.operation("GET", "/api/upcoming", tool="upcoming_retirements")
def upcoming(p: UpcomingQuery) -> Upcoming:
    """Models whose shutdown date falls within the next `days` days (after today)."""
    catalog, today = CATALOG.get(), today_taipei()
    until = today + timedelta(days=p.days)
    models = logic.retiring_between(catalog, today + timedelta(days=1), until)
    return Upcoming(
        as_of=today, days=p.days, until=until, count=len(models), models=[model_out(m, today) for m in models]
    )


@SERVICE.operation("GET", "/api/replacement", tool="find_replacement")
def replacement(p: ReplacementQuery) -> Replacement:
    """The official replacement of a model, followed through to one that is not itself retiring."""
    catalog, today = CATALOG.get(), today_taipei()
    model, _how = _resolve(catalog, p.q)
    chain = logic.replacement_chain(catalog, model, today)
    direct = chain[0] if chain else None
    return Replacement(
        as_of=today,
        model=model_out(model, today),
        replacement=model_out(direct, today) if direct else None,
        chain=[model_out(m, today) for m in chain],
        recommended=model_out(chain[-1], today) if chain else None,
        action=logic.action(model, today),
    )


@SERVICE.operation("GET", "/api/calendar", tool="retirement_calendar")
def calendar(p: CalendarQuery) -> Calendar:
    """Retirements in one month (YYYY-MM), grouped by day."""
    catalog, today = CATALOG.get(), today_taipei()
    first, last = logic.month_bounds(p.month)
    days: dict[date, list[ModelOut]] = {}
    for m in logic.retiring_between(catalog, first, last):
        assert m.retirement_date is not None
        days.setdefault(m.retirement_date, []).append(model_out(m, today))
    return Calendar(
        as_of=today,
        month=p.month,
        count=sum(len(v) for v in days.values()),
        days=[CalendarDay(date=d, models=v) for d, v in sorted(days.items())],
    )


def _check(hits: list[tuple[Model, str, Match]], limit: int, unknown: list[str]) -> CheckResult:
    today = today_taipei()
    reported = hits[:limit]
    truncated = len(hits) > limit
    return CheckResult(
        as_of=today,
        found=len(hits),
        reported=len(reported),
        limit=limit,
        truncated=truncated,
        counts_by_status=logic.count_by_status((m for m, _, _ in reported), today),
        findings=[
            Finding(written_as=w, matched_as=how, model=model_out(m, today), action=logic.action(m, today))
            for m, w, how in reported
        ],
        unknown=unknown,
        hint=(
            f"{len(hits) - limit} more models were found; the free check reports {limit}. "
            "POST /api/pro/audit checks up to 200."
        )
        if truncated
        else None,
    )


@SERVICE.operation("POST", "/api/check", tool="check_code")
def check(p: CheckBody) -> CheckResult:
    """Find model ids in pasted code or configuration and report each one's status (up to 10 models)."""
    catalog = CATALOG.get()
    return _check(catalog.find_in_text(p.text), FREE_CHECK_LIMIT, [])


@SERVICE.operation("POST", "/api/pro/audit", price="$0.02", example={"ids": ["gpt-4-0613", "claude-2.1"]})
def audit(p: AuditBody) -> CheckResult:
    """Audit up to 200 models, from code (`text`) or a list of ids (`ids`)."""
    catalog = CATALOG.get()
    hits = catalog.find_in_text(p.text) if p.text else []
    unknown: list[str] = []
    seen = {m.id for m, _, _ in hits}
    for ident in p.ids or []:
        hit = catalog.resolve(ident)
        if hit is None:
            unknown.append(ident)
        elif hit[0].id not in seen:
            seen.add(hit[0].id)
            hits.append((hit[0], ident, hit[1]))
    return _check(hits, PAID_AUDIT_LIMIT, unknown)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """Every model record with its dates, replacement and source."""
    catalog, today = CATALOG.get(), today_taipei()
    models = sorted(catalog.models.values(), key=lambda m: (m.provider, m.id))
    return Export(
        as_of=today, count=len(models), providers=catalog.providers, models=[model_out(m, today) for m in models]
    )
