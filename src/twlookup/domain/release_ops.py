"""Answer builders the release trackers share: find an item or 404, countdowns, delays, an item's
release answer, the knowledge-base lookup beside the catalogue and the paid watchlist; `Tracker`
bundles what a tracker's operations need, so each operation is its declaration and a line or two."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, TypeVar

import anyio
from anyio import to_thread
from pydantic import BaseModel

from twlookup.domain import knowledge_base
from twlookup.domain.knowledge_base import Domain, KnowledgeResult
from twlookup.domain.release_dates import When, countdown, passed_since_check
from twlookup.domain.release_schemas import (
    CatalogueMatch,
    CountdownOut,
    DelayEntry,
    DelayOut,
    Delays,
    ItemCountdown,
    ItemDetail,
    LookupOut,
    WatchEntry,
    Watchlist,
)
from twlookup.domain.release_state import release_state
from twlookup.domain.release_tracker import Catalogue, Delay, MatchedAs, TrackedItem, TrackedRecord
from twlookup.platform.errors import NotFound, Problem
from twlookup.platform.records import SourcedRecord, as_answer, from_attributes
from twlookup.platform.store.reference import Reference

ItemT = TypeVar("ItemT", bound=TrackedItem)
RecT = TypeVar("RecT", bound=TrackedRecord)
OutT = TypeVar("OutT", bound=BaseModel)
CountT = TypeVar("CountT", bound=ItemCountdown)
DetailT = TypeVar("DetailT", bound=ItemDetail)
PARALLEL_LOOKUPS = 4


def find(catalogue: Catalogue[ItemT], q: str, what: str) -> tuple[ItemT, MatchedAs]:
    hit = catalogue.resolve(q)
    if hit is None and len(several := catalogue.partial_matches(q)) > 1:
        ids = [item.id for item in several]
        raise Problem(
            404,
            f"{q!r} is part of the names of {len(ids)} {what}s: {', '.join(ids)}. Ask for one of them by id or name.",
            kind="not-found",
            extra={"id": q, "candidates": ids},
        )
    if hit is None:
        close = catalogue.suggestions(q)
        hint = f"Did you mean: {', '.join(close)}?" if close else "Try /api/lookup to search the knowledge base."
        raise NotFound(what, q, hint)
    return hit


def countdown_out(when: When, today: date, counts_to: str) -> CountdownOut:
    return from_attributes(CountdownOut, countdown(when, today, counts_to), as_of=today, counts_to=counts_to)


def item_countdown(
    item: TrackedItem, when: When, today: date, counts_to: str, answer: type[CountT], **added: Any
) -> CountT:
    """The countdown to `when` in `answer`'s shape, naming the item counted for (id, name, name_zh);
    `added` are the service's own fields."""
    c = countdown_out(when, today, counts_to)
    return answer(**c.model_dump(), id=item.id, name=item.name, name_zh=item.name_zh, **added)


def delay_out(delay: Delay, item: SourcedRecord) -> DelayOut:
    """A change of `item`'s date, its announcement cited with the item's check date and sample flag."""
    return as_answer(delay, DelayOut, source=item.cite(delay.source, delay.source_title))


def release_answer(
    item: RecT,
    when: When,
    today: date,
    answer: type[OutT],
    *,
    delays: Iterable[Delay],
    confirmed_by: str | None,
    **added: Any,
) -> OutT:
    """`item` in its answer shape with what its announced release (`when`) means today: its state's
    basis and day counts, the window's bounds, its `delays` cited, and a note when the date passed
    after the record was checked with no page confirming the release (`confirmed_by`); `added` are
    the service's own computed fields."""
    state = release_state(when, today, confirmed_by)
    return as_answer(
        item,
        answer,
        delays=[delay_out(d, item) for d in delays],
        upcoming=state.upcoming,
        basis=state.basis,
        precision=when.precision,
        earliest=when.earliest,
        latest=when.latest,
        days_until=state.days_until,
        days_since=state.days_since,
        check_note=passed_since_check(when, item.checked, today, confirmed=confirmed_by is not None),
        **added,
    )


def delay_history(catalogue: Catalogue[RecT], today: date) -> Delays:
    """Every recorded change of an item's announced date, newest announcement first."""
    changes: list[tuple[Delay, RecT]] = [
        (d, item) for item in catalogue.items.values() for d in getattr(item, "delays", ())
    ]
    changes.sort(key=lambda pair: (pair[0].announced, pair[1].id), reverse=True)
    entries = [
        as_answer(
            d,
            DelayEntry,
            source=item.cite(d.source, d.source_title),
            id=item.id,
            name=item.name,
            name_zh=item.name_zh,
        )
        for d, item in changes
    ]
    return Delays(as_of=today, count=len(entries), delays=entries)


def _match(item: TrackedItem, how: MatchedAs) -> CatalogueMatch:
    return CatalogueMatch(id=item.id, name=item.name, name_zh=item.name_zh, matched_as=how)


def search_term(item: TrackedItem | None, q: str) -> str:
    """What to search the knowledge base for: the catalogue's name for a catalogue item (an id
    such as gta-6 searches badly), else the query as given."""
    return item.name if item is not None else q


async def lookup_answer(catalogue: Catalogue[ItemT], q: str, domain: Domain, today: date) -> LookupOut:
    hit = catalogue.resolve(q)
    item = hit[0] if hit else None
    knowledge = await knowledge_base.lookup(search_term(item, q), domain)
    if hit is None and not knowledge.found:
        raise NotFound(
            f"{domain.name} item in the catalogue or in Wikidata", q, "Try another spelling or the English name."
        )
    return LookupOut(as_of=today, catalogue=_match(*hit) if hit else None, knowledge=knowledge)


async def watchlist(
    catalogue: Catalogue[ItemT],
    ids: list[str],
    domain: Domain,
    today: date,
    item_out: Callable[[ItemT], OutT],
    item_countdown: Callable[[ItemT], CountdownOut],
) -> Watchlist[OutT]:
    """Per id: the catalogue record (or none), the countdown and the knowledge-base supplement.
    Lookups run a few at a time; one that cannot reach the upstream fails the call (503) so that
    nothing is charged for a partial answer."""
    seen: set[str] = set()
    wanted: list[tuple[str, ItemT | None, MatchedAs | None]] = []
    for q in ids:
        hit = catalogue.resolve(q)
        key = hit[0].id if hit else "?" + q.strip().casefold()
        if key in seen:
            continue
        seen.add(key)
        wanted.append((q, hit[0] if hit else None, hit[1] if hit else None))
    supplements: list[KnowledgeResult | None] = [None] * len(wanted)
    limiter = anyio.Semaphore(PARALLEL_LOOKUPS)

    async def one(index: int, q: str, item: ItemT | None) -> None:
        async with limiter:
            supplements[index] = await knowledge_base.lookup(search_term(item, q), domain)

    try:
        async with anyio.create_task_group() as group:
            for index, (q, item, _) in enumerate(wanted):
                group.start_soon(one, index, q, item)
    except BaseExceptionGroup as failed:  # the first problem (503) is the answer, not the group
        for exc in failed.exceptions:
            if isinstance(exc, Problem):
                raise exc from None
        raise
    entries = []
    for (q, item, how), supplement in zip(wanted, supplements, strict=True):
        assert supplement is not None
        entries.append(
            WatchEntry[OutT](
                query=q,
                matched_as=how,
                item=item_out(item) if item is not None else None,
                countdown=item_countdown(item) if item is not None else None,
                supplement=supplement,
            )
        )
    return Watchlist[OutT](as_of=today, count=len(entries), entries=entries)


@dataclass(frozen=True)
class Tracker(Generic[RecT, OutT]):
    """What a release tracker's operations share: its catalogue, its knowledge-base domain, the
    noun its 404s name (game, title, event), how an item is shown (`item_out`) and counted down to
    (`countdown`), and the catalogue's order. The operations pass today in (from their module's
    clock), so that tests can pin it."""

    catalogue: Reference[Catalogue[RecT]]
    domain: Domain
    noun: str
    item_out: Callable[[RecT, date], OutT]
    countdown: Callable[[RecT, date], CountdownOut]
    order: Callable[[RecT], Any]

    def find(self, q: str) -> tuple[RecT, MatchedAs]:
        return find(self.catalogue.get(), q, self.noun)

    def items(self) -> list[RecT]:
        """Every item, in the catalogue's order."""
        return sorted(self.catalogue.get().items.values(), key=self.order)

    def answers(self, items: list[RecT], today: date) -> list[OutT]:
        return [self.item_out(item, today) for item in items]

    def detail(
        self, q: str, today: date, answer: type[DetailT], countdown: Callable[[RecT, date], BaseModel]
    ) -> DetailT:
        """The item `q` names as `answer`: the query, how it matched, the item under the tracker's
        noun (`game`, `title`, `event`) and `countdown`'s count for it (the detail's own, which
        may name the item and add the service's fields)."""
        item, how = self.find(q)
        shown = {self.noun: self.item_out(item, today), "countdown": countdown(item, today)}
        return answer.model_validate({"as_of": today, "query": q, "matched_as": how, **shown})

    async def lookup(self, q: str, today: date) -> LookupOut:
        catalogue = await to_thread.run_sync(self.catalogue.get)  # a store read: off the event loop
        return await lookup_answer(catalogue, q, self.domain, today)

    async def watchlist(self, ids: list[str], today: date) -> Watchlist[OutT]:
        catalogue = await to_thread.run_sync(self.catalogue.get)  # a store read: off the event loop
        return await watchlist(
            catalogue,
            ids,
            self.domain,
            today,
            lambda item: self.item_out(item, today),
            lambda item: self.countdown(item, today),
        )
