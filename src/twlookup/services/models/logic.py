"""Domain rules of the models service: filters, replacements, what to do, and whether a record's
note agrees with its dates. A model's state on a day (`status`) and finding model names in code
(`Catalog`) are the shared `twlookup.domain.model_lifecycle`.

Pure functions over a `Catalog` built from the store; `today` is always passed in.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Iterable
from datetime import date

from twlookup.domain.model_lifecycle import STATUSES, Catalog, Model, status


def filter_models(
    catalog: Catalog, today: date, provider: str | None, state: str | None, kind: str | None
) -> list[Model]:
    out = [
        m
        for m in catalog.models.values()
        if (provider is None or m.provider == provider)
        and (kind is None or m.kind == kind)
        and (state is None or status(m, today) == state)
    ]
    return sorted(out, key=lambda m: (m.provider, m.id))


def retiring_between(catalog: Catalog, first: date, last: date) -> list[Model]:
    out = [m for m in catalog.models.values() if m.retirement_date and first <= m.retirement_date <= last]
    return sorted(out, key=lambda m: (m.retirement_date, m.provider, m.id))


def replacement_chain(catalog: Catalog, model: Model, today: date) -> list[Model]:
    """Follow official replacements until one that is not retired or scheduled (or a loop)."""
    chain: list[Model] = []
    current = model
    seen = {model.id}
    while current.replacement:
        hit = catalog.resolve(current.replacement)
        if hit is None or hit[0].id in seen:
            break
        current = hit[0]
        seen.add(current.id)
        chain.append(current)
        if status(current, today) in ("active", "deprecated"):
            break
    return chain


def action(model: Model, today: date) -> str:
    """What someone whose code uses this model should do, in one sentence."""
    state = status(model, today)
    target = f" Move to {model.replacement}." if model.replacement else ""
    if state == "retired":
        return f"Requests to {model.id} fail since {model.retirement_date}.{target}"
    if state == "scheduled":
        days = (model.retirement_date - today).days if model.retirement_date else 0
        return f"{model.id} shuts down on {model.retirement_date} ({days} days).{target}"
    if state == "deprecated":
        return f"{model.id} is deprecated without a shutdown date yet.{target}"
    return f"{model.id} is active; no retirement has been announced."


def month_bounds(month: str) -> tuple[date, date]:
    year, mon = (int(p) for p in month.split("-"))
    return date(year, mon, 1), date(year, mon, monthrange(year, mon)[1])


def count_by_status(models: Iterable[Model], today: date) -> dict[str, int]:
    counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
    for m in models:
        counts[status(m, today)] += 1
    return counts


# Consistency of a record's note with its own dates. A note is free text written when the record was
# checked; these rules read it the way a user would and report any sentence that the dates deny, so that
# an answer can never say "active; no retirement announced" next to a note saying "already shut down".
_CLAIM_GONE = re.compile(r"\b(shut down|shut off|switched off|turned off|retired|withdrawn|discontinued)\b", re.I)
_CLAIM_DEPRECATED = re.compile(r"\bdeprecated\b", re.I)
_NEGATION = re.compile(r"\b(no|not|never|without|nor)\b(?:\W+\w+){0,3}\W*$", re.I)
_FUTURE = re.compile(r"\b(will|to be|is to|until|before)\b(?:\W+\w+){0,2}\W*$", re.I)
_NO_DATE = re.compile(
    r"\bno (?:official |firm )?(?:shutdown|retirement)(?: date)?\b[^.;]*?\b(?:announced|set|yet|found|confirmed|given)\b"
    r"|\bno (?:shutdown|retirement) date\b|\bno retirement has been\b|\bwithout an announced (?:shutdown|retirement)\b",
    re.I,
)
# An unknown shutdown date said in so many words (for a deprecated model without one).
_DATE_UNKNOWN = re.compile(
    r"\b(?:no|without a|without any) (?:official |firm )?(?:shutdown|retirement) date\b"
    r"|\b(?:shutdown|retirement) date (?:is |was |has )?(?:not|un)\w*",
    re.I,
)
# Words that mark a date in a note as some other date than the record's own (an earlier announcement, an
# earliest-possible date, a promise not to retire before, a fine-tuning cut-off, a second listing).
_OTHER_DATE = re.compile(r"\b(earlier|earliest|before|also|fine-tuning|first)\b", re.I)
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATE = re.compile(
    rf"\b(\d{{4}})-(\d{{2}})-(\d{{2}})\b|\b({_MONTHS}) (\d{{1,2}}), (\d{{4}})\b|\b(\d{{1,2}}) ({_MONTHS}) (\d{{4}})\b"
)


def _dates_in(text: str) -> list[date]:
    months = _MONTHS.split("|")
    out = []
    for m in _DATE.finditer(text):
        if m.group(1):
            out.append(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
        elif m.group(4):
            out.append(date(int(m.group(6)), months.index(m.group(4)) + 1, int(m.group(5))))
        else:
            out.append(date(int(m.group(9)), months.index(m.group(8)) + 1, int(m.group(7))))
    return out


def _affirmed(pattern: re.Pattern[str], clause: str) -> bool:
    """Whether `clause` states `pattern` rather than denying it or putting it in the future."""
    for m in pattern.finditer(clause):
        before = clause[: m.start()]
        if not _NEGATION.search(before) and not _FUTURE.search(before):
            return True
    return False


def note_conflicts(model: Model) -> list[str]:
    """What the record's note says that its status or dates (as of the day it was checked) deny.

    - a note saying the model is shut down needs a shutdown date on or before the checked date;
    - a note calling it deprecated needs a deprecation or a shutdown date;
    - a note saying no shutdown date is announced needs the shutdown date empty;
    - a deprecated record without a shutdown date must say in its note that the date is unknown;
    - every date the note gives is the record's shutdown or deprecation date, unless its clause marks it
      as another one (earlier, earliest, before, also, first, fine-tuning)."""
    problems: list[str] = []
    note = model.note or ""
    state = status(model, model.checked)
    clauses = [c.strip() for c in re.split(r";|\.(?:\s|$)|, but ", note) if c.strip()]
    for clause in clauses:
        if _affirmed(_CLAIM_GONE, clause) and state != "retired":
            problems.append(f"note says it is shut down ({clause!r}) but the status on {model.checked} is {state}")
        if _affirmed(_CLAIM_DEPRECATED, clause) and state == "active":
            problems.append(f"note calls it deprecated ({clause!r}) but it has no deprecation or shutdown date")
        if _NO_DATE.search(clause) and model.retirement_date is not None:
            problems.append(
                f"note says no shutdown date is announced ({clause!r}) but the record gives {model.retirement_date}"
            )
        own = {model.retirement_date, model.deprecated_on}
        for day in _dates_in(clause):
            if day not in own and not _OTHER_DATE.search(clause):
                problems.append(
                    f"note gives {day} ({clause!r}), which is neither its shutdown nor its deprecation date"
                )
    if state == "deprecated" and not _DATE_UNKNOWN.search(note):
        problems.append("deprecated without a shutdown date, and the note does not say the date is unknown")
    return problems
